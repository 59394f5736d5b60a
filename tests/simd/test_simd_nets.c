/* tests/simd/test_simd_nets.c NET: whole-net equality of every kernel set the CPU supports
 * with the scalar reference path: every corpus position evaluated from scratch, every move of
 * movesA.tsv evaluated incrementally from its root, and random walks that apply several
 * deltas at once, go back up the stack and move kings (the refresh cache's territory).
 * Accumulators, PSQT and every field of the evaluation must be identical. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../eval/eval_nets.h"
#include "support.h"

static const eval_net *net_info;
static nnue_net *net;
static const nnue_game *game;

static int is_shogi(void)
{
    return strcmp(game->name, "shogi") == 0;
}

static nnue_state *state_on(nnue_isa isa, int max_ply)
{
    nnue_state *s = nnue_state_new(net, max_ply);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(nnue_state_set_isa(s, isa), 0);
    return s;
}

/* Evaluates both states (same position) and compares everything. */
static void check_same(nnue_state *fast, nnue_state *ref, const nnue_board *board, const char *what, nnue_isa isa)
{
    nnue_eval_detail a, b;
    nnue_evaluate(fast, board, &a);
    nnue_evaluate(ref, board, &b);
    const nnue_ft_desc *ft = &net->arch->ft;
    for (int p = 0; p < 2; p++) {
        const nnue_acc_entry *x = &fast->entries[fast->ply], *y = &ref->entries[ref->ply];
        ck_assert_msg(memcmp(x->acc[p], y->acc[p], ft->width * sizeof(int16_t)) == 0,
                      "%s on %s: accumulator %d differs", what, nnue_isa_label(isa), p);
        if (ft->psqt_buckets)
            ck_assert_msg(memcmp(x->psqt[p], y->psqt[p], ft->psqt_buckets * sizeof(int32_t)) == 0,
                          "%s on %s: PSQT %d differs", what, nnue_isa_label(isa), p);
    }
    ck_assert_msg(a.bucket == b.bucket && a.psqt == b.psqt && a.positional == b.positional && a.total == b.total &&
                      a.scaled == b.scaled,
                  "%s on %s: %d/%d/%d, scalar %d/%d/%d", what, nnue_isa_label(isa), a.psqt, a.positional, a.total,
                  b.psqt, b.positional, b.total);
}

static char *corpus(void)
{
    char *text = test_read_file(
        test_data_path(is_shogi() ? "oracle/shogi/corpusA.sfen" : EVAL_CHESS_CORPUS), NULL);
    ck_assert_ptr_nonnull(text);
    return text;
}

START_TEST(corpus_from_scratch)
{
    int checked = 0;
    for (int isa = 1; isa <= (int)nnue_isa_best(); isa++) {
        char *text = corpus(), *save = NULL;
        nnue_state *fast = state_on((nnue_isa)isa, 0), *ref = state_on(NNUE_ISA_SCALAR, 0);
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            if (line[0] == '#')
                continue;
            void *pos = eval_parse(game, line);
            nnue_state_reset(fast, game->board(pos));
            nnue_state_reset(ref, game->board(pos));
            check_same(fast, ref, game->board(pos), line, (nnue_isa)isa);
            free(pos);
            checked++;
        }
        nnue_state_free(fast);
        nnue_state_free(ref);
        free(text);
    }
    if (nnue_isa_best() > NNUE_ISA_SCALAR)
        ck_assert_int_ge(checked, 2000);
}
END_TEST

START_TEST(moves_incremental)
{
    for (int isa = 1; isa <= (int)nnue_isa_best(); isa++) {
        char *text = test_read_file(
            test_data_path(is_shogi() ? "oracle/shogi/movesA.tsv" : EVAL_CHESS_MOVES), NULL);
        ck_assert_ptr_nonnull(text);
        nnue_state *fast = state_on((nnue_isa)isa, 4), *ref = state_on(NNUE_ISA_SCALAR, 4);
        int rows = 0;
        char *save = NULL;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            if (line[0] == '#' || strncmp(line, "fen\t", 4) == 0 || strncmp(line, "sfen\t", 5) == 0)
                continue;
            char *f[12];
            test_split_tabs(line, f, 12);
            void *pos = eval_parse(game, f[0]);
            nnue_move move;
            nnue_error err;
            ck_assert_int_eq(game->parse_move(pos, f[1], &move, &err), 0);
            nnue_state_reset(fast, game->board(pos));
            nnue_state_reset(ref, game->board(pos));
            check_same(fast, ref, game->board(pos), f[0], (nnue_isa)isa);
            nnue_delta delta;
            game->make(pos, move, &delta);
            nnue_state_push(fast, game->board(pos), &delta);
            nnue_state_push(ref, game->board(pos), &delta);
            check_same(fast, ref, game->board(pos), f[1], (nnue_isa)isa);
            nnue_state_pop(fast);
            nnue_state_pop(ref);
            game->unmake(pos, move);
            free(pos);
            rows++;
        }
        ck_assert_int_eq(rows, 2000);
        nnue_state_free(fast);
        nnue_state_free(ref);
        free(text);
    }
}
END_TEST

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static unsigned next_random(unsigned n)
{
    return eval_random(&rng, n);
}

/* Walks of 24 plies from every 5th position, king moves preferred half of the time, evaluated
 * every other ply, then popped back with evaluations on the way up. */
START_TEST(random_walks)
{
    nnue_move moves[NNUE_MAX_MOVES], played[32];
    for (int isa = 1; isa <= (int)nnue_isa_best(); isa++) {
        char *text = corpus(), *save = NULL;
        nnue_state *fast = state_on((nnue_isa)isa, 32), *ref = state_on(NNUE_ISA_SCALAR, 32);
        int index = 0, checks = 0;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), index++) {
            if (line[0] == '#' || index % 5)
                continue;
            void *pos = eval_parse(game, line);
            nnue_state_reset(fast, game->board(pos));
            nnue_state_reset(ref, game->board(pos));
            int depth = 0;
            for (int ply = 1; ply <= 24; ply++) {
                int n = game->legal_moves(pos, moves);
                if (n == 0)
                    break;
                nnue_move m = moves[next_random((unsigned)n)];
                for (int tries = 0; tries < 8 && ply % 2; tries++) { /* look for a king move */
                    nnue_move c = moves[next_random((unsigned)n)];
                    nnue_delta d;
                    game->make(pos, c, &d);
                    game->unmake(pos, c);
                    if (d.king_moved[0] || d.king_moved[1]) {
                        m = c;
                        break;
                    }
                }
                nnue_delta delta;
                played[depth++] = m;
                game->make(pos, m, &delta);
                nnue_state_push(fast, game->board(pos), &delta);
                nnue_state_push(ref, game->board(pos), &delta);
                if (ply % 2 == 0 || next_random(4) == 0) {
                    check_same(fast, ref, game->board(pos), line, (nnue_isa)isa);
                    checks++;
                }
            }
            while (depth > 0) {
                nnue_state_pop(fast);
                nnue_state_pop(ref);
                game->unmake(pos, played[--depth]);
                if (depth % 3 == 1) {
                    check_same(fast, ref, game->board(pos), line, (nnue_isa)isa);
                    checks++;
                }
            }
            free(pos);
        }
        ck_assert_int_gt(checks, 1000);
        nnue_state_free(fast);
        nnue_state_free(ref);
        free(text);
    }
}
END_TEST

int main(int argc, char **argv)
{
    if (argc != 2 || !(net_info = eval_net_find(argv[1]))) {
        fprintf(stderr, "usage: test_simd_nets NET\n");
        return 2;
    }
    const char *path = eval_net_file(net_info); /* exits 77 when the data is absent */
    if (!(net = eval_net_load_main(net_info, path)))
        return 1;
    game = nnue_game_find(net->arch->game);
    if (is_shogi()) { /* chess's corpus and moves are the repository's */
        test_require_shared("oracle/shogi/corpusA.sfen");
        test_require_shared("oracle/shogi/movesA.tsv");
    }
    fprintf(stderr, "%s: kernel sets up to %s against scalar, prepared plan: %s\n", net_info->name,
            nnue_isa_label(nnue_isa_best()), net->kernel_data ? "yes" : "no");
    Suite *s = suite_create("simd_nets");
    TCase *tc = tcase_create(net_info->name);
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, corpus_from_scratch);
    tcase_add_test(tc, moves_incremental);
    tcase_add_test(tc, random_walks);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    nnue_net_free(net);
    return rc;
}
