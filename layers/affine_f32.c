/* layers/affine_f32.c: float32 fully connected layer. Per output o, in this order:
 *   s = bias[o]; for i = 0 .. in-1: s = fma(in[i], w[o][i], s)
 * (one rounding per step; shared/oracle/third/multilayer/FACTS.md, "L2" and "L3"). A kernel may
 * vectorise across outputs, never split the sum over inputs.
 * With `lanes: L` (a power of two 2..64 dividing the input count) the sum is that of an L-lane
 * register instead, as Reckless's and Viridithas's last layers form it (their FACTS.md, "L3"):
 *   c[l] = 0; for i = l, l + L, ...: c[l] = fma(in[i], w[o][i], c[l])   (per lane, input order)
 *   then halving: c[l] = c[l] + c[l + L/2] for l < L/2, down to one value; s = c[0] + bias[o]
 * (each + one float32 rounding: the order of _mm512_reduce_add_ps for L = 16).
 * Tensors per stack: biases (out float32), weights (out rows of in float32; raw files often
 * store them input-major, and the block's order transposes them on load). The SIMD forward pass
 * runs this layer on the float kernels of its level (simd/kernels_f32.h: the same sums, across
 * outputs); this propagate is the definition (libm's fmaf on x86-64), run by the scalar level. */
#include <math.h>
#include <stdio.h>

#include "layers/float_common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    l->out_size = 0;
    l->p.f32.lanes = 0; /* one chain from the bias */
}

Y_INT_FIELD(read_outputs, nnue_layer_ctx, c->layer->out_size, 1, 65536, "affine_f32 'outputs'")
Y_INT_FIELD(read_lanes, nnue_layer_ctx, c->layer->p.f32.lanes, 2, 64, "affine_f32 'lanes'")

static const yfield fields[] = {
    {"outputs", 1, read_outputs},
    {"lanes", 0, read_lanes},
    {NULL, 0, NULL},
};

static const char *shape(nnue_layer *l, char *buf, size_t size)
{
    uint32_t lanes = l->p.f32.lanes;
    if (lanes && ((lanes & (lanes - 1)) || l->in_size % lanes)) {
        snprintf(buf, size, "'lanes': expected a power of two dividing the %u inputs, found %u", l->in_size, lanes);
        return buf;
    }
    if ((uint64_t)l->in_size * l->out_size > (1u << 26)) {
        snprintf(buf, size, "expected at most 2^26 weights, found %u x %u", l->out_size, l->in_size);
        return buf;
    }
    return NULL;
}

static uint32_t hash(const nnue_layer *l, uint32_t prev)
{
    return (0x3F1A6C25u + l->out_size) ^ (prev >> 1) ^ (prev << 31);
}

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    if (l->p.f32.lanes)
        snprintf(buf, size, "AffineF32[%u<-%u;lanes=%u]", l->out_size, l->in_size, l->p.f32.lanes);
    else
        snprintf(buf, size, "AffineF32[%u<-%u]", l->out_size, l->in_size);
}

static uint64_t parameters(const nnue_layer *l)
{
    return (uint64_t)l->out_size * l->in_size + l->out_size;
}

static uint64_t file_bytes(const nnue_layer *l)
{
    return parameters(l) * 4;
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *values)
{
    const float *x = NNUE_F32_IN(inputs[0]), *bias = w->biases, *weights = w->weights;
    float *y = NNUE_F32_OUT(values);
    uint32_t lanes = l->p.f32.lanes, in = l->in_size, out = l->out_size;
    if (!lanes) {
        for (uint32_t o = 0; o < out; o++) {
            const float *row = weights + (size_t)o * in;
            float s = bias[o];
            for (uint32_t i = 0; i < in; i++)
                s = fmaf(x[i], row[i], s);
            y[o] = s;
        }
        return;
    }
    for (uint32_t o = 0; o < out; o++) {
        const float *row = weights + (size_t)o * in;
        float c[64];
        for (uint32_t k = 0; k < lanes; k++)
            c[k] = 0.0f;
        for (uint32_t i = 0; i < in; i += lanes)
            for (uint32_t k = 0; k < lanes; k++)
                c[k] = fmaf(x[i + k], row[i + k], c[k]);
        for (uint32_t half = lanes / 2; half; half /= 2)
            for (uint32_t k = 0; k < half; k++)
                c[k] = c[k] + c[k + half];
        y[o] = c[0] + bias[o];
    }
}

static int tensors(const nnue_layer *l, nnue_tensor_shape t[NNUE_MAX_TENSORS])
{
    nnue_f32_bias_tensor(l, &t[0]);
    t[1] = (nnue_tensor_shape){"weights", NNUE_F32, NNUE_F32, l->out_size, l->in_size, l->in_size};
    return 2;
}

const nnue_layer_type nnue_layer_affine_f32 = {
    .name = "affine_f32", .min_inputs = 1, .max_inputs = 1, .fields = fields, .defaults = defaults,
    .shape = shape, .hash = hash, .describe = describe, .parameters = parameters, .file_bytes = file_bytes,
    .propagate = propagate, .flow = NNUE_FLOW_F32, .tensors = tensors, .op = NNUE_OP_AFFINE_F32,
};
