/* layers/skip.c: pass-through skip output, out = in0 + in1 * num / den (C division,
 * truncating). Stockfish 15+: fc2 + fc0[15] * 9600 / 8128 (600*16 / 127*64). Not hashed. */
#include <stdio.h>

#include "layers/common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    l->p.skip.num = 1;
    l->p.skip.den = 1;
}

static nnue_status read_scale(yreader *r, yaml_node_t *v, void *t)
{
    nnue_layer *l = ((nnue_layer_ctx *)t)->layer;
    int64_t pair[2];
    nnue_status st = y_int_pair(r, v, -65536, 65536, 1, 65536, pair, "skip 'scale'");
    l->p.skip.num = (int32_t)pair[0];
    l->p.skip.den = (int32_t)pair[1];
    return st;
}

static const yfield fields[] = {
    {"scale", 0, read_scale},
    {NULL, 0, NULL},
};

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "SkipAdd[%u;*%d/%d]", l->out_size, l->p.skip.num, l->p.skip.den);
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    (void)w;
    const int32_t *a = inputs[0], *b = inputs[1];
    uint32_t n = l->out_size;
    int32_t num = l->p.skip.num, den = l->p.skip.den;
    if (den == 1) { /* no division (Stormphrax's skip): the same value modulo 2^32, in a loop clang vectorises */
        for (uint32_t i = 0; i < n; i++)
            out[i] = (int32_t)((uint32_t)a[i] + (uint32_t)b[i] * (uint32_t)num);
        return;
    }
    for (uint32_t i = 0; i < n; i++)
        out[i] = (int32_t)(a[i] + (int64_t)b[i] * num / den);
}

/* in0 + in1 * num / den: the scaled second input's extremes added to the first's. */
static int range(const nnue_layer *l, const nnue_range *in, nnue_range *out)
{
    int64_t x = in[1].lo * l->p.skip.num / l->p.skip.den, y = in[1].hi * l->p.skip.num / l->p.skip.den;
    out->lo = in[0].lo + (x < y ? x : y);
    out->hi = in[0].hi + (x > y ? x : y);
    return 1;
}

const nnue_layer_type nnue_layer_skip = {
    .name = "skip", .min_inputs = 2, .max_inputs = 2, .is_affine = 0, .fields = fields, .defaults = defaults,
    .shape = nnue_shape_two_equal, .hash = nnue_hash_identity, .describe = describe, .parameters = nnue_no_parameters,
    .file_bytes = nnue_no_parameters, .propagate = propagate,
    .range = range,
};
