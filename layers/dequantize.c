/* layers/dequantize.c: int32 sums to float32, out[o] = fma((float) in[o], scale, bias[o]),
 * one rounding for the multiply-add (Viridithas 14's step from its int8 first layer to float
 * layers: shared/oracle/third/multilayer/FACTS.md, "L1"). The (float) conversion rounds to
 * nearest. One float32 bias per output and stack; the scale is the YAML's [num, den]. The SIMD
 * forward pass runs it on its level's float kernels (simd/kernels_f32.h dequantize). */
#include <math.h>
#include <stdio.h>

#include "layers/float_common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    l->p.f32.scale = 1.0f;
}

static const yfield fields[] = {
    {"scale", 1, nnue_read_f32_scale},
    {NULL, 0, NULL},
};

static uint32_t hash(const nnue_layer *l, uint32_t prev)
{
    return (0x5D3A1F07u + l->out_size) ^ (prev >> 1) ^ (prev << 31);
}

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "Dequantize[%u;scale=%a]", l->out_size, (double)l->p.f32.scale);
}

static uint64_t parameters(const nnue_layer *l)
{
    return l->out_size;
}

static uint64_t file_bytes(const nnue_layer *l)
{
    return (uint64_t)l->out_size * 4;
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    const int32_t *x = inputs[0];
    const float *bias = w->biases;
    float *y = NNUE_F32_OUT(out), scale = l->p.f32.scale;
    for (uint32_t o = 0; o < l->out_size; o++)
        y[o] = fmaf((float)x[o], scale, bias[o]);
}

static int tensors(const nnue_layer *l, nnue_tensor_shape t[NNUE_MAX_TENSORS])
{
    return nnue_f32_bias_tensor(l, &t[0]);
}

const nnue_layer_type nnue_layer_dequantize = {
    .name = "dequantize", .min_inputs = 1, .max_inputs = 1, .fields = fields, .defaults = defaults,
    .shape = nnue_shape_same, .hash = hash, .describe = describe, .parameters = parameters,
    .file_bytes = file_bytes, .propagate = propagate, .flow = NNUE_FLOW_I32_TO_F32, .tensors = tensors,
    .op = NNUE_OP_DEQUANTIZE,
};
