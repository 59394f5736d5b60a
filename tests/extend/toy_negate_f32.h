/* tests/extend/toy_negate_f32.h: the toy layer type of tests/extend (toy_negate_f32.c). */
#ifndef NNUE_TESTS_TOY_NEGATE_F32_H
#define NNUE_TESTS_TOY_NEGATE_F32_H

#include "layers/common.h"

extern const nnue_layer_type toy_negate_f32;

#endif
