/* layers/float_common.h: what the float layer files share (layers: *_f32.c,
 * dequantize.c, to_i32.c): the `scale: [num, den]` key, read as the float32 nearest to num / den.
 *
 * The float layers fix their order of operations in propagate (the scalar truth): fused
 * multiply-adds where a layer says so (fmaf: one rounding), plain float32 operations elsewhere.
 * The library is built with -ffp-contract=off so the compiler adds no fusing of its own.
 * fmaf is one rounding whatever computes it: the propagates call it as plain C (on x86-64
 * without -mfma, libm's fmaf), and the SIMD levels run these layers on the float kernels of their
 * table (simd/kernels_f32.h), which fuse in hardware and give the same bits. */
#ifndef NNUE_CORE_LAYERS_FLOAT_COMMON_H
#define NNUE_CORE_LAYERS_FLOAT_COMMON_H

#include "layers/common.h"
#include "simd/kernels_f32.h" /* nnue_f32_min, nnue_f32_max: the clips, shared with the kernels */

/* YAML `scale: [num, den]` (1 <= num, den <= 2^30) into layer->p.f32.scale. */
nnue_status nnue_read_f32_scale(yreader *r, yaml_node_t *v, void *target);
/* YAML `max: N` (an integer 1..2^24) into layer->p.f32.max. */
nnue_status nnue_read_f32_max(yreader *r, yaml_node_t *v, void *target);
/* A vector of n float32 values per stack, named "biases". */
int nnue_f32_bias_tensor(const nnue_layer *l, nnue_tensor_shape *t);

#endif
