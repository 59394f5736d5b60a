/* layers/diff.c: out = in0 - in1, value by value (int32, as the engine subtracts).
 * Stockfish 19 (SFNNv16): the skip value is fc0[30] - fc0[31] (docs/formats-sfnnv16.md).
 * Not hashed. */
#include <stdio.h>

#include "layers/common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)l;
    (void)arch;
}

static const yfield fields[] = {{NULL, 0, NULL}};

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "Difference[%u]", l->out_size);
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    (void)w;
    for (uint32_t i = 0; i < l->out_size; i++) /* wraps like the engine's int32 (unsigned: defined in C) */
        out[i] = (int32_t)((uint32_t)inputs[0][i] - (uint32_t)inputs[1][i]);
}

/* in0 - in1: the first's extremes minus the second's opposite ones. */
static int range(const nnue_layer *l, const nnue_range *in, nnue_range *out)
{
    (void)l;
    out->lo = in[0].lo - in[1].hi;
    out->hi = in[0].hi - in[1].lo;
    return 1;
}

const nnue_layer_type nnue_layer_diff = {
    .name = "diff", .min_inputs = 2, .max_inputs = 2, .is_affine = 0, .fields = fields, .defaults = defaults,
    .shape = nnue_shape_two_equal, .hash = nnue_hash_identity, .describe = describe, .parameters = nnue_no_parameters,
    .file_bytes = nnue_no_parameters, .propagate = propagate, .range = range,
};
