/* tests/features/test_features_shogi.c: the shogi sets (HalfKP, HalfKA_hm2, HalfKA2), incremental
 * vs full.
 *
 * Through the generic game vtable (nnue_game_find("shogi")): every move of
 * shared/oracle/shogi/movesA.tsv (moves, promotions, drops, captures to hand), every ply of
 * gamesA_random.tsv (20 complete games; each position after a move is also compared with the
 * next row's SFEN), every legal move of handicapA.sfen (fewer than 38 pieces: BonaPiece-0
 * padding, FORMATS.md 4.4) and of a subset of corpusA.sfen (all of it with argument "slow").
 * Invariants: fs_check.h (38 or 40 active indices, only the padding index repeats, refresh
 * exactly when the perspective's own king moved, FORMATS.md sections 5 and 11; for the HalfKA
 * sets that includes every king move that flips the mirror). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_lines.h"
#include "fs_check.h"
#include "nnue_error.h"

#define CORPUS_STRIDE 2   /* corpusA positions checked in the quick run: every 2nd */

static fs_case cases[FS_MAX_CASES];
static int n_cases;

static void setup(void)
{
    n_cases = fs_cases_for("shogi", cases, FS_MAX_CASES);
}

START_TEST(shogi_cases_registered)
{
    ck_assert_int_eq(n_cases, 3);
    ck_assert_str_eq(cases[0].fs->name, "HalfKP_shogi");
    ck_assert_str_eq(cases[1].fs->name, "HalfKA_hm2_shogi");
    ck_assert_str_eq(cases[2].fs->name, "HalfKA2_shogi");
}
END_TEST

START_TEST(movesA_incremental_matches_full)
{
    char *buf, **lines;
    int n = data_lines("oracle/shogi/movesA.tsv", &buf, &lines);
    const nnue_game *g = fs_game("shogi");
    void *pos = malloc(g->pos_size);
    int checked = 0, incremental = 0;
    for (int i = 0; i < n; i++) {
        char *f[5];
        if (test_split_tabs(lines[i], f, 5) < 3)
            continue;
        nnue_error err;
        char where[512];
        snprintf(where, sizeof where, "shogi movesA row %d: %s | %s", i + 1, f[0], f[1]);
        FS_REQUIRE(g->parse(pos, f[0], &err) == 0, "%s: parse: %s", where, err.message);
        nnue_move m;
        FS_REQUIRE(g->parse_move(pos, f[1], &m, &err) == 0, "%s: move: %s", where, err.message);
        incremental += fs_check_move(g, pos, m, cases, n_cases, f[2], where);
        checked++;
    }
    ck_assert_int_eq(checked, 2000);
    ck_assert_int_gt(incremental, checked);
    fprintf(stderr, "shogi movesA: %d moves, %d incremental perspective updates\n", checked,
            incremental);
    free(pos);
    free(lines);
    free(buf);
}
END_TEST

START_TEST(gamesA_every_ply)
{
    char *buf, **lines;
    int n = data_lines("oracle/shogi/gamesA_random.tsv", &buf, &lines);
    const nnue_game *g = fs_game("shogi");
    void *pos = malloc(g->pos_size);
    char *(*rows)[4] = malloc((size_t)n * sizeof *rows);
    for (int i = 0; i < n; i++)
        FS_REQUIRE(test_split_tabs(lines[i], rows[i], 4) == 4, "gamesA row %d: 4 fields", i + 1);
    int plies = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(rows[i][3], "-") == 0)
            continue;
        int next_same_game = i + 1 < n && strcmp(rows[i + 1][0], rows[i][0]) == 0;
        char where[512];
        snprintf(where, sizeof where, "gamesA game %s ply %s: %s | %s", rows[i][0], rows[i][1],
                 rows[i][2], rows[i][3]);
        nnue_error err;
        FS_REQUIRE(g->parse(pos, rows[i][2], &err) == 0, "%s: parse: %s", where, err.message);
        nnue_move m;
        FS_REQUIRE(g->parse_move(pos, rows[i][3], &m, &err) == 0, "%s: move: %s", where,
                   err.message);
        fs_check_move(g, pos, m, cases, n_cases, next_same_game ? rows[i + 1][2] : NULL, where);
        plies++;
    }
    ck_assert_int_eq(plies, n - 20);   /* 20 games, the last row of each has no move */
    fprintf(stderr, "shogi gamesA: %d plies\n", plies);
    free(rows);
    free(pos);
    free(lines);
    free(buf);
}
END_TEST

static void all_moves_of(const char *relative, int stride)
{
    char *buf, **lines;
    int n = data_lines(relative, &buf, &lines);
    const nnue_game *g = fs_game("shogi");
    long moves = 0;
    int positions = 0;
    for (int i = 0; i < n; i += stride) {
        moves += fs_check_all_moves(g, lines[i], cases, n_cases);
        positions++;
    }
    ck_assert_int_gt(moves, positions);
    fprintf(stderr, "%s: %d positions, %ld legal moves\n", relative, positions, moves);
    free(lines);
    free(buf);
}

START_TEST(handicap_padding_all_legal_moves)
{
    all_moves_of("oracle/shogi/handicapA.sfen", 1);
}
END_TEST

START_TEST(corpusA_subset_all_legal_moves)
{
    all_moves_of("oracle/shogi/corpusA.sfen", CORPUS_STRIDE);
}
END_TEST

START_TEST(corpusA_all_legal_moves)
{
    all_moves_of("oracle/shogi/corpusA.sfen", 1);
}
END_TEST

int main(int argc, char **argv)
{
    int slow = argc > 1 && strcmp(argv[1], "slow") == 0;
    /* In the parent: a missing file skips the whole program (exit 77), loudly. */
    test_require_shared("oracle/shogi/movesA.tsv");
    test_require_shared("oracle/shogi/gamesA_random.tsv");
    test_require_shared("oracle/shogi/handicapA.sfen");
    test_require_shared("oracle/shogi/corpusA.sfen");
    Suite *s = suite_create("features_shogi");
    TCase *tc = tcase_create(slow ? "slow" : "quick");
    tcase_add_unchecked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 600);
    if (slow) {
        tcase_add_test(tc, corpusA_all_legal_moves);
    } else {
        tcase_add_test(tc, shogi_cases_registered);
        tcase_add_test(tc, movesA_incremental_matches_full);
        tcase_add_test(tc, gamesA_every_ply);
        tcase_add_test(tc, handicap_padding_all_legal_moves);
        tcase_add_test(tc, corpusA_subset_all_legal_moves);
    }
    suite_add_tcase(s, tc);
    return test_run(s);
}
