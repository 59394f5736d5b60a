/* features/chess_attacks.h: chess attack sets for feature sets that read attacks (Full_Threats),
 * from the game-neutral board view alone (include/nnue_board.h), so any engine's board works.
 *
 * Facts: the chess moves of the pieces (pawns capture one square diagonally forward, knights,
 * kings; bishops, rooks and queens slide until the first occupied square, that square
 * included). Sliders use per-direction ray masks: the first blocker of a ray going up the board
 * is its lowest set bit, of a ray going down its highest; the ray from the blocker on is cut
 * off. Adding the far corner (h8 going up, a1 going down) as a sentinel blocker makes this
 * branch-free, since no ray leaves those corners in those directions. Tables are built once
 * when the library is loaded (a constructor in chess_attacks.c) and never written again. */
#ifndef NNUE_FEATURES_CHESS_ATTACKS_H
#define NNUE_FEATURES_CHESS_ATTACKS_H

#include <stdint.h>

#include "nnue_board.h"

/* Rays: directions 0..3 go up the board (N, NE, NW, E), 4..7 go down (S, SW, SE, W). */
extern uint64_t nnue_ca_ray[8][64];     /* squares from sq (exclusive) to the edge */
extern uint64_t nnue_ca_knight[64], nnue_ca_king[64];
extern uint64_t nnue_ca_pawn[2][64];    /* squares a pawn of colour c on sq attacks (none from ranks 1 and 8) */
extern uint64_t nnue_ca_pawn_from[2][64]; /* squares from which a pawn of colour c attacks sq */

/* Where the pieces stand: occupancy, by colour, by type (index = nnue chess type 1..6). */
typedef struct nnue_ca_sets {
    uint64_t occupied, colour[2], type[8];
} nnue_ca_sets;

/* The sets of a chess board. */
void nnue_ca_sets_of(const nnue_board *board, nnue_ca_sets *sets);

/* The sets after removing piece p from sq / putting it there (sq must be empty). */
static inline void nnue_ca_toggle(nnue_ca_sets *s, uint8_t p, int sq)
{
    uint64_t b = 1ull << sq;
    s->occupied ^= b;
    s->colour[NNUE_PIECE_COLOUR(p) & 1] ^= b;
    s->type[NNUE_PIECE_TYPE(p) & 7] ^= b;
}

static inline uint64_t nnue_ca_ray_up(int dir, int sq, uint64_t occupied)
{
    uint64_t r = nnue_ca_ray[dir][sq];
    return r ^ nnue_ca_ray[dir][__builtin_ctzll((r & occupied) | (1ull << 63))];
}

static inline uint64_t nnue_ca_ray_down(int dir, int sq, uint64_t occupied)
{
    uint64_t r = nnue_ca_ray[dir][sq];
    return r ^ nnue_ca_ray[dir][63 - __builtin_clzll((r & occupied) | 1)];
}

static inline uint64_t nnue_ca_bishop(int sq, uint64_t occupied)
{
    return nnue_ca_ray_up(1, sq, occupied) | nnue_ca_ray_up(2, sq, occupied) | nnue_ca_ray_down(5, sq, occupied) |
           nnue_ca_ray_down(6, sq, occupied);
}

static inline uint64_t nnue_ca_rook(int sq, uint64_t occupied)
{
    return nnue_ca_ray_up(0, sq, occupied) | nnue_ca_ray_up(3, sq, occupied) | nnue_ca_ray_down(4, sq, occupied) |
           nnue_ca_ray_down(7, sq, occupied);
}

/* Squares piece p (nnue chess code) on sq attacks. */
static inline __attribute__((always_inline)) uint64_t nnue_ca_attacks(uint8_t p, int sq, uint64_t occupied)
{
    switch (NNUE_PIECE_TYPE(p)) {
    case NNUE_CHESS_PAWN: return nnue_ca_pawn[NNUE_PIECE_COLOUR(p) & 1][sq];
    case NNUE_CHESS_KNIGHT: return nnue_ca_knight[sq];
    case NNUE_CHESS_BISHOP: return nnue_ca_bishop(sq, occupied);
    case NNUE_CHESS_ROOK: return nnue_ca_rook(sq, occupied);
    case NNUE_CHESS_QUEEN: return nnue_ca_bishop(sq, occupied) | nnue_ca_rook(sq, occupied);
    default: return nnue_ca_king[sq];
    }
}

/* Pieces of either colour attacking sq (the reverse of nnue_ca_attacks(): rays are symmetric). */
static inline uint64_t nnue_ca_attackers_to(const nnue_ca_sets *s, int sq)
{
    uint64_t queens = s->type[NNUE_CHESS_QUEEN], pawns = s->type[NNUE_CHESS_PAWN];
    return (nnue_ca_knight[sq] & s->type[NNUE_CHESS_KNIGHT]) | (nnue_ca_king[sq] & s->type[NNUE_CHESS_KING]) |
           (nnue_ca_pawn_from[0][sq] & pawns & s->colour[0]) | (nnue_ca_pawn_from[1][sq] & pawns & s->colour[1]) |
           (nnue_ca_bishop(sq, s->occupied) & (s->type[NNUE_CHESS_BISHOP] | queens)) |
           (nnue_ca_rook(sq, s->occupied) & (s->type[NNUE_CHESS_ROOK] | queens));
}

#endif
