/* tests/eval/test_eval_misuse.c: a board view of the wrong game, a corrupted board or a
 * corrupted delta handed to the state is refused (documented in include/nnue.h), never read
 * out of bounds; a refused delta still gives the exact evaluation of a fitting board. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_nets.h"
#include "support.h"

static nnue_net *net;
static const char *start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

static void expect_refused(nnue_state *s, const nnue_board *board)
{
    nnue_eval_detail d = {5, 5, 5, 5, 5};
    ck_assert_int_eq(nnue_evaluate(s, board, &d), 0);
    ck_assert_int_eq(d.bucket, -1);
    ck_assert_int_eq(d.total, 0);
}

START_TEST(boards_that_do_not_fit_are_refused)
{
    const nnue_game *chess = nnue_game_find("chess"), *shogi = nnue_game_find("shogi");
    void *pos = eval_parse(chess, start);
    void *spos = eval_parse(shogi, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    nnue_state *s = nnue_state_new(net, 8);
    ck_assert_int_eq(nnue_state_reset(s, chess->board(pos)), 0);
    /* a shogi view on a chess net */
    ck_assert_int_eq(nnue_state_reset(s, shogi->board(spos)), -1);
    expect_refused(s, shogi->board(spos));
    /* corrupted chess views: a shogi piece code, a king off its square, a wrong count */
    nnue_board b = *chess->board(pos);
    b.piece_on[20] = NNUE_PIECE(1, 12);
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_refused(s, &b);
    b = *chess->board(pos);
    b.king_sq[0] = 60;
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    b = *chess->board(pos);
    b.piece_count = 31;
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    /* a fitting board makes the state usable again, with the exact value */
    ck_assert_int_eq(nnue_state_reset(s, chess->board(pos)), 0);
    nnue_eval_detail d, f;
    nnue_evaluate(s, chess->board(pos), &d);
    eval_fresh(net, chess->board(pos), &f);
    ck_assert_int_eq(d.total, f.total);
    ck_assert_int_ge(d.bucket, 0);
    nnue_state_free(s);
    free(pos);
    free(spos);
}
END_TEST

START_TEST(bad_deltas_are_never_applied)
{
    const nnue_game *chess = nnue_game_find("chess");
    void *pos = eval_parse(chess, start);
    nnue_state *s = nnue_state_new(net, 8);
    nnue_state_reset(s, chess->board(pos));
    nnue_evaluate(s, chess->board(pos), NULL);
    nnue_move move;
    nnue_error err;
    ck_assert_int_eq(chess->parse_move(pos, "e2e4", &move, &err), 0);
    nnue_delta delta;
    chess->make(pos, move, &delta);
    nnue_delta bad = delta;
    bad.count = 9;
    ck_assert_int_eq(nnue_state_push(s, chess->board(pos), &bad), -1);
    nnue_eval_detail d, f;
    nnue_evaluate(s, chess->board(pos), &d);
    eval_fresh(net, chess->board(pos), &f);
    ck_assert_int_eq(d.total, f.total);
    ck_assert_int_eq(d.positional, f.positional);
    /* a child of the refused entry updates normally from it */
    ck_assert_int_eq(chess->parse_move(pos, "e7e5", &move, &err), 0);
    chess->make(pos, move, &delta);
    ck_assert_int_eq(nnue_state_push(s, chess->board(pos), &delta), 0);
    nnue_evaluate(s, chess->board(pos), &d);
    eval_fresh(net, chess->board(pos), &f);
    ck_assert_int_eq(d.total, f.total);
    nnue_state_pop(s);
    chess->unmake(pos, move);
    /* a delta with an out-of-range square or a foreign piece code */
    bad = delta;
    bad.dirty[0].new_sq = 100;
    ck_assert_int_eq(nnue_state_push(s, chess->board(pos), &bad), -1);
    nnue_state_pop(s);
    bad = delta;
    bad.dirty[0].new_piece = NNUE_PIECE(0, 9);
    ck_assert_int_eq(nnue_state_push(s, chess->board(pos), &bad), -1);
    nnue_state_pop(s);
    nnue_state_pop(s);
    ck_assert_int_eq(s->bad_deltas, 0);
    nnue_state_free(s);
    free(pos);
}
END_TEST

int main(void)
{
    const eval_net *n = eval_net_find("sfnnv8small");
    const char *path = eval_net_file(n);
    if (!(net = eval_net_load_main(n, path)))
        return 1;
    Suite *s = suite_create("eval_misuse");
    TCase *tc = tcase_create("misuse");
    tcase_add_test(tc, boards_that_do_not_fit_are_refused);
    tcase_add_test(tc, bad_deltas_are_never_applied);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    nnue_net_free(net);
    return rc;
}
