/* core/layers/registry.c: the layer types a YAML architecture can name: the built-in ones, then
 * those registered at run time (nnue_layer_type_register, e.g. from an engine or a test).
 * Adding a built-in type: one file in this folder and one line in each list below. */
#include <stddef.h>
#include <pthread.h>
#include <string.h>

#include "core/arch/layer.h"

extern const nnue_layer_type nnue_layer_affine, nnue_layer_affine_sparse, nnue_layer_crelu,
    nnue_layer_sqr_crelu, nnue_layer_slice, nnue_layer_concat, nnue_layer_skip, nnue_layer_pairwise,
    nnue_layer_avg_pool, nnue_layer_max_pool, nnue_layer_quantmoid4, nnue_layer_dequantize, nnue_layer_affine_f32,
    nnue_layer_crelu_f32, nnue_layer_sqr_crelu_f32, nnue_layer_to_i32, nnue_layer_diff, nnue_layer_rescale;

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
    NULL,
};

/* Types registered at run time (nnue_layer_type_register), after the built-in ones. */
#define MAX_REGISTERED 32
static const nnue_layer_type *registered[MAX_REGISTERED];
static int n_registered;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

const nnue_layer_type *nnue_layer_type_at(int i)
{
    int builtin = (int)(sizeof nnue_layer_types / sizeof nnue_layer_types[0]) - 1;
    if (i < builtin)
        return nnue_layer_types[i];
    pthread_mutex_lock(&lock);
    const nnue_layer_type *t = i - builtin < n_registered ? registered[i - builtin] : NULL;
    pthread_mutex_unlock(&lock);
    return t;
}

const nnue_layer_type *nnue_layer_type_find(const char *name)
{
    const nnue_layer_type *t;
    for (int i = 0; (t = nnue_layer_type_at(i)); i++)
        if (strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

int nnue_layer_type_register(const nnue_layer_type *type)
{
    if (!type || !type->name || !type->shape || !type->hash || !type->describe || !type->parameters ||
        !type->file_bytes || !type->propagate || !type->defaults || !type->fields)
        return -1;
    int status = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < n_registered; i++)
        if (registered[i] == type)
            status = 1; /* registered already: nothing to do */
    for (int i = 0; status == 0 && nnue_layer_types[i]; i++)
        if (strcmp(nnue_layer_types[i]->name, type->name) == 0)
            status = -1;
    for (int i = 0; status == 0 && i < n_registered; i++)
        if (strcmp(registered[i]->name, type->name) == 0)
            status = -1;
    if (status == 0 && n_registered == MAX_REGISTERED)
        status = -1;
    if (status == 0)
        registered[n_registered++] = type;
    pthread_mutex_unlock(&lock);
    return status < 0 ? -1 : 0;
}
