/* layers/elementwise_f32.c: two float32 inputs of equal size combined value by value, one
 * float32 rounding each:
 *   mul_f32: out[i] = in0[i] * in1[i]   (a gated linear unit's product: Viridithas's SwiGLU,
 *                                        hardswish(t[i]) * t[i + 32])
 *   add_f32: out[i] = in0[i] + in1[i]   (an element-wise skip connection: Viridithas adds its
 *                                        L1 output to the SwiGLU product)
 * Facts: shared/oracle/third/viridithas/FACTS.md, "Forward pass" step 4 (the order: the
 * product first, then the skip add). No parameters. */
#include <stdio.h>

#include "layers/float_common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)l;
    (void)arch;
}

static const yfield fields[] = {
    {NULL, 0, NULL},
};

static void describe_mul(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "MulF32[%u]", l->out_size);
}

static void describe_add(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "AddF32[%u]", l->out_size);
}

static void propagate_mul(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs,
                          int32_t *out)
{
    (void)w;
    const float *a = NNUE_F32_IN(inputs[0]), *b = NNUE_F32_IN(inputs[1]);
    float *y = NNUE_F32_OUT(out);
    for (uint32_t i = 0; i < l->out_size; i++)
        y[i] = a[i] * b[i];
}

static void propagate_add(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs,
                          int32_t *out)
{
    (void)w;
    const float *a = NNUE_F32_IN(inputs[0]), *b = NNUE_F32_IN(inputs[1]);
    float *y = NNUE_F32_OUT(out);
    for (uint32_t i = 0; i < l->out_size; i++)
        y[i] = a[i] + b[i];
}

const nnue_layer_type nnue_layer_mul_f32 = {
    .name = "mul_f32", .min_inputs = 2, .max_inputs = 2, .fields = fields, .defaults = defaults, .shape = nnue_shape_two_equal,
    .hash = nnue_hash_identity, .describe = describe_mul, .parameters = nnue_no_parameters,
    .file_bytes = nnue_no_parameters, .propagate = propagate_mul, .flow = NNUE_FLOW_F32,
};

const nnue_layer_type nnue_layer_add_f32 = {
    .name = "add_f32", .min_inputs = 2, .max_inputs = 2, .fields = fields, .defaults = defaults, .shape = nnue_shape_two_equal,
    .hash = nnue_hash_identity, .describe = describe_add, .parameters = nnue_no_parameters,
    .file_bytes = nnue_no_parameters, .propagate = propagate_add, .flow = NNUE_FLOW_F32,
};
