/* games/shogi/attacks.c: movement tables of the shogi pieces and the
 * "is this cell attacked" queries used for check and legality. */
#include "games/shogi/internal.h"

/* Mailbox cell -> square and rank: columns of 13 cells, 2 walls, ranks a..i, 2 walls. */
#define WALLS13 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255
#define SQCOL(f) 255, 255, (f) * 9, (f) * 9 + 1, (f) * 9 + 2, (f) * 9 + 3, (f) * 9 + 4, \
                 (f) * 9 + 5, (f) * 9 + 6, (f) * 9 + 7, (f) * 9 + 8, 255, 255
#define RANKCOL(f) 255, 255, 0, 1, 2, 3, 4, 5, 6, 7, 8, 255, 255
#define COLS(F) F(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7), F(8)
const uint8_t sh_cell_sq[NNUE_SHOGI_CELLS] = {WALLS13, COLS(SQCOL), WALLS13};
const uint8_t sh_cell_rank[NNUE_SHOGI_CELLS] = {WALLS13, COLS(RANKCOL), WALLS13};

/* N, S, W(file-1), E(file+1), NW, NE, SW, SE, black knight x2, white knight x2. */
const int sh_offset[12] = {-1, +1, -13, +13, -14, +12, -12, +14, -15, +11, -11, +15};
const uint8_t sh_opposite[8] = {1, 0, 3, 2, 7, 6, 5, 4};

#define D_N 1u
#define D_S 2u
#define D_W 4u
#define D_E 8u
#define D_NW 16u
#define D_NE 32u
#define D_SW 64u
#define D_SE 128u
#define D_KN (256u | 512u)
#define GOLD_STEPS (D_N | D_S | D_W | D_E | D_NW | D_NE)
#define DIAG (D_NW | D_NE | D_SW | D_SE)
#define ORTH (D_N | D_S | D_W | D_E)

/* White's tables are black's turned by 180 degrees: every direction reversed. */
#define MIR(m) ((((m) & 1u) << 1) | (((m) & 2u) >> 1) | (((m) & 4u) << 1) | (((m) & 8u) >> 1) | \
                (((m) & 16u) << 3) | (((m) & 128u) >> 3) | (((m) & 32u) << 1) | \
                (((m) & 64u) >> 1) | (((m) & 256u) << 3) | (((m) & 2048u) >> 3) | \
                (((m) & 512u) << 1) | (((m) & 1024u) >> 1))

#define STEPS_BLACK(t)                                                                      \
    ((t) == SH_PAWN ? D_N : (t) == SH_KNIGHT ? D_KN                                          \
     : (t) == SH_SILVER ? (D_N | DIAG) : (t) == SH_KING ? (ORTH | DIAG)                      \
     : (t) == SH_HORSE ? ORTH : (t) == SH_DRAGON ? DIAG                                      \
     : ((t) == SH_GOLD || ((t) >= SH_PRO_PAWN && (t) <= SH_PRO_SILVER)) ? GOLD_STEPS : 0u)
#define SLIDES_BLACK(t)                                                                     \
    ((t) == SH_LANCE ? D_N : ((t) == SH_BISHOP || (t) == SH_HORSE) ? DIAG                    \
     : ((t) == SH_ROOK || (t) == SH_DRAGON) ? ORTH : 0u)

#define ROW16(F) F(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7), F(8), F(9), F(10), F(11), \
                 F(12), F(13), F(14), F(15)
#define SB(t) ((t) == 0 ? 0u : STEPS_BLACK(t))
#define SW(t) ((t) == 0 ? 0u : MIR(STEPS_BLACK(t)))
#define LB(t) ((t) == 0 ? 0u : SLIDES_BLACK(t))
#define LW(t) ((t) == 0 ? 0u : MIR(SLIDES_BLACK(t)))

const uint16_t sh_step_mask[32] = {ROW16(SB), ROW16(SW)};
const uint8_t sh_slide_mask[32] = {ROW16(LB), ROW16(LW)};

const uint8_t sh_promote[16] = {0, SH_PRO_PAWN, SH_PRO_LANCE, SH_PRO_KNIGHT, SH_PRO_SILVER,
                                0, SH_HORSE, SH_DRAGON, 0, 0, 0, 0, 0, 0, 0, 0};
const uint8_t sh_demote[16] = {0, SH_PAWN, SH_LANCE, SH_KNIGHT, SH_SILVER, SH_GOLD,
                               SH_BISHOP, SH_ROOK, SH_KING, SH_PAWN, SH_LANCE, SH_KNIGHT,
                               SH_SILVER, SH_BISHOP, SH_ROOK, 0};
const uint8_t sh_max_count[8] = {0, 18, 4, 4, 4, 4, 2, 2};
const char sh_letter[8] = {'?', 'P', 'L', 'N', 'S', 'G', 'B', 'R'};

/* Collects up to max cells of `by` pieces attacking cell; returns the total found
 * (stops early once max is reached, so with max = 1 it is a yes/no test). */
int sh_attackers_on(const uint8_t *b, int cell, int by, int *cells, int max)
{
    int n = 0;
    for (int i = 0; i < 8; i++) {
        int t = cell - sh_offset[i];
        unsigned p = b[t];
        if (p) {
            if (sh_colour(p) == by && (((sh_step_mask[p & 31] | sh_slide_mask[p & 31]) >> i) & 1)) {
                if (cells)
                    cells[n] = t;
                if (++n >= max)
                    return n;
            }
            continue;
        }
        do
            t -= sh_offset[i];
        while (b[t] == 0);
        p = b[t];
        if (sh_colour(p) == by && ((sh_slide_mask[p & 31] >> i) & 1)) {
            if (cells)
                cells[n] = t;
            if (++n >= max)
                return n;
        }
    }
    unsigned knight = NNUE_PIECE(by, SH_KNIGHT);
    int k0 = by == SH_BLACK ? 8 : 10;
    for (int i = k0; i < k0 + 2; i++) {
        int t = cell - sh_offset[i];
        if (b[t] == knight) {
            if (cells)
                cells[n] = t;
            if (++n >= max)
                return n;
        }
    }
    return n;
}

int sh_attackers(const nnue_shogi_pos *pos, int cell, int by, int *cells, int max)
{
    return sh_attackers_on(pos->cell, cell, by, cells, max);
}

int sh_attacked(const nnue_shogi_pos *pos, int cell, int by)
{
    return sh_attackers_on(pos->cell, cell, by, NULL, 1) > 0;
}

int nnue_shogi_in_check(const nnue_shogi_pos *pos)
{
    if (!pos)
        return 0;
    int us = pos->board.side_to_move;
    return sh_attacked(pos, pos->king_cell[us], us ^ 1);
}
