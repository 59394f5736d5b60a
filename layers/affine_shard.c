/* layers/affine_shard.c: "affine_shard", a fully connected layer whose outputs each read the
 * common inputs and one shard of the rest (YaneuraOu's generated SFNN fc_0, `cC_sSxG`).
 *
 * Facts (shared/oracle/shogi/yo26/FACTS.md section 5): inputs x[0..C) are common, then G shards
 * of S inputs (C + S * G = inputs); the outputs are G consecutive blocks of outputs / G, and
 * output o reads x[0..C) and x[C + g*S .. C + (g+1)*S) with g = o / (outputs / G). The file stores
 * the layer exactly like a dense affine one (biases out x i32, weights out x pad32(inputs) x i8,
 * row-major): the columns outside an output's common and shard inputs are read with the row and
 * never used (YaneuraOu's writer stores zeros there, other nets need not). Hash step and
 * description as a dense affine layer's. SIMD forms: spans_i8 gives the planner (layers/plan.c)
 * each output's common and shard weights in a row, for output-major dot products (kernels.h
 * affine_u8_spans: YaneuraOu's 8 outputs of 256 + 192 inputs are 8 x 448 products, against 16
 * padded outputs x 1024 inputs input-major); dense_i8 the dense rows with the unread columns
 * zeroed, for the u8 affine kernels, where spans would not take fewer products. */
#include <stdio.h>
#include <string.h>

#include "layers/common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    l->p.shard.common = l->p.shard.shard = l->p.shard.groups = 0;
    l->out_size = 0;
}

Y_INT_FIELD(read_outputs, nnue_layer_ctx, c->layer->out_size, 1, 65536, "affine_shard 'outputs'")
Y_INT_FIELD(read_common, nnue_layer_ctx, c->layer->p.shard.common, 0, 1 << 20, "affine_shard 'common'")
Y_INT_FIELD(read_shard, nnue_layer_ctx, c->layer->p.shard.shard, 1, 1 << 20, "affine_shard 'shard'")
Y_INT_FIELD(read_groups, nnue_layer_ctx, c->layer->p.shard.groups, 1, 65536, "affine_shard 'groups'")

static const yfield fields[] = {
    {"outputs", 1, read_outputs},
    {"common", 1, read_common},
    {"shard", 1, read_shard},
    {"groups", 1, read_groups},
    {NULL, 0, NULL},
};

static const char *shape(nnue_layer *l, char *buf, size_t size)
{
    uint32_t c = l->p.shard.common, s = l->p.shard.shard, g = l->p.shard.groups;
    l->p.shard.padded_in = (l->in_size + 31) / 32 * 32;
    if ((uint64_t)c + (uint64_t)s * g != l->in_size) {
        snprintf(buf, size, "expected common + shard x groups = its %u inputs, found %u + %u x %u = %llu", l->in_size,
                 c, s, g, (unsigned long long)((uint64_t)c + (uint64_t)s * g));
        return buf;
    }
    if (l->out_size % g) {
        snprintf(buf, size, "expected its %u outputs to split into %u groups evenly, found a remainder of %u",
                 l->out_size, g, l->out_size % g);
        return buf;
    }
    if ((uint64_t)l->p.shard.padded_in * l->out_size > (1u << 28)) {
        snprintf(buf, size, "expected at most 2^28 weights, found %u x %u", l->out_size, l->p.shard.padded_in);
        return buf;
    }
    return NULL;
}

static uint32_t hash(const nnue_layer *l, uint32_t p)
{
    return (0xCC03DAE4u + l->out_size) ^ (p >> 1) ^ (p << 31);
}

static void describe(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "AffineTransformCommonShard[%u<-%u;common=%u,shard=%ux%u]", l->out_size, l->in_size,
             l->p.shard.common, l->p.shard.shard, l->p.shard.groups);
}

/* The weights an output reads, and the biases. */
static uint64_t parameters(const nnue_layer *l)
{
    return (uint64_t)l->out_size * (l->p.shard.common + l->p.shard.shard) + l->out_size;
}

static uint64_t file_bytes(const nnue_layer *l)
{
    return (uint64_t)l->out_size * 4 + (uint64_t)l->out_size * l->p.shard.padded_in;
}

/* Sum of row[j] * x[j] over [from, to), wrapping like the dense affine layer's. */
static uint64_t dot(const int8_t *row, const int32_t *x, uint32_t from, uint32_t to)
{
    uint64_t sum = 0;
    for (uint32_t j = from; j < to; j++)
        sum += (uint64_t)((int64_t)row[j] * x[j]);
    return sum;
}

/* y[o] = bias[o] + the common inputs' terms + the terms of output o's shard (the order of an
 * integer sum does not matter). */
static void propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs, int32_t *out)
{
    const int32_t *x = inputs[0];
    uint32_t c = l->p.shard.common, s = l->p.shard.shard, per_group = l->out_size / l->p.shard.groups;
    for (uint32_t o = 0; o < l->out_size; o++) {
        const int8_t *row = (const int8_t *)w->weights + (size_t)o * l->p.shard.padded_in;
        uint32_t first = c + o / per_group * s;
        uint64_t sum = dot(row, x, 0, c) + dot(row, x, first, first + s);
        out[o] = (int32_t)(uint32_t)(sum + (uint64_t)(int64_t)((const int32_t *)w->biases)[o]);
    }
}

/* rows[o][j] (in_size per row) = the stored weight where output o reads input j, else 0. */
static void dense_i8(const nnue_layer *l, const nnue_layer_weights *w, int8_t *rows)
{
    uint32_t c = l->p.shard.common, s = l->p.shard.shard, per_group = l->out_size / l->p.shard.groups;
    for (uint32_t o = 0; o < l->out_size; o++) {
        const int8_t *row = (const int8_t *)w->weights + (size_t)o * l->p.shard.padded_in;
        int8_t *dst = rows + (size_t)o * l->in_size;
        uint32_t first = c + o / per_group * s;
        for (uint32_t j = 0; j < l->in_size; j++)
            dst[j] = j < c || (j >= first && j < first + s) ? row[j] : 0;
    }
}

/* Each output's common inputs, then its shard's, as rows of common + shard weights. */
static void spans_i8(const nnue_layer *l, const nnue_layer_weights *w, uint32_t *n1, uint32_t *n2, uint32_t *at,
                     int8_t *rows)
{
    uint32_t c = l->p.shard.common, s = l->p.shard.shard, per_group = l->out_size / l->p.shard.groups;
    *n1 = c;
    *n2 = s;
    for (uint32_t o = 0; o < l->out_size; o++) {
        const int8_t *row = (const int8_t *)w->weights + (size_t)o * l->p.shard.padded_in;
        at[o] = c + o / per_group * s;
        if (!rows)
            continue;
        memcpy(rows + (size_t)o * (c + s), row, c);
        memcpy(rows + (size_t)o * (c + s) + c, row + at[o], s);
    }
}

/* As a dense affine layer's: biases, then out rows of padded_in i8 weights. */
static int tensors(const nnue_layer *l, nnue_tensor_shape t[NNUE_MAX_TENSORS])
{
    t[0] = (nnue_tensor_shape){"biases", NNUE_I32, NNUE_I32, 1, l->out_size, l->out_size};
    t[1] = (nnue_tensor_shape){"weights", NNUE_I8, NNUE_I8, l->out_size, l->in_size, l->p.shard.padded_in};
    return 2;
}

const nnue_layer_type nnue_layer_affine_shard = {
    .name = "affine_shard", .min_inputs = 1, .max_inputs = 1, .fields = fields, .defaults = defaults,
    .shape = shape, .hash = hash, .describe = describe, .parameters = parameters, .file_bytes = file_bytes,
    .propagate = propagate, .tensors = tensors, .dense_i8 = dense_i8, .spans_i8 = spans_i8,
};
