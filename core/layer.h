/* core/layer.h: the contract of a layer type (one file per type in core/layers/).
 *
 * A layer type says which YAML keys it takes, how its output size follows from
 * its inputs, how it extends the Stockfish-style hash and the description
 * string, and how many parameters and file bytes it has. Adding a layer type:
 * one file in core/layers/ and one line in core/layers/registry.c. */
#ifndef NNUE_CORE_LAYER_H
#define NNUE_CORE_LAYER_H

#include <stddef.h>
#include <stdint.h>

#include "core/arch.h"
#include "core/net.h"
#include "core/yaml_read.h"

/* What a layer's YAML key handlers write into. */
typedef struct nnue_layer_ctx {
    nnue_arch *arch;
    nnue_layer *layer;
    int is_raw_format;
} nnue_layer_ctx;

struct nnue_layer_type {
    const char *name;          /* YAML `type:` value */
    int min_inputs, max_inputs;
    int is_affine;             /* has weights: stored in the net file per stack */
    const yfield *fields;      /* type-specific YAML keys ({NULL}-terminated); target: nnue_layer_ctx */
    /* Sets parameter defaults before the YAML keys are read. */
    void (*defaults)(nnue_layer *layer, const nnue_arch *arch);
    /* Given in_size (already set), checks the parameters and sets out_size.
     * Returns a message (static or in buf) on error, NULL when fine. */
    const char *(*shape)(nnue_layer *layer, char *buf, size_t size);
    /* Stockfish hash step: previous hash -> this layer's hash. */
    uint32_t (*hash)(const nnue_layer *layer, uint32_t prev);
    /* Description head, e.g. "AffineTransform[32<-512]"; the inputs' descriptions follow in (). */
    void (*describe)(const nnue_layer *layer, char *buf, size_t size);
    /* Weights + biases of one stack. */
    uint64_t (*parameters)(const nnue_layer *layer);
    /* Bytes of one stack's copy in the file (padded rows included). */
    uint64_t (*file_bytes)(const nnue_layer *layer);
    /* Scalar reference forward pass: out[out_size] from one array per input (sizes in
     * layer->input_sizes). All values are int32 whatever their quantised type; w is the
     * layer's weights in the selected stack (NULL for layers without weights). This is the
     * definition of correct that every SIMD kernel must equal bit for bit. */
    void (*propagate)(const nnue_layer *layer, const nnue_layer_weights *w, const int32_t *const *inputs,
                      int32_t *out);
};

extern const nnue_layer_type *const nnue_layer_types[];
const nnue_layer_type *nnue_layer_type_find(const char *name);

/* Shared helpers for layer files. */
uint32_t nnue_hash_identity(const nnue_layer *layer, uint32_t prev);
uint64_t nnue_no_parameters(const nnue_layer *layer);
/* shape(): the output has as many values as the inputs together (activations, concat). */
const char *nnue_shape_same(nnue_layer *layer, char *buf, size_t size);
size_t nnue_dtype_size(nnue_dtype t);
const char *nnue_dtype_name(nnue_dtype t);
extern const char *const nnue_dtype_names[]; /* YAML names in enum order, NULL-terminated */

#endif
