/* layers/to_i32.c: float32 back to int32, out = trunc(in * scale): one float32 multiply,
 * then truncation toward zero (the multilayer net's last step: total = (int) (s * 400.0f),
 * shared/oracle/third/multilayer/FACTS.md). Defined for every float: NaN gives 0 and values
 * beyond int32 saturate (nnue_f32_to_i32_trunc), where C's cast would be undefined. */
#include <stdio.h>

#include "layers/float_common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    l->p.f32.scale = 1.0f;
}

static const yfield fields[] = {
    {"scale", 0, nnue_read_f32_scale},
    {NULL, 0, NULL},
};

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "ToInt32[%u;scale=%a]", l->out_size, (double)l->p.f32.scale);
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    (void)w;
    const float *x = NNUE_F32_IN(inputs[0]);
    for (uint32_t i = 0; i < l->out_size; i++) {
        float v = x[i] * l->p.f32.scale;
        out[i] = nnue_f32_to_i32_trunc(v);
    }
}

const nnue_layer_type nnue_layer_to_i32 = {
    .name = "to_i32", .min_inputs = 1, .max_inputs = 1, .fields = fields, .defaults = defaults,
    .shape = nnue_shape_same, .hash = nnue_hash_identity, .describe = describe, .parameters = nnue_no_parameters,
    .file_bytes = nnue_no_parameters, .propagate = propagate, .flow = NNUE_FLOW_F32_TO_I32,
};
