/* tests/xiangqi/test_xiangqi_threats.c: the threat changes the xiangqi adapter records at make
 * time (nnue_game_make_threats: games/xiangqi/threats.c) against the boards.
 *
 * For every legal move of every position of corpusA.fen and perftA.tsv (../shared/oracle/xiangqi)
 * and every ply of 300 random games from the start position and 100 from corpus positions:
 *  - the lists are the exact difference of the two boards' threat pairs as FullThreats_xiangqi's
 *    full computation lists them (xqf_board_threats): removed = before minus after, added =
 *    after minus before, no pair in both, none twice;
 *  - FullThreats_xiangqi gives from them (changed_threats) the features it gives from the boards
 *    (changed), per perspective and for both at once;
 *  - made again through the set's filter (its threat_pairs, nnue_game_make_threats_filtered): the
 *    lists are the full ones less the pairs it does not pass, in order, with the same features;
 *  - the board and delta are those of the plain make, and unmake restores the board. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "features/feature_set.h"
#include "features/xiangqi_threats.h"
#include "nnue_board.h"
#include "support.h"
#include "threat_keys.h"
#include "eval/eval_nets.h" /* eval_random */

static const nnue_game *game;
static const nnue_feature_set *fs;

#define XQ_CHECK(cond, ...)                                                                                        \
    do {                                                                                                           \
        if (!(cond))                                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                                             \
    } while (0)

/* The set's threat pairs of a board, as sorted keys. */
static int board_pairs(const nnue_board *b, uint32_t *out)
{
    nnue_threat t[256];
    int n = xqf_board_threats(b, t);
    for (int i = 0; i < n; i++)
        out[i] = threat_key(&t[i]);
    threat_keys_sort(out, n);
    return n;
}

/* FullThreats_xiangqi's features from the recorded changes equal those from the boards. */
static long check_features(const nnue_board *after, const nnue_delta *d, const nnue_threats *t, const char *where)
{
    nnue_threat_span span = {t->removed, t->added, t->n_removed, t->n_added};
    static uint32_t r[2][256], a[2][256], gr[2][256], ga[2][256], br[2][256], ba[2][256];
    uint32_t *const rr[2] = {gr[0], gr[1]}, *const aa[2] = {ga[0], ga[1]};
    int refresh[2] = {fs->needs_refresh(NULL, after, d, 0), fs->needs_refresh(NULL, after, d, 1)};
    long compared = 0;
    int ngr[2] = {0}, nga[2] = {0};
    for (int p = 0; p < 2; p++) {
        if (refresh[p])
            continue;
        int nr, na;
        fs->changed(NULL, after, d, p, r[p], &nr, a[p], &na);
        fs->changed_threats(NULL, after, d, &span, p, p, rr, ngr, aa, nga);
        threat_keys_sort(r[p], nr);
        threat_keys_sort(a[p], na);
        threat_keys_sort(gr[p], ngr[p]);
        threat_keys_sort(ga[p], nga[p]);
        XQ_CHECK(nr == ngr[p] && na == nga[p] && !memcmp(r[p], gr[p], sizeof(uint32_t) * (size_t)nr) &&
                     !memcmp(a[p], ga[p], sizeof(uint32_t) * (size_t)na),
                 "%s: persp %d: features from the recorded threats (-%d +%d) differ from the boards' (-%d +%d)",
                 where, p, ngr[p], nga[p], nr, na);
        compared++;
    }
    if (!refresh[0] && !refresh[1]) {
        uint32_t *const rb[2] = {br[0], br[1]}, *const ab[2] = {ba[0], ba[1]};
        int nbr[2], nba[2];
        fs->changed_threats(NULL, after, d, &span, 0, 1, rb, nbr, ab, nba);
        for (int p = 0; p < 2; p++) {
            threat_keys_sort(br[p], nbr[p]);
            threat_keys_sort(ba[p], nba[p]);
            XQ_CHECK(nbr[p] == ngr[p] && nba[p] == nga[p] &&
                         !memcmp(br[p], gr[p], sizeof(uint32_t) * (size_t)nbr[p]) &&
                         !memcmp(ba[p], ga[p], sizeof(uint32_t) * (size_t)nba[p]),
                     "%s: both perspectives at once differ from one at a time (persp %d)", where, p);
        }
    }
    return compared;
}

static void *twin;

typedef struct counts {
    long moves, pairs, compared, left_out;
} counts;

static nnue_threat_filter filter; /* the set's (records_threats makes it) */

/* Makes move again through the set's filter: the lists against the full ones (t), the features
 * against the boards'. Returns the pairs left out. */
static long check_filtered(void *pos, nnue_move move, const nnue_threats *t, const char *where)
{
    static nnue_threats ft;
    memset(&ft, 0xA5, sizeof ft);
    nnue_delta delta;
    memset(&delta, 0, sizeof delta);
    XQ_CHECK(nnue_game_make_threats_filtered(game, pos, move, &delta, &ft, &filter) == 1, "%s: no threats", where);
    char why[160];
    XQ_CHECK(!threat_filtered_differs(t->removed, t->n_removed, ft.removed, ft.n_removed, &filter, "removed", why,
                                      sizeof why) &&
                 !threat_filtered_differs(t->added, t->n_added, ft.added, ft.n_added, &filter, "added", why,
                                          sizeof why),
             "%s: %s", where, why);
    check_features(game->board(pos), &delta, &ft, where);
    game->unmake(pos, move);
    return t->n_removed + t->n_added - ft.n_removed - ft.n_added;
}

/* The recorder's list against the boards' difference (tests/threat_keys.h). */
static void expect_list(const nnue_threat *list, int n, const uint32_t *want, int n_want, const char *what,
                        const char *where)
{
    char why[160];
    XQ_CHECK(!threat_list_differs(list, n, want, n_want, what, why, sizeof why), "%s: %s", where, why);
}

/* Makes move with its threat changes, checks them, unmakes. */
static void check_move(void *pos, nnue_move move, const char *where, counts *c)
{
    static uint32_t before[256], after[256], want_r[256], want_a[256];
    static nnue_threats t;
    nnue_board was = *game->board(pos);
    int nb = board_pairs(&was, before);
    memcpy(twin, pos, game->pos_size);
    nnue_delta delta, plain;
    memset(&delta, 0, sizeof delta); /* entries past count are left as they were */
    memset(&plain, 0, sizeof plain);
    memset(&t, 0xA5, sizeof t);
    XQ_CHECK(nnue_game_make_threats(game, pos, move, &delta, &t) == 1, "%s: xiangqi records no threats", where);
    game->make(twin, move, &plain);
    XQ_CHECK(!memcmp(game->board(pos), game->board(twin), sizeof(nnue_board)) && !memcmp(&delta, &plain, sizeof delta),
             "%s: the board or delta differs from the plain make's", where);
    const nnue_board *now = game->board(pos);
    int na = board_pairs(now, after);
    int nwr = threat_keys_minus(before, nb, after, na, want_r);
    int nwa = threat_keys_minus(after, na, before, nb, want_a);
    expect_list(t.removed, t.n_removed, want_r, nwr, "removed", where);
    expect_list(t.added, t.n_added, want_a, nwa, "added", where);
    c->compared += check_features(now, &delta, &t, where);
    game->unmake(pos, move);
    XQ_CHECK(!memcmp(&was, game->board(pos), sizeof was), "%s: unmake did not restore the board", where);
    c->left_out += check_filtered(pos, move, &t, where);
    XQ_CHECK(!memcmp(&was, game->board(pos), sizeof was), "%s: unmake did not restore the board", where);
    c->moves++;
    c->pairs += t.n_removed + t.n_added;
}

static void every_legal_move(void *pos, const char *text, const char *where, counts *c)
{
    nnue_error err;
    XQ_CHECK(game->parse(pos, text, &err) == 0, "%s: %s", where, err.message);
    nnue_move moves[NNUE_MAX_MOVES];
    int n = game->legal_moves(pos, moves);
    for (int i = 0; i < n; i++) {
        char w[400], uci[8];
        game->format_move(moves[i], uci, sizeof uci);
        snprintf(w, sizeof w, "%s | %s", where, uci);
        check_move(pos, moves[i], w, c);
    }
}

/* The lines of a shared file (first field of each), the header skipped. */
static int read_lines(const char *rel, char **buf, char ***lines)
{
    *buf = test_read_file(test_shared_path(rel), NULL);
    ck_assert_ptr_nonnull(*buf);
    int n = 0, cap = 4096;
    *lines = malloc(sizeof **lines * (size_t)cap);
    for (char *l = strtok(*buf, "\n"); l && n < cap; l = strtok(NULL, "\n")) {
        char *tab = strchr(l, '\t');
        if (tab)
            *tab = 0;
        if (strcmp(l, "fen") != 0 && *l)
            (*lines)[n++] = l;
    }
    return n;
}

START_TEST(corpusA_every_legal_move)
{
    char *buf, **lines;
    int n = read_lines("oracle/xiangqi/corpusA.fen", &buf, &lines);
    void *pos = malloc(game->pos_size);
    counts c = {0};
    for (int i = 0; i < n; i++) {
        char where[300];
        snprintf(where, sizeof where, "corpusA line %d: %s", i + 1, lines[i]);
        every_legal_move(pos, lines[i], where, &c);
    }
    ck_assert_int_eq(n, 2000);
    ck_assert_int_gt(c.moves, 50000);
    fprintf(stderr, "corpusA: %ld moves, %ld threat changes, %ld (perspective) feature lists compared\n", c.moves,
            c.pairs, c.compared);
    free(pos);
    free(lines);
    free(buf);
}
END_TEST

START_TEST(perftA_every_legal_move)
{
    char *buf, **lines;
    int n = read_lines("oracle/xiangqi/perftA.tsv", &buf, &lines);
    void *pos = malloc(game->pos_size);
    counts c = {0};
    for (int i = 0; i < n; i++) {
        char where[300];
        snprintf(where, sizeof where, "perftA line %d: %s", i + 2, lines[i]);
        every_legal_move(pos, lines[i], where, &c);
    }
    ck_assert_int_gt(n, 200);
    fprintf(stderr, "perftA: %ld moves, %ld threat changes, %ld feature lists compared\n", c.moves, c.pairs,
            c.compared);
    free(pos);
    free(lines);
    free(buf);
}
END_TEST

static uint64_t rng = 0x243F6A8885A308D3ull;

/* Random games, each ply checked then played; `from` NULL: the start position. */
static void random_games(const char *const *starts, int n_starts, int games, counts *c)
{
    void *pos = malloc(game->pos_size);
    nnue_move moves[NNUE_MAX_MOVES];
    for (int g = 0; g < games; g++) {
        nnue_error err;
        const char *start = starts ? starts[(g * 7) % n_starts] : game->start;
        ck_assert_int_eq(game->parse(pos, start, &err), 0);
        for (int ply = 0; ply < 300; ply++) {
            int k = game->legal_moves(pos, moves);
            if (k == 0)
                break;
            nnue_move m = moves[eval_random(&rng, (unsigned)k)];
            char where[400];
            snprintf(where, sizeof where, "random game %d (from %s) ply %d", g, start, ply);
            check_move(pos, m, where, c);
            game->make(pos, m, NULL);
        }
    }
    free(pos);
}

START_TEST(random_games_from_start)
{
    counts c = {0};
    random_games(NULL, 0, 300, &c);
    ck_assert_int_gt(c.moves, 30000);
    fprintf(stderr, "random games: %ld plies, %ld threat changes, %ld left out by the filter\n", c.moves, c.pairs,
            c.left_out);
}
END_TEST

START_TEST(random_games_from_corpus)
{
    char *buf, **lines;
    int n = read_lines("oracle/xiangqi/corpusA.fen", &buf, &lines);
    counts c = {0};
    random_games((const char *const *)lines, n, 100, &c);
    fprintf(stderr, "random games from corpusA: %ld plies, %ld threat changes\n", c.moves, c.pairs);
    free(lines);
    free(buf);
}
END_TEST

START_TEST(records_threats)
{
    ck_assert_int_eq(nnue_game_records_threats(game), 1);
}
END_TEST

int main(void)
{
    game = nnue_game_find("xiangqi");
    fs = nnue_feature_set_find("FullThreats_xiangqi");
    if (!game || !fs || !fs->changed_threats || !fs->threat_pairs) {
        fprintf(stderr, "xiangqi or FullThreats_xiangqi (with changed_threats and threat_pairs) is not registered\n");
        return 1;
    }
    test_require_shared("oracle/xiangqi/corpusA.fen"); /* exits 77 naming it when absent */
    test_require_shared("oracle/xiangqi/perftA.tsv");
    twin = malloc(game->pos_size);
    fs->threat_pairs(NULL, filter.victims);
    threat_filter_transpose(&filter);
    Suite *s = suite_create("xiangqi_threats");
    TCase *tc = tcase_create("threat_changes");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, records_threats);
    tcase_add_test(tc, corpusA_every_legal_move);
    tcase_add_test(tc, perftA_every_legal_move);
    tcase_add_test(tc, random_games_from_start);
    tcase_add_test(tc, random_games_from_corpus);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    free(twin);
    return rc;
}
