/* tests/extend/toy_negate_f32.c: a layer type written outside the library, as an engine author
 * would (docs/extending.md, "Adding a layer type"): float32 in, float32 out, y = -x. It keeps no
 * tensors, so a net file of the same architecture without it loads under both. */
#include <stdio.h>

#include "toy_negate_f32.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)l, (void)arch;
}

static const yfield fields[] = {{NULL, 0, NULL}};

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "ToyNegateF32[%u]", l->out_size);
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    (void)w;
    const float *x = NNUE_F32_IN(inputs[0]);
    float *y = NNUE_F32_OUT(out);
    for (uint32_t i = 0; i < l->out_size; i++)
        y[i] = -x[i];
}

const nnue_layer_type toy_negate_f32 = {
    .name = "toy_negate_f32", .min_inputs = 1, .max_inputs = 1, .fields = fields, .defaults = defaults,
    .shape = nnue_shape_same, .hash = nnue_hash_identity, .describe = describe, .parameters = nnue_no_parameters,
    .file_bytes = nnue_no_parameters, .propagate = propagate, .flow = NNUE_FLOW_F32,
};
