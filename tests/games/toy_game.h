/* tests/games/toy_game.h: a toy 9x10 game (issue 23 item 7) added from tests/ alone: two
 * kings and up to two rooks a side on 9 files x 10 ranks, registered at run time
 * (nnue_register_game), with its own feature set (toy_features.c, nnue_register_internal_feature_set).
 *
 * Rules: a king steps one square in any of 8 directions, a rook slides along a file or rank;
 * a move may capture an enemy rook, never leave its own king attacked (kings never stand
 * next to each other). No legal move: checkmate when in check, else stalemate.
 * Squares: rank * 9 + file (a0 = 0, i0 = 8, a9 = 81, i9 = 89); colour 0 ("w") starts at rank 0.
 * Position text: ranks 9..0 separated by '/', files a..i, K R (colour 0) k r (colour 1),
 * digits for empty squares, then the side to move 'w' or 'b'. Moves: "e0e1" (Pikafish style). */
#ifndef TOY_GAME_H
#define TOY_GAME_H

#include "nnue_board.h"

#define TOY_FILES 9
#define TOY_RANKS 10
#define TOY_SQUARES (TOY_FILES * TOY_RANKS)
enum { TOY_ROOK = 1, TOY_KING = 2 };

#define TOY_START "r3k3r/9/9/9/9/9/9/9/9/R3K3R w"

typedef struct toy_pos {
    nnue_board board;
} toy_pos;

/* Moves: from | to << 8 | captured piece code << 16 (so unmake needs no history). */
#define TOY_MOVE(from, to, captured) ((nnue_move)((from) | (to) << 8 | (captured) << 16))
#define TOY_FROM(m) ((int)((m) & 255))
#define TOY_TO(m) ((int)(((m) >> 8) & 255))
#define TOY_CAPTURED(m) ((uint8_t)(((m) >> 16) & 255))

extern const nnue_game toy_game;

/* Registers the toy game and its feature set (toy_features.c): 0, or -1 after saying why on
 * stderr. */
int toy_register(void);

#endif
