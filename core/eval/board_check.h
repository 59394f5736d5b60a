/* core/eval/board_check.h: cheap sanity checks of what an engine hands to the state (a board view at
 * the root and after each move, a delta per move), so that a view of the wrong game or a
 * corrupted board or delta is refused, with an error saying which field, square or piece,
 * instead of indexing outside the net's weight tables. The game's shape comes from its
 * descriptor (nnue_game: files x ranks, piece types, king type, hands). */
#ifndef NNUE_CORE_EVAL_BOARD_CHECK_H
#define NNUE_CORE_EVAL_BOARD_CHECK_H

#include "nnue_board.h"
#include "nnue_error.h"
#include "simd/kernels.h"

/* What a game's boards look like, taken from its descriptor once per state. */
typedef struct nnue_board_shape {
    const char *game;
    int squares, max_type, king, hand_types;
    uint8_t hand_cap[2 * NNUE_MAX_HAND_TYPES]; /* [colour][type]: most pieces of a type one hand holds */
    /* The pass over the squares (simd/kernels.h board_scan): the scalar table's, or a state's
     * kernel set's (nnue_board_shape_use_kernels). */
    unsigned (*scan)(const uint8_t *squares, int n, int max_type, int *count);
} nnue_board_shape;

nnue_board_shape nnue_board_shape_of(const nnue_game *game);

/* Scans squares with k's board_scan (the scalar table's when k is NULL; every table's gives the
 * same answers). */
void nnue_board_shape_use_kernels(nnue_board_shape *shape, const nnue_kernels *k);

/* 0 when every square holds a valid piece code of the game or nothing, each side has its king on
 * king_sq, hands hold at most their cap of each type and piece_count matches; *pieces (if
 * not NULL) is then the number of pieces on the board and in hands, kings included.
 * Else -1 and err (if not NULL) says what does not fit: field, square, piece code. */
int nnue_board_check(const nnue_board_shape *shape, const nnue_board *board, int *pieces, nnue_error *err);

/* The O(1) part: square count, side to move and both king squares in range (all an incremental
 * update and the forward pass read of a board); 0, or -1 with err. */
int nnue_board_check_kings(const nnue_board_shape *shape, const nnue_board *board, nnue_error *err);

/* 0 when the delta's count, squares, hand slots and piece codes are valid for the game; else -1
 * with err (if not NULL) naming the entry. */
int nnue_delta_check(const nnue_board_shape *shape, const nnue_delta *delta, nnue_error *err);

/* 0 when each list holds at most NNUE_MAX_THREATS threats whose piece codes and squares are
 * valid for the game; else -1 with err (if not NULL) naming the entry. */
int nnue_threats_check(const nnue_board_shape *shape, const nnue_threats *threats, nnue_error *err);

/* The same for a game, without an error: 1 = fits. */
int nnue_board_fits(const nnue_game *game, const nnue_board *board);
int nnue_delta_fits(const nnue_game *game, const nnue_delta *delta);

#endif
