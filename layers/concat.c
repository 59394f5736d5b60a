/* layers/concat.c: out = [in0, in1, ...] (Stockfish 15.1+ feeds fc1 with
 * [squared ReLU, ReLU] of fc0). Not hashed. */
#include <stdio.h>

#include <string.h>

#include "layers/common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)l;
    (void)arch;
}

static const yfield fields[] = {{NULL, 0, NULL}};

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "Concat[%u]", l->out_size);
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    (void)w;
    for (int k = 0; k < l->n_inputs; k++) { /* bytes: the values may be int32 or float32 */
        memcpy(out, inputs[k], l->input_sizes[k] * sizeof *out);
        out += l->input_sizes[k];
    }
}

const nnue_layer_type nnue_layer_concat = {
    .name = "concat", .min_inputs = 2, .max_inputs = NNUE_MAX_LAYER_INPUTS, .is_affine = 0, .fields = fields,
    .defaults = defaults, .shape = nnue_shape_same, .hash = nnue_hash_identity, .describe = describe,
    .parameters = nnue_no_parameters, .file_bytes = nnue_no_parameters, .propagate = propagate,
    .flow = NNUE_FLOW_SAME,
    .range = nnue_range_of_inputs, .op = NNUE_OP_CONCAT,
};
