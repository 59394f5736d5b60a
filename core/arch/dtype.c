/* core/arch/dtype.c: value types of the graph (nnue_dtype, core/arch/arch.h) by size and YAML
 * name, and the value count of a tensor shape (core/arch/layer.h): what the loader, the checks
 * and the net readers ask of a type without asking a layer. */
#include "core/arch/layer.h"

const char *const nnue_dtype_names[] = {"i8", "u8", "i16", "i32", "f32", "none", NULL};

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

uint64_t nnue_tensor_values(const nnue_tensor_shape *t)
{
    return (uint64_t)t->rows * t->stride;
}
