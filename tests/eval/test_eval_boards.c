/* tests/eval/test_eval_boards.c: hostile boards through the public API (include/nnue.h), on a
 * small random net of every feature set (board_nets.h): every byte of a board that reset, push or
 * evaluate reads is checked first (issue 26, finding 6; with whole-board checks on, every board
 * given), and the refusal says which field, square or piece (nnue_state_error). Pieces past the
 * sets' limits: test_eval_piece_limits.c. */
#include <stdlib.h>
#include <string.h>

#include "board_nets.h"
#include "core/arch/arch_api.h"
#include "core/net/net.h"
#include "eval_nets.h"

/* Finding 6: a board pushed after a legal move, with its king square or a piece code corrupted,
 * was handed unchecked to needs_refresh() and to the features (UBSan: index 200 out of bounds in
 * features/chess768.c; Full_Threats' target_map read at index 15). Every net. */
START_TEST(pushed_boards_are_checked)
{
    const board_net *n;
    int whole;
    nnue_state *s = state_for(_i, &n, &whole);
    const nnue_game *game = nnue_game_find(n->game);
    int shogi = strcmp(n->game, "shogi") == 0;
    void *pos = eval_parse(game, shogi ? "4k4/9/9/9/9/9/9/9/4K4 b G 1" : "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1");
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0);
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_move move;
    nnue_error err;
    ck_assert_int_eq(game->parse_move(pos, shogi ? "5i4i" : "e1f1", &move, &err), 0); /* a king move */
    nnue_delta delta;
    game->make(pos, move, &delta);
    nnue_board bad = *game->board(pos);
    bad.king_sq[0] = 200; /* read by every push: refused in both modes */
    ck_assert_int_eq(nnue_state_push(s, &bad, &delta), -1);
    expect_error(s, "king_sq[0] is 200", n->label);
    expect_refused_eval(s, &bad, "king_sq[0] is 200", n->label);
    nnue_state_pop(s);
    bad = *game->board(pos);
    bad.piece_on[shogi ? 40 : 36] = NNUE_PIECE(0, 15); /* an empty square: a code no game has */
    const char *code = shogi ? "square 40 holds piece code 0x0f" : "square 36 holds piece code 0x0f";
    if (whole) {
        ck_assert_int_eq(nnue_state_push(s, &bad, &delta), -1);
        expect_error(s, code, n->label);
        expect_refused_eval(s, &bad, "holds piece code 0x0f", n->label);
    } else {
        /* Push reads the delta and the kings only; a king move that refreshes its side from the
         * board, or a set that reads every square, has evaluate read (and refuse) it. */
        ck_assert_int_eq(nnue_state_push(s, &bad, &delta), 0);
        if (forces_refresh(n->net, game->board(pos), &delta) || reads_every_square(n->net))
            expect_refused_eval(s, &bad, code, n->label);
        else
            expect_value_of(s, n->net, &bad, game->board(pos), n->label);
    }
    nnue_state_pop(s);
    /* A fitting push after the refusals is exact. */
    ck_assert_int_eq(nnue_state_push(s, game->board(pos), &delta), 0);
    expect_exact(s, n->net, game->board(pos), n->label);
    /* evaluate() is given a corrupted copy of the pushed board: refused, not read. */
    bad = *game->board(pos);
    bad.king_sq[1] = 99;
    expect_refused_eval(s, &bad, "king_sq[1] is 99", n->label);
    expect_exact(s, n->net, game->board(pos), n->label);
    /* A quiet move after it (no refresh): a corrupted square is read only by sets that read every
     * square (refused then, or with whole-board checks); the others evaluate the position the
     * deltas describe. */
    nnue_state_pop(s);
    game->unmake(pos, move);
    ck_assert_int_eq(game->parse_move(pos, shogi ? "G*5e" : "d2d3", &move, &err), 0);
    game->make(pos, move, &delta);
    bad = *game->board(pos);
    bad.piece_on[shogi ? 40 : 36] = NNUE_PIECE(0, 15); /* piece_count kept: the bucket reads it */
    ck_assert_int_eq(nnue_state_push(s, &bad, &delta), whole ? -1 : 0);
    if (whole || reads_every_square(n->net))
        expect_refused_eval(s, &bad, code, n->label);
    else
        expect_value_of(s, n->net, &bad, game->board(pos), n->label);
    nnue_state_free(s);
    free(pos);
}
END_TEST

/* A net with a set that takes a move's threat changes (Full_Threats). */
static int takes_threats(const nnue_net *net)
{
    for (int k = 0; k < net->arch->ft.n_sets; k++)
        if (net->arch->ft.sets[k].features->changed_threats)
            return 1;
    return 0;
}

/* A move pushed with its threat changes (nnue_state_push_threats): Full_Threats maps the pairs
 * handed in and reads only the kings of the board after it, PP_3Wide only which squares hold
 * pawns, so evaluate() checks only the kings before that step, and a corrupted square off them is
 * not read: the value is the position's. The same move pushed without them has Full_Threats list
 * them from the board, which evaluate() checks whole and refuses. With whole-board checks on,
 * push refuses the board either way. */
START_TEST(threat_moves_read_only_the_kings)
{
    const board_net *n;
    int whole;
    nnue_state *s = state_for(_i, &n, &whole);
    if (!takes_threats(n->net)) {
        nnue_state_free(s);
        return;
    }
    const nnue_game *game = nnue_game_find("chess");
    void *pos = eval_parse(game, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0);
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_move move;
    nnue_error err;
    ck_assert_int_eq(game->parse_move(pos, "f3e5", &move, &err), 0); /* takes a pawn: pairs change too */
    nnue_delta delta;
    static nnue_threats t;
    ck_assert_int_eq(nnue_game_make_threats(game, pos, move, &delta, &t), 1);
    nnue_board bad = *game->board(pos);
    bad.piece_on[24] = NNUE_PIECE(0, 15); /* a4, empty: a code no game has */
    const char *code = "square 24 holds piece code 0x0f";
    ck_assert_int_eq(nnue_state_push_threats(s, &bad, &delta, &t), whole ? -1 : 0);
    ck_assert_int_eq(s->entries[s->ply].has_threats, !whole);
    if (whole)
        expect_refused_eval(s, &bad, code, n->label);
    else
        expect_value_of(s, n->net, &bad, game->board(pos), n->label);
    nnue_state_pop(s);
    ck_assert_int_eq(nnue_state_push(s, &bad, &delta), whole ? -1 : 0);
    expect_refused_eval(s, &bad, code, n->label);
    nnue_state_pop(s);
    /* the true board after both: exact */
    ck_assert_int_eq(nnue_state_push_threats(s, game->board(pos), &delta, &t), 0);
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_state_free(s);
    free(pos);
}
END_TEST

/* Pikafish's sets keep their king buckets and mirror in the state's board summary
 * (features/xiangqi_context.h): a move pushed with its threat changes reads of the board only the
 * kings (FullThreats_xiangqi maps the pairs handed in, HalfKAv2_hm_xiangqi the delta), so a
 * corrupted square off them is not read and the value is the position's; pushed without them,
 * FullThreats_xiangqi lists them from the boards, which evaluate() checks whole and refuses. A king
 * square outside its palace passes the kings' check (any square of the board does): each is
 * evaluated or refused, with every index inside its table (the sanitizer builds check that). */
START_TEST(xiangqi_moves_read_only_the_kings)
{
    const board_net *n = &xq_nets[_i];
    int lists_from_boards = strcmp(n->label, "HalfKAv2_hm_xiangqi") != 0;
    const nnue_game *game = nnue_game_find("xiangqi");
    void *pos = eval_parse(game, game->start);
    nnue_state *s = nnue_state_new(n->net, 8);
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0);
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_move move;
    nnue_error err;
    ck_assert_int_eq(game->parse_move(pos, "h2e2", &move, &err), 0);
    nnue_delta delta;
    static nnue_threats t;
    ck_assert_int_eq(nnue_game_make_threats(game, pos, move, &delta, &t), 1);
    nnue_board bad = *game->board(pos);
    ck_assert_int_eq(bad.piece_on[40], 0);
    bad.piece_on[40] = NNUE_PIECE(0, 15); /* e5, empty: a code no game has */
    ck_assert_int_eq(nnue_state_push_threats(s, &bad, &delta, &t), 0);
    expect_value_of(s, n->net, &bad, game->board(pos), n->label);
    nnue_state_pop(s);
    ck_assert_int_eq(nnue_state_push(s, &bad, &delta), 0);
    if (lists_from_boards)
        expect_refused_eval(s, &bad, "square 40 holds piece code 0x0f", n->label);
    else
        expect_value_of(s, n->net, &bad, game->board(pos), n->label);
    nnue_state_pop(s);
    int refused = 0, evaluated = 0;
    for (int sq = 0; sq < 90; sq++)
        for (int c = 0; c < 2; c++) {
            nnue_board k = *game->board(pos);
            k.king_sq[c] = (uint8_t)sq;
            ck_assert_int_eq(nnue_state_push_threats(s, &k, &delta, &t), 0);
            nnue_eval_detail d;
            nnue_evaluate(s, &k, &d);
            refused += d.bucket == -1;
            evaluated += d.bucket != -1;
            nnue_state_pop(s);
        }
    ck_assert_int_gt(refused, 0); /* a king square that holds no king, where the board is read */
    ck_assert_int_gt(evaluated, 0); /* the true squares at least */
    ck_assert_int_eq(nnue_state_push_threats(s, game->board(pos), &delta, &t), 0);
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_state_free(s);
    /* A state pushed to without a reset first, or after a reset with no board: its first push
     * takes its summary from its board, and the moves after it are exact. */
    for (int variant = 0; variant < 2; variant++) {
        s = nnue_state_new(n->net, 8);
        if (variant)
            ck_assert_int_eq(nnue_state_reset(s, NULL), -1);
        ck_assert_int_eq(nnue_state_push_threats(s, game->board(pos), &delta, &t), 0);
        expect_exact(s, n->net, game->board(pos), n->label);
        nnue_move next;
        ck_assert_int_eq(game->parse_move(pos, "h9g7", &next, &err), 0);
        nnue_delta d2;
        static nnue_threats t2;
        ck_assert_int_eq(nnue_game_make_threats(game, pos, next, &d2, &t2), 1);
        ck_assert_int_eq(nnue_state_push_threats(s, game->board(pos), &d2, &t2), 0);
        expect_exact(s, n->net, game->board(pos), n->label);
        game->unmake(pos, next);
        nnue_state_free(s);
    }
    free(pos);
}
END_TEST

/* Corrupt fields of a fitting root board, each refused with its own message. */
START_TEST(reset_names_what_does_not_fit)
{
    const board_net *n = find("HalfKP_shogi");
    const nnue_game *shogi = nnue_game_find("shogi"), *chess = nnue_game_find("chess");
    void *pos = eval_parse(shogi, shogi_start), *cpos = eval_parse(chess, chess_start);
    nnue_state *s = nnue_state_new(n->net, 8);
    ck_assert_int_eq(nnue_state_reset(s, chess->board(cpos)), -1);
    expect_error(s, "num_squares is 64, a shogi board has 81", "chess view");
    nnue_board b = *shogi->board(pos);
    b.side_to_move = 2;
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "side_to_move is 2", "side");
    b = *shogi->board(pos);
    b.piece_count = 39;
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "piece_count is 39, the squares hold 40", "count");
    b = *shogi->board(pos);
    b.king_sq[1] = 3;
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "king_sq[1] is 3, whose square holds", "king");
    b = *shogi->board(pos);
    b.hand[0][NNUE_SHOGI_LANCE] = 5; /* a slot past a full set of lances: another type's feature */
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "hand[0][2] is 5, at most 4", "hand");
    ck_assert_int_eq(nnue_state_reset(s, shogi->board(pos)), 0);
    ck_assert_int_eq(nnue_state_error(s)->code, NNUE_OK);
    nnue_delta d = {.count = 1};
    d.dirty[0] = (nnue_dirty){NNUE_PIECE(0, 1), NNUE_PIECE(0, 1), 100, 5, 0, 0};
    ck_assert_int_eq(nnue_state_push(s, shogi->board(pos), &d), -1);
    expect_error(s, "dirty[0]: old square 100", "delta");
    nnue_state_free(s);
    free(pos);
    free(cpos);
}
END_TEST

/* Finding 1: a shogi board of the caller's (78 golds, one empty square, kings on 0 and 80,
 * piece_count 80) passed reset; with the refresh cache on, a king move's push and evaluate wrote
 * past the cache's index list (core/eval/refresh_cache.c, from shogi_halfkp_active: ASan
 * stack-buffer-overflow). Every shogi set declares 40 pieces; such boards are refused. */
START_TEST(shogi_golds_refused)
{
    const board_net *n;
    int whole;
    nnue_state *s = state_for(_i, &n, &whole);
    if (strcmp(n->game, "shogi") != 0) {
        nnue_state_free(s);
        return;
    }
    nnue_board b = {.num_squares = 81, .side_to_move = 0, .king_sq = {0, 80}, .piece_count = 80};
    for (int sq = 0; sq < 81; sq++)
        b.piece_on[sq] = sq == 40 ? 0 : NNUE_PIECE(sq & 1, NNUE_SHOGI_GOLD);
    b.piece_on[0] = NNUE_PIECE(0, NNUE_SHOGI_KING);
    b.piece_on[80] = NNUE_PIECE(1, NNUE_SHOGI_KING);
    nnue_state_set_refresh_cache(s, 1);
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "80 pieces (board and hands, kings included)", n->label);
    expect_error(s, "takes at most 40", n->label);
    expect_error(s, "piece 41 is the piece 0x15 on square 41", n->label);
    expect_refused_eval(s, &b, "80 pieces", n->label);
    /* the king move of the report: 0 -> 40 */
    nnue_delta d = {.count = 1, .king_moved = {1, 0}};
    d.dirty[0] = (nnue_dirty){b.piece_on[0], b.piece_on[0], 0, 40, 0, 0};
    b.piece_on[40] = b.piece_on[0];
    b.piece_on[0] = 0;
    b.king_sq[0] = 40;
    /* Push reads the kings and the delta (it keeps the count); the board, read by the refresh
     * that follows a refused root, is refused by evaluate (already by push when checked whole). */
    ck_assert_int_eq(nnue_state_push(s, &b, &d), whole ? -1 : 0);
    if (whole)
        expect_error(s, "80 pieces", n->label);
    expect_refused_eval(s, &b, "80 pieces", n->label);
    nnue_state_free(s);
}
END_TEST

/* Finding 1: chess boards of 62 queens were accepted and their lists cut short silently. Every
 * chess set declares 32 pieces. */
START_TEST(chess_queens_refused)
{
    const board_net *n = &nets[_i];
    if (strcmp(n->game, "chess") != 0)
        return;
    nnue_board b = {.num_squares = 64, .side_to_move = 0, .king_sq = {4, 60}, .piece_count = 64};
    for (int sq = 0; sq < 64; sq++)
        b.piece_on[sq] = NNUE_PIECE(sq >= 32, NNUE_CHESS_QUEEN);
    b.piece_on[4] = NNUE_PIECE(0, NNUE_CHESS_KING);
    b.piece_on[60] = NNUE_PIECE(1, NNUE_CHESS_KING);
    nnue_state *s = nnue_state_new(n->net, 8);
    nnue_state_set_refresh_cache(s, 1);
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "64 pieces (board and hands, kings included)", n->label);
    expect_error(s, "takes at most 32", n->label);
    expect_error(s, "piece 33 is the piece 0x15 on square 32", n->label);
    expect_refused_eval(s, &b, "64 pieces", n->label);
    nnue_state_free(s);
}
END_TEST

int main(void)
{
    if (board_nets_make() != 0)
        return 1;
    Suite *s = suite_create("eval_boards");
    TCase *tc = tcase_create("boards");
    tcase_add_loop_test(tc, pushed_boards_are_checked, 0, 2 * N_NETS);
    tcase_add_loop_test(tc, threat_moves_read_only_the_kings, 0, 2 * N_NETS);
    tcase_add_test(tc, reset_names_what_does_not_fit);
    tcase_add_loop_test(tc, shogi_golds_refused, 0, 2 * N_NETS);
    tcase_add_loop_test(tc, chess_queens_refused, 0, N_NETS);
    tcase_add_loop_test(tc, xiangqi_moves_read_only_the_kings, 0, N_XQ);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    board_nets_free();
    return rc;
}
