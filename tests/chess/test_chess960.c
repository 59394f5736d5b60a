/* tests/chess/test_chess960.c: Chess960 / DFRC in the chess adapter.
 *  - perft of Chess960 positions: the first six are standard positions of the published Chess960
 *    perft list; every count (depth 4) was also printed by Debian's Stockfish 15.1 with
 *    `setoption name UCI_Chess960 value true` and `go perft 4`; the others stress castling (king
 *    that stays on its square, a rook that shields its own king, X-FEN and Shredder-FEN of one
 *    position, double-rook rights on both wings);
 *  - Shredder-FEN and X-FEN rights read and written back; UCI_Chess960 notation (king takes
 *    rook) in and out;
 *  - incremental evaluation across Chess960 castling equals a fresh one (random SFNNv5 net). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eval/eval_nets.h"
#include "nnue_chess.h"
#include "support.h"

static const struct {
    const char *fen;
    unsigned long long d1, d4;
} cases[] = {
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 21, 326672},
    {"2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", 21, 667366},
    {"b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", 20, 273318},
    {"qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9", 22, 382958},
    {"1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9", 28, 1171749},
    {"qnbnr1kr/ppp1b1pp/4pp2/3p4/3P4/2P2NP1/PP2PP1P/QNB1RBKR w HEhe - 0 9", 0, 494163},
    {"1rkr3b/1ppn3p/3pB1n1/6q1/R2P4/4N1P1/1P5P/2KRQ1B1 b Dbd - 0 14", 0, 1854299},
    {"nrknbrqb/3p1ppp/ppN1p3/8/6P1/8/PPPPPP1P/1RKNBRQB b BFbf - 0 9", 0, 336777},
    {"rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w AEae - 0 1", 24, 313835},
    {"6kr/8/8/8/8/8/8/6KR w Hh - 0 1", 11, 18794},
    {"6k1/8/8/8/8/8/8/rRK5 w B - 0 1", 5, 12202},
    {"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1", 20, 197094},
    {"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1", 20, 197094},
    {"r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", 26, 314346},
    {"1r2k1r1/8/8/8/8/8/8/R2K3R w HAgb - 0 1", 25, 345068},
};

static void parse(nnue_chess_pos *pos, const char *fen)
{
    nnue_error err;
    ck_assert_msg(nnue_chess_parse_fen(pos, fen, &err) == NNUE_OK, "%s: %s", fen, err.message);
}

START_TEST(perft_chess960)
{
    static nnue_chess_pos pos;
    parse(&pos, cases[_i].fen);
    ck_assert_int_eq(pos.chess960, 1);
    if (cases[_i].d1)
        ck_assert_uint_eq(nnue_chess_perft(&pos, 1), cases[_i].d1);
    ck_assert_uint_eq(nnue_chess_perft(&pos, 4), cases[_i].d4);
}
END_TEST

START_TEST(fen_rights_round_trip)
{
    static nnue_chess_pos pos;
    char out[128];
    static const char *const same[][2] = {
        {"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1", "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"},
        {"r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"},
        {"1r2k1r1/8/8/8/8/8/8/R2K3R w KQkq - 0 1", "1r2k1r1/8/8/8/8/8/8/R2K3R w HAgb - 0 1"},
        {NNUE_CHESS_START_FEN, NNUE_CHESS_START_FEN},
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
        parse(&pos, same[i][0]);
        nnue_chess_to_fen(&pos, out, sizeof out);
        ck_assert_str_eq(out, same[i][1]);
    }
    /* X-FEN: K/Q name the outermost rook; an inner one needs its file letter. */
    parse(&pos, "4k3/8/8/8/8/8/8/R1R1K1RR w KQ - 0 1");
    ck_assert_int_eq(pos.castle_rook[0], 7);
    ck_assert_int_eq(pos.castle_rook[1], 0);
    parse(&pos, "4k3/8/8/8/8/8/8/R1R1K1RR w GC - 0 1");
    ck_assert_int_eq(pos.castle_rook[0], 6);
    ck_assert_int_eq(pos.castle_rook[1], 2);
    /* Errors say what is needed. */
    nnue_error err;
    ck_assert_int_ne(nnue_chess_parse_fen(&pos, "4k3/8/8/8/8/8/8/R3K3 w F - 0 1", &err), NNUE_OK);
    ck_assert_msg(strstr(err.message, "right 'F' needs a white rook on f1") != NULL, "%s", err.message);
    ck_assert_int_ne(nnue_chess_parse_fen(&pos, "4k3/8/8/8/8/8/8/R3K2R w HH - 0 1", &err), NNUE_OK);
    ck_assert_msg(strstr(err.message, "repeated") != NULL, "%s", err.message);
}
END_TEST

/* UCI_Chess960: castling is "king takes own rook" in and out; standard notation off. */
START_TEST(uci_notation)
{
    static nnue_chess_pos pos;
    nnue_error err;
    nnue_move m;
    char text[8];
    parse(&pos, "6kr/8/8/8/8/8/8/6KR w Hh - 0 1");
    ck_assert_int_eq(nnue_chess_parse_uci(&pos, "g1h1", &m, &err), NNUE_OK);
    ck_assert_uint_eq(NNUE_CHESS_MOVE_KIND(m), NNUE_CHESS_MOVE_CASTLE);
    nnue_chess_move_to_uci_in(&pos, m, text, sizeof text);
    ck_assert_str_eq(text, "g1h1");
    nnue_chess_make(&pos, m, NULL);
    char fen[128];
    nnue_chess_to_fen(&pos, fen, sizeof fen);
    ck_assert_str_eq(fen, "6kr/8/8/8/8/8/8/5RK1 b h - 1 1");
    /* A standard position (KQkq: standard notation) with UCI_Chess960 turned on: e1a1 castles,
     * e1c1 is not a move; turned off again, e1c1 castles. */
    parse(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    ck_assert_int_eq(pos.chess960, 0);
    nnue_chess_set_chess960(&pos, 1);
    ck_assert_int_eq(nnue_chess_parse_uci(&pos, "e1a1", &m, &err), NNUE_OK);
    ck_assert_int_eq(NNUE_CHESS_MOVE_TO(m), 2);
    ck_assert_int_eq(nnue_chess_parse_uci(&pos, "e1c1", &m, &err), NNUE_E_ILLEGAL);
    nnue_chess_set_chess960(&pos, 0);
    ck_assert_int_eq(nnue_chess_parse_uci(&pos, "e1c1", &m, &err), NNUE_OK);
    nnue_chess_move_to_uci_in(&pos, m, text, sizeof text);
    ck_assert_str_eq(text, "e1c1");
}
END_TEST

static nnue_net *net;

/* Every castling move of the cases, and two plies after it, incrementally = from scratch. */
START_TEST(incremental_eval_across_castling)
{
    static nnue_chess_pos pos;
    parse(&pos, cases[_i].fen);
    nnue_state *inc = nnue_state_new(net, 16), *fresh = nnue_state_new(net, 0);
    nnue_move moves[NNUE_MAX_MOVES], replies[NNUE_MAX_MOVES];
    int n = nnue_chess_legal_moves(&pos, moves), castles = 0;
    nnue_state_reset(inc, &pos.board);
    for (int i = 0; i < n; i++) {
        if (NNUE_CHESS_MOVE_KIND(moves[i]) != NNUE_CHESS_MOVE_CASTLE)
            continue;
        castles++;
        nnue_delta d;
        nnue_chess_make(&pos, moves[i], &d);
        nnue_state_push(inc, &pos.board, &d);
        int r = nnue_chess_legal_moves(&pos, replies);
        for (int j = 0; j <= r && j < 3; j++) {
            if (j > 0) {
                nnue_chess_make(&pos, replies[j - 1], &d);
                nnue_state_push(inc, &pos.board, &d);
            }
            nnue_eval_detail a, b;
            nnue_evaluate(inc, &pos.board, &a);
            nnue_state_reset(fresh, &pos.board);
            nnue_evaluate(fresh, &pos.board, &b);
            ck_assert_int_eq(a.psqt, b.psqt);
            ck_assert_int_eq(a.positional, b.positional);
            if (j > 0) {
                nnue_state_pop(inc);
                nnue_chess_unmake(&pos, replies[j - 1]);
            }
        }
        nnue_state_pop(inc);
        nnue_chess_unmake(&pos, moves[i]);
    }
    if (_i == 9 || _i == 8)
        ck_assert_int_gt(castles, 0);
    nnue_state_free(inc);
    nnue_state_free(fresh);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("chess960");
    TCase *tc = tcase_create("chess960");
    tcase_set_timeout(tc, 120);
    int n = (int)(sizeof cases / sizeof *cases);
    tcase_add_loop_test(tc, perft_chess960, 0, n);
    tcase_add_test(tc, fen_rights_round_trip);
    tcase_add_test(tc, uci_notation);
    const eval_net *v5 = eval_net_find("sfnnv5");
    if (access(test_shared_path(v5->shared), R_OK) == 0) {
        net = eval_net_load_main(v5, eval_net_file(v5));
        if (!net)
            return 1;
        tcase_add_loop_test(tc, incremental_eval_across_castling, 0, n);
    } else {
        fprintf(stderr, "SKIP (one test): %s is missing; the incremental Chess960 evaluation did not run\n",
                test_shared_path(v5->shared));
    }
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    nnue_net_free(net);
    return rc;
}
