/* core/eval/board_fit.h: a whole board checked against a net: the game's rules (board_check.h),
 * then the piece bound of the net's feature sets (what the worst-case ranges of the weights
 * assume), then each set's own board_fits. Used on the boards a caller hands over
 * (core/eval/state.c) and on the board before a move that the update rebuilds itself
 * (core/eval/state_update.c). */
#ifndef NNUE_CORE_EVAL_BOARD_FIT_H
#define NNUE_CORE_EVAL_BOARD_FIT_H

#include "core/arch/arch.h"
#include "core/eval/board_check.h"

/* The net's side of the check: its feature transformer, and the fewest pieces its sets take
 * (max_pieces, 0: no bound) with the set that declares it. */
typedef struct nnue_board_limits {
    const nnue_ft_desc *ft;
    int max_pieces;
    const nnue_feature_set *limit_set;
} nnue_board_limits;

/* 0 when board fits; else -1 with err (if not NULL) saying what does not. *pieces is the number
 * of pieces on the board and in hands, kings included, whenever the game's rules pass (also when
 * a later check refuses the board), else left alone. */
int nnue_board_fits_net(const nnue_board_shape *shape, const nnue_board_limits *net, const nnue_board *board,
                        int *pieces, nnue_error *err);

#endif
