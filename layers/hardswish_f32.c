/* layers/hardswish_f32.c: HardSwish on float32 values, as Viridithas computes it after its
 * int8 first layer (shared/oracle/third/viridithas/FACTS.md, "Forward pass" steps 3 and 4):
 *   out = (x * min(max(x + 3, 0), 6)) * S,   S = 1.0f / 6.0f (the float32 0x3E2AAAAB)
 * each operation rounded on its own, in this order: x + 3, the clamp, x * gate, then * S (a
 * multiply by the rounded sixth, not a division by 6). Element-wise, no parameters. A NaN input
 * gives NaN (the gate's max makes it 0, x * 0 stays NaN); to_i32 turns that into 0. min and max
 * are nnue_f32_min/max (simd/kernels_f32.h). */
#include <math.h>
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

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "HardSwishF32[%u]", l->out_size);
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    (void)w;
    const float sixth = 1.0f / 6.0f;
    const float *x = NNUE_F32_IN(inputs[0]);
    float *y = NNUE_F32_OUT(out);
    for (uint32_t i = 0; i < l->out_size; i++) {
        float gate = nnue_f32_min(nnue_f32_max(x[i] + 3.0f, 0.0f), 6.0f);
        float product = x[i] * gate;
        y[i] = product * sixth;
    }
}

const nnue_layer_type nnue_layer_hardswish_f32 = {
    .name = "hardswish_f32", .min_inputs = 1, .max_inputs = 1, .fields = fields, .defaults = defaults,
    .shape = nnue_shape_same, .hash = nnue_hash_identity, .describe = describe,
    .parameters = nnue_no_parameters, .file_bytes = nnue_no_parameters, .propagate = propagate,
    .flow = NNUE_FLOW_F32,
};
