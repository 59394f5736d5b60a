/* games/chess/bitboard.h: bitboard helpers and attack-table lookups shared by
 * the chess adapter's files (internal; the public API is include/nnue_chess.h).
 * Sliding attacks use the classical ray method: per direction, the ray from the
 * square is cut at the first blocker (lowest bit for rays going up the board,
 * highest for rays going down). */
#ifndef NNUE_GAMES_CHESS_BITBOARD_H
#define NNUE_GAMES_CHESS_BITBOARD_H

#include <stdint.h>

#include "nnue_chess.h"

typedef uint64_t bb_t;

#define BB(sq) ((bb_t)1 << (sq))
#define SQ_FILE(sq) ((sq) & 7)
#define SQ_RANK(sq) ((sq) >> 3)
#define SQ_MAKE(file, rank) ((rank) * 8 + (file))

#define RANK_1 0x00000000000000FFull
#define RANK_8 0xFF00000000000000ull

static inline int bb_lsb(bb_t b) { return __builtin_ctzll(b); }
static inline int bb_msb(bb_t b) { return 63 - __builtin_clzll(b); }
static inline int bb_count(bb_t b) { return __builtin_popcountll(b); }
static inline int bb_pop(bb_t *b)
{
    int sq = __builtin_ctzll(*b);
    *b &= *b - 1;
    return sq;
}

/* Directions: 0..3 go up the board (N, NE, NW, E), 4..7 go down (S, SW, SE, W). */
enum { DIR_N, DIR_NE, DIR_NW, DIR_E, DIR_S, DIR_SW, DIR_SE, DIR_W };

/* Tables filled by nnue_chess_init (attacks.c). */
extern bb_t chess_ray[8][64];          /* squares from sq (exclusive) to the edge */
extern bb_t chess_knight[64];
extern bb_t chess_king[64];
extern bb_t chess_pawn_att[2][64];     /* squares a pawn of colour c on sq attacks */
extern bb_t chess_between[64][64];     /* squares strictly between two aligned squares */
extern bb_t chess_line[64][64];        /* whole line through two aligned squares, else 0 */

/* The ray cut at its first blocker, without a branch: with no blocker the lookup lands on h8 (up)
 * or a1 (down), whose rays in those directions are empty, so the whole ray stays. */
static inline bb_t ray_up(int dir, int sq, bb_t occ)
{
    bb_t r = chess_ray[dir][sq];
    return r ^ chess_ray[dir][bb_lsb((r & occ) | BB(63))];
}

static inline bb_t ray_down(int dir, int sq, bb_t occ)
{
    bb_t r = chess_ray[dir][sq];
    return r ^ chess_ray[dir][bb_msb((r & occ) | 1)];
}

static inline bb_t rook_attacks(int sq, bb_t occ)
{
    return ray_up(DIR_N, sq, occ) | ray_up(DIR_E, sq, occ) | ray_down(DIR_S, sq, occ) |
           ray_down(DIR_W, sq, occ);
}

static inline bb_t bishop_attacks(int sq, bb_t occ)
{
    return ray_up(DIR_NE, sq, occ) | ray_up(DIR_NW, sq, occ) | ray_down(DIR_SW, sq, occ) |
           ray_down(DIR_SE, sq, occ);
}

static inline bb_t pieces_of(const nnue_chess_pos *p, int colour, int type)
{
    return p->by_type[type] & p->by_colour[colour];
}

/* Pieces of either colour attacking sq, given occupancy occ. */
static inline bb_t chess_attackers_to(const nnue_chess_pos *p, int sq, bb_t occ)
{
    bb_t rq = p->by_type[NNUE_CHESS_ROOK] | p->by_type[NNUE_CHESS_QUEEN];
    bb_t bq = p->by_type[NNUE_CHESS_BISHOP] | p->by_type[NNUE_CHESS_QUEEN];
    return (chess_pawn_att[1][sq] & pieces_of(p, 0, NNUE_CHESS_PAWN)) |
           (chess_pawn_att[0][sq] & pieces_of(p, 1, NNUE_CHESS_PAWN)) |
           (chess_knight[sq] & p->by_type[NNUE_CHESS_KNIGHT]) |
           (chess_king[sq] & p->by_type[NNUE_CHESS_KING]) |
           (rook_attacks(sq, occ) & rq) | (bishop_attacks(sq, occ) & bq);
}

/* 1 if colour `by` attacks sq with occupancy occ. */
static inline int chess_attacked(const nnue_chess_pos *p, int sq, int by, bb_t occ)
{
    bb_t them = p->by_colour[by];
    if ((chess_pawn_att[by ^ 1][sq] & p->by_type[NNUE_CHESS_PAWN] & them) ||
        (chess_knight[sq] & p->by_type[NNUE_CHESS_KNIGHT] & them) ||
        (chess_king[sq] & p->by_type[NNUE_CHESS_KING] & them))
        return 1;
    bb_t rq = (p->by_type[NNUE_CHESS_ROOK] | p->by_type[NNUE_CHESS_QUEEN]) & them;
    if (rq && (rook_attacks(sq, occ) & rq))
        return 1;
    bb_t bq = (p->by_type[NNUE_CHESS_BISHOP] | p->by_type[NNUE_CHESS_QUEEN]) & them;
    return bq && (bishop_attacks(sq, occ) & bq);
}

/* The en-passant rule of include/nnue_chess.h: a target square ep (behind a
 * pawn that just made a double step) is kept only when a pawn of the side to
 * move `us` attacks it, i.e. stands next to that pawn. */
static inline int chess_ep_usable(const nnue_chess_pos *p, int ep, int us)
{
    return (chess_pawn_att[us ^ 1][ep] & pieces_of(p, us, NNUE_CHESS_PAWN)) != 0;
}

/* Internal: puts/removes a piece on bitboards and the nnue_board (no king_sq update). */
static inline void chess_put(nnue_chess_pos *p, int sq, uint8_t piece)
{
    bb_t b = BB(sq);
    p->by_type[NNUE_PIECE_TYPE(piece)] |= b;
    p->by_colour[NNUE_PIECE_COLOUR(piece)] |= b;
    p->occupied |= b;
    p->board.piece_on[sq] = piece;
}

static inline void chess_remove(nnue_chess_pos *p, int sq)
{
    uint8_t piece = p->board.piece_on[sq];
    bb_t b = ~BB(sq);
    p->by_type[NNUE_PIECE_TYPE(piece)] &= b;
    p->by_colour[NNUE_PIECE_COLOUR(piece)] &= b;
    p->occupied &= b;
    p->board.piece_on[sq] = 0;
}

/* The descriptor's notation and match rules (games/chess/san.c, games/chess/rules.c). */
void chess_san(const void *pos, nnue_move move, char *out, unsigned size);
int chess_adjudicate(const void *pos, const nnue_game_history *h, int *winner, const char **reason);

#endif
