/* core/layers/registry.c: the layer types a YAML architecture can name.
 * Adding a type: one file in this folder and one line in each list below. */
#include <stddef.h>
#include <string.h>

#include "core/layer.h"

extern const nnue_layer_type nnue_layer_affine, nnue_layer_affine_sparse, nnue_layer_crelu,
    nnue_layer_sqr_crelu, nnue_layer_slice, nnue_layer_concat, nnue_layer_skip, nnue_layer_pairwise,
    nnue_layer_avg_pool, nnue_layer_max_pool, nnue_layer_quantmoid4, nnue_layer_dequantize, nnue_layer_affine_f32,
    nnue_layer_crelu_f32, nnue_layer_sqr_crelu_f32, nnue_layer_to_i32, nnue_layer_diff, nnue_layer_scale;

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
    &nnue_layer_scale,
    NULL,
};

const nnue_layer_type *nnue_layer_type_find(const char *name)
{
    for (size_t i = 0; nnue_layer_types[i]; i++)
        if (strcmp(nnue_layer_types[i]->name, name) == 0)
            return nnue_layer_types[i];
    return NULL;
}
