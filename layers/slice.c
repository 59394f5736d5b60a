/* layers/slice.c: out = in[offset .. offset + size). Used to split Stockfish's fc0
 * outputs into the main path and the pass-through skip value. Not hashed. */
#include <stdio.h>

#include <string.h>

#include "layers/common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    l->p.slice.offset = 0;
    l->p.slice.size = 0;
}

Y_INT_FIELD(read_offset, nnue_layer_ctx, c->layer->p.slice.offset, 0, 1 << 20, "slice 'offset'")

Y_INT_FIELD(read_size, nnue_layer_ctx, c->layer->p.slice.size, 1, 1 << 20, "slice 'size'")

static const yfield fields[] = {
    {"offset", 0, read_offset},
    {"size", 1, read_size},
    {NULL, 0, NULL},
};

static const char *shape(nnue_layer *l, char *buf, size_t size)
{
    if ((uint64_t)l->p.slice.offset + l->p.slice.size > l->in_size) {
        snprintf(buf, size, "slice %u..%u expected inside the %u input values", l->p.slice.offset,
                 l->p.slice.offset + l->p.slice.size, l->in_size);
        return buf;
    }
    l->out_size = l->p.slice.size;
    return NULL;
}

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "Slice[%u(%u:%u)]", l->out_size, l->p.slice.offset, l->p.slice.offset + l->p.slice.size);
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    (void)w;
    memcpy(out, inputs[0] + l->p.slice.offset, l->out_size * sizeof *out); /* int32 or float32 values */
}

const nnue_layer_type nnue_layer_slice = {
    .name = "slice", .min_inputs = 1, .max_inputs = 1, .is_affine = 0, .fields = fields, .defaults = defaults,
    .shape = shape, .hash = nnue_hash_identity, .describe = describe, .parameters = nnue_no_parameters,
    .file_bytes = nnue_no_parameters, .propagate = propagate, .flow = NNUE_FLOW_SAME,
    .range = nnue_range_of_inputs, .op = NNUE_OP_VIEW,
};
