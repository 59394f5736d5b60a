/* core/board_check.h: cheap sanity checks of what an engine hands to the state (a board view at
 * the root, a delta per move), so that a view of the wrong game or a corrupted delta is refused
 * instead of indexing outside the net's weight tables. The game's shape comes from its
 * descriptor (nnue_game: files x ranks, piece types, king type, hands). */
#ifndef NNUE_CORE_BOARD_CHECK_H
#define NNUE_CORE_BOARD_CHECK_H

#include "nnue_board.h"

/* 1 when every square holds a valid piece code of `game`, each side has its king on king_sq,
 * hands are plausible and the piece count matches. */
int nnue_board_fits(const nnue_game *game, const nnue_board *board);

/* 1 when the delta's count, squares, hand slots and piece codes are valid for `game`. */
int nnue_delta_fits(const nnue_game *game, const nnue_delta *delta);

#endif
