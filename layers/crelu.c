/* layers/crelu.c: clipped ReLU, out = clamp(in >> shift, 0, max).
 * Stockfish: shift 6 (weight scale bits), max 127; hash step p + 0x538D24C7. */
#include <stdio.h>

#include "layers/common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    l->p.relu.shift = 6;
    l->p.relu.max = 127;
}

Y_INT_FIELD(read_shift, nnue_layer_ctx, c->layer->p.relu.shift, 0, 30, "'shift'")

Y_INT_FIELD(read_max, nnue_layer_ctx, c->layer->p.relu.max, 1, 1 << 24, "'max'")

const yfield nnue_relu_fields[] = {
    {"shift", 0, read_shift},
    {"max", 0, read_max},
    {NULL, 0, NULL},
};

static uint32_t hash(const nnue_layer *l, uint32_t p)
{
    (void)l;
    return 0x538D24C7u + p;
}

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    if (l->p.relu.shift == 6 && l->p.relu.max == 127)
        snprintf(buf, size, "ClippedReLU[%u]", l->out_size);
    else
        snprintf(buf, size, "ClippedReLU[%u;>>%d,max=%d]", l->out_size, l->p.relu.shift, l->p.relu.max);
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    (void)w;
    for (uint32_t i = 0; i < l->out_size; i++) {
        int32_t v = inputs[0][i] >> l->p.relu.shift; /* arithmetic shift: floor division */
        out[i] = v < 0 ? 0 : v > l->p.relu.max ? l->p.relu.max : v;
    }
}

/* Clipped: 0 .. max whatever comes in. */
static int range(const nnue_layer *l, const nnue_range *in, nnue_range *out)
{
    (void)in;
    *out = (nnue_range){0, l->p.relu.max};
    return 1;
}

const nnue_layer_type nnue_layer_crelu = {
    .name = "crelu", .min_inputs = 1, .max_inputs = 1, .is_affine = 0, .fields = nnue_relu_fields,
    .defaults = defaults, .shape = nnue_shape_same, .hash = hash, .describe = describe,
    .parameters = nnue_no_parameters, .file_bytes = nnue_no_parameters, .propagate = propagate,
    .range = range, .op = NNUE_OP_CRELU,
};
