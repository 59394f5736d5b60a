/* features/xiangqi_context.h: what Pikafish's two xiangqi feature sets share (HalfKAv2_hm and
 * FullThreats for xiangqi, docs/formats-pikafish.md): piece numbering, the squares a piece may
 * stand on, the square map of a perspective (rank flip for black, file flip when mirrored) and
 * the per-perspective context (king bucket, attack bucket, mirror). */
#ifndef NNUE_FEATURES_XIANGQI_CONTEXT_H
#define NNUE_FEATURES_XIANGQI_CONTEXT_H

#include <stdint.h>

#include "nnue_board.h"

/* A set of the 90 squares, bit sq = square sq. */
typedef unsigned __int128 bb90;

static inline int xqf_first(bb90 b)
{
    return (uint64_t)b ? __builtin_ctzll((uint64_t)b) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

/* The occupied squares of a 90-square board (8 squares per step). */
bb90 xqf_occupied(const nnue_board *board);

/* The mirror of each perspective's view alone (as xqf_contexts computes it): from the kings'
 * files, and only when both stand on file e from the pieces' balance. */
void xqf_mirrors(const nnue_board *board, int mirror[2]);

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

/* Both perspectives' contexts in one pass over the pieces; xqf_context_of: one of them. */
void xqf_contexts(const nnue_board *board, xqf_context ctx[2]);
void xqf_context_of(const nnue_board *board, int persp, xqf_context *ctx);

/* What a move (the board after it and its delta) may change of persp's context: 1 = anything
 * (a king in the delta, or with attack = 1 a rook, knight or cannon of persp put on or taken off
 * the board: compare the contexts); 2 = only the mirror's balance test (both kings on file e:
 * compare the mirrors); 0 = nothing. Saves rebuilding the board before and passes over
 * its pieces at every push. */
int xqf_context_may_change(const nnue_board *after, const nnue_delta *delta, int persp, int attack);

/* Both perspectives' contexts of the board after a move (`now`) and, unless `before` is NULL, of
 * the board before it as base/board_undo.h would rebuild it from `after` and the delta, without
 * rebuilding it: the piece sums (remembered for the last boards seen on the thread) with the
 * delta's squares swapped. */
void xqf_contexts_move(const nnue_board *after, const nnue_delta *delta, xqf_context now[2], xqf_context before[2]);

#endif
