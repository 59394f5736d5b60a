/* tests/tools/test_match_rules.c: the rules `nnue match` judges games by (tools/match_rules.c)
 * and the SAN of its PGN (the chess descriptor's human_move), on hand-built positions: checkmate, stalemate,
 * threefold repetition (not at the second occurrence), the 50-move rule, bare kings, the ply
 * cap, refused illegal moves; shogi checkmate, fourfold sennichite (not at the third) and its
 * perpetual-check exception, the 27-point declaration just met and just missed; xiangqi
 * checkmate, stalemate (a loss), threefold repetition, perpetual check (a loss), and the rank translation for engines
 * counting ranks from 1; SAN disambiguation, castling, promotion, check and mate marks. */
#include <stdio.h>
#include <string.h>

#include "nnue_chess.h"
#include "nnue_shogi.h"
#include "support.h"
#include "tools/match_rules.h"

static match_record rec;

static void start(const char *game, const char *position)
{
    nnue_error err;
    ck_assert_int_eq(record_init(&rec, nnue_game_find(game), position, &err), 0);
}

static void play(const char *moves)
{
    char list[1024];
    snprintf(list, sizeof list, "%s", moves);
    nnue_error err;
    for (char *m = strtok(list, " "); m; m = strtok(NULL, " "))
        ck_assert_msg(record_play(&rec, m, &err) == 0, "%s: %s", m, err.message);
}

static void expect(int over, int winner, const char *reason)
{
    match_outcome o = record_adjudicate(&rec, 400);
    ck_assert_int_eq(o.over, over);
    if (over) {
        ck_assert_int_eq(o.winner, winner);
        ck_assert_str_eq(o.reason, reason);
    }
}

START_TEST(chess_endings)
{
    start("chess", NULL);
    play("f2f3 e7e5 g2g4");
    expect(0, 0, "");
    play("d8h4");
    expect(1, 1, "checkmate");
    record_free(&rec);

    start("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    expect(1, -1, "stalemate");
    record_free(&rec);

    start("chess", NULL);
    play("g1f3 g8f6 f3g1 f6g8");
    expect(0, 0, "");  /* the start position a second time */
    play("g1f3 g8f6 f3g1 f6g8");
    expect(1, -1, "threefold repetition");
    record_free(&rec);

    start("chess", "4k3/8/8/8/8/8/4P3/4K2R w K - 99 80");
    play("h1h2");
    expect(1, -1, "50-move rule");
    record_free(&rec);

    start("chess", "4k3/8/8/8/8/8/8/4K1Nb w - - 0 1");
    play("g1f3");
    expect(0, 0, "");
    play("h1f3");
    expect(1, -1, "insufficient material");
    nnue_error err;
    ck_assert_int_eq(record_play(&rec, "e1e3", &err), -1); /* two squares: not a king move */
    ck_assert_int_eq(rec.plies, 2);
    record_free(&rec);

    start("chess", NULL);
    play("g1f3 g8f6");
    match_outcome o = record_adjudicate(&rec, 2);
    ck_assert_int_eq(o.over, 1);
    ck_assert_str_eq(o.reason, "ply cap");
    record_free(&rec);
}
END_TEST

START_TEST(shogi_endings)
{
    start("shogi", NULL);
    play("5i5h 5a5b 5h5i 5b5a 5i5h 5a5b 5h5i 5b5a");
    expect(0, 0, ""); /* third occurrence */
    play("5i5h 5a5b 5h5i 5b5a");
    expect(1, -1, "sennichite (fourfold repetition)");
    record_free(&rec);

    /* Sente checks with every move of the cycle: the fourth occurrence loses for sente. */
    start("shogi", "8k/R8/9/9/9/9/9/9/4K4 b - 1");
    play("9b9a 1a1b 9a9b 1b1a 9b9a 1a1b 9a9b 1b1a");
    expect(0, 0, "");
    play("9b9a 1a1b 9a9b 1b1a");
    expect(1, 1, "sennichite by perpetual check");
    record_free(&rec);

    /* A gold dropped on 1b, guarded by the pawn on 1c: mate. */
    start("shogi", "8k/9/8P/9/9/9/9/9/4K4 b G 1");
    play("G*1b");
    expect(1, 0, "checkmate");
    record_free(&rec);

    /* Declaration: king in the camp, 10 pieces there, 18 points on the board + 10 pawns. */
    start("shogi", "+L+NSG1GS+N+L/1R2K2B1/9/9/9/9/9/9/4k4 b 10P 1");
    ck_assert_int_eq(record_declaration_valid(&rec), 1);
    record_free(&rec);
    start("shogi", "+L+NSG1GS+N+L/1R2K2B1/9/9/9/9/9/9/4k4 b 9P 1");
    ck_assert_int_eq(record_declaration_valid(&rec), 0); /* 27 points: black needs 28 */
    record_free(&rec);
    start("shogi", "+L+NSG1GS+N+L/1R2K4/9/9/9/9/9/9/4k4 b 9PB 1");
    ck_assert_int_eq(record_declaration_valid(&rec), 0); /* 9 pieces in the camp */
    record_free(&rec);
}
END_TEST

START_TEST(xiangqi_endings)
{
    /* Black's king on d9, red's pawn on e8 guarding d8 and e9: no move, no check: black loses. */
    start("xiangqi", "3k5/4P4/9/9/9/9/9/9/9/R3K4 b - - 0 1");
    expect(1, 0, "stalemate (loses)");
    record_free(&rec);
    start("xiangqi", "3k5/4P4/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    play("a0a9");
    expect(1, 0, "checkmate");
    record_free(&rec);
    start("xiangqi", NULL);
    play("h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0");
    expect(0, 0, "");
    play("g7h9");
    expect(1, -1, "threefold repetition");
    record_free(&rec);
    /* Red's rook checks with every move of the cycle: at the third occurrence red loses. */
    start("xiangqi", "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    play("a0a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9");
    expect(0, 0, "");
    play("a8a9");
    expect(1, 1, "perpetual check (loses)");
    record_free(&rec);
}
END_TEST

START_TEST(rank_translation)
{
    char out[16];
    ck_assert_int_eq(move_shift_ranks("h2e2", 1, out, sizeof out), 0);
    ck_assert_str_eq(out, "h3e3");
    ck_assert_int_eq(move_shift_ranks("a9a8", 1, out, sizeof out), 0);
    ck_assert_str_eq(out, "a10a9");
    ck_assert_int_eq(move_shift_ranks("a10a9", -1, out, sizeof out), 0);
    ck_assert_str_eq(out, "a9a8");
    ck_assert_int_eq(move_shift_ranks("7g7f", 0, out, sizeof out), 0);
    ck_assert_str_eq(out, "7g7f");
    ck_assert_int_eq(move_shift_ranks("a0a1", -1, out, sizeof out), -1); /* no rank below 0 */
    ck_assert_int_eq(move_shift_ranks("a9a8", 1, out, 5), -1);           /* does not fit */
    /* An engine's word with a long run of digits (fuzz_match: it overflowed strtol, and the
     * digits' text overflowed a 16-byte buffer): no rank, refused. */
    char wide[64];
    ck_assert_int_eq(move_shift_ranks("e2e4777777777777777777777", -1, wide, sizeof wide), -1);
    ck_assert_int_eq(move_shift_ranks("a99999999999999999999", 1, wide, sizeof wide), -1);
    ck_assert_int_eq(move_shift_ranks("a9999b1", 1, wide, sizeof wide), 0);
    ck_assert_str_eq(wide, "a10000b2");
}
END_TEST

static void expect_san(const char *fen, const char *uci, const char *san)
{
    nnue_chess_pos pos;
    nnue_error err;
    ck_assert_msg(nnue_chess_parse_fen(&pos, fen, &err) == NNUE_OK, "%s: %s", fen, err.message);
    nnue_move m;
    ck_assert_int_eq(nnue_chess_parse_uci(&pos, uci, &m, &err), NNUE_OK);
    char out[16];
    nnue_game_chess.human_move(&pos, m, out, sizeof out);
    ck_assert_str_eq(out, san);
}

START_TEST(san)
{
    expect_san(NNUE_CHESS_START_FEN, "g1f3", "Nf3");
    expect_san(NNUE_CHESS_START_FEN, "e2e4", "e4");
    expect_san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O");
    expect_san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "O-O-O");
    expect_san("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1");          /* file tells */
    expect_san("4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "a1a2", "R1a2");          /* rank tells */
    expect_san("k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1", "c3d2", "Qc3d2");      /* both needed */
    expect_san("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q+");
    expect_san("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "e5d6", "exd6");
    expect_san("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "Qh4#");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("match_rules");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, chess_endings);
    tcase_add_test(tc, shogi_endings);
    tcase_add_test(tc, xiangqi_endings);
    tcase_add_test(tc, rank_translation);
    tcase_add_test(tc, san);
    suite_add_tcase(s, tc);
    return test_run(s);
}
