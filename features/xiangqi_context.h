/* features/xiangqi_context.h: what Pikafish's two xiangqi feature sets share (HalfKAv2_hm and
 * FullThreats for xiangqi, docs/formats-pikafish.md): piece numbering, the squares a piece may
 * stand on, the square map of a perspective (rank flip for black, file flip when mirrored) and
 * the per-perspective context (king bucket, attack bucket, mirror). */
#ifndef NNUE_FEATURES_XIANGQI_CONTEXT_H
#define NNUE_FEATURES_XIANGQI_CONTEXT_H

#include <stdint.h>

#include "features/feature_set.h"
#include "nnue_board.h"

/* A set of the 90 squares, bit sq = square sq. */
typedef unsigned __int128 bb90;

static inline int xqf_first(bb90 b)
{
    return (uint64_t)b ? __builtin_ctzll((uint64_t)b) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

/* The occupied squares of a 90-square board (8 squares per step). */
bb90 xqf_occupied(const nnue_board *board);

/* Pikafish's piece number: type (rook 1, advisor, cannon, pawn, knight, bishop, king 7) plus
 * 8 for black; the perspective's own pieces count as red. */
static inline int xqf_piece(uint8_t piece, int persp)
{
    return NNUE_PIECE_TYPE(piece) + 8 * (NNUE_PIECE_COLOUR(piece) ^ persp);
}

/* Square seen from persp: black's view flips ranks, a mirrored one flips files. */
static inline int xqf_map(int sq, int mirror, int persp)
{
    int f = sq % 9, r = sq / 9;
    return (persp ? 9 - r : r) * 9 + (mirror ? 8 - f : f);
}

/* Piece number p may stand on sq of a mapped view (the own king never on file f: mirroring
 * moves it); the valid (piece, square) pairs are what both sets index. */
int xqf_valid(int p, int sq);

typedef struct xqf_context {
    int king_bucket;   /* 0..5: rank of the own king in its palace * 2 + (on file e) */
    int attack_bucket; /* 0..3: own rooks > 0 ? 2 : 0, + own knights and cannons > 0 */
    int mirror;        /* the view flips files */
} xqf_context;

/* What the contexts read of a board besides the kings' squares: each colour's balance sum (the
 * "mid mirror" test's) and the pieces by piece number (type & 7, + 8 for colour 1); and both
 * perspectives' contexts. The two sets' board summary (features/feature_set.h), kept by the
 * state per ply: a move changes the sums by its own pieces alone. */
typedef struct xqf_summary {
    uint64_t enc[2];
    uint8_t counts[16];
    xqf_context ctx[2];
} xqf_summary;

/* The summary of a board (a pass over its pieces), and of the board after a move from the one of
 * the board before it (the delta's pieces taken off and put on, the kings' squares of `after`),
 * as both sets' summary() and summary_move() (one pair of functions: a state keeps one summary
 * for the two). Defined on any bytes: squares past the board count as nothing, a king off it as on square 0. */
void xqf_fs_summary(const nnue_feature_params *params, const nnue_board *board, void *out);
void xqf_fs_summary_move(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                         const void *before, void *out);

/* Both perspectives' contexts of a board (a pass over its pieces). */
void xqf_contexts(const nnue_board *board, xqf_context ctx[2]);

/* The contexts of the board a hook gets: from the state's summary when it handed one in. */
static inline void xqf_board_contexts(const nnue_feature_params *params, const nnue_board *board, xqf_context ctx[2])
{
    const xqf_summary *s = params ? params->summary_after : NULL;
    if (!s) {
        xqf_contexts(board, ctx);
        return;
    }
    ctx[0] = s->ctx[0], ctx[1] = s->ctx[1];
}

/* From the boards: the one before rebuilt from `after` and the delta (base/board_undo.h). */
void xqf_move_contexts_of_boards(const nnue_board *after, const nnue_delta *delta, xqf_context now[2],
                                 xqf_context before[2]);

/* The contexts a move hook works with, of the board after the move and, unless `before` is NULL,
 * of the board before it: the state's summaries when it handed them in, else from the boards. */
static inline void xqf_move_contexts(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                                     xqf_context now[2], xqf_context before[2])
{
    const xqf_summary *a = params ? params->summary_after : NULL, *b = params ? params->summary_before : NULL;
    if (!a || (before && !b)) {
        xqf_move_contexts_of_boards(after, delta, now, before);
        return;
    }
    now[0] = a->ctx[0], now[1] = a->ctx[1];
    if (before)
        before[0] = b->ctx[0], before[1] = b->ctx[1];
}

#endif
