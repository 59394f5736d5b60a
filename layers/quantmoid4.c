/* layers/quantmoid4.c: a quantised sigmoid-like activation on 0..126.
 * With x = in >> shift clamped to -127..127 and q = (127 - |x|)^2 >> 8 (0..63):
 * out = 126 - q for x > 0, else q. Not hashed (no Stockfish release uses it). */
#include <stdio.h>

#include "layers/common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    l->p.quantmoid.shift = 6;
}

Y_INT_FIELD(read_shift, nnue_layer_ctx, c->layer->p.quantmoid.shift, 0, 30, "quantmoid4 'shift'")

static const yfield fields[] = {
    {"shift", 0, read_shift},
    {NULL, 0, NULL},
};

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "Quantmoid4[%u;>>%d]", l->out_size, l->p.quantmoid.shift);
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    (void)w;
    for (uint32_t i = 0; i < l->out_size; i++) {
        int32_t x = inputs[0][i] >> l->p.quantmoid.shift;
        x = x < -127 ? -127 : x > 127 ? 127 : x;
        int32_t a = x < 0 ? -x : x;
        int32_t q = (127 - a) * (127 - a) >> 8;
        out[i] = x > 0 ? 126 - q : q;
    }
}

static int range(const nnue_layer *l, const nnue_range *in, nnue_range *out)
{
    (void)l, (void)in;
    *out = (nnue_range){0, 126};
    return 1;
}

const nnue_layer_type nnue_layer_quantmoid4 = {
    .name = "quantmoid4", .min_inputs = 1, .max_inputs = 1, .is_affine = 0, .fields = fields,
    .defaults = defaults, .shape = nnue_shape_same, .hash = nnue_hash_identity, .describe = describe,
    .parameters = nnue_no_parameters, .file_bytes = nnue_no_parameters, .propagate = propagate,
    .range = range,
};
