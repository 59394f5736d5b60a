/* tests/core/test_expr_prog.c: the compiled selector (core/arch/expr_prog.c) gives the interpreter's
 * value (nnue_expr_eval_with, the definition) on every built-in architecture's selector over the
 * corpora (chess, shogi with the handicap corpus, xiangqi: every position and every legal
 * child, table variables at their ends and at random) and on random boards, out-of-domain
 * ones included; random expressions agree too; the built-in selectors compile to tables and
 * sums only, read a game's variables in one call where it offers them (nnue_game.var_values),
 * and have their sums folded into the tables that read them; and the comparison catches a wrong
 * table entry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "core/arch/expr_prog.h"
#include "nnue.h"
#include "support.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static unsigned rnd(unsigned n)
{
    return test_random_below(&rng_state, n);
}

/* Table variable values: every slot at its lo (pick 0), its hi (1) or at random (2). */
static void table_values(const nnue_expr *e, int pick, int32_t *values)
{
    for (int v = 0; v < e->n_vars; v++) {
        const nnue_table_var *tv = e->table_vars[v];
        values[v] = !tv ? 0 : pick == 0 ? tv->lo : pick == 1 ? tv->hi : tv->lo + (int32_t)rnd((unsigned)(tv->hi - tv->lo + 1));
    }
}

static long compared;

static void agree(const nnue_expr *e, const nnue_board *b, const char *what)
{
    for (int pick = 0; pick < 3; pick++) {
        int32_t values[NNUE_EXPR_MAX_VARS];
        table_values(e, pick, values);
        int32_t want = nnue_expr_eval_with(e, b, values), got = nnue_expr_run(e, b, values);
        ck_assert_msg(got == want, "%s: compiled %d, interpreted %d (selector %s)", what, got, want, e->text);
        compared++;
    }
    ck_assert_int_eq(nnue_expr_run(e, b, NULL), nnue_expr_eval(e, b));
}

/* Every position of a corpus and every legal child of it. */
static void over_corpus(const nnue_expr *e, const nnue_game *g, const char *file)
{
    test_require_data(file);
    size_t size;
    char *text = test_read_file(test_data_path(file), &size);
    ck_assert_ptr_nonnull(text);
    void *pos = malloc(g->pos_size);
    nnue_move *moves = malloc(NNUE_MAX_MOVES * sizeof *moves);
    int lines = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *tab = strchr(line, '\t');
        if (tab)
            *tab = 0;
        nnue_error err;
        if (!*line || g->parse(pos, line, &err) != 0)
            continue;
        agree(e, g->board(pos), line);
        int n = g->legal_moves(pos, moves);
        for (int i = 0; i < n; i++) {
            g->make(pos, moves[i], NULL);
            agree(e, g->board(pos), line);
            g->unmake(pos, moves[i]);
        }
        lines++;
    }
    ck_assert_int_gt(lines, 50);
    free(moves);
    free(pos);
    free(text);
}

/* A board of g with random fields; with `wild`, fields anywhere in their C types (variables
 * outside their domains: the program hands those to the interpreter). */
static void random_board(const nnue_game *g, nnue_board *b, int wild)
{
    memset(b, 0, sizeof *b);
    int squares = g->files * g->ranks;
    b->num_squares = (uint8_t)squares;
    b->side_to_move = (uint8_t)(wild ? rnd(256) : rnd(2));
    int count = 0;
    for (int sq = 0; sq < squares; sq++)
        if (rnd(3) == 0) {
            b->piece_on[sq] = (uint8_t)(wild ? rnd(256) : NNUE_PIECE(rnd(2), 1 + rnd(g->piece_types)));
            count++;
        }
    for (int c = 0; c < 2; c++) {
        b->king_sq[c] = (uint8_t)(wild ? rnd(256) : rnd((unsigned)squares));
        for (int t = 1; t <= g->hand_types; t++)
            b->hand[c][t] = (uint8_t)(wild ? rnd(256) : rnd((g->hand_caps ? g->hand_caps[t] : g->max_hand) + 1u));
    }
    b->piece_count = (uint8_t)(wild ? rnd(256) : count < 2 ? 2 : count > g->max_pieces ? g->max_pieces : count);
}

static const char *corpus_of(const char *game, int k)
{
    static const char *const chess[] = {"tests/reference/chess/corpusA.fen", NULL};
    static const char *const shogi[] = {"oracle/shogi/corpusA.sfen", "oracle/shogi/handicapA.sfen", NULL};
    static const char *const xiangqi[] = {"oracle/xiangqi/corpusA.fen", NULL};
    const char *const *list = strcmp(game, "chess") == 0 ? chess : strcmp(game, "shogi") == 0 ? shogi
                            : strcmp(game, "xiangqi") == 0 ? xiangqi : NULL;
    return list ? list[k] : NULL;
}

/* 1 when the program has only variables, sums and tables (no operator left to run). */
static int straight(const nnue_expr *e)
{
    for (int i = 0; i < e->prog.n_steps; i++)
        if (e->prog.steps[i].kind == NNUE_PROG_OP)
            return 0;
    return e->prog.n_steps > 0;
}

START_TEST(builtin_selectors_agree_over_corpora)
{
    int selectors = 0, distinct = 0, batched = 0;
    char seen[32][NNUE_EXPR_TEXT_MAX + 16];
    for (int i = 0; i < nnue_arch_builtin_count(); i++) {
        nnue_arch *a = NULL;
        nnue_error err;
        ck_assert_int_eq(nnue_arch_load_builtin(nnue_arch_builtin_name(i), &a, &err), NNUE_OK);
        if (a->stacks > 1) {
            const nnue_expr *e = &a->selector;
            ck_assert_msg(straight(e), "%s: selector %s did not compile to tables and sums (%d steps)", a->name,
                          e->text, e->prog.n_steps);
            int game_vars = 0;
            for (int v = 0; v < e->n_vars; v++)
                game_vars += e->vars[v] != NULL;
            /* a game that offers its variables at once (shogi, xiangqi) is read in one call */
            ck_assert_msg(!game_vars || e->prog.batch == (a->game_desc->var_values ? a->game_desc : NULL),
                          "%s: selector %s reads %d variables of %s without its batch", a->name, e->text, game_vars,
                          a->game);
            batched += e->prog.batch != NULL;
            char key[sizeof seen[0]];
            snprintf(key, sizeof key, "%s:%s", a->game, e->text);
            int known = 0; /* sfnnv2 .. sfnnv16 share theirs: the corpora once per game and text */
            for (int j = 0; j < distinct; j++)
                known |= strcmp(seen[j], key) == 0;
            if (!known && distinct < 32)
                snprintf(seen[distinct++], sizeof seen[0], "%s", key);
            for (int k = 0; corpus_of(a->game, k) && !known; k++)
                over_corpus(e, a->game_desc, corpus_of(a->game, k));
            for (int k = 0; k < 5000; k++) {
                nnue_board b;
                random_board(a->game_desc, &b, k % 4 == 3);
                agree(e, &b, "random board");
            }
            selectors++;
        }
        nnue_arch_free(a);
    }
    fprintf(stderr, "%d selectors (%d distinct), %ld comparisons\n", selectors, distinct, compared);
    ck_assert_int_ge(selectors, 15);
    ck_assert_int_ge(distinct, 8);
    ck_assert_int_ge(batched, 4); /* pikafish, shogi_sfnn1536, shogi_sfnn_progress8, shogi_sfnn_shard */
}
END_TEST

/* Random expressions over shogi's variables and pieces, with constants up to 1000000 (near and
 * past the clamp once multiplied), on random boards in and out of the domains. */
static void random_expr(char *out, size_t size, int depth)
{
    static const char *const vars[] = {"pieces", "stm_king_rank", "stm_king_file", "nstm_king_rank", "nstm_king_file",
                                       "stm_hand_pawn", "nstm_hand_gold", "stm_hand_rook", "nstm_hand_bishop"};
    static const char *const ops[] = {"+", "-", "*", "/", "%", "<", "<=", "==", "!=", ">", ">="};
    static const unsigned consts[] = {0, 1, 2, 3, 4, 7, 9, 13, 72, 256, 1000000};
    char a[1024], b[1024], c[1024];
    unsigned kind = depth <= 0 ? rnd(2) : rnd(7);
    if (kind == 0)
        snprintf(out, size, "%u", consts[rnd(11)]);
    else if (kind == 1)
        snprintf(out, size, "%s", vars[rnd(9)]);
    else if (kind == 2) {
        random_expr(a, sizeof a, depth - 1);
        snprintf(out, size, "-(%s)", a);
    } else if (kind <= 5) {
        random_expr(a, sizeof a, depth - 1);
        random_expr(b, sizeof b, depth - 1);
        unsigned op = kind == 5 ? rnd(3) : rnd(13); /* + - * more often: the sums */
        if (op < 11)
            snprintf(out, size, "(%s) %s (%s)", a, ops[op], b);
        else
            snprintf(out, size, "%s((%s), (%s))", op == 11 ? "min" : "max", a, b);
    } else {
        random_expr(a, sizeof a, depth - 1);
        random_expr(b, sizeof b, depth - 1);
        random_expr(c, sizeof c, depth - 1);
        snprintf(out, size, "if(%s, %s, %s)", a, b, c);
    }
}

START_TEST(random_expressions_agree)
{
    const nnue_game *g = nnue_game_find("shogi");
    int compiled = 0, expressions = 0;
    for (int i = 0; i < 1500; i++) {
        char text[1024];
        random_expr(text, sizeof text, 1 + i % 4);
        nnue_expr *e = malloc(sizeof *e);
        nnue_error err;
        if (nnue_expr_compile_for(e, text, g, &err) != NNUE_OK) {
            free(e);
            continue;
        }
        nnue_expr_prog_build(e, g);
        expressions++;
        compiled += e->prog.n_steps > 0;
        for (int k = 0; k < 200; k++) {
            nnue_board b;
            random_board(g, &b, k % 5 == 4);
            int32_t want = nnue_expr_eval(e, &b), got = nnue_expr_run(e, &b, NULL);
            ck_assert_msg(got == want, "%s: compiled %d, interpreted %d", text, got, want);
        }
        free(e);
    }
    ck_assert_int_gt(expressions, 1250);
    ck_assert_int_gt(compiled, expressions * 9 / 10);
}
END_TEST

/* The comparison can fail: one table entry changed shows on some board. */
START_TEST(a_wrong_entry_shows)
{
    nnue_arch *a = NULL;
    nnue_error err;
    ck_assert_int_eq(nnue_arch_load_builtin("sfnnv5", &a, &err), NNUE_OK);
    nnue_expr *e = &a->selector;
    ck_assert_int_gt(e->prog.pool_used, 0);
    e->prog.pool[e->prog.pool_used - 1] ^= 1;
    int differ = 0;
    for (int pieces = 0; pieces < 256; pieces++) {
        nnue_board b;
        memset(&b, 0, sizeof b);
        b.piece_count = (uint8_t)pieces;
        differ += nnue_expr_run(e, &b, NULL) != nnue_expr_eval(e, &b);
    }
    ck_assert_int_eq(differ, 1);
    nnue_arch_free(a);
}
END_TEST

/* A variable outside its domain (a hand of 200 pawns) goes to the interpreter: same value. */
START_TEST(out_of_domain_falls_back)
{
    nnue_expr e;
    nnue_error err;
    ck_assert_int_eq(nnue_expr_compile_for(&e, "min((stm_hand_pawn + 3) / 4, 7) * 8 + stm_king_rank / 3",
                                           nnue_game_find("shogi"), &err), NNUE_OK);
    nnue_expr_prog_build(&e, nnue_game_find("shogi"));
    ck_assert(straight(&e));
    nnue_board b;
    memset(&b, 0, sizeof b);
    b.hand[0][1] = 200;
    b.king_sq[0] = 200;
    ck_assert_int_eq(nnue_expr_run(&e, &b, NULL), nnue_expr_eval(&e, &b));
    ck_assert_int_eq(nnue_expr_run(&e, &b, NULL), 7 * 8 + (200 % 9) / 3);
    /* One variable under one table (the program's own short path): the same fallback. */
    ck_assert_int_eq(nnue_expr_compile_for(&e, "min((stm_hand_pawn + 3) / 4, 3)", nnue_game_find("shogi"), &err),
                     NNUE_OK);
    nnue_expr_prog_build(&e, nnue_game_find("shogi"));
    ck_assert_int_eq(e.prog.n_steps, 2);
    ck_assert_int_eq(e.prog.steps[1].kind, NNUE_PROG_TABLE_STEP);
    ck_assert_int_eq(nnue_expr_run(&e, &b, NULL), 3);
    b.hand[0][1] = 5;
    ck_assert_int_eq(nnue_expr_run(&e, &b, NULL), 2);
    ck_assert_int_eq(nnue_expr_run(&e, &b, NULL), nnue_expr_eval(&e, &b));
}
END_TEST

/* Sums fold into the tables and sums that read them (core/arch/expr_fuse.c): YaneuraOu's
 * hand-king-progress selector keeps its 17 variables, four tables (two hand buckets over their sums
 * of seven counts, the kings, the progress) and the final sum, no sum feeding a table; the hands'
 * tables read the counts themselves with the sums' weights. */
START_TEST(sums_fold_into_their_readers)
{
    nnue_arch *a = NULL;
    nnue_error err;
    ck_assert_int_eq(nnue_arch_load_builtin("shogi_sfnn_progress8", &a, &err), NNUE_OK);
    const nnue_expr_prog *p = &a->selector.prog;
    ck_assert_int_eq(p->n_vars, 17);
    ck_assert_int_eq(p->n_steps, 17 + 5);
    int tables = 0, weights = 0;
    for (int i = p->n_vars; i < p->n_steps; i++) {
        const nnue_prog_step *s = &p->steps[i];
        if (s->kind != NNUE_PROG_TABLE_STEP)
            continue;
        tables++;
        for (int j = 0; j < s->n_in; j++) {
            ck_assert_int_lt(s->in[j], p->n_vars); /* read variables only */
            weights += s->coef[j];
        }
    }
    ck_assert_int_eq(tables, 4);
    /* the two hand tables: (1 + 2 + 2 + 3 + 3 + 5 + 5) each; the kings' table 9 + 1; the progress 1 */
    ck_assert_int_eq(weights, 2 * 21 + 10 + 1);
    ck_assert_int_eq(p->steps[p->n_steps - 1].kind, NNUE_PROG_SUM);
    nnue_arch_free(a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("expr_prog");
    TCase *tc = tcase_create("expr_prog");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, builtin_selectors_agree_over_corpora);
    tcase_add_test(tc, random_expressions_agree);
    tcase_add_test(tc, a_wrong_entry_shows);
    tcase_add_test(tc, out_of_domain_falls_back);
    tcase_add_test(tc, sums_fold_into_their_readers);
    suite_add_tcase(s, tc);
    return test_run(s);
}
