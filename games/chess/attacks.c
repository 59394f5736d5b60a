/* games/chess/attacks.c: the attack tables (rays, knight, king, pawn, between,
 * line) built once by nnue_chess_init. See bitboard.h for how they are used. */
#include <pthread.h>

#include "games/chess/bitboard.h"

bb_t chess_ray[8][64];
bb_t chess_knight[64];
bb_t chess_king[64];
bb_t chess_pawn_att[2][64];
bb_t chess_between[64][64];
bb_t chess_line[64][64];

/* File and rank steps of each direction, in the order of the DIR_ enum. */
static const int dir_df[8] = {0, 1, -1, 1, 0, -1, 1, -1};
static const int dir_dr[8] = {1, 1, 1, 0, -1, -1, -1, 0};

static int on_board(int f, int r)
{
    return f >= 0 && f < 8 && r >= 0 && r < 8;
}

/* Sets the bit of (f + df, r + dr) in *b when that square exists. */
static void add_step(bb_t *b, int f, int r, int df, int dr)
{
    if (on_board(f + df, r + dr))
        *b |= BB(SQ_MAKE(f + df, r + dr));
}

static void build_tables(void)
{
    static const int knight_df[8] = {1, 2, 2, 1, -1, -2, -2, -1};
    static const int knight_dr[8] = {2, 1, -1, -2, -2, -1, 1, 2};
    for (int sq = 0; sq < 64; sq++) {
        int f = SQ_FILE(sq), r = SQ_RANK(sq);
        for (int d = 0; d < 8; d++) {
            bb_t ray = 0;
            for (int ff = f + dir_df[d], rr = r + dir_dr[d]; on_board(ff, rr);
                 ff += dir_df[d], rr += dir_dr[d])
                ray |= BB(SQ_MAKE(ff, rr));
            chess_ray[d][sq] = ray;
            add_step(&chess_king[sq], f, r, dir_df[d], dir_dr[d]);
            add_step(&chess_knight[sq], f, r, knight_df[d], knight_dr[d]);
        }
        add_step(&chess_pawn_att[0][sq], f, r, -1, 1);
        add_step(&chess_pawn_att[0][sq], f, r, 1, 1);
        add_step(&chess_pawn_att[1][sq], f, r, -1, -1);
        add_step(&chess_pawn_att[1][sq], f, r, 1, -1);
    }
    for (int a = 0; a < 64; a++)
        for (int d = 0; d < 8; d++) {
            int opposite = (d + 4) & 7;
            bb_t ray = chess_ray[d][a];
            while (ray) {
                int b = bb_pop(&ray);
                /* Between: the part of a's ray that lies before b. */
                chess_between[a][b] = chess_ray[d][a] & ~chess_ray[d][b] & ~BB(b);
                chess_line[a][b] = chess_ray[d][a] | chess_ray[opposite][a] | BB(a);
            }
        }
}

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

void nnue_chess_init(void)
{
    pthread_once(&tables_once, build_tables);
}
