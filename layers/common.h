/* layers/common.h: small helpers shared by the layer type files (layers/common.c),
 * over the contract they fill (core/arch/layer.h). */
#ifndef NNUE_CORE_LAYERS_COMMON_H
#define NNUE_CORE_LAYERS_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "core/arch/layer.h"

uint32_t nnue_hash_identity(const nnue_layer *layer, uint32_t prev);
uint64_t nnue_no_parameters(const nnue_layer *layer);
/* shape(): the output has as many values as the inputs together (activations, concat). */
const char *nnue_shape_same(nnue_layer *layer, char *buf, size_t size);
/* shape(): two inputs of equal size, the output as large as one (element-wise on pairs: diff, skip,
 * add_f32, mul_f32). */
const char *nnue_shape_two_equal(nnue_layer *layer, char *buf, size_t size);
/* range(): the union of the inputs' ranges (slice, concat, pools). */
int nnue_range_of_inputs(const nnue_layer *layer, const nnue_range *in, nnue_range *out);
/* Float values in a layer's int32 slots (the buffers are allocated memory, written and read as
 * one type at a time). */
#define NNUE_F32_IN(p) ((const float *)(const void *)(p))
#define NNUE_F32_OUT(p) ((float *)(void *)(p))
/* A float -> int32 conversion that is defined for every float: NaN -> 0, out of range ->
 * saturated, else truncated toward zero (what C's cast does where it is defined). */
int32_t nnue_f32_to_i32_trunc(float v);

#endif
