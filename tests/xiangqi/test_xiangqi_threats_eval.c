/* tests/xiangqi/test_xiangqi_threats_eval.c ARCH: incremental == full evaluation on `nnue init`'s
 * random net for a Pikafish architecture (archs/pikafish.yaml; the width-64 copy under the
 * sanitizers), with each move's threat changes recorded by the adapter and handed in
 * (nnue_game_make_threats, nnue_state_push_threats), without them (plain push: FullThreats_xiangqi
 * lists them from the boards), and with them on some moves only; on every kernel set the CPU has:
 *  - every legal move of every corpus A position, one ply from the evaluated root;
 *  - 300 random games from the start position, evaluated lazily (two moves at once every third
 *    ply), then unwound (pop and unmake) with an evaluation every few plies;
 *  - a list that does not fit the game is refused (-1, error file "nnue_threats") and the entry
 *    refreshes from the board; one that fits but is not the move's is taken. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/isa.h"
#include "core/arch/arch_api.h"
#include "eval/eval_nets.h"
#include "support.h"

static char net_path[4096];
static nnue_net *net;
static const nnue_game *game;

enum { PLAIN, WITH, MIXED, N_STATES };
static const char *const state_names[N_STATES] = {"plain push", "handed-in threats", "threats on some moves"};

static void same(const nnue_eval_detail *a, const nnue_eval_detail *b, const char *what, const char *where,
                 nnue_isa isa)
{
    if (a->bucket != b->bucket || a->psqt != b->psqt || a->positional != b->positional || a->total != b->total)
        ck_abort_msg("%s on %s, %s: incremental %d/%d/%d/%d, full %d/%d/%d/%d", where, nnue_isa_label(isa), what,
                     a->bucket, a->psqt, a->positional, a->total, b->bucket, b->psqt, b->positional, b->total);
}

/* Each state's evaluation against a fresh state's on the same kernel set. */
static void check_states(nnue_state *const st[N_STATES], const nnue_board *board, nnue_isa isa, const char *where)
{
    nnue_state *fresh = nnue_state_new(net, 0);
    ck_assert_int_eq(nnue_state_set_isa(fresh, isa), 0);
    nnue_state_reset(fresh, board);
    nnue_eval_detail full, inc;
    nnue_evaluate(fresh, board, &full);
    nnue_state_free(fresh);
    for (int k = 0; k < N_STATES; k++) {
        nnue_evaluate(st[k], board, &inc);
        same(&inc, &full, state_names[k], where, isa);
    }
}

static void new_states(nnue_state *st[N_STATES], nnue_isa isa, int max_ply)
{
    for (int k = 0; k < N_STATES; k++) {
        st[k] = nnue_state_new(net, max_ply);
        ck_assert_ptr_nonnull(st[k]);
        ck_assert_int_eq(nnue_state_set_isa(st[k], isa), 0);
    }
}

static void free_states(nnue_state *st[N_STATES])
{
    for (int k = 0; k < N_STATES; k++)
        nnue_state_free(st[k]);
}

/* Makes move with its threat changes and pushes it on each state (MIXED: with them when
 * `mixed_with`); the threats are checked to be kept. */
static void make_and_push(nnue_state *const st[N_STATES], void *pos, nnue_move move, int mixed_with)
{
    static nnue_threats t;
    nnue_delta delta;
    ck_assert_int_eq(nnue_game_make_threats(game, pos, move, &delta, &t), 1);
    const nnue_board *b = game->board(pos);
    ck_assert_int_eq(nnue_state_push(st[PLAIN], b, &delta), 0);
    ck_assert_int_eq(nnue_state_push_threats(st[WITH], b, &delta, &t), 0);
    ck_assert_int_eq(nnue_state_push_threats(st[MIXED], b, &delta, mixed_with ? &t : NULL), 0);
    ck_assert_int_eq(st[WITH]->entries[st[WITH]->ply].has_threats, 1);
    ck_assert_int_eq(st[PLAIN]->entries[st[PLAIN]->ply].has_threats, 0);
}

static void pop_states(nnue_state *const st[N_STATES])
{
    for (int k = 0; k < N_STATES; k++)
        nnue_state_pop(st[k]);
}

static void reset_states(nnue_state *const st[N_STATES], const nnue_board *b)
{
    for (int k = 0; k < N_STATES; k++)
        ck_assert_int_eq(nnue_state_reset(st[k], b), 0);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;

START_TEST(corpus_every_legal_move)
{
    char *text = test_read_file(test_shared_path("oracle/xiangqi/corpusA.fen"), NULL);
    ck_assert_ptr_nonnull(text);
    void *pos = malloc(game->pos_size);
    long checked = 0;
    for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
        nnue_state *st[N_STATES];
        new_states(st, (nnue_isa)isa, 4);
        char *copy = strdup(text), *save = NULL;
        int line_no = 0;
        for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            line_no++;
            nnue_error err;
            ck_assert_msg(game->parse(pos, line, &err) == 0, "corpusA line %d: %s", line_no, err.message);
            reset_states(st, game->board(pos));
            check_states(st, game->board(pos), (nnue_isa)isa, line);
            nnue_move moves[NNUE_MAX_MOVES];
            int n = game->legal_moves(pos, moves);
            for (int i = 0; i < n; i++) {
                make_and_push(st, pos, moves[i], (int)eval_random(&rng, 2));
                char where[300], uci[8];
                game->format_move(moves[i], uci, sizeof uci);
                snprintf(where, sizeof where, "corpusA line %d: %s | %s", line_no, line, uci);
                check_states(st, game->board(pos), (nnue_isa)isa, where);
                pop_states(st);
                game->unmake(pos, moves[i]);
                checked++;
            }
        }
        free(copy);
        free_states(st);
    }
    ck_assert_int_gt(checked, 100000);
    fprintf(stderr, "corpusA: %ld moves (over every kernel set) equal full evaluations, with and without "
                    "threat changes\n", checked);
    free(pos);
    free(text);
}
END_TEST

#define GAME_PLIES 200

START_TEST(random_games_lazy_and_unwound)
{
    void *pos = malloc(game->pos_size);
    long checked = 0, plies = 0;
    for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
        nnue_state *st[N_STATES];
        new_states(st, (nnue_isa)isa, GAME_PLIES);
        for (int g = 0; g < 300; g++) {
            nnue_error err;
            ck_assert_int_eq(game->parse(pos, game->start, &err), 0);
            reset_states(st, game->board(pos));
            nnue_move played[GAME_PLIES], moves[NNUE_MAX_MOVES];
            int depth = 0;
            for (; depth < GAME_PLIES; depth++) {
                int n = game->legal_moves(pos, moves);
                if (n == 0)
                    break;
                played[depth] = moves[eval_random(&rng, (unsigned)n)];
                make_and_push(st, pos, played[depth], (int)eval_random(&rng, 2));
                plies++;
                if (depth % 3 == 1)
                    continue; /* evaluated with the next move: two deltas at once */
                char where[100];
                snprintf(where, sizeof where, "random game %d ply %d", g, depth);
                check_states(st, game->board(pos), (nnue_isa)isa, where);
                checked++;
            }
            while (depth > 0) {
                pop_states(st);
                game->unmake(pos, played[--depth]);
                if (depth % 7 == 3) {
                    char where[100];
                    snprintf(where, sizeof where, "random game %d unwound to ply %d", g, depth);
                    check_states(st, game->board(pos), (nnue_isa)isa, where);
                    checked++;
                }
            }
        }
        free_states(st);
    }
    fprintf(stderr, "random games: %ld plies, %ld evaluations (over every kernel set) equal full ones\n", plies,
            checked);
    ck_assert_int_gt(plies, 30000);
    free(pos);
}
END_TEST

/* A list that does not fit the game: -1, the error names nnue_threats, the entry refreshes. */
START_TEST(bad_threats_refused)
{
    void *pos = malloc(game->pos_size);
    nnue_error err;
    ck_assert_int_eq(game->parse(pos, game->start, &err), 0);
    nnue_move moves[NNUE_MAX_MOVES];
    ck_assert_int_gt(game->legal_moves(pos, moves), 0);
    nnue_state *st[N_STATES];
    new_states(st, nnue_isa_best(), 4);
    reset_states(st, game->board(pos));
    nnue_evaluate(st[WITH], game->board(pos), NULL);
    nnue_delta delta;
    static nnue_threats t, good;
    ck_assert_int_eq(nnue_game_make_threats(game, pos, moves[0], &delta, &good), 1);
    const nnue_board *b = game->board(pos);
    nnue_state *s = st[WITH];
    static const nnue_threat bad[] = {
        {NNUE_PIECE(0, 8), 3, NNUE_PIECE(1, 1), 12},  /* no xiangqi piece type 8 */
        {NNUE_PIECE(2, 1), 3, NNUE_PIECE(1, 1), 12},  /* no colour 2 */
        {NNUE_PIECE(0, 1), 90, NNUE_PIECE(1, 1), 12}, /* square 90 is off the board */
        {NNUE_PIECE(0, 1), 3, NNUE_PIECE(1, 1), 200},
        {NNUE_PIECE(0, 1), 3, 0, 12},                 /* no victim */
    };
    for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++)
        for (int added = 0; added < 2; added++) {
            t = good;
            nnue_threat *list = added ? t.added : t.removed;
            uint16_t *n = added ? &t.n_added : &t.n_removed;
            list[*n > 2 ? 2 : *n] = bad[i];
            if (*n <= 2)
                (*n)++;
            ck_assert_msg(nnue_state_push_threats(s, b, &delta, &t) == -1, "bad threat %d (%s) taken", i,
                          added ? "added" : "removed");
            ck_assert_str_eq(nnue_state_error(s)->file, "nnue_threats");
            ck_assert_int_eq(nnue_state_push(st[PLAIN], b, &delta), 0);
            ck_assert_int_eq(nnue_state_push_threats(st[MIXED], b, &delta, &good), 0);
            check_states(st, b, nnue_isa_best(), "a refused threat list");
            pop_states(st);
        }
    t = good;
    t.n_added = NNUE_MAX_THREATS + 1;
    ck_assert_int_eq(nnue_state_push_threats(s, b, &delta, &t), -1);
    nnue_state_pop(s);
    /* Fits the game though not this move: taken (a defined value of no meaning). */
    t = good;
    t.n_removed = 0;
    ck_assert_int_eq(nnue_state_push_threats(s, b, &delta, &t), 0);
    nnue_state_pop(s);
    free_states(st);
    free(pos);
}
END_TEST

int main(int argc, char **argv)
{
    const char *arch_rel = argc > 1 ? argv[1] : "archs/pikafish.yaml";
    test_require_shared("oracle/xiangqi/corpusA.fen"); /* exits 77 naming it when absent */
    nnue_arch *arch = eval_random_net_main(arch_rel, "threats", 41, net_path, sizeof net_path);
    if (!arch)
        return 1;
    nnue_error err;
    if (nnue_net_load(arch, net_path, &net, &err) != NNUE_OK) {
        fprintf(stderr, "FAIL: %s\n", err.message);
        return 1;
    }
    game = nnue_game_find(arch->game);
    if (!game || strcmp(game->name, "xiangqi") != 0 || !nnue_game_records_threats(game)) {
        fprintf(stderr, "FAIL: %s is not a xiangqi architecture whose adapter records threats\n", arch_rel);
        return 1;
    }
    Suite *s = suite_create("xiangqi_threats_eval");
    TCase *tc = tcase_create("threats_eval");
    tcase_set_timeout(tc, 1800);
    tcase_add_test(tc, bad_threats_refused);
    tcase_add_test(tc, corpus_every_legal_move);
    tcase_add_test(tc, random_games_lazy_and_unwound);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    nnue_net_free(net);
    nnue_arch_free(arch);
    remove(net_path);
    return rc;
}
