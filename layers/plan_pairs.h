/* layers/plan_pairs.h: the proof behind nnue_plan_layer.pairs (layers/plan_pairs.c). */
#ifndef NNUE_LAYERS_PLAN_PAIRS_H
#define NNUE_LAYERS_PLAN_PAIRS_H

#include <stdint.h>

/* The 16-output blocks (bit k: outputs 16k .. 16k + 15, k < NNUE_CHAIN_BLOCKS) of a u8 layer's
 * prepared weights w ([groups][out_pad][4]) in which two different input groups' products may be
 * added in one i16 lane, inputs being 0 .. in_hi, and (bit NNUE_QUADS_SHIFT + k) those where four
 * may, (bit NNUE_EIGHTS_SHIFT + k) eight (nnue_plan_layer.pairs; simd/kernels.h names the kernels
 * that read it). Blocks from NNUE_CHAIN_BLOCKS on (outputs past 160) never. */
uint32_t nnue_plan_pair_blocks(const int8_t *w, uint32_t groups, uint32_t out_pad, int64_t in_hi);

#endif
