/* tests/eval/test_eval_piece_limits.c: boards and move chains past the feature sets' declared
 * maximum of pieces (issue 26, finding 1) are refused through the public API, naming the limit,
 * at reset, at push (the pieces the deltas bring, per perspective) and at evaluate; at the limit
 * they are exact. Nets: board_nets.h. */
#include <stdlib.h>
#include <string.h>

#include "board_nets.h"
#include "core/arch/arch_api.h"
#include "core/net/net.h"
#include "eval_nets.h"

/* At the limit a board is taken; one piece more, at the root or pushed, is refused. */
START_TEST(limit_is_exact)
{
    const board_net *n;
    int whole;
    nnue_state *s = state_for(_i, &n, &whole);
    const nnue_game *game = nnue_game_find(n->game);
    int shogi = strcmp(n->game, "shogi") == 0;
    void *pos = eval_parse(game, shogi ? shogi_start : chess_start);
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0); /* 32 / 40 pieces */
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_move move;
    nnue_error err;
    ck_assert_int_eq(game->parse_move(pos, shogi ? "7g7f" : "e2e4", &move, &err), 0);
    nnue_delta delta;
    game->make(pos, move, &delta);
    nnue_board more = *game->board(pos);
    if (shogi) {
        more.hand[1][NNUE_SHOGI_PAWN] = 1;
    } else {
        more.piece_on[35] = NNUE_PIECE(1, NNUE_CHESS_QUEEN); /* d5 */
        more.piece_count++;
    }
    /* A piece the delta does not bring: refused where the board is read whole (with whole-board
     * checks at push; sets that read every square at evaluate); the others evaluate the deltas'
     * position, whose 32 / 40 pieces fit. */
    if (whole) {
        ck_assert_int_eq(nnue_state_push(s, &more, &delta), -1);
        expect_error(s, shogi ? "41 pieces" : "33 pieces", n->label);
        expect_error(s, shogi ? "piece 41 is the in hand[1][1]" : "piece 33 is the piece 0x14 on square 63", n->label);
    } else {
        ck_assert_int_eq(nnue_state_push(s, &more, &delta), 0);
        if (reads_every_square(n->net)) {
            expect_refused_eval(s, &more, shogi ? "41 pieces" : "33 pieces", n->label);
        } else {
            /* an incremental step reads the kings, the side to move and, for the layer-stack
             * bucket, piece_count and hands as given: with those of the true position, the value
             * is the true position's */
            nnue_board same = more;
            same.piece_count = game->board(pos)->piece_count;
            memcpy(same.hand, game->board(pos)->hand, sizeof same.hand);
            expect_value_of(s, n->net, &same, game->board(pos), n->label);
        }
    }
    nnue_state_pop(s);
    ck_assert_int_eq(nnue_state_reset(s, &more), -1);
    expect_error(s, shogi ? "41 pieces" : "33 pieces", n->label);
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0);
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_state_free(s);
    free(pos);
}
END_TEST

/* The pieces a chain of moves brings are counted from the deltas at push (what the incremental
 * updates apply), not read from the boards: a delta that puts a piece on the board from nowhere
 * past the limit is refused at push, naming it; up to the limit the chain is exact. */
START_TEST(move_chain_limit)
{
    const board_net *n = &nets[_i];
    if (strcmp(n->game, "chess") != 0)
        return;
    const nnue_game *game = nnue_game_find("chess");
    nnue_state *s = nnue_state_new(n->net, 8);
    void *pos = eval_parse(game, chess_start);
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0); /* 32 pieces */
    expect_exact(s, n->net, game->board(pos), n->label);
    /* a7 taken off (31), then a queen put on d5 from nowhere (32): exact */
    nnue_delta off = {.count = 1}, on = {.count = 1};
    off.dirty[0] = (nnue_dirty){NNUE_PIECE(1, NNUE_CHESS_PAWN), 0, 48, NNUE_SQ_NONE, 0, 0};
    on.dirty[0] = (nnue_dirty){0, NNUE_PIECE(1, NNUE_CHESS_QUEEN), NNUE_SQ_NONE, 35, 0, 0};
    void *p31 = eval_parse(game, "rnbqkbnr/1ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    void *p32 = eval_parse(game, "rnbqkbnr/1ppppppp/8/3q4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    nnue_board b33 = *game->board(p32); /* the FEN reader refuses 17 black pieces */
    b33.piece_on[27] = NNUE_PIECE(1, NNUE_CHESS_QUEEN);
    b33.piece_count++;
    ck_assert_int_eq(nnue_state_push(s, game->board(p31), &off), 0);
    expect_exact(s, n->net, game->board(p31), n->label);
    ck_assert_int_eq(nnue_state_push(s, game->board(p32), &on), 0);
    expect_exact(s, n->net, game->board(p32), n->label);
    /* a second queen from nowhere (d4): 33 */
    on.dirty[0].new_sq = 27;
    ck_assert_int_eq(nnue_state_push(s, &b33, &on), -1);
    expect_error(s, "33 pieces after this move", n->label);
    expect_error(s, "dirty[0] adds piece 0x15 (to square 27)", n->label);
    nnue_state_pop(s);
    expect_exact(s, n->net, game->board(p32), n->label);
    nnue_state_free(s);
    free(pos);
    free(p31);
    free(p32);
}
END_TEST

/* A perspective refreshed from the board holds that board's pieces, not the deltas' count: here
 * the board given after a king move still has a pawn the previous delta took off (32 pieces for
 * the king's side, 31 for the other); one piece more from nowhere is 33 for that side: refused. */
START_TEST(refreshed_side_keeps_its_count)
{
    const board_net *n = find("HalfKAv2_hm");
    const nnue_game *game = nnue_game_find("chess");
    nnue_state *s = nnue_state_new(n->net, 8);
    void *root = eval_parse(game, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
    void *after_a7 = eval_parse(game, "rnbqkbnr/1ppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
    void *king_up = eval_parse(game, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPKPPP/RNBQ1BNR b kq - 1 1");
    nnue_board queen = *game->board(king_up); /* the FEN reader refuses 17 black pieces */
    queen.piece_on[35] = NNUE_PIECE(1, NNUE_CHESS_QUEEN);
    queen.piece_count++;
    queen.side_to_move = 0;
    ck_assert_int_eq(nnue_state_reset(s, game->board(root)), 0);
    expect_exact(s, n->net, game->board(root), "root");
    nnue_delta off = {.count = 1}, king = {.count = 1, .king_moved = {1, 0}}, on = {.count = 1};
    off.dirty[0] = (nnue_dirty){NNUE_PIECE(1, NNUE_CHESS_PAWN), 0, 48, NNUE_SQ_NONE, 0, 0};
    king.dirty[0] = (nnue_dirty){NNUE_PIECE(0, NNUE_CHESS_KING), NNUE_PIECE(0, NNUE_CHESS_KING), 4, 12, 0, 0};
    on.dirty[0] = (nnue_dirty){0, NNUE_PIECE(1, NNUE_CHESS_QUEEN), NNUE_SQ_NONE, 35, 0, 0};
    ck_assert_int_eq(nnue_state_push(s, game->board(after_a7), &off), 0);
    expect_exact(s, n->net, game->board(after_a7), "a7 off");
    ck_assert_int_eq(nnue_state_push(s, game->board(king_up), &king), 0); /* the board has a7 again */
    nnue_eval_detail d;
    nnue_evaluate(s, game->board(king_up), &d);
    ck_assert_int_eq(nnue_state_error(s)->code, NNUE_OK);
    ck_assert_int_eq(nnue_state_push(s, &queen, &on), -1);
    expect_error(s, "33 pieces after this move", "queen from nowhere");
    nnue_state_free(s);
    free(root);
    free(after_a7);
    free(king_up);
}
END_TEST

/* YaneuraOu's shogi sets pad their lists to 40 pieces' worth of features: a board of the two
 * kings alone holds 40 after a refresh, so a delta that brings a piece from nowhere is refused
 * (without the padding counted, 38 such pieces would fit and the accumulator hold 78 features). */
START_TEST(padded_sets_count_their_padding)
{
    const board_net *n = &nets[_i];
    if (strcmp(n->game, "shogi") != 0)
        return;
    const nnue_game *game = nnue_game_find("shogi");
    void *pos = eval_parse(game, "4k4/9/9/9/9/9/9/9/4K4 b - 1");
    nnue_state *s = nnue_state_new(n->net, 8);
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0);
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_board b = *game->board(pos);
    b.piece_on[40] = NNUE_PIECE(0, NNUE_SHOGI_GOLD);
    b.piece_count++;
    nnue_delta d = {.count = 1};
    d.dirty[0] = (nnue_dirty){0, NNUE_PIECE(0, NNUE_SHOGI_GOLD), NNUE_SQ_NONE, 40, 0, 0};
    ck_assert_int_eq(nnue_state_push(s, &b, &d), -1);
    expect_error(s, "41 pieces after this move (board and hands, kings included, the padding of a feature list counted)",
                 n->label);
    nnue_state_free(s);
    free(pos);
}
END_TEST

/* Finding 9: Full_Threats cut its lists at 256 threats and took boards of any number of pieces;
 * the worst-case ranges assume its max_active. It declares 32 pieces (8 threats each at most):
 * a net of Full_Threats alone refuses 33, and 32 pieces of the most threats are exact. */
START_TEST(threats_limit)
{
    const board_net *n = find("Full_Threats-alone");
    /* ranks 3-6 full: kings on a3 and h6, queens and knights of both colours, 8 neighbours each */
    nnue_board b = {.num_squares = 64, .king_sq = {16, 47}, .piece_count = 32};
    for (int sq = 16; sq < 48; sq++)
        b.piece_on[sq] = NNUE_PIECE(sq & 1, sq % 3 ? NNUE_CHESS_QUEEN : NNUE_CHESS_KNIGHT);
    b.piece_on[16] = NNUE_PIECE(0, NNUE_CHESS_KING);
    b.piece_on[47] = NNUE_PIECE(1, NNUE_CHESS_KING);
    nnue_state *s = nnue_state_new(n->net, 8);
    ck_assert_int_eq(nnue_state_reset(s, &b), 0);
    expect_exact(s, n->net, &b, "32 pieces");
    nnue_delta d = {.count = 1};
    d.dirty[0] = (nnue_dirty){b.piece_on[40], b.piece_on[40], 40, 56, 0, 0};
    b.piece_on[56] = b.piece_on[40];
    b.piece_on[40] = 0;
    ck_assert_int_eq(nnue_state_push(s, &b, &d), 0);
    expect_exact(s, n->net, &b, "32 pieces, a piece moved");
    b.piece_on[4] = NNUE_PIECE(1, NNUE_CHESS_QUEEN);
    b.piece_count++;
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "33 pieces (board and hands, kings included): the net's feature set Full_Threats takes at most 32 "
                    "(at most 256 active features per perspective)", "33 pieces");
    nnue_state_free(s);
}
END_TEST

/* PP_3Wide's pairs fit its list only with at most 16 pawns: a 17th (a crafted board of 32
 * pieces) is refused by the set's own board_fits, naming it, at reset and at push. */
START_TEST(pawn_pairs_limit)
{
    const board_net *n = find("PP_3Wide");
    nnue_board b = {.num_squares = 64, .king_sq = {0, 63}, .piece_count = 18};
    b.piece_on[0] = NNUE_PIECE(0, NNUE_CHESS_KING);
    b.piece_on[63] = NNUE_PIECE(1, NNUE_CHESS_KING);
    for (int sq = 16; sq < 32; sq++) /* ranks 3 and 4 full of pawns: 16 */
        b.piece_on[sq] = NNUE_PIECE(sq & 1, NNUE_CHESS_PAWN);
    nnue_state *s = nnue_state_new(n->net, 8);
    ck_assert_int_eq(nnue_state_reset(s, &b), 0);
    expect_exact(s, n->net, &b, "16 pawns");
    b.piece_on[40] = NNUE_PIECE(1, NNUE_CHESS_PAWN);
    b.piece_count++;
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "the net's feature set PP_3Wide: 17 pawns, at most 16", "17 pawns at reset");
    nnue_delta d = {.count = 0};
    b.piece_on[40] = 0;
    b.piece_count--;
    ck_assert_int_eq(nnue_state_reset(s, &b), 0);
    b.piece_on[40] = NNUE_PIECE(1, NNUE_CHESS_PAWN);
    b.piece_count++;
    ck_assert_int_eq(nnue_state_push(s, &b, &d), 0); /* push reads the kings and the delta */
    expect_refused_eval(s, &b, "17 pawns", "17 pawns at evaluate"); /* its pairs read every square */
    nnue_state_pop(s);
    nnue_state_set_whole_board_checks(s, 1);
    ck_assert_int_eq(nnue_state_push(s, &b, &d), -1);
    expect_error(s, "17 pawns", "17 pawns at push");
    nnue_state_free(s);
}
END_TEST

START_TEST(xiangqi_limit)
{
    const board_net *n = &xq_nets[_i];
    const nnue_game *game = nnue_game_find("xiangqi");
    void *pos = eval_parse(game, game->start);
    nnue_state *s = nnue_state_new(n->net, 8);
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0); /* 32 pieces */
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_move move;
    nnue_error err;
    ck_assert_int_eq(game->parse_move(pos, "h2e2", &move, &err), 0);
    nnue_delta delta;
    game->make(pos, move, &delta);
    nnue_board more = *game->board(pos);
    int empty = 0;
    while (more.piece_on[empty])
        empty++;
    more.piece_on[empty] = NNUE_PIECE(1, 4); /* a 33rd piece: a pawn */
    more.piece_count++;
    /* push reads the kings, the delta and the sets' summaries (the mirror rule's sums kept from the
     * moves). The board whole is first read, and refused, at evaluate where a set lists the move's
     * threats from the boards; HalfKAv2_hm alone reads the delta and the summaries only, so the
     * 33rd piece, which no delta put there, is not read: the value is the position's the deltas
     * describe (32 pieces, the bound of the weights' ranges). */
    ck_assert_int_eq(nnue_state_push(s, &more, &delta), 0);
    if (strcmp(n->label, "HalfKAv2_hm_xiangqi") == 0) {
        expect_value_of(s, n->net, &more, game->board(pos), n->label);
    } else {
        expect_refused_eval(s, &more, "33 pieces", n->label);
        expect_error(s, "takes at most 32", n->label);
    }
    nnue_state_pop(s);
    nnue_state_set_whole_board_checks(s, 1);
    ck_assert_int_eq(nnue_state_push(s, &more, &delta), -1);
    expect_error(s, "33 pieces", n->label);
    expect_error(s, "takes at most 32", n->label);
    expect_refused_eval(s, &more, "33 pieces", n->label);
    nnue_state_pop(s);
    nnue_state_set_whole_board_checks(s, 0);
    nnue_state_set_refresh_cache(s, 1);
    ck_assert_int_eq(nnue_state_reset(s, &more), -1);
    expect_error(s, "33 pieces", n->label);
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0);
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_state_free(s);
    free(pos);
}
END_TEST

int main(void)
{
    if (board_nets_make() != 0)
        return 1;
    Suite *s = suite_create("eval_piece_limits");
    TCase *tc = tcase_create("limits");
    tcase_add_loop_test(tc, limit_is_exact, 0, 2 * N_NETS);
    tcase_add_loop_test(tc, move_chain_limit, 0, N_NETS);
    tcase_add_test(tc, refreshed_side_keeps_its_count);
    tcase_add_loop_test(tc, padded_sets_count_their_padding, 0, N_NETS);
    tcase_add_test(tc, threats_limit);
    tcase_add_test(tc, pawn_pairs_limit);
    tcase_add_loop_test(tc, xiangqi_limit, 0, N_XQ);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    board_nets_free();
    return rc;
}
