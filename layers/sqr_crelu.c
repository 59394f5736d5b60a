/* layers/sqr_crelu.c: squared clipped ReLU, out = min(max, (in * in) >> shift) in 64 bits.
 * Stockfish 15.1+: shift 19 (2 * 6 weight scale bits + 7), max 127. Not part of the hash
 * (FORMATS.md section 1: "the squared ReLU of v5+ adds nothing"). */
#include <stdio.h>

#include "layers/common.h"

extern const yfield nnue_relu_fields[];

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    l->p.relu.shift = 19;
    l->p.relu.max = 127;
}

/* Smallest a <= 46340 with (a * a) >> shift >= max, or 0 when there is none: the SIMD kernel
 * clips |x| there first, so its 32-bit square never overflows (simd/kernels.h). */
static int32_t square_bound(int shift, int32_t max)
{
    int64_t lo = 0, hi = 46340;
    if ((hi * hi) >> shift < max)
        return 0;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if ((mid * mid) >> shift >= max)
            hi = mid;
        else
            lo = mid + 1;
    }
    return (int32_t)lo;
}

static const char *shape(nnue_layer *l, char *buf, size_t size)
{
    nnue_shape_same(l, buf, size);
    l->p.relu.sq_bound = square_bound(l->p.relu.shift, l->p.relu.max);
    return NULL;
}

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    if (l->p.relu.shift == 19 && l->p.relu.max == 127)
        snprintf(buf, size, "SqrClippedReLU[%u]", l->out_size);
    else
        snprintf(buf, size, "SqrClippedReLU[%u;>>%d,max=%d]", l->out_size, l->p.relu.shift, l->p.relu.max);
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    (void)w;
    for (uint32_t i = 0; i < l->out_size; i++) {
        int64_t v = (int64_t)inputs[0][i] * inputs[0][i] >> l->p.relu.shift;
        out[i] = (int32_t)(v > l->p.relu.max ? l->p.relu.max : v);
    }
}

static int range(const nnue_layer *l, const nnue_range *in, nnue_range *out)
{
    (void)in;
    *out = (nnue_range){0, l->p.relu.max};
    return 1;
}

const nnue_layer_type nnue_layer_sqr_crelu = {
    .name = "sqr_crelu", .min_inputs = 1, .max_inputs = 1, .is_affine = 0, .fields = nnue_relu_fields,
    .defaults = defaults, .shape = shape, .hash = nnue_hash_identity, .describe = describe,
    .parameters = nnue_no_parameters, .file_bytes = nnue_no_parameters, .propagate = propagate,
    .range = range, .op = NNUE_OP_SQR_CRELU,
};
