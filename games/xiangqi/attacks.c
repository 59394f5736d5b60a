/* games/xiangqi/attacks.c: the attack tables of bitboard.h, built when the library is loaded
 * from the rules stated there (square by square, no occupancy: blockers are looked up at use). */
#include "games/xiangqi/bitboard.h"

xq_bb xq_ray[XQ_SQUARES][4];
int8_t xq_next[XQ_SQUARES][4];
int8_t xq_diag_next[XQ_SQUARES][4];
xq_bb xq_horse_to[XQ_SQUARES][4];
xq_bb xq_horse_over[XQ_SQUARES][4];
xq_bb xq_horse_from[XQ_SQUARES][4];
xq_bb xq_elephant_to[XQ_SQUARES][4];
xq_bb xq_elephant_over[XQ_SQUARES][4];
xq_bb xq_advisor_to[XQ_SQUARES];
xq_bb xq_king_to[XQ_SQUARES];
xq_bb xq_pawn_to[2][XQ_SQUARES];
xq_bb xq_pawn_from[2][XQ_SQUARES];

static const int ortho[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}}; /* (file, rank) */
static const int diag[4][2] = {{1, 1}, {-1, -1}, {1, -1}, {-1, 1}};

/* The square (f, r), or -1 off the board. */
static int square(int f, int r)
{
    return f >= 0 && f < XQ_FILES && r >= 0 && r < XQ_RANKS ? XQ_SQ(f, r) : -1;
}

static xq_bb bit_of(int sq)
{
    return sq >= 0 ? xq_bit(sq) : 0;
}

static int in_a_palace(int sq)
{
    int f = XQ_FILE(sq), r = XQ_RANK(sq);
    return f >= 3 && f <= 5 && (r <= 2 || r >= 7);
}

__attribute__((constructor)) static void xq_attack_tables(void)
{
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        int f = XQ_FILE(sq), r = XQ_RANK(sq);
        for (int d = 0; d < 4; d++) {
            int df = ortho[d][0], dr = ortho[d][1];
            for (int s = square(f + df, r + dr), k = 2; s >= 0; s = square(f + k * df, r + k * dr), k++)
                xq_ray[sq][d] |= xq_bit(s);
            xq_next[sq][d] = (int8_t)square(f + df, r + dr);
            /* Over the leg (f+df, r+dr): two steps along d, one across it either way. */
            if (xq_next[sq][d] >= 0)
                xq_horse_to[sq][d] = bit_of(square(f + 2 * df + dr, r + 2 * dr + df)) |
                                     bit_of(square(f + 2 * df - dr, r + 2 * dr - df));
            int ef = diag[d][0], er = diag[d][1];
            xq_diag_next[sq][d] = (int8_t)square(f + ef, r + er);
            int far = square(f + 2 * ef, r + 2 * er);
            if (far >= 0 && (XQ_RANK(far) > 4) == (r > 4))
                xq_elephant_to[sq][d] = xq_bit(far);
            /* Leg on the diagonal neighbour (f+ef, r+er): horses one step beyond it along either axis. */
            if (xq_diag_next[sq][d] >= 0)
                xq_horse_from[sq][d] = bit_of(square(f + 2 * ef, r + er)) | bit_of(square(f + ef, r + 2 * er));
            int step = square(f + ef, r + er);
            if (step >= 0 && in_a_palace(sq) && in_a_palace(step))
                xq_advisor_to[sq] |= xq_bit(step);
            step = xq_next[sq][d];
            if (step >= 0 && in_a_palace(sq) && in_a_palace(step))
                xq_king_to[sq] |= xq_bit(step);
        }
        for (int c = 0; c < 2; c++) {
            int fwd = c ? -1 : 1, across = c ? r <= 4 : r >= 5;
            xq_pawn_to[c][sq] = bit_of(square(f, r + fwd));
            if (across)
                xq_pawn_to[c][sq] |= bit_of(square(f - 1, r)) | bit_of(square(f + 1, r));
        }
    }
    /* The tables seen from the other end: the piece on a neighbour of sq, the square it attacks. */
    for (int sq = 0; sq < XQ_SQUARES; sq++)
        for (int d = 0; d < 4; d++) {
            if (xq_next[sq][d] >= 0)
                xq_horse_over[sq][d] = xq_horse_to[xq_next[sq][d]][d ^ 1];
            if (xq_diag_next[sq][d] >= 0)
                xq_elephant_over[sq][d] = xq_elephant_to[xq_diag_next[sq][d]][d ^ 1];
        }
    for (int c = 0; c < 2; c++)
        for (int sq = 0; sq < XQ_SQUARES; sq++)
            for (xq_bb t = xq_pawn_to[c][sq]; t; t &= t - 1)
                xq_pawn_from[c][xq_lsb(t)] |= xq_bit(sq);
}
