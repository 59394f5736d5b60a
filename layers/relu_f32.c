/* layers/relu_f32.c: clipped ReLUs on float32 values, c = min(max(x, 0), max):
 *   crelu_f32:     out = c
 *   sqr_crelu_f32: out = c * c (one float32 multiply; FACTS.md of the multilayer net: h = c * c)
 * max defaults to 1. NaN and -0 become +0 (nnue_f32_min/max, simd/kernels_f32.h), so no
 * later step sees a NaN from here. */
#include <math.h>
#include <stdio.h>

#include "layers/float_common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    l->p.f32.max = 1.0f;
}

static const yfield fields[] = {
    {"max", 0, nnue_read_f32_max},
    {NULL, 0, NULL},
};

static void describe_crelu(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "ClippedReLUF32[%u;max=%g]", l->out_size, (double)l->p.f32.max);
}

static void describe_sqr(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "SqrClippedReLUF32[%u;max=%g]", l->out_size, (double)l->p.f32.max);
}

static float clip(float x, float max)
{
    return nnue_f32_min(nnue_f32_max(x, 0.0f), max);
}

static void propagate_crelu(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs,
                            int32_t *out)
{
    (void)w;
    const float *x = NNUE_F32_IN(inputs[0]);
    float *y = NNUE_F32_OUT(out);
    for (uint32_t i = 0; i < l->out_size; i++)
        y[i] = clip(x[i], l->p.f32.max);
}

static void propagate_sqr(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    (void)w;
    const float *x = NNUE_F32_IN(inputs[0]);
    float *y = NNUE_F32_OUT(out);
    for (uint32_t i = 0; i < l->out_size; i++) {
        float c = clip(x[i], l->p.f32.max);
        y[i] = c * c;
    }
}

const nnue_layer_type nnue_layer_crelu_f32 = {
    .name = "crelu_f32", .min_inputs = 1, .max_inputs = 1, .fields = fields, .defaults = defaults,
    .shape = nnue_shape_same, .hash = nnue_hash_identity, .describe = describe_crelu,
    .parameters = nnue_no_parameters, .file_bytes = nnue_no_parameters, .propagate = propagate_crelu,
    .flow = NNUE_FLOW_F32,
};

const nnue_layer_type nnue_layer_sqr_crelu_f32 = {
    .name = "sqr_crelu_f32", .min_inputs = 1, .max_inputs = 1, .fields = fields, .defaults = defaults,
    .shape = nnue_shape_same, .hash = nnue_hash_identity, .describe = describe_sqr,
    .parameters = nnue_no_parameters, .file_bytes = nnue_no_parameters, .propagate = propagate_sqr,
    .flow = NNUE_FLOW_F32,
};
