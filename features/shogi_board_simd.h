/* features/shogi_board_simd.h: the board part of the shogi HalfKP feature lists with AVX-512
 * (features/shogi_board_simd.c): 16 squares per step instead of one piece at a time.
 *
 * Facts: features/shogi_bonapiece.h (board bases by type, enemy = +81, white sees 80 - sq). */
#ifndef NNUE_FEATURES_SHOGI_BOARD_SIMD_H
#define NNUE_FEATURES_SHOGI_BOARD_SIMD_H

#include <stdint.h>

#include "nnue_board.h"

/* For every non-king piece of an 81-square board, in square order:
 *   o0[i] = kb0 + base(type) + 81 * colour + sq          (black's view, kb0 = its king block)
 *   o1[i] = kb1 + base(type) + 81 * (1 - colour) - sq    (white's view, kb1 = its block + 80)
 * Returns the count, or -1 when the vector path is not in use (NNUE_ISA below avx512, another
 * CPU, or another board size) or the board holds more than `room` - 16 such pieces (each step
 * stores 16 values); the caller then lists the pieces itself. */
int shogi_board_features_simd(const nnue_board *board, int32_t kb0, int32_t kb1, uint32_t *o0, uint32_t *o1, int room);

#endif
