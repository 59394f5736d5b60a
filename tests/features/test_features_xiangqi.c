/* tests/features/test_features_xiangqi.c: Pikafish's xiangqi feature sets (HalfKAv2_hm_xiangqi,
 * FullThreats_xiangqi): dimensions 16536 and 45547, active lists within range and without
 * repeats, and incremental == full: through random games from the corpus positions, for both
 * perspectives, active(before) - removed + added == active(after) as multisets whenever
 * needs_refresh() is 0, and unmake restores the lists; FullThreats_xiangqi gives the same
 * features from a move's threat changes handed in (the boards' difference of threat pairs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "features/feature_set.h"
#include "features/xiangqi_threats.h"
#include "nnue_board.h"
#include "support.h"

static const nnue_game *game;
static const nnue_feature_set *sets[2];
static unsigned char pos[512];

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int active_sorted(const nnue_feature_set *fs, const nnue_board *b, int persp, uint32_t *out)
{
    int n = fs->active(NULL, b, persp, out);
    ck_assert_int_le(n, fs->max_active);
    qsort(out, (size_t)n, sizeof *out, cmp_u32);
    for (int i = 0; i < n; i++) {
        if (out[i] >= fs->dimensions(NULL) || (i && out[i] == out[i - 1]))
            ck_abort_msg("%s: index %u out of range or repeated", fs->name, out[i]);
    }
    return n;
}

static void check_both(const nnue_feature_set *fs, const nnue_board *b, const nnue_delta *d)
{
    static uint32_t one[4][256], two[4][256];
    int n1[4], n2[4];
    if (fs->active_both) {
        uint32_t *const out[2] = {two[0], two[1]};
        fs->active_both(NULL, b, out, n2);
        for (int p = 0; p < 2; p++) {
            n1[p] = fs->active(NULL, b, p, one[p]);
            ck_assert(n1[p] == n2[p] && memcmp(one[p], two[p], sizeof(uint32_t) * (size_t)n1[p]) == 0);
        }
    }
    if (!fs->changed_both || fs->needs_refresh(NULL, b, d, 0) || fs->needs_refresh(NULL, b, d, 1))
        return;
    uint32_t *const rem[2] = {two[0], two[1]}, *const add[2] = {two[2], two[3]};
    int nr[2], na[2];
    fs->changed_both(NULL, b, d, rem, nr, add, na);
    for (int p = 0; p < 2; p++) {
        fs->changed(NULL, b, d, p, one[p], &n1[p], one[p + 2], &n1[p + 2]);
        ck_assert(n1[p] == nr[p] && memcmp(one[p], two[p], sizeof(uint32_t) * (size_t)nr[p]) == 0);
        ck_assert(n1[p + 2] == na[p] && memcmp(one[p + 2], two[p + 2], sizeof(uint32_t) * (size_t)na[p]) == 0);
    }
}

static uint32_t key_of(const nnue_threat *t)
{
    return (uint32_t)t->attacker << 24 | (uint32_t)t->from << 16 | (uint32_t)t->victim << 8 | t->to;
}

static int cmp_threat(const void *a, const void *b)
{
    uint32_t x = key_of(a), y = key_of(b);
    return (x > y) - (x < y);
}

/* Threats of sorted a not in sorted b. */
static int threats_minus(const nnue_threat *a, int na, const nnue_threat *b, int nb, nnue_threat *out)
{
    int n = 0, j = 0;
    for (int i = 0; i < na; i++) {
        while (j < nb && key_of(&b[j]) < key_of(&a[i]))
            j++;
        if (j >= nb || key_of(&b[j]) != key_of(&a[i]))
            out[n++] = a[i];
    }
    return n;
}

/* A set that takes handed-in threat changes (nnue_state_push_threats) gives from the boards'
 * difference of threat pairs the features changed() gives, per perspective and both at once. */
static void check_given(const nnue_feature_set *fs, const nnue_board *b0, const nnue_board *b1, const nnue_delta *d)
{
    static nnue_threat t0[256], t1[256], rem[256], add[256];
    int n0 = xqf_board_threats(b0, t0), n1 = xqf_board_threats(b1, t1);
    qsort(t0, (size_t)n0, sizeof *t0, cmp_threat);
    qsort(t1, (size_t)n1, sizeof *t1, cmp_threat);
    nnue_threat_span span = {rem, add, threats_minus(t0, n0, t1, n1, rem), threats_minus(t1, n1, t0, n0, add)};
    static uint32_t r[2][256], a[2][256], gr[2][256], ga[2][256];
    uint32_t *const rr[2] = {gr[0], gr[1]}, *const aa[2] = {ga[0], ga[1]};
    int refresh[2] = {fs->needs_refresh(NULL, b1, d, 0), fs->needs_refresh(NULL, b1, d, 1)};
    for (int lo = 0; lo < 2; lo++) {
        int hi = refresh[0] || refresh[1] ? lo : 1;
        int nr[2], na[2], ngr[2], nga[2];
        if (refresh[lo])
            continue;
        fs->changed_threats(NULL, b1, d, &span, lo, hi, rr, ngr, aa, nga);
        for (int p = lo; p <= hi; p++) {
            fs->changed(NULL, b1, d, p, r[p], &nr[p], a[p], &na[p]);
            qsort(r[p], (size_t)nr[p], sizeof(uint32_t), cmp_u32);
            qsort(a[p], (size_t)na[p], sizeof(uint32_t), cmp_u32);
            qsort(gr[p], (size_t)ngr[p], sizeof(uint32_t), cmp_u32);
            qsort(ga[p], (size_t)nga[p], sizeof(uint32_t), cmp_u32);
            ck_assert_msg(nr[p] == ngr[p] && na[p] == nga[p] &&
                              !memcmp(r[p], gr[p], sizeof(uint32_t) * (size_t)nr[p]) &&
                              !memcmp(a[p], ga[p], sizeof(uint32_t) * (size_t)na[p]),
                          "%s persp %d: features from handed-in threats differ from the boards'", fs->name, p);
        }
        if (hi == 1)
            break;
    }
}

/* The sets' board summary (features/feature_set.h, kept per ply by the state): a move's summary
 * equals the summary of the board after it byte by byte, and the hooks answer the same with the
 * summaries handed in (as the state hands them) as without them (as everything above calls them). */
static void check_summaries(const nnue_feature_set *fs, const nnue_board *b0, const nnue_board *b1, const nnue_delta *d)
{
    ck_assert_ptr_nonnull(fs->summary);
    ck_assert_ptr_nonnull(fs->summary_move);
    ck_assert_uint_le(fs->summary_bytes, NNUE_FS_SUMMARY_BYTES);
    unsigned char was[NNUE_FS_SUMMARY_BYTES], moved[NNUE_FS_SUMMARY_BYTES], is[NNUE_FS_SUMMARY_BYTES];
    memset(moved, 0xA5, sizeof moved);
    fs->summary(NULL, b0, was);
    fs->summary_move(NULL, b1, d, was, moved);
    fs->summary(NULL, b1, is);
    ck_assert_msg(!memcmp(moved, is, fs->summary_bytes), "%s: the move's summary differs from the board's", fs->name);
    nnue_feature_params with = {.summary_before = was, .summary_after = is}, at_b0 = {.summary_after = was};
    static uint32_t x[4][256], y[4][256];
    for (int p = 0; p < 2; p++) {
        int refresh = fs->needs_refresh(NULL, b1, d, p);
        ck_assert_int_eq(fs->needs_refresh(&with, b1, d, p), refresh);
        int nx = fs->active(&with, b1, p, x[0]), ny = fs->active(NULL, b1, p, y[0]);
        ck_assert(nx == ny && !memcmp(x[0], y[0], sizeof(uint32_t) * (size_t)nx));
        nx = fs->active(&at_b0, b0, p, x[0]), ny = fs->active(NULL, b0, p, y[0]);
        ck_assert(nx == ny && !memcmp(x[0], y[0], sizeof(uint32_t) * (size_t)nx));
        if (refresh)
            continue;
        int n1[2], n2[2];
        fs->changed(&with, b1, d, p, x[0], &n1[0], x[1], &n1[1]);
        fs->changed(NULL, b1, d, p, y[0], &n2[0], y[1], &n2[1]);
        ck_assert(n1[0] == n2[0] && !memcmp(x[0], y[0], sizeof(uint32_t) * (size_t)n1[0]));
        ck_assert(n1[1] == n2[1] && !memcmp(x[1], y[1], sizeof(uint32_t) * (size_t)n1[1]));
    }
}

/* One move checked for both sets and perspectives; returns incremental updates seen. */
static int check_move(nnue_move m)
{
    static uint32_t before[2][2][256], after[2][2][256], removed[256], added[256], list[512];
    int nb[2][2], na[2][2], incremental = 0;
    nnue_board b0 = *game->board(pos);
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < 2; p++)
            nb[s][p] = active_sorted(sets[s], &b0, p, before[s][p]);
    nnue_delta d;
    game->make(pos, m, &d);
    const nnue_board *b1 = game->board(pos);
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < 2; p++) {
            na[s][p] = active_sorted(sets[s], b1, p, after[s][p]);
            if (sets[s]->needs_refresh(NULL, b1, &d, p))
                continue;
            int nr, nd;
            sets[s]->changed(NULL, b1, &d, p, removed, &nr, added, &nd);
            /* before + added == after + removed, as sorted multisets */
            int n = 0;
            memcpy(list, before[s][p], sizeof(uint32_t) * (size_t)nb[s][p]);
            n = nb[s][p];
            memcpy(list + n, added, sizeof(uint32_t) * (size_t)nd);
            n += nd;
            qsort(list, (size_t)n, sizeof *list, cmp_u32);
            static uint32_t other[512];
            int k = na[s][p];
            memcpy(other, after[s][p], sizeof(uint32_t) * (size_t)k);
            memcpy(other + k, removed, sizeof(uint32_t) * (size_t)nr);
            k += nr;
            qsort(other, (size_t)k, sizeof *other, cmp_u32);
            if (n != k || memcmp(list, other, sizeof(uint32_t) * (size_t)n) != 0) {
                char fen[256], mv[16];
                game->unmake(pos, m);
                game->format(pos, fen, sizeof fen);
                game->format_move(m, mv, sizeof mv);
                ck_abort_msg("%s persp %d: incremental != full after %s on '%s'", sets[s]->name, p, mv, fen);
            }
            incremental++;
        }
    for (int s = 0; s < 2; s++) { /* the one-pass forms write what the per-perspective ones do */
        check_both(sets[s], b1, &d);
        check_summaries(sets[s], &b0, b1, &d);
        if (sets[s]->changed_threats)
            check_given(sets[s], &b0, b1, &d);
    }
    game->unmake(pos, m);
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < 2; p++) {
            uint32_t again[256];
            int n = active_sorted(sets[s], game->board(pos), p, again);
            ck_assert(n == nb[s][p] && memcmp(again, before[s][p], sizeof(uint32_t) * (size_t)n) == 0);
        }
    return incremental;
}

/* FullThreats_xiangqi computes attacks from tables (rays with first-blocker bits, horse legs,
 * elephant eyes) in both its move update and its refresh, so incremental == full cannot see a
 * table error they share: the tables against the ray walk they come from. */
START_TEST(attack_tables)
{
    ck_assert_int_eq(xqf_attack_tables_check(0x9E3779B97F4A7C15ull, 900), 0);
}
END_TEST

START_TEST(dimensions_and_start)
{
    ck_assert_uint_eq(sets[0]->dimensions(NULL), 16536);
    ck_assert_uint_eq(sets[1]->dimensions(NULL), 45547);
    nnue_error err;
    ck_assert_int_eq(game->parse(pos, game->start, &err), 0);
    uint32_t out[256];
    for (int p = 0; p < 2; p++)
        ck_assert_int_eq(active_sorted(sets[0], game->board(pos), p, out), 32);
}
END_TEST

START_TEST(incremental_equals_full)
{
    test_require_shared("oracle/xiangqi/corpusA.fen");
    size_t size;
    char *text = test_read_file(test_shared_path("oracle/xiangqi/corpusA.fen"), &size);
    ck_assert_ptr_nonnull(text);
    unsigned seed = 2026;
    int positions = 0, moves = 0, incremental = 0;
    for (char *line = strtok(text, "\n"); line && positions < 60; line = strtok(NULL, "\n"), positions++) {
        nnue_error err;
        ck_assert_int_eq(game->parse(pos, line, &err), 0);
        nnue_move list[NNUE_MAX_MOVES];
        for (int ply = 0; ply < 8; ply++) {
            int n = game->legal_moves(pos, list);
            if (!n)
                break;
            for (int i = 0; i < n; i++, moves++)
                incremental += check_move(list[i]);
            seed = seed * 1103515245u + 12345u;
            game->make(pos, list[(seed >> 16) % (unsigned)n], NULL);
        }
    }
    fprintf(stderr, "xiangqi features: %d moves, %d incremental updates checked\n", moves, incremental);
    ck_assert_int_gt(incremental, moves);
    free(text);
}
END_TEST

int main(void)
{
    game = nnue_game_find("xiangqi");
    sets[0] = nnue_feature_set_find("HalfKAv2_hm_xiangqi");
    sets[1] = nnue_feature_set_find("FullThreats_xiangqi");
    if (!game || !sets[0] || !sets[1] || game->pos_size > sizeof pos) {
        fprintf(stderr, "xiangqi or its feature sets are not registered\n");
        return 1;
    }
    Suite *s = suite_create("features_xiangqi");
    TCase *tc = tcase_create("xiangqi");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, attack_tables);
    tcase_add_test(tc, dimensions_and_start);
    tcase_add_test(tc, incremental_equals_full);
    suite_add_tcase(s, tc);
    return test_run(s);
}
