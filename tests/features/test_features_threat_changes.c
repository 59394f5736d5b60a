/* tests/features/test_features_threat_changes.c: the threat changes the chess adapter records
 * at make time (nnue_chess_make_threats, include/nnue_board.h nnue_threats) against the boards.
 *
 * For every move of movesA.tsv, every legal move of corpusA.fen (every 4th position; all with
 * the argument "slow") and every ply of 300 random games from the start position:
 *  - the lists are the exact difference of the two boards' threat pairs (every attacker-victim
 *    pair by the chess attack rules, brute force over the squares here): removed = before minus
 *    after, added = after minus before, no pair in both;
 *  - every set that takes them (changed_threats: Full_Threats in Stockfish 18's, Stockfish 19's
 *    and Reckless's variants) gives from them the same removed and added features, per
 *    perspective, as from the boards (changed()), and the same for both perspectives at once;
 *  - made again through each set's filter (its threat_pairs, nnue_chess_make_threats_filtered):
 *    the lists are the unfiltered ones less the pairs the filter does not pass, in order, and the
 *    set's features from them are the boards' as well; Stockfish 19's filter leaves pairs out;
 *  - every pair a set maps to a feature, for either king half of either side, passes its filter
 *    (every attacker and victim code, every attack on the empty board);
 *  - unmake restores the board; nnue_game_make_threats writes the same lists for chess and
 *    reports 0 with empty lists for a game without a recorder (shogi). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_lines.h"
#include "features/chess_attacks.h"
#include "fs_check.h"
#include "nnue_chess.h"
#include "nnue_error.h"
#include "threat_keys.h"
#include "eval/eval_nets.h" /* eval_random */

static fs_case cases[FS_MAX_CASES];
static int n_cases;
static int slow;

static void setup(void)
{
    fs_case all[FS_MAX_CASES];
    int n = fs_cases_for("chess", all, FS_MAX_CASES);
    n_cases = 0;
    for (int i = 0; i < n; i++)
        if (all[i].fs->changed_threats)
            cases[n_cases++] = all[i];
}

/* Every threat pair of a board, as sorted keys; returns the count. */
static int board_pairs(const nnue_board *b, uint32_t *out)
{
    nnue_ca_sets s;
    nnue_ca_sets_of(b, &s);
    int n = 0;
    for (int from = 0; from < 64; from++) {
        uint8_t x = b->piece_on[from];
        if (!x)
            continue;
        for (uint64_t a = nnue_ca_attacks(x, from, s.occupied) & s.occupied; a; a &= a - 1) {
            int to = __builtin_ctzll(a);
            nnue_threat t = {x, (uint8_t)from, b->piece_on[to], (uint8_t)to};
            out[n++] = threat_key(&t);
        }
    }
    threat_keys_sort(out, n);
    return n;
}

/* Sets lo..hi-1's features from the handed-in changes equal those from the boards. */
static long check_sets(const nnue_board *after, const nnue_delta *delta, const nnue_threats *t, int lo, int hi,
                       const char *where)
{
    nnue_threat_span span = {t->removed, t->added, t->n_removed, t->n_added};
    long compared = 0;
    for (int c = lo; c < hi; c++) {
        const fs_case *fc = &cases[c];
        static uint32_t r[2][NNUE_MAX_ACTIVE_ANY], a[2][NNUE_MAX_ACTIVE_ANY], rb[2][NNUE_MAX_ACTIVE_ANY],
            ab[2][NNUE_MAX_ACTIVE_ANY];
        int refresh[2];
        for (int p = 0; p < 2; p++)
            refresh[p] = fc->fs->needs_refresh(fc->params, after, delta, p);
        for (int p = 0; p < 2; p++) {
            if (refresh[p])
                continue;
            int nr, na, gr[2], ga[2];
            fc->fs->changed(fc->params, after, delta, p, r[p], &nr, a[p], &na);
            uint32_t *const rr[2] = {rb[0], rb[1]}, *const aa[2] = {ab[0], ab[1]};
            fc->fs->changed_threats(fc->params, after, delta, &span, p, p, rr, gr, aa, ga);
            FS_REQUIRE(fs_same_multiset(r[p], nr, rb[p], gr[p]), "%s: %s persp %d: removed features from the handed-in "
                       "threats (%d) differ from the boards' (%d)", where, fc->label, p, gr[p], nr);
            FS_REQUIRE(fs_same_multiset(a[p], na, ab[p], ga[p]), "%s: %s persp %d: added features from the handed-in "
                       "threats (%d) differ from the boards' (%d)", where, fc->label, p, ga[p], na);
            compared++;
        }
        if (!refresh[0] && !refresh[1]) {
            uint32_t *const rr[2] = {rb[0], rb[1]}, *const aa[2] = {ab[0], ab[1]};
            int gr[2], ga[2];
            uint32_t one_r[2][NNUE_MAX_ACTIVE_ANY], one_a[2][NNUE_MAX_ACTIVE_ANY];
            int n1r[2], n1a[2];
            for (int p = 0; p < 2; p++) {
                uint32_t *const r1[2] = {one_r[0], one_r[1]}, *const a1[2] = {one_a[0], one_a[1]};
                fc->fs->changed_threats(fc->params, after, delta, &span, p, p, r1, n1r, a1, n1a);
            }
            fc->fs->changed_threats(fc->params, after, delta, &span, 0, 1, rr, gr, aa, ga);
            for (int p = 0; p < 2; p++)
                FS_REQUIRE(gr[p] == n1r[p] && ga[p] == n1a[p] &&
                               !memcmp(rb[p], one_r[p], sizeof(uint32_t) * (size_t)gr[p]) &&
                               !memcmp(ab[p], one_a[p], sizeof(uint32_t) * (size_t)ga[p]),
                           "%s: %s: both perspectives at once differ from one at a time (persp %d)", where, fc->label,
                           p);
        }
    }
    return compared;
}

/* The recorder's list against the boards' difference (tests/threat_keys.h). */
static void expect_list(const nnue_threat *list, int n, const uint32_t *want, int n_want, const char *what,
                        const char *where)
{
    char why[160];
    FS_REQUIRE(!threat_list_differs(list, n, want, n_want, what, why, sizeof why), "%s: %s", where, why);
}

/* The filter of the set of case c, from its threat_pairs. */
static void case_filter(int c, nnue_threat_filter *f)
{
    ck_assert_ptr_nonnull(cases[c].fs->threat_pairs);
    cases[c].fs->threat_pairs(cases[c].params, f->victims);
    threat_filter_transpose(f);
}

/* The filtered list against the full one (tests/threat_keys.h). */
static void expect_filtered(const nnue_threat *full, int n_full, const nnue_threat *got, int n_got,
                            const nnue_threat_filter *f, const char *what, const char *label, const char *where)
{
    char why[160];
    FS_REQUIRE(!threat_filtered_differs(full, n_full, got, n_got, f, what, why, sizeof why), "%s: %s: %s", where,
               label, why);
}

/* Makes move through each set's filter: the lists and the set's features against the full lists
 * (t) and the boards. Returns the pairs left out. */
static long check_filtered(nnue_chess_pos *pos, nnue_move move, const nnue_threats *t, const char *where)
{
    long left_out = 0;
    for (int c = 0; c < n_cases; c++) {
        nnue_threat_filter f;
        case_filter(c, &f);
        static nnue_threats ft;
        memset(&ft, 0xA5, sizeof ft);
        nnue_delta delta;
        nnue_chess_make_threats_filtered(pos, move, &delta, &ft, &f);
        expect_filtered(t->removed, t->n_removed, ft.removed, ft.n_removed, &f, "removed", cases[c].label, where);
        expect_filtered(t->added, t->n_added, ft.added, ft.n_added, &f, "added", cases[c].label, where);
        check_sets(&pos->board, &delta, &ft, c, c + 1, where);
        left_out += t->n_removed + t->n_added - ft.n_removed - ft.n_added;
        nnue_chess_unmake(pos, move);
    }
    return left_out;
}

static long pairs_left_out; /* by the filters, over the checked moves */

/* Makes move with its threat changes, checks them, unmakes. Returns the (set, perspective)
 * comparisons made. */
static long check_move(nnue_chess_pos *pos, nnue_move move, const char *where)
{
    static uint32_t before[512], after_keys[512], want_r[512], want_a[512];
    nnue_board was = pos->board;
    int nb = board_pairs(&pos->board, before);
    nnue_delta delta;
    static nnue_threats t;
    memset(&t, 0xA5, sizeof t);
    nnue_chess_make_threats(pos, move, &delta, &t);
    int na = board_pairs(&pos->board, after_keys);
    int nwr = threat_keys_minus(before, nb, after_keys, na, want_r);
    int nwa = threat_keys_minus(after_keys, na, before, nb, want_a);
    expect_list(t.removed, t.n_removed, want_r, nwr, "removed", where);
    expect_list(t.added, t.n_added, want_a, nwa, "added", where);
    long compared = check_sets(&pos->board, &delta, &t, 0, n_cases, where);
    nnue_chess_unmake(pos, move);
    FS_REQUIRE(memcmp(&was, &pos->board, sizeof was) == 0, "%s: unmake did not restore the board", where);
    pairs_left_out += check_filtered(pos, move, &t, where);
    FS_REQUIRE(memcmp(&was, &pos->board, sizeof was) == 0, "%s: unmake did not restore the board", where);
    return compared;
}

START_TEST(sets_that_take_threats)
{
    ck_assert_int_eq(n_cases, 3); /* Full_Threats: sfnnv10, sfnnv16, reckless */
}
END_TEST

START_TEST(movesA)
{
    char *buf, **lines;
    int n = data_lines("oracle/chess/movesA.tsv", &buf, &lines);
    static nnue_chess_pos pos;
    int checked = 0;
    long compared = 0;
    for (int i = 0; i < n; i++) {
        char *f[4];
        if (test_split_tabs(lines[i], f, 4) < 3 || strcmp(f[0], "fen") == 0)
            continue;
        nnue_error err;
        char where[512];
        snprintf(where, sizeof where, "movesA line %d: %s | %s", i + 1, f[0], f[1]);
        FS_REQUIRE(nnue_chess_parse_fen(&pos, f[0], &err) == NNUE_OK, "%s: %s", where, err.message);
        nnue_move m;
        FS_REQUIRE(nnue_chess_parse_uci(&pos, f[1], &m, &err) == NNUE_OK, "%s: %s", where, err.message);
        compared += check_move(&pos, m, where);
        checked++;
    }
    ck_assert_int_eq(checked, 2000);
    ck_assert_int_gt(compared, (long)checked * n_cases);
    ck_assert_int_gt(pairs_left_out, 0); /* Stockfish 19's filter: no king pairs, fewer pawn ones */
    fprintf(stderr, "movesA: %d moves, %ld (set, perspective) lists compared\n", checked, compared);
    free(lines);
    free(buf);
}
END_TEST

START_TEST(corpusA_every_legal_move)
{
    char *buf, **lines;
    int n = data_lines("oracle/chess/corpusA.fen", &buf, &lines);
    static nnue_chess_pos pos;
    nnue_move moves[NNUE_MAX_MOVES];
    long checked = 0, compared = 0;
    for (int i = 0; i < n; i += slow ? 1 : 4) {
        nnue_error err;
        FS_REQUIRE(nnue_chess_parse_fen(&pos, lines[i], &err) == NNUE_OK, "corpusA line %d: %s", i + 1, err.message);
        int k = nnue_chess_legal_moves(&pos, moves);
        for (int m = 0; m < k; m++) {
            char where[256], uci[8];
            nnue_chess_move_to_uci(moves[m], uci, sizeof uci);
            snprintf(where, sizeof where, "corpusA line %d: %s | %s", i + 1, lines[i], uci);
            compared += check_move(&pos, moves[m], where);
            checked++;
        }
    }
    ck_assert_int_gt(checked, 10000);
    fprintf(stderr, "corpusA: %ld moves, %ld (set, perspective) lists compared\n", checked, compared);
    free(lines);
    free(buf);
}
END_TEST

/* Every pair a set maps to a feature passes the set's filter: each attacker and victim code on
 * every empty-board attack, handed in alone with the kings on either half of the board (the
 * orientations), mapped for both perspectives. */
START_TEST(filters_pass_every_feature_pair)
{
    for (int c = 0; c < n_cases; c++) {
        nnue_threat_filter f;
        case_filter(c, &f);
        long mapped = 0, rejected = 0;
        for (int halves = 0; halves < 4; halves++) {
            nnue_board after;
            memset(&after, 0, sizeof after);
            after.king_sq[0] = (uint8_t)(halves & 1 ? 4 : 0);
            after.king_sq[1] = (uint8_t)(halves & 2 ? 60 : 56);
            nnue_delta delta;
            memset(&delta, 0, sizeof delta);
            for (int x = 0; x < 32; x++)
                for (int y = 0; y < 32; y++) {
                    int xt = x & 15, yt = y & 15;
                    if (x >> 4 > 1 || y >> 4 > 1 || xt < NNUE_CHESS_PAWN || xt > NNUE_CHESS_KING ||
                        yt < NNUE_CHESS_PAWN || yt > NNUE_CHESS_KING)
                        continue;
                    for (int from = 0; from < 64; from++)
                        for (uint64_t a = nnue_ca_attacks((uint8_t)x, from, 0); a; a &= a - 1) {
                            nnue_threat t = {(uint8_t)x, (uint8_t)from, (uint8_t)y, (uint8_t)__builtin_ctzll(a)};
                            nnue_threat_span span = {&t, &t, 0, 1};
                            uint32_t r[2][4], ad[2][4];
                            uint32_t *const rr[2] = {r[0], r[1]}, *const aa[2] = {ad[0], ad[1]};
                            int nr[2], na[2];
                            cases[c].fs->changed_threats(cases[c].params, &after, &delta, &span, 0, 1, rr, nr, aa, na);
                            if (na[0] + na[1] > 0) {
                                mapped++;
                                FS_REQUIRE(threat_filter_passes(&f, &t),
                                           "%s: pair %d on %d attacking %d on %d is a feature, its filter "
                                           "leaves it out",
                                           cases[c].label, x, from, y, t.to);
                            } else if (!threat_filter_passes(&f, &t))
                                rejected++;
                        }
                }
        }
        ck_assert_int_gt(mapped, 100000);
        fprintf(stderr, "%s: %ld feature pairs pass the filter, %ld pairs left out\n", cases[c].label, mapped,
                rejected);
    }
}
END_TEST

static uint64_t rng = 0x243F6A8885A308D3ull;

/* Random games from the start: each ply checked, then played (threats made again through the
 * generic entry, which must write the same lists). */
START_TEST(random_games)
{
    static nnue_chess_pos pos, twin;
    const nnue_game *g = fs_game("chess");
    ck_assert_int_eq(nnue_game_records_threats(g), 1);
    nnue_move moves[NNUE_MAX_MOVES];
    long plies = 0;
    for (int game = 0; game < 300; game++) {
        nnue_error err;
        ck_assert_int_eq(nnue_chess_parse_fen(&pos, NNUE_CHESS_START_FEN, &err), NNUE_OK);
        for (int ply = 0; ply < 200; ply++) {
            int k = nnue_chess_legal_moves(&pos, moves);
            if (k == 0 || pos.board.piece_count <= 2)
                break;
            nnue_move m = moves[eval_random(&rng, (unsigned)k)];
            char where[200];
            snprintf(where, sizeof where, "random game %d ply %d", game, ply);
            check_move(&pos, m, where);
            twin = pos;
            static nnue_threats a, b;
            nnue_delta da, db;
            memset(&da, 0, sizeof da); /* entries past count are left as they were */
            memset(&db, 0, sizeof db);
            nnue_chess_make_threats(&twin, m, &da, &a);
            FS_REQUIRE(nnue_game_make_threats(g, &pos, m, &db, &b) == 1, "%s: chess records no threats", where);
            FS_REQUIRE(a.n_removed == b.n_removed && a.n_added == b.n_added &&
                           !memcmp(a.removed, b.removed, a.n_removed * sizeof *a.removed) &&
                           !memcmp(a.added, b.added, a.n_added * sizeof *a.added) && !memcmp(&da, &db, sizeof da),
                       "%s: nnue_game_make_threats differs from nnue_chess_make_threats", where);
            plies++;
        }
    }
    ck_assert_int_gt(plies, 20000);
    fprintf(stderr, "random games: %ld plies\n", plies);
}
END_TEST

/* A game without a recorder: the move is made, the lists are empty, 0 is returned. */
START_TEST(game_without_recorder)
{
    const nnue_game *g = fs_game("shogi");
    ck_assert_int_eq(nnue_game_records_threats(g), 0);
    void *a = malloc(g->pos_size), *b = malloc(g->pos_size);
    nnue_error err;
    ck_assert_int_eq(g->parse(a, g->start, &err), 0);
    ck_assert_int_eq(g->parse(b, g->start, &err), 0);
    nnue_move moves[NNUE_MAX_MOVES];
    ck_assert_int_gt(g->legal_moves(a, moves), 0);
    static nnue_threats t;
    t.n_removed = t.n_added = 7;
    nnue_delta da, db;
    ck_assert_int_eq(nnue_game_make_threats(g, a, moves[0], &da, &t), 0);
    ck_assert_int_eq(t.n_removed + t.n_added, 0);
    g->make(b, moves[0], &db);
    ck_assert_mem_eq(g->board(a), g->board(b), sizeof(nnue_board));
    free(a);
    free(b);
}
END_TEST

int main(int argc, char **argv)
{
    slow = argc > 1 && strcmp(argv[1], "slow") == 0;
    nnue_chess_init();
    Suite *s = suite_create("features_threat_changes");
    TCase *tc = tcase_create("threat_changes");
    tcase_add_unchecked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, sets_that_take_threats);
    tcase_add_test(tc, filters_pass_every_feature_pair);
    tcase_add_test(tc, movesA);
    tcase_add_test(tc, corpusA_every_legal_move);
    tcase_add_test(tc, random_games);
    tcase_add_test(tc, game_without_recorder);
    suite_add_tcase(s, tc);
    return test_run(s);
}
