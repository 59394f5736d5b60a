/* tests/chess/test_chess_errors.c: bad FENs (one test per class) and bad move
 * strings give clear error values: code, "FEN" line 1 with the 1-based column
 * of the problem, and a message naming the field and what is wrong. */
#include <stdio.h>
#include <string.h>

#include "chess_helpers.h"
#include "nnue_shogi.h"
#include "support.h"

static nnue_chess_pos pos;

/* 1-based column of the first occurrence of `needle` in fen (after `skip` characters). */
static int col_of(const char *fen, const char *needle, int skip)
{
    const char *p = strstr(fen + skip, needle);
    ck_assert_ptr_nonnull(p);
    return (int)(p - fen) + 1;
}

/* Asserts that fen is rejected at `column` with a message naming field
 * `field` (0: no field) and containing `words`. */
static void expect_fen_error(const char *fen, int field, int column, const char *words)
{
    nnue_error err;
    nnue_status st = nnue_chess_parse_fen(&pos, fen, &err);
    ck_assert_msg(st == NNUE_E_SYNTAX, "'%s' accepted or wrong code %d", fen, st);
    ck_assert_int_eq(err.code, NNUE_E_SYNTAX);
    ck_assert_str_eq(err.file, "FEN");
    ck_assert_int_eq(err.line, 1);
    ck_assert_msg(err.column == column, "'%s': column %d, expected %d (%s)", fen, err.column,
                  column, err.message);
    if (field) {
        char tag[32];
        snprintf(tag, sizeof tag, "field %d (", field);
        ck_assert_msg(strstr(err.message, tag) != NULL, "'%s': message '%s' lacks '%s'", fen,
                      err.message, tag);
    }
    ck_assert_msg(strstr(err.message, words) != NULL, "'%s': message '%s' lacks '%s'", fen,
                  err.message, words);
    char line[1200];
    nnue_error_format(&err, line, sizeof line);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "FEN:1:%d: ", column);
    ck_assert_msg(strncmp(line, prefix, strlen(prefix)) == 0, "formatted: %s", line);
}

#define START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"

/* Issue 39: "startpos", which the tool and the engines accept, is the start position here too
 * (chess and shogi), and nothing else near it is. */
START_TEST(startpos_is_the_start)
{
    nnue_chess_pos a, b;
    nnue_error err;
    ck_assert_msg(nnue_chess_parse_fen(&a, "startpos", &err) == NNUE_OK, "startpos: %s", err.message);
    ck_assert_int_eq(nnue_chess_parse_fen(&b, NNUE_CHESS_START_FEN, &err), NNUE_OK);
    ck_assert_mem_eq(&a.board, &b.board, sizeof a.board);
    ck_assert_uint_eq(a.castling, b.castling);
    ck_assert_uint_eq(a.fullmove, 1);
    ck_assert_int_ne(nnue_chess_parse_fen(&a, "startpos moves e2e4", &err), NNUE_OK);
    ck_assert_int_ne(nnue_chess_parse_fen(&a, "Startpos", &err), NNUE_OK);
    nnue_shogi_pos s, t;
    ck_assert_msg(nnue_shogi_parse_sfen(&s, "startpos", &err) == NNUE_OK, "shogi startpos: %s", err.message);
    ck_assert_int_eq(nnue_shogi_parse_sfen(&t, NNUE_SHOGI_START_SFEN, &err), NNUE_OK);
    ck_assert_mem_eq(&s.board, &t.board, sizeof s.board);
}
END_TEST

START_TEST(wrong_field_count)
{
    const char *five = START " w KQkq - 0";
    expect_fen_error(five, 0, (int)strlen(five) + 1, "expected 6 fields");
    const char *seven = START " w KQkq - 0 1 x";
    expect_fen_error(seven, 0, (int)strlen(seven), "expected 6 fields");
    expect_fen_error(START, 0, (int)strlen(START) + 1, "expected 6 fields (or 4, without the clocks)");
    const char *three = START " w KQkq";
    expect_fen_error(three, 0, (int)strlen(three) + 1, "found 3");
    expect_fen_error("", 0, 1, "expected 6 fields");
    const char *dbl = START " w  KQkq - 0 1";
    expect_fen_error(dbl, 0, col_of(dbl, "  ", 0) + 1, "one space");
    const char *trail = START " w KQkq - 0 1 ";
    expect_fen_error(trail, 0, (int)strlen(trail) + 1, "trailing space");
}
END_TEST

/* EPD's position part and many tools' FENs stop after en passant: the clocks of a fresh game. */
START_TEST(four_fields_without_clocks)
{
    nnue_error err;
    ck_assert_int_eq(nnue_chess_parse_fen(&pos, START " b KQkq -", &err), NNUE_OK);
    ck_assert_int_eq(pos.halfmove, 0);
    ck_assert_int_eq(pos.fullmove, 1);
    ck_assert_int_eq(pos.board.side_to_move, 1);
    char fen[128];
    nnue_chess_to_fen(&pos, fen, sizeof fen);
    ck_assert_str_eq(fen, START " b KQkq - 0 1");
    const char *ep = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3";
    ck_assert_int_eq(nnue_chess_parse_fen(&pos, ep, &err), NNUE_OK);
    nnue_chess_to_fen(&pos, fen, sizeof fen);
    ck_assert_str_eq(fen, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    /* The four fields are checked as strictly as in a full FEN. */
    const char *bad_ep = START " w KQkq e9";
    expect_fen_error(bad_ep, 4, col_of(bad_ep, "e9", 0), "expected '-' or a square");
}
END_TEST

START_TEST(bad_piece_letter)
{
    const char *fen = "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    expect_fen_error(fen, 1, col_of(fen, "x", 0), "'x' is not a piece letter");
    const char *zero = "rnbqkbnr/pppppppp/8/8/0/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    expect_fen_error(zero, 1, col_of(zero, "0", 0), "'0' is not a piece letter");
    const char *nine = "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    expect_fen_error(nine, 1, col_of(nine, "9", 0), "'9' is not a piece letter");
    const char *digits = "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    expect_fen_error(digits, 1, col_of(digits, "44", 0) + 1, "two digits in a row");
}
END_TEST

START_TEST(rank_too_long_or_short)
{
    const char *nine = "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    expect_fen_error(nine, 1, 9, "rank 8 has more than 8 squares");
    const char *gap = "rnbqkbnr/pppppppp/8/8/4P4/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1";
    expect_fen_error(gap, 1, col_of(gap, "P4/", 0) + 1, "rank 4 has more than 8 squares");
    const char *seven = "rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    expect_fen_error(seven, 1, 8, "rank 8 has 7 squares, expected 8");
    const char *last = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1";
    expect_fen_error(last, 1, col_of(last, " ", 0), "rank 1 has 7 squares");
}
END_TEST

START_TEST(wrong_rank_count)
{
    const char *seven = "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    expect_fen_error(seven, 1, col_of(seven, " ", 0), "found 7 ranks, expected 8");
    const char *nine = "4k3/8/8/8/8/8/8/8/4K3 w - - 0 1";
    expect_fen_error(nine, 1, col_of(nine, "/4K3", 0), "more than 8 ranks");
}
END_TEST

START_TEST(two_kings_of_a_colour)
{
    const char *fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w KQkq - 0 1";
    expect_fen_error(fen, 1, col_of(fen, "KK", 0) + 1, "second white king");
    const char *black = "k7/8/8/8/8/8/8/k6K w - - 0 1";
    expect_fen_error(black, 1, col_of(black, "k6K", 0), "second black king");
}
END_TEST

START_TEST(missing_king)
{
    expect_fen_error("8/8/8/8/8/8/8/4K3 w - - 0 1", 1, 1, "no black king");
    expect_fen_error("4k3/8/8/8/8/8/8/8 w - - 0 1", 1, 1, "no white king");
}
END_TEST

START_TEST(pawn_on_back_rank)
{
    const char *fen = "4k2P/8/8/8/8/8/8/4K3 w - - 0 1";
    expect_fen_error(fen, 1, col_of(fen, "P", 0), "white pawn on rank 8");
    const char *low = "4k3/8/8/8/8/8/8/p3K3 w - - 0 1";
    expect_fen_error(low, 1, col_of(low, "p3K", 0), "black pawn on rank 1");
}
END_TEST

START_TEST(too_many_pieces)
{
    const char *pawns = "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1";
    expect_fen_error(pawns, 1, col_of(pawns, "PPPP", 0) + 7, "white has more than 8 pawns");
    const char *pieces = "4k3/8/8/QQQQQQQQ/QQQQQQQQ/8/8/4K3 w - - 0 1";
    expect_fen_error(pieces, 1, col_of(pieces, "K", 0), "white has more than 16 pieces");
}
END_TEST

START_TEST(bad_side_to_move)
{
    const char *fen = START " x KQkq - 0 1";
    expect_fen_error(fen, 2, col_of(fen, " x", 0) + 1, "expected 'w' or 'b'");
    const char *word = START " white KQkq - 0 1";
    expect_fen_error(word, 2, col_of(word, " white", 0) + 1, "\"white\"");
}
END_TEST

START_TEST(castling_contradicts_board)
{
    const char *no_rook = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1";
    expect_fen_error(no_rook, 3, col_of(no_rook, "KQkq", 0), "right 'K' needs the white king "
                     "on e1 and a rook on h1");
    const char *moved = "rnbq1bnr/ppppkppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    expect_fen_error(moved, 3, col_of(moved, "kq ", 0), "right 'k' needs the black king on e8");
    const char *bad = START " w KQxq - 0 1";
    expect_fen_error(bad, 3, col_of(bad, "x", 0), "'x' is not a castling right");
    const char *order = START " w QK - 0 1";
    expect_fen_error(order, 3, col_of(order, "QK", 44) + 1, "out of order");
    const char *twice = START " w KK - 0 1";
    expect_fen_error(twice, 3, col_of(twice, "KK", 44) + 1, "repeated");
}
END_TEST

START_TEST(bad_en_passant)
{
    const char *rank = "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 2";
    expect_fen_error(rank, 4, col_of(rank, "e3", 0) + 1, "wrong rank");
    const char *black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1";
    expect_fen_error(black, 4, col_of(black, "e6", 0) + 1, "rank 3");
    const char *no_pawn = "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 2";
    expect_fen_error(no_pawn, 4, col_of(no_pawn, "d6", 0), "does not follow a black double step");
    const char *blocked = "rnbqkb1r/pppnpppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 2";
    expect_fen_error(blocked, 4, col_of(blocked, "d6", 0), "does not follow");
    const char *junk = START " w KQkq e33 0 1";
    expect_fen_error(junk, 4, col_of(junk, "e33", 0), "expected '-' or a square");
    const char *file = START " w KQkq i6 0 1";
    expect_fen_error(file, 4, col_of(file, "i6", 0), "expected '-' or a square");
}
END_TEST

START_TEST(bad_clocks)
{
    const char *neg = START " w KQkq - -1 1";
    expect_fen_error(neg, 5, col_of(neg, "-1", 0), "negative");
    const char *text = START " w KQkq - x 1";
    expect_fen_error(text, 5, col_of(text, "x", 0), "not a non-negative integer");
    const char *mixed = START " w KQkq - 1a 1";
    expect_fen_error(mixed, 5, col_of(mixed, "1a", 0) + 1, "not a non-negative integer");
    const char *full = START " w KQkq - 0 -3";
    expect_fen_error(full, 6, col_of(full, "-3", 0), "negative");
    const char *zero = START " w KQkq - 0 0";
    expect_fen_error(zero, 6, (int)strlen(zero), "at least 1");
    const char *big = START " w KQkq - 12345678901 1";
    expect_fen_error(big, 5, col_of(big, "1234", 0), "too large");
    const char *plus = START " w KQkq - 0 +1";
    expect_fen_error(plus, 6, col_of(plus, "+1", 0), "not a non-negative integer");
}
END_TEST

START_TEST(side_not_to_move_in_check)
{
    const char *fen = "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1";
    parse_ok(&pos, fen);   /* black to move, in check: fine */
    ck_assert_int_eq(nnue_chess_in_check(&pos), 1);
    const char *bad = "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1";
    expect_fen_error(bad, 2, col_of(bad, " w", 0) + 1, "black, the side not to move, is in check");
}
END_TEST

START_TEST(non_ascii_input)
{
    const char *fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN\xc3\xa9 w KQkq - 0 1";
    expect_fen_error(fen, 1, col_of(fen, "\xc3", 0), "0xc3 is not a piece letter");
    nnue_error err;
    ck_assert_int_eq(nnue_chess_parse_fen(&pos, NULL, &err), NNUE_E_ARG);
}
END_TEST

/* Malformed move strings: NNUE_E_SYNTAX, message quoting the move. */
START_TEST(malformed_moves)
{
    static const char *const bad[] = {"", "e2", "e2e", "e2e4qq", "E2E4", "e9e4", "i2i4",
                                      "e7e8k", "e7e8Q", "e2-e4", "0-0", "e2e4 "};
    nnue_error err;
    nnue_move move = 0;
    parse_ok(&pos, NNUE_CHESS_START_FEN);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(nnue_chess_parse_uci(&pos, bad[i], &move, &err) == NNUE_E_SYNTAX,
                      "'%s' not a syntax error", bad[i]);
        char quoted[32];
        snprintf(quoted, sizeof quoted, "'%s'", bad[i]);
        ck_assert_msg(strstr(err.message, quoted) != NULL, "message '%s' lacks %s", err.message,
                      quoted);
        ck_assert_msg(strstr(err.message, "malformed move") != NULL, "%s", err.message);
    }
    static const char long_text[] = "e2e4e2e4e2e4e2e4e2e4e2e4e2e4e2e4";
    ck_assert_int_eq(nnue_chess_parse_uci(&pos, long_text, &move, &err), NNUE_E_SYNTAX);
}
END_TEST

/* Well-formed but illegal: NNUE_E_ILLEGAL, message quoting the move. */
START_TEST(illegal_moves)
{
    static const struct {
        const char *fen, *move, *words;
    } cases[] = {
        {NNUE_CHESS_START_FEN, "e2e5", "not a legal move"},
        {NNUE_CHESS_START_FEN, "e7e5", "not a legal move"},
        {NNUE_CHESS_START_FEN, "e1g1", "not a legal move"},
        {NNUE_CHESS_START_FEN, "a1a1", "not a legal move"},
        {"r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", "e1g1", "not a legal move"},
        {"r3k2r/8/8/8/8/8/8/R4RK1 b kq - 0 1", "e8g8", "not a legal move"},   /* f8 attacked */
        {"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", "needs a promotion letter"},
        {NNUE_CHESS_START_FEN, "e2e4q", "not a promotion"},
        {"4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3", "not a legal move"},       /* pinned */
        {"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "h8g8", "the game is over"},          /* stalemate */
    };
    nnue_error err;
    nnue_move move;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        parse_ok(&pos, cases[i].fen);
        ck_assert_msg(nnue_chess_parse_uci(&pos, cases[i].move, &move, &err) == NNUE_E_ILLEGAL,
                      "%s in %s not reported illegal", cases[i].move, cases[i].fen);
        char quoted[32];
        snprintf(quoted, sizeof quoted, "'%s'", cases[i].move);
        ck_assert_msg(strstr(err.message, quoted) != NULL, "'%s' lacks %s", err.message, quoted);
        ck_assert_msg(strstr(err.message, cases[i].words) != NULL, "'%s' lacks '%s'", err.message,
                      cases[i].words);
    }
}
END_TEST

/* Good input after an error works and the vtable reports the same errors. */
START_TEST(vtable_errors)
{
    const nnue_game *game = nnue_game_find("chess");
    nnue_error err;
    nnue_move move;
    ck_assert_int_ne(game->parse(&pos, "8/8/8/8/8/8/8/8 w - - 0 1", &err), 0);
    ck_assert_int_eq(game->parse(&pos, NNUE_CHESS_START_FEN, &err), 0);
    ck_assert_int_eq(err.code, NNUE_OK);
    ck_assert_int_eq(game->parse_move(&pos, "e2e5", &move, &err), NNUE_E_ILLEGAL);
    ck_assert_int_eq(game->parse_move(&pos, "e2x4", &move, &err), NNUE_E_SYNTAX);
    ck_assert_int_eq(game->parse_move(&pos, "g1f3", &move, &err), 0);
    char buf[8];
    game->format_move(move, buf, sizeof buf);
    ck_assert_str_eq(buf, "g1f3");
    char small[4];
    game->format(&pos, small, sizeof small);
    ck_assert_str_eq(small, "rnb");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("chess_errors");
    TCase *fen = tcase_create("fen");
    tcase_add_test(fen, wrong_field_count);
    tcase_add_test(fen, startpos_is_the_start);
    tcase_add_test(fen, four_fields_without_clocks);
    tcase_add_test(fen, bad_piece_letter);
    tcase_add_test(fen, rank_too_long_or_short);
    tcase_add_test(fen, wrong_rank_count);
    tcase_add_test(fen, two_kings_of_a_colour);
    tcase_add_test(fen, missing_king);
    tcase_add_test(fen, pawn_on_back_rank);
    tcase_add_test(fen, too_many_pieces);
    tcase_add_test(fen, bad_side_to_move);
    tcase_add_test(fen, castling_contradicts_board);
    tcase_add_test(fen, bad_en_passant);
    tcase_add_test(fen, bad_clocks);
    tcase_add_test(fen, side_not_to_move_in_check);
    tcase_add_test(fen, non_ascii_input);
    suite_add_tcase(s, fen);
    TCase *moves = tcase_create("moves");
    tcase_add_test(moves, malformed_moves);
    tcase_add_test(moves, illegal_moves);
    tcase_add_test(moves, vtable_errors);
    suite_add_tcase(s, moves);
    return test_run(s);
}
