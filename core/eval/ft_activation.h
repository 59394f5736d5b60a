/* core/eval/ft_activation.h: the reference FT activation (core/eval/ft_activation.c). */
#ifndef NNUE_CORE_EVAL_FT_ACTIVATION_H
#define NNUE_CORE_EVAL_FT_ACTIVATION_H

#include <stdint.h>

#include "core/arch/arch.h"

/* Writes ft->out_per_side int32 values for one perspective's accumulator. */
void nnue_ft_transform(const nnue_ft_desc *ft, const int16_t *acc, int32_t *out);

#endif
