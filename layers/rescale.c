/* layers/rescale.c: out = in * num / den computed in 64 bits, truncated toward zero (C
 * division), then taken back to int32. Stockfish 19 (SFNNv16) scales its output this way:
 * (int64)(fc2 + skip) * 9600 / 16384, 9600 = 600 * 16 and 16384 = 128 * 64 * 2
 * (docs/formats-sfnnv16.md). Not hashed. */
#include <stdio.h>

#include "layers/common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    l->p.scale.num = 1;
    l->p.scale.den = 1;
}

static nnue_status read_scale(yreader *r, yaml_node_t *v, void *t)
{
    nnue_layer *l = ((nnue_layer_ctx *)t)->layer;
    int64_t pair[2];
    nnue_status st = y_int_pair(r, v, -(1 << 24), 1 << 24, 1, 1 << 24, pair, "rescale 'scale'");
    l->p.scale.num = (int32_t)pair[0];
    l->p.scale.den = (int32_t)pair[1];
    return st;
}

static const yfield fields[] = {
    {"scale", 1, read_scale},
    {NULL, 0, NULL},
};

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "Rescale[%u;*%d/%d]", l->out_size, l->p.scale.num, l->p.scale.den);
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    (void)w;
    const int32_t *x = inputs[0];
    uint32_t n = l->out_size;
    int64_t num = l->p.scale.num, den = l->p.scale.den;
    if (den == 1 && num > 0) { /* no division (Stormphrax's d_lin): a 32-bit loop clang vectorises */
        /* x * num fits int32 exactly when lo <= x <= hi (C division truncates: lo * num >= INT32_MIN
         * and (lo - 1) * num < INT32_MIN, likewise hi); outside, the saturated bound. */
        int32_t lo = (int32_t)(INT32_MIN / num), hi = (int32_t)(INT32_MAX / num), m = (int32_t)num;
        for (uint32_t i = 0; i < n; i++) {
            int32_t v = (int32_t)((uint32_t)x[i] * (uint32_t)m);
            out[i] = x[i] > hi ? INT32_MAX : x[i] < lo ? INT32_MIN : v;
        }
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        int64_t v = x[i] * num / den; /* |v| < 2^55: no overflow */
        out[i] = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
    }
}

/* in * num / den is monotone in `in` (increasing or decreasing with the sign of num). */
static int range(const nnue_layer *l, const nnue_range *in, nnue_range *out)
{
    int64_t x = in[0].lo * l->p.scale.num / l->p.scale.den, y = in[0].hi * l->p.scale.num / l->p.scale.den;
    out->lo = x < y ? x : y;
    out->hi = x > y ? x : y;
    return 1;
}

const nnue_layer_type nnue_layer_rescale = {
    .name = "rescale", .min_inputs = 1, .max_inputs = 1, .is_affine = 0, .fields = fields, .defaults = defaults,
    .shape = nnue_shape_same, .hash = nnue_hash_identity, .describe = describe, .parameters = nnue_no_parameters,
    .file_bytes = nnue_no_parameters, .propagate = propagate, .range = range,
};
