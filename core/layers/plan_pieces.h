/* core/layers/plan_pieces.h: the planner's fused u8 inputs (plan_pieces.c), called by plan.c. */
#ifndef NNUE_CORE_LAYERS_PLAN_PIECES_H
#define NNUE_CORE_LAYERS_PLAN_PIECES_H

#include "core/layers/plan.h"

/* Marks the u8 layers of a U8 plan whose input bytes come straight from activations (their
 * pieces), the layers only they read (skipped) and the concats already in place (concat_view);
 * raises u8_tmp_bytes to the room act_u8 needs. */
void nnue_plan_fuse_pieces(const nnue_arch *a, nnue_plan *plan);

#endif
