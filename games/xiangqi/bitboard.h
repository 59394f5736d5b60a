/* games/xiangqi/bitboard.h: square sets of the 90-square board and the attack tables the threat
 * recorder (threats.c) reads, built once by attacks.c. Squares as internal.h numbers them.
 *
 * Facts (the attack rules of FullThreats_xiangqi, features/xiangqi_threats.c, which are
 * Pikafish's): a rook attacks the first piece on each line; a cannon the second; a horse the
 * two squares beyond each free leg (the orthogonal neighbour); an elephant the square two steps
 * diagonally when its eye (the diagonal neighbour) is free and that square is on the half of the
 * board it stands on; an advisor (diagonally) and a king (orthogonally) one step when both
 * squares are in a palace, either side's; a pawn one step forward and, once across the river,
 * one step sideways. A piece attacks pieces of either colour; generals facing each other are no
 * attack. Every rule but the pawn's is symmetric: a piece of that type on `to` would attack
 * `from` under the same occupancy. */
#ifndef NNUE_GAMES_XIANGQI_BITBOARD_H
#define NNUE_GAMES_XIANGQI_BITBOARD_H

#include <stdint.h>

#include "games/xiangqi/internal.h"

typedef unsigned __int128 xq_bb; /* bit sq = square sq */

static inline xq_bb xq_bit(int sq)
{
    return (xq_bb)1 << sq;
}

static inline int xq_lsb(xq_bb b)
{
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

static inline int xq_msb(xq_bb b)
{
    uint64_t hi = (uint64_t)(b >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)b);
}

/* Directions: orthogonal d = 0 +rank, 1 -rank, 2 +file, 3 -file; diagonal d = 0 (+1,+1),
 * 1 (-1,-1), 2 (+1,-1), 3 (-1,+1) as (file, rank). d ^ 1 is the opposite of d. */
extern xq_bb xq_ray[XQ_SQUARES][4];         /* the squares beyond sq in orthogonal d */
extern int8_t xq_next[XQ_SQUARES][4];       /* orthogonal neighbour, or -1 */
extern int8_t xq_diag_next[XQ_SQUARES][4];  /* diagonal neighbour, or -1 */
extern xq_bb xq_horse_to[XQ_SQUARES][4];    /* a horse on sq, leg xq_next[sq][d]: its targets */
extern xq_bb xq_horse_over[XQ_SQUARES][4];  /* a horse on xq_next[sq][d] with its leg on sq: its targets */
extern xq_bb xq_horse_from[XQ_SQUARES][4];  /* horses that attack sq with their leg on xq_diag_next[sq][d] */
extern xq_bb xq_elephant_to[XQ_SQUARES][4]; /* an elephant on sq, eye xq_diag_next[sq][d]: its target */
extern xq_bb xq_elephant_over[XQ_SQUARES][4]; /* an elephant on xq_diag_next[sq][d], eye on sq: its target */
extern xq_bb xq_advisor_to[XQ_SQUARES];     /* advisor steps (symmetric) */
extern xq_bb xq_king_to[XQ_SQUARES];        /* king steps (symmetric) */
extern xq_bb xq_pawn_to[2][XQ_SQUARES];     /* a pawn of colour c on sq: its targets */
extern xq_bb xq_pawn_from[2][XQ_SQUARES];   /* pawns of colour c that would attack sq */

/* The lowest and the highest square of a set, or -1 for an empty one, with no branch on whether
 * it is empty (the line scans of a move step mispredicted on it): the lowest over a bit past the
 * board, the highest of the set shifted up one over a set bit 0. */
static inline int xq_lowest_or_none(xq_bb b)
{
    int r = xq_lsb(b | xq_bit(XQ_SQUARES));
    return r < XQ_SQUARES ? r : -1;
}

static inline int xq_highest_or_none(xq_bb b)
{
    return xq_msb(b << 1 | 1) - 1;
}

/* The pieces on the ray from sq in orthogonal direction d, nearest first: the first (first) and
 * the second (second), -1 where there is none. Upwards (d even) the lowest squares, downwards
 * the highest. */
static inline void xq_first_two_on(xq_bb occ, int sq, int d, int *first, int *second)
{
    xq_bb b = xq_ray[sq][d] & occ;
    if (d & 1) {
        int f = xq_highest_or_none(b);
        *first = f;
        *second = xq_highest_or_none(b & ~xq_bit(f & 127)); /* f = -1: bit 127, in no set */
    } else {
        *first = xq_lowest_or_none(b);
        *second = xq_lowest_or_none(b & (b - 1));
    }
}

/* The occupied squares a horse, elephant, advisor, king or pawn p on sq attacks (occ: the
 * occupancy); rooks and cannons attack along lines (xq_first_two_on). */
static inline xq_bb xq_step_targets(uint8_t p, int sq, xq_bb occ)
{
    xq_bb t = 0;
    switch (NNUE_PIECE_TYPE(p)) {
    case XQ_KNIGHT:
        for (int d = 0; d < 4; d++)
            if (xq_next[sq][d] >= 0 && !((occ >> xq_next[sq][d]) & 1))
                t |= xq_horse_to[sq][d];
        return t & occ;
    case XQ_BISHOP:
        for (int d = 0; d < 4; d++)
            if (xq_diag_next[sq][d] >= 0 && !((occ >> xq_diag_next[sq][d]) & 1))
                t |= xq_elephant_to[sq][d];
        return t & occ;
    case XQ_ADVISOR:
        return xq_advisor_to[sq] & occ;
    case XQ_KING:
        return xq_king_to[sq] & occ;
    case XQ_PAWN:
        return xq_pawn_to[NNUE_PIECE_COLOUR(p) & 1][sq] & occ;
    default:
        return 0;
    }
}

#endif
