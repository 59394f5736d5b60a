/* core/eval/board_fit.h: a whole board checked against a state's net: the game's rules
 * (board_check.h), then the piece bound of the net's feature sets (what the worst-case ranges of
 * the weights assume), then each set's own board_fits. Used on the boards a caller hands over
 * (core/eval/state.c) and on the board before a move that the update rebuilds itself
 * (core/eval/state_update.c). */
#ifndef NNUE_CORE_EVAL_BOARD_FIT_H
#define NNUE_CORE_EVAL_BOARD_FIT_H

#include "core/eval/state.h"

/* 0 when board fits s's net; else -1 with err (if not NULL) saying what does not. *pieces is
 * the number of pieces on the board and in hands, kings included, whenever the game's rules
 * pass (also when a later check refuses the board), else left alone. */
int nnue_state_board_fits(const nnue_state *s, const nnue_board *board, int *pieces, nnue_error *err);

#endif
