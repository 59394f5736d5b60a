/* core/arch/layer.h: the contract of a layer type (one file per type in layers/).
 *
 * A layer type says which YAML keys it takes, which value types it reads and writes (int32 or
 * float32), how its output size follows from its inputs, how it extends the Stockfish-style
 * hash and the description string, which tensors it keeps per stack (the net readers and the
 * writer walk these: no reader names a layer type), and how it computes (propagate: the scalar
 * truth). Adding a layer type: one file in layers/ and two lines in layers/registry.c
 * (its extern, its table entry).
 *
 * The contract lives with the graph (core/arch/), whose nodes it types: the graph's loader,
 * hash and description call these members, and the types in layers/ (above) fill them, with
 * the helpers of layers/common.h. The weights a type computes with come in as plain arrays
 * (core/arch/layer_weights.h), never as a net. */
#ifndef NNUE_CORE_ARCH_LAYER_H
#define NNUE_CORE_ARCH_LAYER_H

#include <stddef.h>
#include <stdint.h>

#include "core/arch/arch.h"
#include "core/arch/layer_weights.h"
#include "base/yaml_read.h"

/* What a layer's YAML key handlers write into. */
typedef struct nnue_layer_ctx {
    nnue_arch *arch;
    nnue_layer *layer;
    int is_raw_format;
} nnue_layer_ctx;

/* Which values a layer reads and writes. The network input (FT output) is int32; the last
 * layer must write int32. Float values live in the same 4-byte slots as int32 ones. */
typedef enum nnue_value_flow {
    NNUE_FLOW_I32,         /* int32 -> int32 (the default) */
    NNUE_FLOW_F32,         /* float32 -> float32 */
    NNUE_FLOW_I32_TO_F32,  /* int32 -> float32 */
    NNUE_FLOW_F32_TO_I32,  /* float32 -> int32 */
    NNUE_FLOW_SAME         /* either, output as input (concat, slice: all inputs of one type) */
} nnue_value_flow;

/* One tensor a layer keeps per stack: rows x cols values, each row stored with `stride` values
 * (the padding columns beyond cols are zero in memory; a Stockfish file stores them too, the raw
 * format does not). Vectors (biases) are 1 x n. */
typedef struct nnue_tensor_shape {
    const char *name;      /* "biases", "weights": raw-format blocks name it LAYER.NAME */
    nnue_dtype file;       /* dtype in the file; NNUE_NONE: absent from the file, zeros in memory */
    nnue_dtype mem;        /* dtype in memory (int biases are widened to int32) */
    uint32_t rows, cols, stride;
} nnue_tensor_shape;

/* A closed interval of int32-layer values (64 bits so that products of bounds do not wrap). */
typedef struct nnue_range {
    int64_t lo, hi;
} nnue_range;

/* Which of the SIMD forward pass's own operations runs a layer that is not an integer affine
 * (core/eval/forward_fast.c); the others run their propagate. */
typedef enum nnue_layer_op {
    NNUE_OP_PROPAGATE,   /* the scalar propagate */
    NNUE_OP_VIEW,        /* output = a window of the single input from p.slice.offset: no copy */
    NNUE_OP_CONCAT,      /* the inputs one after the other (bytes) */
    NNUE_OP_CRELU,       /* kernel crelu_i32 with p.relu.shift, p.relu.max */
    NNUE_OP_SQR_CRELU,   /* kernel sqr_crelu_i32 with p.relu (shift, max, sq_bound) */
    NNUE_OP_AFFINE_F32,  /* the float kernels' affine (one chain: weights input-major, made by
                            layers/plan.c) or affine_lanes (p.f32.lanes);
                            its propagate where the level has no float kernels (simd/kernels_f32.h) */
    NNUE_OP_DEQUANTIZE   /* the float kernels' dequantize (p.f32.scale); likewise */
} nnue_layer_op;

struct nnue_layer_type {
    const char *name;          /* YAML `type:` value */
    int min_inputs, max_inputs;
    int is_affine;             /* an integer affine layer (weights as rows of i8/i16, int32 biases) */
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
    nnue_value_flow flow;      /* value types in and out (0: int32 -> int32) */
    /* Its tensors per stack, in Stockfish file order (biases before weights); returns how many
     * (NULL: none). tensors[k] of a stack is nnue_layer_weights.tensor[k]. */
    int (*tensors)(const nnue_layer *layer, nnue_tensor_shape out[NNUE_MAX_TENSORS]);
    /* A raw-format block gives tensor k's file dtype: adopt it (e.g. affine weights i8 or i16) or
     * return why not (static or in buf). NULL: the dtype must equal the tensor's file dtype. */
    const char *(*adopt_dtype)(nnue_layer *layer, int k, nnue_dtype dtype, char *buf, size_t size);
    /* The output's value range from the inputs' (in[n_inputs]), for the overflow analysis
     * (core/net/net_ranges.c) and the planner (layers/plan.c: which affine layers may read
     * bytes); returns 0 when the type does not model it (NULL: not modelled; integer affine
     * layers are bounded from their weights instead). */
    int (*range)(const nnue_layer *layer, const nnue_range *in, nnue_range *out);
    nnue_layer_op op;          /* how the SIMD forward pass runs it (0: propagate) */
    /* Optional, for a layer that is an i8-weight affine layer with some inputs unread per output
     * (affine_shard): writes its weights as dense rows, rows[o * in_size + j] = the weight output o
     * gives input j, 0 where it reads nothing, so that the planner (layers/plan.c) runs it on
     * the u8 affine kernels; its propagate must equal a dense affine layer's with these rows
     * (int32 biases, the sum modulo 2^32). NULL: only is_affine layers run there. */
    void (*dense_i8)(const nnue_layer *layer, const nnue_layer_weights *w, int8_t *rows);
    /* Optional, with dense_i8, for a layer whose outputs each read the first n1 inputs and n2
     * more from at[o] (affine_shard): *n1, *n2 and at[0 .. out_size), and, when rows is not NULL,
     * its weights output by output (rows[o * (n1 + n2) + j] = the weight output o gives input j
     * for j < n1, input at[o] + j - n1 after), so that the planner may run it output-major
     * (kernels.h affine_u8_spans) where that takes fewer products than the dense rows. */
    void (*spans_i8)(const nnue_layer *layer, const nnue_layer_weights *w, uint32_t *n1, uint32_t *n2, uint32_t *at,
                     int8_t *rows);
};

/* The registry (layers/registry.c): the graph asks it for a type by name and never names a
 * type's file. */
extern const nnue_layer_type *const nnue_layer_types[]; /* the built-in types, NULL-terminated */
const nnue_layer_type *nnue_layer_type_find(const char *name);
/* Type i of all known ones (built-in, then registered), NULL past the last. */
const nnue_layer_type *nnue_layer_type_at(int i);
/* Adds a layer type at run time (docs/extending.md): from then on YAML files can name it. The
 * registration scheme's name (nnue_register_<kind>) for this internal contract; outside the
 * library a type registers through include/nnue_extend.h's nnue_register_layer_type. The
 * type must stay valid while any architecture uses it (a static const struct). NNUE_OK, or
 * NNUE_E_ARG (err says which) when a required member is missing, the name is taken by another
 * type, or 32 types are registered already. Thread-safe; the same type again is a no-op
 * (base/registry.h, the rule of every registry). */
nnue_status nnue_register_internal_layer_type(const nnue_layer_type *type, nnue_error *err);

/* Value types and tensor sizes (core/arch/dtype.c). */
uint64_t nnue_tensor_values(const nnue_tensor_shape *t);   /* rows * stride */
size_t nnue_dtype_size(nnue_dtype t);
const char *nnue_dtype_name(nnue_dtype t);
extern const char *const nnue_dtype_names[]; /* YAML names in enum order, NULL-terminated */

#endif
