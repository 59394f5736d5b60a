/* tests/eval/test_eval_incremental.c NET: incrementally updated accumulators equal freshly
 * computed ones, value for value, and so do the evaluations:
 *  - every move of movesA.tsv (chess or shogi) from its root, one ply;
 *  - random walks of 16 plies from every 8th corpus position, evaluated lazily every third
 *    ply (several deltas applied at once) and popped back;
 *  - both of those again with each move's threat changes recorded at make time and handed in
 *    (nnue_game_make_threats, nnue_state_push_threats: chess), where a net's threat set takes
 *    them, and again recorded through the state's filter (nnue_state_threat_filter: only the
 *    pairs the net reads); a list that does not fit the game is refused and the entry refreshed;
 *  - shogi only: every ply of the 20 games of gamesA_random.tsv, played incrementally from
 *    the start and compared with the engine's raw value and eval at each ply (the random HalfKP
 *    net the file was made with) or with a full refresh (other shogi nets: accumulators and
 *    values), and the raw_before / raw_after columns of movesA.tsv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "eval_nets.h"
#include "support.h"

static const eval_net *net_info;
static int threats_on; /* the current test makes with threat changes and pushes them (2: filtered) */
static const char *net_path;
static nnue_net *net;
static const nnue_game *game;

/* Makes move and pushes it: plainly, or with its threat changes when threats_on (checked to be
 * kept when the net takes them and the adapter records them). */
static void make_and_push(nnue_state *s, void *pos, nnue_move move)
{
    nnue_delta delta;
    static nnue_threats t;
    if (!threats_on) {
        game->make(pos, move, &delta);
        nnue_state_push(s, game->board(pos), &delta);
        return;
    }
    const nnue_threat_filter *filter = nnue_state_threat_filter(s);
    ck_assert_int_eq(filter != NULL, s->takes_threats);
    int with = threats_on == 2 ? nnue_game_make_threats_filtered(game, pos, move, &delta, &t, filter)
                               : nnue_game_make_threats(game, pos, move, &delta, &t);
    ck_assert_int_eq(nnue_state_push_threats(s, game->board(pos), &delta, with ? &t : NULL), 0);
    ck_assert_int_eq(s->entries[s->ply].has_threats, with && s->takes_threats);
}

static char *moves_file(void)
{
    const char *rel = strcmp(game->name, "shogi") == 0 ? "oracle/shogi/movesA.tsv" : EVAL_CHESS_MOVES;
    return test_read_file(test_data_path(rel), NULL);
}

static void every_move(void)
{
    char *text = moves_file();
    ck_assert_ptr_nonnull(text);
    nnue_state *s = nnue_state_new(net, 4);
    int rows = 0, shogi = strcmp(game->name, "shogi") == 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || strncmp(line, "fen\t", 4) == 0)
            continue;
        char *f[12];
        int n = test_split_tabs(line, f, 12);
        void *pos = eval_parse(game, f[0]);
        nnue_move move;
        nnue_error err;
        ck_assert_msg(game->parse_move(pos, f[1], &move, &err) == 0, "move %s in %s", f[1], f[0]);
        nnue_state_reset(s, game->board(pos));
        nnue_eval_detail before, after;
        nnue_evaluate(s, game->board(pos), &before);
        make_and_push(s, pos, move);
        eval_expect_fresh(net, s, game->board(pos), 0, 1, f[1]);
        if (shogi && strcmp(net_info->name, "shogi") == 0 && n >= 9) {
            nnue_evaluate(s, game->board(pos), &after);
            ck_assert_int_eq(before.positional, atoi(f[7]));
            ck_assert_int_eq(after.positional, atoi(f[8]));
        }
        nnue_state_pop(s);
        game->unmake(pos, move);
        free(pos);
        rows++;
    }
    ck_assert_int_eq(rows, 2000);
    nnue_state_free(s);
    free(text);
}

START_TEST(every_move_of_moves_file)
{
    threats_on = 0;
    every_move();
}
END_TEST

START_TEST(every_move_with_threats)
{
    threats_on = 1;
    every_move();
}
END_TEST

START_TEST(every_move_with_filtered_threats)
{
    threats_on = 2;
    every_move();
}
END_TEST

/* A threat list that does not fit the game is refused (-1, the error names it) and the entry
 * refreshes from the board: the evaluation stays exact. */
START_TEST(bad_threats_refused)
{
    void *pos = eval_parse(game, game->start);
    nnue_move moves[NNUE_MAX_MOVES];
    ck_assert_int_gt(game->legal_moves(pos, moves), 0);
    nnue_state *s = nnue_state_new(net, 4);
    nnue_state_reset(s, game->board(pos));
    nnue_evaluate(s, game->board(pos), NULL);
    nnue_delta delta;
    static nnue_threats t;
    nnue_game_make_threats(game, pos, moves[0], &delta, &t);
    t.n_added = 1;
    t.added[0] = (nnue_threat){NNUE_PIECE(0, 15), 3, NNUE_PIECE(1, 1), 200};
    ck_assert_int_eq(nnue_state_push_threats(s, game->board(pos), &delta, &t), -1);
    ck_assert_str_eq(nnue_state_error(s)->file, "nnue_threats");
    eval_expect_fresh(net, s, game->board(pos), 0, 1, "a refused threat list");
    nnue_state_pop(s);
    t.n_removed = NNUE_MAX_THREATS + 1;
    ck_assert_int_eq(nnue_state_push_threats(s, game->board(pos), &delta, &t), -1);
    eval_expect_fresh(net, s, game->board(pos), 0, 1, "too many threats");
    nnue_state_pop(s);
    /* Each field of each of 9 threats (the checker takes 4 at a time, then the rest one by one). */
    const nnue_board *b = game->board(pos);
    for (int i = 0; i < 9; i++)
        for (int field = 0; field < 6; field++) {
            t.n_removed = 0;
            t.n_added = 9;
            for (int k = 0; k < 9; k++)
                t.added[k] = (nnue_threat){NNUE_PIECE(0, 4), (uint8_t)k, NNUE_PIECE(1, 2), (uint8_t)(k + 8)};
            nnue_threat *x = &t.added[i];
            switch (field) {
            case 0: x->attacker = NNUE_PIECE(2, 1); break;
            case 1: x->attacker = NNUE_PIECE(1, 0); break;
            case 2: x->victim = NNUE_PIECE(0, game->piece_types + 1); break;
            case 3: x->from = b->num_squares; break;
            case 4: x->to = 255; break;
            default: x->victim = 0; break;
            }
            ck_assert_msg(nnue_state_push_threats(s, b, &delta, &t) == -1, "threat %d, field %d not refused", i, field);
            nnue_state_pop(s);
        }
    ck_assert_int_eq(nnue_state_push_threats(s, b, &delta, &t), -1); /* the last one (victim 0) */
    nnue_state_pop(s);
    t.added[8].victim = NNUE_PIECE(1, 2);
    ck_assert_int_eq(nnue_state_push_threats(s, b, &delta, &t), 0); /* fits (though not this move's) */
    nnue_state_free(s);
    free(pos);
}
END_TEST

/* A pair that fits the game but is no attack (from == to: the last attacker and victim slot
 * mapped it to index == dimensions, one row past the set's; issue 49) is refused by a net whose
 * threat set reads the lists, naming the pair; the entry refreshes, the evaluation stays exact. */
START_TEST(non_attacks_refused)
{
    void *pos = eval_parse(game, game->start);
    nnue_move moves[NNUE_MAX_MOVES];
    ck_assert_int_gt(game->legal_moves(pos, moves), 0);
    nnue_state *s = nnue_state_new(net, 4);
    nnue_state_reset(s, game->board(pos));
    nnue_evaluate(s, game->board(pos), NULL);
    nnue_delta delta;
    static nnue_threats t, made;
    nnue_game_make_threats(game, pos, moves[0], &delta, &made);
    const nnue_board *b = game->board(pos);
    int refused = 0, tried = 0;
    for (int colour = 0; colour < 2; colour++)
        for (int type = 1; type <= 6; type++)
            for (int k = 0; k < 4; k++) {
                /* from == to at both corners, a knight's non-jump, a pawn capturing backwards */
                static const uint8_t from[2][4] = {{63, 0, 0, 56}, {63, 0, 0, 8}};
                static const uint8_t to[2][4] = {{63, 0, 1, 49}, {63, 0, 1, 17}};
                if (k >= 2 && type != (k == 2 ? 2 : 1))
                    continue;
                uint8_t f = from[colour][k], dest = to[colour][k];
                t = made;
                t.added[t.n_added++] = (nnue_threat){NNUE_PIECE(colour, type), f, NNUE_PIECE(1 - colour, 6), dest};
                int r = nnue_state_push_threats(s, b, &delta, &t);
                tried++;
                if (r != 0) {
                    refused++;
                    const nnue_error *e = nnue_state_error(s);
                    ck_assert_str_eq(e->file, "nnue_threats");
                    ck_assert_msg(strstr(e->message, "does not attack"), "%s", e->message);
                    char field[32];
                    snprintf(field, sizeof field, "added[%d]", t.n_added - 1);
                    ck_assert_msg(strstr(e->message, field), "%s", e->message);
                    eval_expect_fresh(net, s, b, 0, 1, "a refused non-attack");
                }
                nnue_state_pop(s);
            }
    ck_assert_int_eq(refused, (s->takes_threats ? tried : 0));
    t = made; /* the move's own lists still pass */
    ck_assert_int_eq(nnue_state_push_threats(s, b, &delta, &t), 0);
    eval_expect_fresh(net, s, b, 0, 1, "the move's threats");
    nnue_state_free(s);
    free(pos);
}
END_TEST

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static unsigned next_random(unsigned n)
{
    return eval_random(&rng, n);
}

static void random_walks(void)
{
    const char *rel = strcmp(game->name, "shogi") == 0 ? "oracle/shogi/corpusA.sfen" : EVAL_CHESS_CORPUS;
    char *text = test_read_file(test_data_path(rel), NULL);
    ck_assert_ptr_nonnull(text);
    nnue_state *s = nnue_state_new(net, 32);
    nnue_move moves[NNUE_MAX_MOVES], played[32];
    int index = 0, checks = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), index++) {
        if (line[0] == '#' || index % 8)
            continue;
        void *pos = eval_parse(game, line);
        nnue_state_reset(s, game->board(pos));
        nnue_evaluate(s, game->board(pos), NULL);
        int depth = 0;
        for (int ply = 1; ply <= 16; ply++) {
            int n = game->legal_moves(pos, moves);
            if (n == 0)
                break;
            played[depth] = moves[next_random((unsigned)n)];
            make_and_push(s, pos, played[depth++]);
            if (ply % 3 == 0) {
                eval_expect_fresh(net, s, game->board(pos), 0, 1, line);
                checks++;
            }
        }
        while (depth > 0) {
            nnue_state_pop(s);
            game->unmake(pos, played[--depth]);
            if (depth % 4 == 1) { /* evaluating after pops reuses what was computed on the way down */
                eval_expect_fresh(net, s, game->board(pos), 0, 1, line);
                checks++;
            }
        }
        free(pos);
    }
    ck_assert_int_gt(checks, 500);
    nnue_state_free(s);
    free(text);
}

START_TEST(lazy_random_walks)
{
    threats_on = 0;
    random_walks();
}
END_TEST

START_TEST(lazy_random_walks_with_threats)
{
    threats_on = 1;
    random_walks();
}
END_TEST

START_TEST(lazy_random_walks_with_filtered_threats)
{
    threats_on = 2;
    random_walks();
}
END_TEST

/* shogi: whole games, incrementally, against the engine's values at every ply. */
START_TEST(shogi_games_incremental)
{
    char *text = test_read_file(test_shared_path("oracle/shogi/gamesA_random.tsv"), NULL);
    ck_assert_ptr_nonnull(text);
    nnue_state *s = nnue_state_new(net, 1024);
    void *pos = NULL;
    int plies = 0, games = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char *f[8];
        ck_assert_int_ge(test_split_tabs(line, f, 8), 6);
        if (atoi(f[1]) == 0) {
            free(pos);
            pos = eval_parse(game, f[2]);
            nnue_state_reset(s, game->board(pos));
            games++;
        }
        nnue_eval_detail d;
        nnue_evaluate(s, game->board(pos), &d);
        if (strcmp(net_info->name, "shogi") == 0)
            ck_assert_msg(d.positional == atoi(f[4]) && d.total == atoi(f[5]),
                          "game %s ply %s: raw %d eval %d, golden %s %s", f[0], f[1], d.positional, d.total, f[4], f[5]);
        else
            eval_expect_fresh(net, s, game->board(pos), 0, 1, f[2]);
        plies++;
        if (strcmp(f[3], "-") != 0) {
            nnue_move move;
            nnue_error err;
            ck_assert_int_eq(game->parse_move(pos, f[3], &move, &err), 0);
            nnue_delta delta;
            game->make(pos, move, &delta);
            ck_assert_int_eq(nnue_state_push(s, game->board(pos), &delta), 0);
        }
    }
    free(pos);
    ck_assert_int_eq(games, 20);
    ck_assert_int_eq(plies, 2314);
    nnue_state_free(s);
    free(text);
}
END_TEST

/* shogi: handicap positions exercise the BonaPiece-0 padding (FORMATS.md 4.4). */
START_TEST(shogi_handicap_goldens)
{
    char *text = test_read_file(test_shared_path("oracle/shogi/handicapA_goldens_random.tsv"), NULL);
    ck_assert_ptr_nonnull(text);
    int rows = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char *f[6];
        test_split_tabs(line, f, 6);
        void *pos = eval_parse(game, f[0]);
        nnue_eval_detail d;
        eval_fresh(net, game->board(pos), &d);
        ck_assert_msg(d.positional == atoi(f[1]) && d.total == atoi(f[2]), "%s: raw %d, golden %s", f[0], d.positional,
                      f[1]);
        free(pos);
        rows++;
    }
    ck_assert_int_eq(rows, 52);
    free(text);
}
END_TEST

/* The accumulator reads i8 rows with patches where the net allows (core/net/net_narrow.c): they must
 * give back the i16 rows exactly. The shogi random net has 0.1% of its FT values beyond i8, so
 * there the patched path is what every test of this program (and goldens_shogi) runs through. */
START_TEST(narrow_rows_restore_i16)
{
    long long patched = -1;
    for (int s = 0; s < net->arch->ft.n_sets; s++) {
        long long p = eval_check_narrow_rows(net, s);
        fprintf(stderr, "%s: set %d: %s, %lld values patched\n", net_info->name, s,
                p < 0 ? "rows as stored" : "i8 rows", p < 0 ? 0 : p);
        patched = p > patched ? p : patched;
    }
    if (strcmp(net_info->name, "shogi") == 0)
        ck_assert_int_gt(patched, 0);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc != 2 || !(net_info = eval_net_find(argv[1]))) {
        fprintf(stderr, "usage: test_eval_incremental NET\n");
        return 2;
    }
    net_path = eval_net_file(net_info);
    if (!(net = eval_net_load_main(net_info, net_path)))
        return 1;
    game = nnue_game_find(net->arch->game);
    if (strcmp(game->name, "shogi") == 0) {
        test_require_shared("oracle/shogi/movesA.tsv");
        test_require_shared("oracle/shogi/corpusA.sfen");
    }
    Suite *s = suite_create("eval_incremental");
    TCase *tc = tcase_create(net_info->name);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, narrow_rows_restore_i16);
    tcase_add_test(tc, every_move_of_moves_file);
    tcase_add_test(tc, lazy_random_walks);
    if (nnue_game_records_threats(game)) {
        tcase_add_test(tc, every_move_with_threats);
        tcase_add_test(tc, lazy_random_walks_with_threats);
        tcase_add_test(tc, every_move_with_filtered_threats);
        tcase_add_test(tc, lazy_random_walks_with_filtered_threats);
        tcase_add_test(tc, bad_threats_refused);
        tcase_add_test(tc, non_attacks_refused);
    }
    if (strcmp(game->name, "shogi") == 0)
        tcase_add_test(tc, shogi_games_incremental);
    if (strcmp(net_info->name, "shogi") == 0)
        tcase_add_test(tc, shogi_handicap_goldens);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    nnue_net_free(net);
    return rc;
}
