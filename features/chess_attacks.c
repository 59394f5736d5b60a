/* features/chess_attacks.c: the tables of chess_attacks.h, built when the library is loaded, and
 * the piece sets of a board view. */
#include "features/chess_attacks.h"

#include "features/feature_util.h"

#include <string.h>

uint64_t nnue_ca_ray[8][64];
uint64_t nnue_ca_knight[64], nnue_ca_king[64];
uint64_t nnue_ca_pawn[2][64], nnue_ca_pawn_from[2][64];

static uint64_t step_set(int sq, const int (*d)[2], int n)
{
    uint64_t b = 0;
    for (int i = 0; i < n; i++) {
        int f = (sq & 7) + d[i][0], r = (sq >> 3) + d[i][1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8)
            b |= 1ull << (r * 8 + f);
    }
    return b;
}

/* Constant tables: written here once, before any caller can run, never again. Priority 101 runs
 * this before the default-priority constructors of the feature sets that build on it. */
__attribute__((constructor(101))) static void chess_attack_tables(void)
{
    static const int ray_d[8][2] = {{0, 1}, {1, 1}, {-1, 1}, {1, 0}, {0, -1}, {-1, -1}, {1, -1}, {-1, 0}};
    static const int knight_d[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int pawn_d[2][2][2] = {{{-1, 1}, {1, 1}}, {{-1, -1}, {1, -1}}};
    for (int sq = 0; sq < 64; sq++) {
        nnue_ca_knight[sq] = step_set(sq, knight_d, 8);
        nnue_ca_king[sq] = step_set(sq, ray_d, 8);
        for (int c = 0; c < 2; c++)
            nnue_ca_pawn[c][sq] = (sq >> 3) >= 1 && (sq >> 3) <= 6 ? step_set(sq, pawn_d[c], 2) : 0;
        for (int d = 0; d < 8; d++)
            for (int f = (sq & 7) + ray_d[d][0], r = (sq >> 3) + ray_d[d][1]; f >= 0 && f < 8 && r >= 0 && r < 8;
                 f += ray_d[d][0], r += ray_d[d][1])
                nnue_ca_ray[d][sq] |= 1ull << (r * 8 + f);
    }
    for (int c = 0; c < 2; c++)
        for (int sq = 0; sq < 64; sq++)
            for (uint64_t a = nnue_ca_pawn[c][sq]; a; a &= a - 1)
                nnue_ca_pawn_from[c][__builtin_ctzll(a)] |= 1ull << sq;
}

void nnue_ca_sets_of(const nnue_board *board, nnue_ca_sets *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 8; i++)
        s->occupied |= nnue_fs_nonzero_bytes8(board->piece_on + 8 * i) << (8 * i);
    for (uint64_t o = s->occupied; o; o &= o - 1) {
        int sq = __builtin_ctzll(o);
        uint8_t p = board->piece_on[sq];
        s->colour[NNUE_PIECE_COLOUR(p) & 1] |= 1ull << sq;
        s->type[NNUE_PIECE_TYPE(p) & 7] |= 1ull << sq;
    }
}
