/* layers/pairwise.c: pairwise product pooling. The input is split into `groups`
 * equal groups (2 = one per perspective); in each group, out[j] = in[j] * in[j + half] >> shift.
 * It is the same operation as Stockfish's FT activation since 15 (FORMATS.md section 4), usable
 * inside a stack on clipped values. Not hashed. */
#include <stdio.h>

#include "layers/common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    l->p.pairwise.groups = 2;
    l->p.pairwise.shift = 7;
}

Y_INT_FIELD(read_groups, nnue_layer_ctx, c->layer->p.pairwise.groups, 1, 64, "pairwise 'groups'")

Y_INT_FIELD(read_shift, nnue_layer_ctx, c->layer->p.pairwise.shift, 0, 30, "pairwise 'shift'")

static const yfield fields[] = {
    {"groups", 0, read_groups},
    {"shift", 0, read_shift},
    {NULL, 0, NULL},
};

static const char *shape(nnue_layer *l, char *buf, size_t size)
{
    if (l->in_size % (2 * l->p.pairwise.groups)) {
        snprintf(buf, size, "input size divisible by 2 x %u groups expected, found %u", l->p.pairwise.groups,
                 l->in_size);
        return buf;
    }
    l->out_size = l->in_size / 2;
    return NULL;
}

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "PairwiseProduct[%u<-%u;groups=%u,>>%d]", l->out_size, l->in_size, l->p.pairwise.groups,
             l->p.pairwise.shift);
}

static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    (void)w;
    uint32_t group = l->in_size / l->p.pairwise.groups, half = group / 2;
    for (uint32_t g = 0; g < l->p.pairwise.groups; g++) {
        const int32_t *x = inputs[0] + g * group;
        for (uint32_t j = 0; j < half; j++)
            out[g * half + j] = (int32_t)((int64_t)x[j] * x[j + half] >> l->p.pairwise.shift);
    }
}

/* The extreme products of two values of the input range, shifted (the shift is monotonic). */
static int range(const nnue_layer *l, const nnue_range *in, nnue_range *out)
{
    int64_t a = in[0].lo, b = in[0].hi, p[3] = {a * a, a * b, b * b};
    out->lo = out->hi = p[0] >> l->p.pairwise.shift;
    for (int k = 1; k < 3; k++) {
        int64_t v = p[k] >> l->p.pairwise.shift;
        out->lo = v < out->lo ? v : out->lo;
        out->hi = v > out->hi ? v : out->hi;
    }
    return 1;
}

const nnue_layer_type nnue_layer_pairwise = {
    .name = "pairwise", .min_inputs = 1, .max_inputs = 1, .is_affine = 0, .fields = fields,
    .defaults = defaults, .shape = shape, .hash = nnue_hash_identity, .describe = describe,
    .parameters = nnue_no_parameters, .file_bytes = nnue_no_parameters, .propagate = propagate,
    .range = range,
};
