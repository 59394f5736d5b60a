/* core/layers/concat.c: out = [in0, in1, ...] (Stockfish 15.1+ feeds fc1 with
 * [squared ReLU, ReLU] of fc0). Not hashed. */
#include <stdio.h>

#include "core/layer.h"

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
    for (int k = 0; k < l->n_inputs; k++)
        for (uint32_t i = 0; i < l->input_sizes[k]; i++)
            *out++ = inputs[k][i];
}

const nnue_layer_type nnue_layer_concat = {
    "concat", 2, NNUE_MAX_LAYER_INPUTS, 0, fields, defaults, nnue_shape_same, nnue_hash_identity, describe,
    nnue_no_parameters, nnue_no_parameters,
    propagate,
};
