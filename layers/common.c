/* layers/common.c: small helpers shared by the layer type files. */
#include <stdio.h>

#include "layers/common.h"

#include <math.h>

uint32_t nnue_hash_identity(const nnue_layer *layer, uint32_t prev)
{
    (void)layer;
    return prev;
}

uint64_t nnue_no_parameters(const nnue_layer *layer)
{
    (void)layer;
    return 0;
}

const char *nnue_shape_two_equal(nnue_layer *l, char *buf, size_t size)
{
    if (l->input_sizes[0] != l->input_sizes[1]) {
        snprintf(buf, size, "expected two inputs of equal size, found %u and %u values", l->input_sizes[0],
                 l->input_sizes[1]);
        return buf;
    }
    l->out_size = l->input_sizes[0];
    return NULL;
}

const char *nnue_shape_same(nnue_layer *layer, char *buf, size_t size)
{
    (void)buf;
    (void)size;
    layer->out_size = layer->in_size;
    return NULL;
}

int32_t nnue_f32_to_i32_trunc(float v)
{
    if (isnan(v))
        return 0;
    if (v >= 2147483648.0f)
        return INT32_MAX;
    if (v <= -2147483648.0f)
        return INT32_MIN;
    return (int32_t)v;
}

int nnue_range_of_inputs(const nnue_layer *layer, const nnue_range *in, nnue_range *out)
{
    *out = in[0];
    for (int k = 1; k < layer->n_inputs; k++) {
        out->lo = in[k].lo < out->lo ? in[k].lo : out->lo;
        out->hi = in[k].hi > out->hi ? in[k].hi : out->hi;
    }
    return 1;
}
