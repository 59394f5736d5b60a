/* tests/games/test_toy_game.c: a game added from tests/ alone (issue 23 item 7). The toy 9x10
 * game (toy_game.c) and its feature set (toy_features.c) register at run time; its perft
 * equals an independent brute-force count; a YAML names both; a random net evaluates it, and
 * states pushed with the game's deltas evaluate exactly as fresh resets do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch.h"
#include "core/net/net.h"
#include "features/feature_set.h"
#include "games/perft.h"
#include "nnue.h"
#include "support.h"
#include "toy_game.h"

extern const nnue_feature_set toy_features;

/* ---- independent brute force: a 10x9 grid, every (piece, target) pair tried geometrically */

typedef struct grid {
    char sq[TOY_RANKS][TOY_FILES];  /* 'K' 'R' 'k' 'r' or 0 */
    int white_to_move;
} grid;

static int is_white(char c)
{
    return c == 'K' || c == 'R';
}

/* Whether the piece c at (r0, f0) reaches (r1, f1) on g: kings one step, rooks along a clear
 * file or rank. */
static int reaches(const grid *g, char c, int r0, int f0, int r1, int f1)
{
    int dr = r1 - r0, df = f1 - f0;
    if (!dr && !df)
        return 0;
    if (c == 'K' || c == 'k')
        return abs(dr) <= 1 && abs(df) <= 1;
    if (dr && df)
        return 0;
    int sr = (dr > 0) - (dr < 0), sf = (df > 0) - (df < 0);
    for (int r = r0 + sr, f = f0 + sf; r != r1 || f != f1; r += sr, f += sf)
        if (g->sq[r][f])
            return 0;
    return 1;
}

static int king_attacked(const grid *g, int white)
{
    int kr = -1, kf = -1;
    for (int r = 0; r < TOY_RANKS; r++)
        for (int f = 0; f < TOY_FILES; f++)
            if (g->sq[r][f] == (white ? 'K' : 'k'))
                kr = r, kf = f;
    for (int r = 0; r < TOY_RANKS; r++)
        for (int f = 0; f < TOY_FILES; f++)
            if (g->sq[r][f] && is_white(g->sq[r][f]) != white && reaches(g, g->sq[r][f], r, f, kr, kf))
                return 1;
    return 0;
}

static unsigned long long brute(grid *g, int depth)
{
    if (depth == 0)
        return 1;
    unsigned long long n = 0;
    for (int r0 = 0; r0 < TOY_RANKS; r0++)
        for (int f0 = 0; f0 < TOY_FILES; f0++) {
            char c = g->sq[r0][f0];
            if (!c || is_white(c) != g->white_to_move)
                continue;
            for (int r1 = 0; r1 < TOY_RANKS; r1++)
                for (int f1 = 0; f1 < TOY_FILES; f1++) {
                    char t = g->sq[r1][f1];
                    if ((t && is_white(t) == g->white_to_move) || t == 'K' || t == 'k' ||
                        !reaches(g, c, r0, f0, r1, f1))
                        continue;
                    grid next = *g;
                    next.sq[r1][f1] = c;
                    next.sq[r0][f0] = 0;
                    if (king_attacked(&next, g->white_to_move))
                        continue;
                    next.white_to_move = !g->white_to_move;
                    n += brute(&next, depth - 1);
                }
        }
    return n;
}

/* The grid of a position text, read without the game's parser. */
static grid grid_of(const char *text)
{
    grid g;
    memset(&g, 0, sizeof g);
    int r = TOY_RANKS - 1, f = 0;
    for (; *text != ' '; text++) {
        if (*text == '/')
            r--, f = 0;
        else if (*text >= '1' && *text <= '9')
            f += *text - '0';
        else
            g.sq[r][f++] = *text;
    }
    g.white_to_move = text[1] == 'w';
    return g;
}

static const char *const positions[] = {
    TOY_START,
    "4k4/9/9/9/9/9/9/9/9/R3K3R w",
    "9/9/3k5/9/9/4R4/9/9/9/4K4 b",      /* black in check */
    "k8/9/1R7/9/9/9/9/9/9/2R1K4 b",     /* the black king is almost boxed in */
    "4k4/4r4/9/9/9/9/9/9/9/4K4 w",
};

START_TEST(perft_equals_brute_force)
{
    const nnue_game *g = nnue_game_find("toy9x10");
    ck_assert_ptr_eq(g, &toy_game);
    toy_pos pos;
    nnue_error err;
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
        ck_assert_msg(g->parse(&pos, positions[i], &err) == 0, "%s: %s", positions[i], err.message);
        char back[128];
        g->format(&pos, back, sizeof back);
        ck_assert_str_eq(back, positions[i]);
        for (int depth = 1; depth <= 3; depth++) {
            grid gr = grid_of(positions[i]);
            unsigned long long want = brute(&gr, depth), got = nnue_perft(g, &pos, depth);
            ck_assert_msg(got == want, "%s depth %d: perft %llu, brute force %llu", positions[i], depth, got, want);
            ck_assert_uint_gt(want, 0);
            static const unsigned long long start_counts[4] = {1, 29, 707, 20368};
            if (i == 0)  /* 29: the king 5 moves, each rook 9 up (the last takes) and 3 across */
                ck_assert_uint_eq(got, start_counts[depth]);
        }
        g->format(&pos, back, sizeof back);
        ck_assert_str_eq(back, positions[i]);  /* make/unmake left the position as it was */
    }
    /* Mate: the rook on i9 checks along rank 9, the one on i8 covers rank 8. */
    nnue_move moves[NNUE_MAX_MOVES];
    ck_assert_int_eq(g->parse(&pos, "k7R/8R/9/9/9/9/9/9/9/4K4 b", &err), 0);
    ck_assert_int_eq(g->legal_moves(&pos, moves), 0);
    ck_assert_int_eq(g->in_check(&pos), 1);
    /* Refused: a board of 9 ranks, a missing king, the side not to move in check. */
    ck_assert_int_ne(g->parse(&pos, "4k4/9/9/9/9/9/9/9/4K4 w", &err), 0);
    ck_assert_int_ne(g->parse(&pos, "9/9/9/9/9/9/9/9/9/4K4 w", &err), 0);
    ck_assert_int_ne(g->parse(&pos, "4k4/9/9/9/9/9/9/9/9/4R3K w", &err), 0);
}
END_TEST

START_TEST(registration_is_checked)
{
    nnue_error err;
    ck_assert_int_eq(nnue_register_game(&toy_game, &err), NNUE_OK);  /* the same descriptor again: a no-op */
    int count = nnue_game_count();
    nnue_game other = toy_game;                                      /* another under the same name */
    ck_assert_int_eq(nnue_register_game(&other, &err), NNUE_E_ARG);
    ck_assert_msg(strstr(err.message, "game 'toy9x10': the name is taken by another game"), "%s", err.message);
    ck_assert_int_eq(nnue_game_count(), count);
    nnue_game wide = toy_game;
    wide.name = "toy10x10";
    wide.files = 10;  /* 100 squares: more than NNUE_MAX_SQUARES */
    ck_assert_int_eq(nnue_register_game(&wide, &err), NNUE_E_ARG);
    ck_assert_ptr_null(nnue_game_find("toy10x10"));
    ck_assert_int_eq(nnue_register_internal_feature_set(&toy_features, &err), NNUE_OK); /* again: a no-op */
    nnue_feature_set copy = toy_features;
    ck_assert_int_eq(nnue_register_internal_feature_set(&copy, &err), NNUE_E_ARG);      /* its name, another set */
    ck_assert_msg(strstr(err.message, "the name is taken by another feature set"), "%s", err.message);
    ck_assert_int_ge(NNUE_MAX_SQUARES, 90);
    ck_assert_ptr_eq(nnue_game_at(nnue_game_count() - 1), &toy_game);
}
END_TEST

/* ---- the YAML, a random net, incremental == full ---- */

static nnue_net *net;

static void load_net(void)
{
    nnue_arch *arch;
    nnue_error err;
    char msg[1200];
    nnue_status st = nnue_arch_load(test_source_path("tests/games/toy9x10.yaml"), &arch, &err);
    nnue_error_format(&err, msg, sizeof msg);
    ck_assert_msg(st == NNUE_OK, "%s", msg);
    ck_assert_ptr_eq(arch->game_desc, &toy_game);
    ck_assert_uint_eq(arch->ft.total_inputs, 1080);
    char path[4096];
    snprintf(path, sizeof path, "%s/toy9x10-random.bin", test_build_dir());
    ck_assert_int_eq(nnue_net_write_random(arch, path, 20261125, &err), NNUE_OK);
    st = nnue_net_load(arch, path, &net, &err);
    nnue_error_format(&err, msg, sizeof msg);
    ck_assert_msg(st == NNUE_OK, "%s", msg);
    nnue_arch_free(arch);
}

static void same(nnue_state *pushed, nnue_state *fresh, const nnue_board *b, const char *where)
{
    nnue_eval_detail x, y;
    ck_assert_int_eq(nnue_state_reset(fresh, b), 0);
    nnue_evaluate(pushed, b, &x);
    nnue_evaluate(fresh, b, &y);
    ck_assert_msg(x.bucket == y.bucket && x.psqt == y.psqt && x.positional == y.positional && x.total == y.total,
                  "%s: incremental %d/%d/%d, full %d/%d/%d", where, x.bucket, x.positional, x.total, y.bucket,
                  y.positional, y.total);
    ck_assert_int_ge(x.bucket, 0);
}

/* Random games: after every move (and every unmove of a walk back) the state that was pushed
 * the game's deltas evaluates as a state reset from the board. */
START_TEST(incremental_equals_full)
{
    load_net();
    const nnue_game *g = &toy_game;
    nnue_state *pushed = nnue_state_new(net, 128), *fresh = nnue_state_new(net, 4);
    ck_assert_ptr_nonnull(pushed);
    uint64_t seed = 7;
    int buckets_seen[3] = {0, 0, 0}, values = 0;
    int32_t first_total = 0;
    for (int game = 0; game < 40; game++) {
        toy_pos pos;
        nnue_error err;
        const char *start = positions[game % (sizeof positions / sizeof positions[0])];
        ck_assert_int_eq(g->parse(&pos, start, &err), 0);
        ck_assert_int_eq(nnue_state_reset(pushed, g->board(&pos)), 0);
        nnue_move played[100];
        int plies = 0;
        for (; plies < 100; plies++) {
            char where[200];
            snprintf(where, sizeof where, "%s, game %d, ply %d", start, game, plies);
            same(pushed, fresh, g->board(&pos), where);
            nnue_eval_detail d;
            nnue_evaluate(pushed, g->board(&pos), &d);
            buckets_seen[d.bucket]++;
            values += d.total != first_total;
            first_total = plies == 0 && game == 0 ? d.total : first_total;
            nnue_move moves[NNUE_MAX_MOVES];
            int n = g->legal_moves(&pos, moves);
            if (n == 0)
                break;
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            nnue_delta delta;
            played[plies] = moves[seed % (uint64_t)n];
            g->make(&pos, played[plies], &delta);
            ck_assert_int_eq(nnue_state_push(pushed, g->board(&pos), &delta), 0);
        }
        while (plies-- > 0) {  /* and back */
            g->unmake(&pos, played[plies]);
            nnue_state_pop(pushed);
            same(pushed, fresh, g->board(&pos), "after a pop");
        }
    }
    ck_assert_msg(buckets_seen[0] && buckets_seen[1] && buckets_seen[2], "stacks %d %d %d", buckets_seen[0],
                  buckets_seen[1], buckets_seen[2]);
    ck_assert_int_gt(values, 0);  /* the random net does not evaluate everything alike */
    nnue_state_free(pushed);
    nnue_state_free(fresh);
    nnue_net_free(net);
}
END_TEST

/* The library checks boards against the game's descriptor: a chess-sized board, or a piece
 * type the toy does not have, is refused. */
START_TEST(boards_checked_against_the_descriptor)
{
    load_net();
    nnue_state *s = nnue_state_new(net, 8);
    toy_pos pos;
    nnue_error err;
    ck_assert_int_eq(toy_game.parse(&pos, TOY_START, &err), 0);
    ck_assert_int_eq(nnue_state_reset(s, &pos.board), 0);
    nnue_board bad = pos.board;
    bad.piece_on[40] = NNUE_PIECE(0, 3);
    bad.piece_count++;
    ck_assert_int_eq(nnue_state_reset(s, &bad), -1);
    bad = pos.board;
    bad.num_squares = 64;
    ck_assert_int_eq(nnue_state_reset(s, &bad), -1);
    nnue_state_free(s);
    nnue_net_free(net);
}
END_TEST

/* The feature set owns its king bucketing: its own YAML key, checked by the set itself. */
START_TEST(feature_set_owns_its_king_buckets)
{
    char *yaml = test_read_file(test_source_path("tests/games/toy9x10.yaml"), NULL);
    ck_assert_ptr_nonnull(yaml);
    char *at = strstr(yaml, "[0, 0, 0, 1, 1, 1, 2, 2, 2]");
    ck_assert_ptr_nonnull(at);
    nnue_arch *arch;
    nnue_error err;
    memcpy(at, "[0, 0, 0, 0, 1, 1, 1, 1, 1]", 27); /* two buckets: 2 x 360 inputs */
    ck_assert_int_eq(nnue_arch_load_string(yaml, strlen(yaml), "toy.yaml", &arch, &err), NNUE_OK);
    ck_assert_uint_eq(arch->ft.total_inputs, 720);
    ck_assert_uint_eq(arch->ft.sets[0].params.king_bucket_of[4], 1);
    nnue_arch_free(arch);
    memcpy(at, "[0, 0, 0, 0, 2, 2, 2, 2, 2]", 27); /* bucket 1 unused: the set refuses it */
    ck_assert_int_eq(nnue_arch_load_string(yaml, strlen(yaml), "toy.yaml", &arch, &err), NNUE_E_SHAPE);
    ck_assert_msg(strstr(err.message, "ToyKR 'king_files': bucket 1 is never used"), "%s", err.message);
    memcpy(at - 12, "king_fylez: ", 12); /* not a key of the set or the core */
    ck_assert_int_eq(nnue_arch_load_string(yaml, strlen(yaml), "toy.yaml", &arch, &err), NNUE_E_SCHEMA);
    ck_assert_msg(strstr(err.message, "king_fylez") && strstr(err.message, "king_files"), "%s", err.message);
    free(yaml);
}
END_TEST

/* A selector may read the toy's own variable, not another game's. */
START_TEST(selector_variables_come_from_the_game)
{
    char *yaml = test_read_file(test_source_path("tests/games/toy9x10.yaml"), NULL);
    ck_assert_ptr_nonnull(yaml);
    char *at = strstr(yaml, "toy_king_file");
    ck_assert_ptr_nonnull(at);
    memcpy(at, "stm_king_rank", 13);  /* a shogi variable, same length */
    nnue_arch *arch;
    nnue_error err;
    ck_assert_int_eq(nnue_arch_load_string(yaml, strlen(yaml), "toy.yaml", &arch, &err), NNUE_E_SCHEMA);
    ck_assert_msg(strstr(err.message, "'stm_king_rank' (not a toy9x10 fact)"), "%s", err.message);
    free(yaml);
}
END_TEST

int main(void)
{
    if (toy_register() != 0)
        return 1;
    Suite *s = suite_create("toy_game");
    TCase *tc = tcase_create("toy_game");
    tcase_add_test(tc, perft_equals_brute_force);
    tcase_add_test(tc, registration_is_checked);
    tcase_add_test(tc, incremental_equals_full);
    tcase_add_test(tc, boards_checked_against_the_descriptor);
    tcase_add_test(tc, selector_variables_come_from_the_game);
    tcase_add_test(tc, feature_set_owns_its_king_buckets);
    suite_add_tcase(s, tc);
    return test_run(s);
}
