/* tests/eval/test_eval_cache.c NET: the bucket refresh cache (core/eval/refresh_cache.h) is exact.
 *  - the sorted multiset difference, the sort and the bit sets on hand-made lists (repeats too);
 *  - long random walks from corpus positions that pick king moves preferentially (so forced
 *    refreshes go through the cache), evaluated at every ply and after pops, accumulators and
 *    results compared with a fresh full refresh; on the current kernel set and on scalar;
 *  - one cache fed every corpus position in file order, both perspectives: slots filled from
 *    one position serve very different ones, each result equal to a full refresh;
 *  - shogi: the handicap positions too, first (their padding index repeats 1..n times);
 *  - the cache is off after reset (a root refresh stays from scratch) and when turned off;
 *  - a set's one-pass active_both() (used for root refreshes) equals active() per perspective. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "core/eval/refresh_cache.h"
#include "eval_nets.h"
#include "support.h"

static const eval_net *net_info;
static nnue_net *net;
static const nnue_game *game;

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static unsigned next_random(unsigned n)
{
    return eval_random(&rng, n);
}

/* Positions of the net's game: for shogi the handicap positions first (fewer than 38 pieces:
 * the padding index repeats, in different numbers), then the corpus. *n_first: how many of
 * the first kind. The strings point into *text. */
static char **positions(char **text, char **extra, int *count, int *n_first)
{
    int shogi = strcmp(game->name, "shogi") == 0;
    *text = test_read_file(test_data_path(shogi ? "oracle/shogi/corpusA.sfen" : EVAL_CHESS_CORPUS), NULL);
    *extra = shogi ? test_read_file(test_shared_path("oracle/shogi/handicapA_goldens_random.tsv"), NULL) : NULL;
    ck_assert_ptr_nonnull(*text);
    char **list = malloc(sizeof(char *) * 8192);
    int n = 0;
    char *save = NULL;
    for (char *line = *extra ? strtok_r(*extra, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save))
        if (line[0] != '#' && n < 8192) {
            char *tab = strchr(line, '\t');
            if (tab)
                *tab = 0;
            list[n++] = line;
        }
    *n_first = n;
    for (char *line = strtok_r(*text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (line[0] != '#' && n < 8192)
            list[n++] = line;
    ck_assert_int_gt(n, 100);
    *count = n;
    return list;
}

START_TEST(diff_sort_and_bits)
{
    const uint32_t a[] = {5, 5, 5, 7, 9, 12}, b[] = {5, 7, 7, 10, 12, 12, 13};
    uint32_t rem[16], add[16];
    int nr, na;
    nnue_refresh_diff(a, 6, b, 7, rem, &nr, add, &na);
    ck_assert_int_eq(nr, 3); /* 5, 5, 9 */
    ck_assert(rem[0] == 5 && rem[1] == 5 && rem[2] == 9);
    ck_assert_int_eq(na, 4); /* 7, 10, 12, 13 */
    ck_assert(add[0] == 7 && add[1] == 10 && add[2] == 12 && add[3] == 13);
    nnue_refresh_diff(b, 7, b, 7, rem, &nr, add, &na);
    ck_assert(nr == 0 && na == 0);
    nnue_refresh_diff(NULL, 0, a, 6, rem, &nr, add, &na);
    ck_assert(nr == 0 && na == 6);
    uint32_t u[8] = {40, 3, 3, 17, 99999, 0, 17, 2};
    nnue_refresh_sort(u, 8);
    for (int i = 1; i < 8; i++)
        ck_assert_uint_le(u[i - 1], u[i]);
    static uint64_t bits[NNUE_REFRESH_WINDOW / 64];
    ck_assert_int_eq(nnue_refresh_bits(a, 6, 0, bits), 0); /* 5 repeats */
    ck_assert_int_eq(nnue_refresh_bits(u, 8, 0, bits), 0); /* 3 repeats */
    const uint32_t c[] = {4100, 4164, 8000, 8190};
    ck_assert_int_eq(nnue_refresh_bits(c, 4, 4096, bits), 1);
    ck_assert(bits[0] == 1ull << 4 && bits[1] == 1ull << 4 && bits[61] == 1ull && bits[63] == 1ull << 62);
    ck_assert_int_eq(nnue_refresh_bits(c, 4, 4160, bits), 0); /* 4100 below the window */
    ck_assert_int_eq(nnue_refresh_bits(c, 4, 4000, bits), 0); /* 8190 above it */
}
END_TEST

/* 1 when the move changes a king's square (either colour). */
static int is_king_move(void *pos, nnue_move m)
{
    nnue_delta d;
    game->make(pos, m, &d);
    game->unmake(pos, m);
    return d.king_moved[0] || d.king_moved[1];
}

/* Random walks (pushes and pops mixed) preferring king moves, evaluated at every step. */
static void king_walks(int every, int steps, const char *isa)
{
    char *text, *extra;
    int count, n_first;
    char **list = positions(&text, &extra, &count, &n_first);
    nnue_state *s = nnue_state_new(net, 64);
    nnue_state_set_refresh_cache(s, 1); /* off by default */
    if (isa)
        ck_assert_int_eq(nnue_state_set_isa(s, NNUE_ISA_SCALAR), 0);
    nnue_move moves[NNUE_MAX_MOVES], kings[NNUE_MAX_MOVES], played[64];
    int checks = 0;
    for (int index = 0; index < count; index++) {
        const char *line = list[index];
        if (index >= n_first && (index - n_first) % every)
            continue;
        void *pos = eval_parse(game, line);
        nnue_state_reset(s, game->board(pos));
        eval_expect_fresh(net, s, game->board(pos), 0, 1, line);
        int depth = 0;
        for (int step = 0; step < steps; step++) {
            int n = depth < 63 ? game->legal_moves(pos, moves) : 0;
            if (n == 0 || (depth > 0 && next_random(4) == 0)) { /* pop, evaluate the parent */
                if (depth == 0)
                    break;
                nnue_state_pop(s);
                game->unmake(pos, played[--depth]);
            } else {
                int nk = 0;
                for (int i = 0; i < n; i++)
                    if (is_king_move(pos, moves[i]))
                        kings[nk++] = moves[i];
                played[depth] = nk && next_random(3) ? kings[next_random((unsigned)nk)] : moves[next_random((unsigned)n)];
                nnue_delta delta;
                game->make(pos, played[depth++], &delta);
                ck_assert_int_eq(nnue_state_push(s, game->board(pos), &delta), 0);
            }
            eval_expect_fresh(net, s, game->board(pos), 0, 1, line);
            checks++;
        }
        while (depth > 0) {
            nnue_state_pop(s);
            game->unmake(pos, played[--depth]);
        }
        free(pos);
    }
    /* The walks must have gone through the cache, both ways. */
    ck_assert_msg(s->cache.diffs > 50 && s->cache.fulls > 10, "cache diffs %llu, full refreshes %llu",
                  (unsigned long long)s->cache.diffs, (unsigned long long)s->cache.fulls);
    ck_assert_int_gt(checks, 1000);
    nnue_state_free(s);
    free(list);
    free(extra);
    free(text);
}

START_TEST(king_walks_current_isa)
{
    king_walks(8, 200, NULL);
}
END_TEST

START_TEST(king_walks_scalar)
{
    king_walks(48, 120, "scalar");
}
END_TEST

/* One cache, every corpus position in turn: slots carry over between unrelated positions. */
START_TEST(slots_reused_across_positions)
{
    char *text, *extra;
    int count, n_first;
    char **list = positions(&text, &extra, &count, &n_first);
    nnue_state *s = nnue_state_new(net, 1);
    nnue_refresh_cache cache;
    nnue_refresh_cache_init(&cache, net);
    ck_assert_uint_gt(cache.keys, 0);
    for (int index = 0; index < count; index++) {
        const char *line = list[index];
        void *pos = eval_parse(game, line);
        const nnue_board *board = game->board(pos);
        nnue_acc_entry *cached = &s->entries[1], *full = &s->entries[0];
        const nnue_ft_desc *ft = &net->arch->ft;
        for (int p = 0; p < 2; p++) {
            ck_assert_int_eq(nnue_refresh_cache_refresh(&cache, net, s->kernels, s->set_params, board, p, cached), 0);
            nnue_accumulator_refresh(net, s->kernels, s->set_params, board, p, full);
            ck_assert_msg(memcmp(cached->acc[p], full->acc[p], ft->width * sizeof(int16_t)) == 0,
                          "%s: perspective %d, cached accumulator differs", line, p);
            if (ft->psqt_buckets)
                ck_assert_msg(memcmp(cached->psqt[p], full->psqt[p], ft->psqt_buckets * sizeof(int32_t)) == 0,
                              "%s: perspective %d, cached PSQT differs", line, p);
        }
        free(pos);
    }
    ck_assert_msg(cache.diffs > 20 && cache.fulls > 20, "diffs %llu, full refreshes %llu",
                  (unsigned long long)cache.diffs, (unsigned long long)cache.fulls);
    nnue_refresh_cache_free(&cache);
    nnue_state_free(s);
    free(list);
    free(extra);
    free(text);
}
END_TEST

/* A set's one-pass active_both() writes what active() writes for each perspective. */
START_TEST(active_both_matches_active)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    if (!ft->features->active_both)
        return;
    char *text, *extra;
    int count, n_first;
    char **list = positions(&text, &extra, &count, &n_first);
    for (int index = 0; index < count; index++) {
        void *pos = eval_parse(game, list[index]);
        uint32_t both[2][NNUE_MAX_ACTIVE], one[NNUE_MAX_ACTIVE];
        uint32_t *const out[2] = {both[0], both[1]};
        int n[2];
        ft->features->active_both(&ft->params, game->board(pos), out, n);
        for (int p = 0; p < 2; p++) {
            int m = ft->features->active(&ft->params, game->board(pos), p, one);
            ck_assert_msg(m == n[p] && memcmp(one, both[p], (size_t)m * sizeof(uint32_t)) == 0,
                          "%s: active_both differs from active for perspective %d", list[index], p);
        }
        free(pos);
    }
    free(list);
    free(extra);
    free(text);
}
END_TEST

/* Roots never use the cache; a state with the cache off never fills it. */
START_TEST(cache_off_for_roots_and_when_off)
{
    char *text, *extra;
    int count, n_first;
    char **list = positions(&text, &extra, &count, &n_first);
    nnue_state *s = nnue_state_new(net, 8);
    ck_assert_int_eq(s->cache_on, 0); /* the documented default */
    for (int index = 0; index < count && index < 200; index++) {
        const char *line = list[index];
        void *pos = eval_parse(game, line);
        nnue_state_set_refresh_cache(s, index % 2);
        nnue_state_reset(s, game->board(pos));
        nnue_evaluate(s, game->board(pos), NULL);
        ck_assert_uint_eq(s->cache.diffs + s->cache.fulls, 0);
        if (!s->cache_on) { /* king moves with the cache off: still none */
            nnue_move moves[NNUE_MAX_MOVES];
            int n = game->legal_moves(pos, moves);
            for (int i = 0; i < n; i++) {
                nnue_delta d;
                game->make(pos, moves[i], &d);
                nnue_state_push(s, game->board(pos), &d);
                eval_expect_fresh(net, s, game->board(pos), 0, 1, line);
                nnue_state_pop(s);
                game->unmake(pos, moves[i]);
            }
            ck_assert_uint_eq(s->cache.diffs + s->cache.fulls, 0);
        }
        free(pos);
    }
    nnue_state_free(s);
    free(list);
    free(extra);
    free(text);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc != 2 || !(net_info = eval_net_find(argv[1]))) {
        fprintf(stderr, "usage: test_eval_cache NET\n");
        return 2;
    }
    const char *path = eval_net_file(net_info);
    if (!(net = eval_net_load_main(net_info, path)))
        return 1;
    game = nnue_game_find(net->arch->game);
    if (strcmp(game->name, "shogi") == 0) {
        test_require_shared("oracle/shogi/corpusA.sfen");
        test_require_shared("oracle/shogi/handicapA_goldens_random.tsv");
    }
    Suite *s = suite_create("eval_cache");
    TCase *tc = tcase_create(net_info->name);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, diff_sort_and_bits);
    tcase_add_test(tc, king_walks_current_isa);
    tcase_add_test(tc, king_walks_scalar);
    tcase_add_test(tc, slots_reused_across_positions);
    tcase_add_test(tc, cache_off_for_roots_and_when_off);
    tcase_add_test(tc, active_both_matches_active);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    nnue_net_free(net);
    return rc;
}
