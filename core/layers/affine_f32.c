/* core/layers/affine_f32.c: float32 fully connected layer. Per output o, in this order:
 *   s = bias[o]; for i = 0 .. in-1: s = fma(in[i], w[o][i], s)
 * (one rounding per step; shared/oracle/third/multilayer/FACTS.md, "L2" and "L3"). A kernel may
 * vectorise across outputs, never split the sum over inputs. Tensors per stack: biases (out
 * float32), weights (out rows of in float32; raw files often store them input-major, and the
 * block's order transposes them on load). */
#include <math.h>
#include <stdio.h>

#include "core/layers/float_common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    l->out_size = 0;
}

Y_INT_FIELD(read_outputs, nnue_layer_ctx, c->layer->out_size, 1, 65536, "affine_f32 'outputs'")

static const yfield fields[] = {
    {"outputs", 1, read_outputs},
    {NULL, 0, NULL},
};

static const char *shape(nnue_layer *l, char *buf, size_t size)
{
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

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    const float *x = NNUE_F32_IN(inputs[0]), *bias = w->biases, *weights = w->weights;
    float *y = NNUE_F32_OUT(out);
    for (uint32_t o = 0; o < l->out_size; o++) {
        const float *row = weights + (size_t)o * l->in_size;
        float s = bias[o];
        for (uint32_t i = 0; i < l->in_size; i++)
            s = fmaf(x[i], row[i], s);
        y[o] = s;
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
    .propagate = propagate, .flow = NNUE_FLOW_F32, .tensors = tensors,
};
