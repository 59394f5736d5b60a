/* core/simd/forward_fast.h: the SIMD forward pass (see plan.h for what it covers). */
#ifndef NNUE_CORE_SIMD_FORWARD_FAST_H
#define NNUE_CORE_SIMD_FORWARD_FAST_H

#include "core/simd/kernels.h"
#include "core/simd/plan.h"
#include "core/state.h"

/* The output layer's raw value (what the scalar path leaves in outputs[n_layers - 1][0]) for
 * the given stack; scratch has nnue_forward_scratch_values(net) values. net->kernel_data must
 * be a plan of kind U8 or BULLET. */
int32_t nnue_forward_fast(const nnue_net *net, const nnue_kernels *k, const nnue_acc_entry *e, int stm, int bucket,
                          int32_t *scratch);

/* The reference FT activation of one perspective into int32 values (core/forward.c). */
void nnue_ft_transform(const nnue_ft_desc *ft, const int16_t *acc, int32_t *out);

#endif
