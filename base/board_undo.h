/* base/board_undo.h: the board view before a move, rebuilt from the view after it and the move's
 * delta (include/nnue_board.h). Used where a feature depends on more than the moved pieces
 * (Full_Threats: attacks), and to walk a lazy update back through several moves. */
#ifndef NNUE_BASE_BOARD_UNDO_H
#define NNUE_BASE_BOARD_UNDO_H

#include "nnue_board.h"

/* *before = after with the delta undone on the squares: every dirty piece's new square emptied,
 * then its old square given its old piece; king squares and piece count follow. Hands are left
 * as in `after` (no feature that needs this reads them). before may not alias after. */
void nnue_board_before(const nnue_board *after, const nnue_delta *delta, nnue_board *before);

#endif
