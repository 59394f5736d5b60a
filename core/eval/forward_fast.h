/* core/eval/forward_fast.h: the SIMD forward pass (see layers/plan.h for what it covers).
 * It reads the two accumulators it is given and calls only kernels, layers and the reference FT
 * activation: nothing of the state or of core/eval/forward.c, which calls it. It lives in eval/,
 * not simd/: it walks a net's graph and plan, while the kernels know plain arrays and sizes. */
#ifndef NNUE_CORE_EVAL_FORWARD_FAST_H
#define NNUE_CORE_EVAL_FORWARD_FAST_H

#include "layers/plan.h"
#include "core/net/net.h"
#include "simd/kernels.h"

/* The output layer's raw value (what the scalar path leaves in outputs[n_layers - 1][0]) for
 * the given stack, from the side to move's accumulator `us` and the other side's `them`;
 * scratch has nnue_forward_scratch_values(net) values. net->kernel_data must be a plan of
 * kind U8 or BULLET. */
int32_t nnue_forward_fast(const nnue_net *net, const nnue_kernels *k, const int16_t *us, const int16_t *them,
                          int bucket, int32_t *scratch);

#endif
