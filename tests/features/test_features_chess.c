/* tests/features/test_features_chess.c: every chess feature set, incremental vs full.
 *
 * Through the generic game vtable (nnue_game_find("chess")), for every move of
 * shared/oracle/chess/movesA.tsv (castling, en passant, promotions, captures) and every legal
 * move of corpusA.fen positions (a subset here; all of them with the argument "slow"), checks
 * the invariants of fs_check.h for HalfKP, HalfKA, HalfKAv2, HalfKAv2_hm, Full_Threats (every
 * variant), PP_3Wide and Chess768 (Cwtch, Obsidian and unmirrored bucket params). Facts: chess FORMATS.md section 3, third FACTS.md. */
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
    n_cases = fs_cases_for("chess", cases, FS_MAX_CASES);
}

START_TEST(chess_cases_registered)
{
    ck_assert_int_eq(n_cases, 12);  /* 4 fixed sets + Chess768 with 4 params (one of them merged kings)
                                       + Full_Threats in 3 variants + PP_3Wide */
}
END_TEST

START_TEST(movesA_incremental_matches_full)
{
    char *buf, **lines;
    int n = data_lines("oracle/chess/movesA.tsv", &buf, &lines);
    const nnue_game *g = fs_game("chess");
    void *pos = malloc(g->pos_size);
    int checked = 0, incremental = 0;
    for (int i = 0; i < n; i++) {
        char *f[4];
        if (test_split_tabs(lines[i], f, 4) < 3 || strcmp(f[0], "fen") == 0)
            continue;
        nnue_error err;
        char where[512];
        snprintf(where, sizeof where, "movesA line %d: %s | %s", i + 1, f[0], f[1]);
        FS_REQUIRE(g->parse(pos, f[0], &err) == 0, "%s: parse: %s", where, err.message);
        nnue_move m;
        FS_REQUIRE(g->parse_move(pos, f[1], &m, &err) == 0, "%s: move: %s", where, err.message);
        incremental += fs_check_move(g, pos, m, cases, n_cases, f[2], where);
        checked++;
    }
    ck_assert_int_eq(checked, 2000);
    /* Most (set, perspective) pairs must have been updated incrementally. */
    ck_assert_int_gt(incremental, checked * n_cases);
    fprintf(stderr, "movesA: %d moves, %d incremental (set, perspective) updates\n", checked,
            incremental);
    free(pos);
    free(lines);
    free(buf);
}
END_TEST

static void corpus(int stride)
{
    char *buf, **lines;
    int n = data_lines("oracle/chess/corpusA.fen", &buf, &lines);
    const nnue_game *g = fs_game("chess");
    long moves = 0;
    int positions = 0;
    for (int i = 0; i < n; i += stride) {
        moves += fs_check_all_moves(g, lines[i], cases, n_cases);
        positions++;
    }
    ck_assert_int_gt(moves, positions);
    fprintf(stderr, "corpusA: %d positions, %ld legal moves\n", positions, moves);
    free(lines);
    free(buf);
}

START_TEST(corpusA_subset_all_legal_moves)
{
    corpus(CORPUS_STRIDE);
}
END_TEST

START_TEST(corpusA_all_legal_moves)
{
    corpus(1);
}
END_TEST

int main(int argc, char **argv)
{
    int slow = argc > 1 && strcmp(argv[1], "slow") == 0;
    /* In the parent: a missing file skips the whole program (exit 77), loudly. */
    test_require_shared("oracle/chess/movesA.tsv");
    test_require_shared("oracle/chess/corpusA.fen");
    Suite *s = suite_create("features_chess");
    TCase *tc = tcase_create(slow ? "slow" : "quick");
    tcase_add_unchecked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 600);
    if (slow) {
        tcase_add_test(tc, corpusA_all_legal_moves);
    } else {
        tcase_add_test(tc, chess_cases_registered);
        tcase_add_test(tc, movesA_incremental_matches_full);
        tcase_add_test(tc, corpusA_subset_all_legal_moves);
    }
    suite_add_tcase(s, tc);
    return test_run(s);
}
