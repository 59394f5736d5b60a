/* core/layers/common.c: small helpers shared by the layer type files. */
#include "core/layer.h"

#include <math.h>

const char *const nnue_dtype_names[] = {"i8", "u8", "i16", "i32", "f32", "none", NULL};

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

size_t nnue_dtype_size(nnue_dtype t)
{
    switch (t) {
    case NNUE_I8:
    case NNUE_U8: return 1;
    case NNUE_I16: return 2;
    case NNUE_I32:
    case NNUE_F32: return 4;
    case NNUE_NONE: return 0;
    }
    return 0;
}

const char *nnue_dtype_name(nnue_dtype t)
{
    return nnue_dtype_names[t];
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

uint64_t nnue_tensor_values(const nnue_tensor_shape *t)
{
    return (uint64_t)t->rows * t->stride;
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
