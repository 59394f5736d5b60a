/* layers/pool.c: average and max pooling over consecutive windows of `size` values.
 * avg: out = floor(sum / size); max: out = largest value. Not hashed. */
#include <stdio.h>

#include "layers/common.h"

static void defaults(nnue_layer *l, const nnue_arch *arch)
{
    (void)arch;
    l->p.pool.size = 2;
}

Y_INT_FIELD(read_size, nnue_layer_ctx, c->layer->p.pool.size, 2, 1024, "pool 'size'")

static const yfield fields[] = {
    {"size", 0, read_size},
    {NULL, 0, NULL},
};

static const char *shape(nnue_layer *l, char *buf, size_t size)
{
    if (l->in_size % l->p.pool.size) {
        snprintf(buf, size, "input size divisible by the window %u expected, found %u", l->p.pool.size, l->in_size);
        return buf;
    }
    l->out_size = l->in_size / l->p.pool.size;
    return NULL;
}

static void describe_avg(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "AvgPool[%u<-%u]", l->out_size, l->in_size);
}

static void describe_max(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "MaxPool[%u<-%u]", l->out_size, l->in_size);
}

static void propagate_avg(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs,
                          int32_t *out)
{
    (void)w;
    uint32_t k = l->p.pool.size;
    for (uint32_t i = 0; i < l->out_size; i++) {
        int64_t sum = 0;
        for (uint32_t j = 0; j < k; j++)
            sum += inputs[0][i * k + j];
        /* floor division, also for negative sums */
        out[i] = (int32_t)(sum >= 0 ? sum / k : -((-sum + k - 1) / k));
    }
}

static void propagate_max(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs,
                          int32_t *out)
{
    (void)w;
    uint32_t k = l->p.pool.size;
    for (uint32_t i = 0; i < l->out_size; i++) {
        int32_t m = inputs[0][i * k];
        for (uint32_t j = 1; j < k; j++)
            m = inputs[0][i * k + j] > m ? inputs[0][i * k + j] : m;
        out[i] = m;
    }
}

const nnue_layer_type nnue_layer_avg_pool = {
    .name = "avg_pool", .min_inputs = 1, .max_inputs = 1, .is_affine = 0, .fields = fields,
    .defaults = defaults, .shape = shape, .hash = nnue_hash_identity, .describe = describe_avg,
    .parameters = nnue_no_parameters, .file_bytes = nnue_no_parameters, .propagate = propagate_avg,
    .range = nnue_range_of_inputs,
};

const nnue_layer_type nnue_layer_max_pool = {
    .name = "max_pool", .min_inputs = 1, .max_inputs = 1, .is_affine = 0, .fields = fields,
    .defaults = defaults, .shape = shape, .hash = nnue_hash_identity, .describe = describe_max,
    .parameters = nnue_no_parameters, .file_bytes = nnue_no_parameters, .propagate = propagate_max,
    .range = nnue_range_of_inputs,
};
