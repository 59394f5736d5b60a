/* tests/eval/test_eval_partial_refresh.c NET: a move that forces some feature sets of a
 * perspective to refresh but not the others (a king move on a net of several sets: the
 * king-bucketed pieces, not the threats) is applied as an update that rebuilds those sets' rows
 * from the boards before and after it (core/eval/state_update.c). Checked here:
 *  - every legal king move of the corpus positions, from an evaluated root: the update is taken
 *    (the state counts it) and gives the accumulators and evaluation of a full refresh;
 *  - a delta that does not describe the move (a king move plus a piece taken off an empty
 *    square, so that the board before it would hold more pieces than the net takes) is never
 *    rebuilt from: the king's side refreshes from the board, with the exact accumulator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_nets.h"
#include "support.h"

static nnue_net *net;
static const nnue_game *chess;

static int is_king_move(const void *pos, nnue_move move, nnue_delta *delta)
{
    void *copy = malloc(chess->pos_size);
    memcpy(copy, pos, chess->pos_size);
    chess->make(copy, move, delta);
    free(copy);
    return delta->king_moved[0] || delta->king_moved[1];
}

START_TEST(king_moves_rebuild_only_the_king_sets)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/oracle/chess/corpusA.fen", test_shared_dir());
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    nnue_state *s = nnue_state_new(net, 4);
    char line[512];
    int kings = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        void *pos = eval_parse(chess, line);
        nnue_move moves[256];
        int n = chess->legal_moves(pos, moves);
        ck_assert_int_eq(nnue_state_reset(s, chess->board(pos)), 0);
        nnue_evaluate(s, chess->board(pos), NULL);
        for (int i = 0; i < n; i++) {
            nnue_delta delta;
            if (!is_king_move(pos, moves[i], &delta))
                continue;
            chess->make(pos, moves[i], &delta);
            ck_assert_int_eq(nnue_state_push(s, chess->board(pos), &delta), 0);
            char where[600];
            snprintf(where, sizeof where, "%s, king move %d", line, i);
            eval_expect_fresh(net, s, chess->board(pos), 0, 1, where);
            nnue_state_pop(s);
            chess->unmake(pos, moves[i]);
            kings++;
        }
        free(pos);
    }
    fclose(f);
    ck_assert_int_gt(kings, 100);
    /* most king moves keep the threats' orientation: those are rebuilt, not refreshed */
    ck_assert_msg(s->partial_refreshes * 2 > (uint64_t)kings, "%llu partial refreshes for %d king moves",
                  (unsigned long long)s->partial_refreshes, kings);
    nnue_state_free(s);
}
END_TEST

START_TEST(a_delta_that_lies_is_not_rebuilt_from)
{
    /* 32 pieces, and the white king can step to e2 */
    void *pos = eval_parse(chess, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    nnue_state *s = nnue_state_new(net, 4);
    ck_assert_int_eq(nnue_state_reset(s, chess->board(pos)), 0);
    nnue_evaluate(s, chess->board(pos), NULL);
    nnue_move move;
    nnue_error err;
    ck_assert_int_eq(chess->parse_move(pos, "e1e2", &move, &err), 0);
    nnue_delta delta;
    chess->make(pos, move, &delta);
    ck_assert(delta.king_moved[0]);
    /* the same move, claiming a black knight was also taken off a3 (empty before and after):
     * the board before it would hold 32 pieces plus that knight */
    nnue_delta lie = delta;
    lie.dirty[lie.count++] = (nnue_dirty){NNUE_PIECE(1, 2), 0, 16, NNUE_SQ_NONE, 0, 0};
    uint64_t before = s->partial_refreshes;
    ck_assert_int_eq(nnue_state_push(s, chess->board(pos), &lie), 0); /* push cannot tell: it reads no board */
    /* white's refresh is from the board; black's update applies the lie, a value of no meaning */
    eval_expect_fresh(net, s, chess->board(pos), 0, 0, "a king move with a piece taken off an empty square");
    ck_assert_int_eq(s->partial_refreshes, before);
    nnue_state_pop(s);
    /* the true delta is rebuilt from */
    ck_assert_int_eq(nnue_state_push(s, chess->board(pos), &delta), 0);
    eval_expect_fresh(net, s, chess->board(pos), 0, 1, "the king move e1e2");
    ck_assert_int_eq(s->partial_refreshes, before + 1);
    nnue_state_free(s);
    free(pos);
}
END_TEST

int main(int argc, char **argv)
{
    const eval_net *n = eval_net_find(argc > 1 ? argv[1] : "sfnnv10");
    if (!n) {
        fprintf(stderr, "usage: test_eval_partial_refresh NET\n");
        return 2;
    }
    const char *path = eval_net_file(n);
    if (!(net = eval_net_load_main(n, path)))
        return 1;
    chess = nnue_game_find("chess");
    test_require_shared("oracle/chess/corpusA.fen");
    Suite *s = suite_create("eval_partial_refresh");
    TCase *tc = tcase_create("partial_refresh");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, king_moves_rebuild_only_the_king_sets);
    tcase_add_test(tc, a_delta_that_lies_is_not_rebuilt_from);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    nnue_net_free(net);
    return rc;
}
