/* layers/registry.c: the layer types a YAML architecture can name: the built-in ones, then
 * those registered at run time (nnue_register_internal_layer_type, e.g. from an engine or a test).
 * Adding a built-in type: one file in this folder and one line in each list below. */
#include <stddef.h>

#include "core/arch/layer.h"
#include "base/registry.h"

extern const nnue_layer_type nnue_layer_affine, nnue_layer_affine_sparse, nnue_layer_crelu,
    nnue_layer_sqr_crelu, nnue_layer_slice, nnue_layer_concat, nnue_layer_skip, nnue_layer_pairwise,
    nnue_layer_avg_pool, nnue_layer_max_pool, nnue_layer_quantmoid4, nnue_layer_dequantize, nnue_layer_affine_f32,
    nnue_layer_crelu_f32, nnue_layer_sqr_crelu_f32, nnue_layer_to_i32, nnue_layer_diff, nnue_layer_rescale,
    nnue_layer_affine_shard, nnue_layer_dual_f32, nnue_layer_hardswish_f32, nnue_layer_mul_f32, nnue_layer_add_f32;

const nnue_layer_type *const nnue_layer_types[] = {
    &nnue_layer_affine,
    &nnue_layer_affine_sparse,
    &nnue_layer_crelu,
    &nnue_layer_sqr_crelu,
    &nnue_layer_slice,
    &nnue_layer_concat,
    &nnue_layer_skip,
    &nnue_layer_pairwise,
    &nnue_layer_avg_pool,
    &nnue_layer_max_pool,
    &nnue_layer_quantmoid4,
    &nnue_layer_dequantize,
    &nnue_layer_affine_f32,
    &nnue_layer_crelu_f32,
    &nnue_layer_sqr_crelu_f32,
    &nnue_layer_to_i32,
    &nnue_layer_diff,
    &nnue_layer_rescale,
    &nnue_layer_affine_shard,
    &nnue_layer_dual_f32,
    &nnue_layer_hardswish_f32,
    &nnue_layer_mul_f32,
    &nnue_layer_add_f32,
    NULL,
};

static const char *layer_name(const void *entry)
{
    return ((const nnue_layer_type *)entry)->name;
}

static nnue_registry layers = {.kind = "layer type", .builtin = (const void *const *)nnue_layer_types,
                               .name_of = layer_name, .capacity = NNUE_REGISTRY_MAX};

const nnue_layer_type *nnue_layer_type_at(int i)
{
    return nnue_registry_at(&layers, i);
}

const nnue_layer_type *nnue_layer_type_find(const char *name)
{
    return nnue_registry_find(&layers, name);
}

nnue_status nnue_register_internal_layer_type(const nnue_layer_type *type, nnue_error *err)
{
    const char *problem = type && (!type->name || !type->shape || !type->hash || !type->describe ||
                                   !type->parameters || !type->file_bytes || !type->propagate || !type->defaults ||
                                   !type->fields)
                              ? "a name and the members shape, hash, describe, parameters, file_bytes, propagate, "
                                "defaults and fields"
                              : NULL;
    return nnue_registry_add(&layers, type, problem, err);
}
