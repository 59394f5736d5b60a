/* layers/plan.h: what the layers' planner (layers/plan.c) derives from a loaded net's
 * graph and weights for the SIMD forward pass (core/eval/forward_fast.c): which layers run on
 * the u8 x i8 kernels, their weights permuted into the kernels' layout (simd/kernels.h),
 * and the bullet output layer's bounds. Built once at load (core/net/net_load.c keeps it in
 * nnue_net.kernel_data), read-only afterwards (shared by threads like the net).
 *
 * Kinds:
 *  U8: the FT activation is clamp or pairwise with values <= 127, and every affine layer with
 *      i8 weights whose input is provably in 0..127 (value ranges are propagated by each layer
 *      type's range rule, core/arch/layer.h) runs on u8 inputs, and so does a layer type that
 *      gives its weights as dense i8 rows (dense_i8: affine_shard, the unread columns zero); other layers run the operation
 *      their type names (nnue_layer_op) or their scalar propagate, on the same int32 values as
 *      the reference path.
 *      An affine layer that is not u8 (i32 weights: Stormphrax's L2/L3; or inputs beyond 0..127),
 *      with neither sum_divisor nor sum_shift, runs on affine_i32 (its value modulo 2^32 is the
 *      layer's, layers/affine.c), or on affine_i16p (two products a pmaddwd lane) when it has
 *      several outputs and its input range and every weight fit i16.
 *  BULLET: screlu/sqrrelu FT activation feeding a single i16 affine layer (sum_divisor).
 *      A float affine layer (NNUE_OP_AFFINE_F32) without lanes gets its weights input-major for
 *      the float kernels' affine (simd/kernels_f32.h); a dequantize and the float layers after it
 *      are a float head (layers/plan_f32.c), run by the float kernels' head in one call.
 *  NONE: the scalar reference forward pass (core/eval/forward.c) does everything.
 * A U8 plan whose last four layers are the classic 32-32-1 tail also notes it (tail_at). */
#ifndef NNUE_CORE_LAYERS_PLAN_H
#define NNUE_CORE_LAYERS_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "core/arch/arch.h"
#include "core/arch/layer_weights.h"
#include "base/arch_limits.h"
#include "simd/kernels.h"     /* nnue_head_u8 */
#include "simd/kernels_f32.h" /* nnue_f32_head */

typedef enum { NNUE_PLAN_NONE, NNUE_PLAN_U8, NNUE_PLAN_BULLET } nnue_plan_kind;

/* One activation whose bytes a fused u8 layer's input holds from `offset` on (plan_pieces.c). */
typedef struct nnue_plan_piece {
    int16_t act;             /* the crelu or sqr_crelu layer: its input and parameters */
    uint16_t offset;         /* byte offset in the u8 layer's input */
} nnue_plan_piece;

typedef struct nnue_plan_layer {
    uint8_t u8;              /* runs on affine_u8 / affine_u8_list */
    uint8_t kind;            /* otherwise: its type's nnue_layer_op (core/arch/layer.h) */
    uint8_t sparse;          /* gathers the non-zero input groups first */
    uint8_t from_network;    /* reads the u8 network input directly (else packs its i32 input) */
    uint32_t groups;         /* ceil(in_size / 4) */
    uint32_t out_pad;        /* out_size rounded up to NNUE_KERNEL_OUT_BLOCK, or NNUE_NARROW_OUT_PAD
                                (simd/kernels.h) */
    int8_t **weights;        /* [stacks] prepared weights, or NULL */
    uint32_t *pairs;         /* [stacks] a u8 layer reading the network: the pairs word (kernels.h:
                                the blocks of 16 outputs that may add two, four or eight input
                                groups' products in one i16 lane; layers/plan_pairs.c), or NULL */
    int32_t **weights32;     /* [stacks] an int32 affine layer's weights for affine_i32 ([in][out_pad],
                                as int32), or NULL */
    float **weights_f32;     /* [stacks] a one-chain affine_f32 layer's weights input-major for the
                                float kernels ([in][out_pad], padding zero), or NULL */
    int16_t **weights16;     /* [stacks] such a layer's weights as i16 pairs for affine_i16p ([(in + 1) / 2]
                                [out_pad][2]) when its inputs and weights all fit i16 (then weights32 is
                                NULL), or NULL */
    /* Fused heads (layers/plan_pieces.c): a u8 layer whose input is an activation or a
     * concat of activations of int32 values makes its input bytes from those values itself
     * (kernels.h act_u8, a piece each); a layer only such layers read is not run (skipped). */
    uint8_t skipped;
    uint8_t concat_view;     /* a concat of consecutive layers' outputs, already side by side in the
                                scratch: its output is the first one's, no copy */
    uint8_t n_pieces;
    nnue_plan_piece pieces[NNUE_MAX_LAYER_INPUTS];
    int32_t *zero_biases;    /* sum_shift layers: out_pad zeros for the kernel; the forward pass
                                then takes (sum >> sum_shift) + bias itself (layers/affine.c) */
    /* Output-major (a layer type's spans_i8, kernels.h affine_u8_spans): weights[s] are rows of
     * span1 + span2 bytes, output o's second span starts at input span_at[o]; not sparse. */
    uint8_t spans;
    uint32_t span1, span2;
    uint32_t *span_at;
} nnue_plan_layer;

/* A layer run by its scalar propagate at a place known at load (nnue_plan.rest). */
typedef struct nnue_plan_step {
    int16_t layer;
    uint32_t out_off;
    uint32_t in_off[NNUE_MAX_LAYER_INPUTS];
} nnue_plan_step;

typedef struct nnue_plan {
    nnue_plan_kind kind;
    int network_u8;                      /* a u8 layer reads the network input (clamp/pairwise kernel) */
    int network_i32;                     /* a scalar layer reads the network input as int32 */
    size_t scalar_values;                /* int32 values of the reference path's scratch (kept first) */
    uint32_t u8_net_bytes;               /* u8 network input, padded to 64 bytes */
    uint32_t u8_tmp_bytes;               /* u8 input of an inner layer, padded to 64 bytes */
    uint32_t max_groups;                 /* for the non-zero group list */
    size_t scratch_extra_values;         /* int32 values of scratch the plan's buffers need */
    nnue_plan_layer layers[NNUE_MAX_LAYERS];
    /* > 0: layers tail_at .. tail_at + 3 are the last ones and have the shape of the kernels'
     * tail_32_32_1 (crelu 32, u8 affine 32 -> 32, crelu 32, u8 affine 32 -> 1, each reading the
     * one before), so a kernel set that has it runs them in one call. */
    int tail_at;
    /* Layer 0 is a dense u8 affine layer of 32 outputs on the network input and the tail starts at
     * layer 1: the whole network after the transform is one kernels.h fc0_tail_32_32_1 call. */
    int fc0_tail;
    /* > 0: layers head_at .. head_end - 1 are a float head (layers/plan_f32.c): a dequantize of
     * int32 values, then float layers (and a to_i32) reading only each other, run by the float
     * kernels' head in one call on a buffer; head_offset[j - head_at]: layer j's values there
     * (floats from the buffer's start), head_floats: the buffer's size. */
    int head_at, head_end;
    uint32_t head_floats;
    uint32_t head_offset[NNUE_MAX_LAYERS];
    nnue_f32_head head;
    const float **head_ptrs;             /* the steps' per-stack weight and bias pointers */
    /* BULLET */
    int32_t clip;                        /* activation clamp (32767 = none) */
    int32_t *wmax;                       /* [stacks * out_size]: max |w| of each output row */
    uint32_t stacks;                     /* of the arch it was made for: weights[] of each layer */
    /* > 0: layers u8head_at (fc1) and u8head_end (fc2), both u8, with only skipped layers between,
     * run as one kernels.h head_u8 call (layers/plan_head.c) on the values of layer u8head_x;
     * fc2's slot lies u8head_gap values after fc1's; fc1's values are not stored (none reads them). */
    int u8head_at, u8head_end, u8head_x;
    uint32_t u8head_gap;
    nnue_head_u8 u8head;
    /* u8head.n0 > 0: fc0 (layer u8head_fc0, the sparse u8 layer reading the network input) joins
     * the call (kernels.h head_u8_fc0); fc2's slot lies u8head_gap0 values after fc0's; the
     * layers between are skipped or views of fc0 (u8head_view[v], u8head_view_off[v] values in). */
    int u8head_fc0;
    /* Or u8head_spans: that layer is an output-major spans layer reading the network input
     * (YaneuraOu's common + shard fc0: kernels.h affine_u8_spans), run before the head_u8 call;
     * u8head.n0 stays 0 (head_u8_fc0 does not take it). */
    int u8head_spans;
    uint32_t u8head_gap0;
    int u8head_n_views;
    int16_t u8head_view[4];
    uint16_t u8head_view_off[4];
    /* The FT activation is pairwise, each side's bytes whole groups, and the one sparse layer reads
     * the network input: its non-zero list comes with the bytes (kernels.h ft_pairwise_nz). */
    int nz_fused;
    /* rest_ok: the whole pass after the network bytes is the head_u8_fc0 call on fc0 = layer 0
     * (or fc0's affine_u8_spans then head_u8: u8head_spans), then the n_rest layers after fc2
     * that run their scalar propagate (views and every other layer's values placed at load,
     * layers/plan_head.c): no walk over the layers. Offsets are in int32 values from the
     * scratch's start, where the walk would put them. */
    int rest_ok, n_rest;
    uint32_t rest_fc2_off, rest_result_off;
    nnue_plan_step rest[NNUE_MAX_LAYERS];
} nnue_plan;

/* The plan for arch with the weights weights[stacks * n_layers] (nnue_net.layer_weights), or
 * NULL when the arch has nothing the kernels run (or memory ran out): the scalar reference path
 * then runs everything. Free it with nnue_plan_free. */
nnue_plan *nnue_plan_make(const nnue_arch *arch, const nnue_layer_weights *weights);
void nnue_plan_free(nnue_plan *plan);

/* Step of nnue_plan_make (layers/plan_pieces.c): marks the u8 layers of a U8 plan whose
 * input bytes come straight from activations (their pieces), the layers only they read (skipped)
 * and the concats already in place (concat_view); raises u8_tmp_bytes to the room act_u8 needs. */
void nnue_plan_fuse_pieces(const nnue_arch *a, nnue_plan *plan);

/* Step of nnue_plan_make (layers/plan_head.c), after nnue_plan_fuse_pieces and the float head:
 * finds the SFNN head after fc0 (u8head_at stays 0 where there is none). */
void nnue_plan_head(const nnue_arch *a, nnue_plan *plan);

/* Step of nnue_plan_make (layers/plan_f32.c): finds a U8 plan's float head and makes its steps
 * (head_at stays 0 where there is none). Returns -1 when memory ran out. */
int nnue_plan_f32_head(const nnue_arch *a, const nnue_layer_weights *weights, nnue_plan *plan);

#endif
