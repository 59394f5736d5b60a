/* tests/shogi/test_shogi_sfen.c: SFEN parsing/output and USI move strings,
 * one test per class of bad input (code, column and message checked). */
#include <string.h>

#include "nnue_shogi.h"
#include "shogi_helpers.h"
#include "support.h"

#define START NNUE_SHOGI_START_SFEN

/* 1-based column of the first occurrence of `needle` in s (which must occur). */
static int col_of(const char *s, const char *needle)
{
    const char *p = strstr(s, needle);
    ck_assert_msg(p != NULL, "'%s' not in '%s'", needle, s);
    return (int)(p - s) + 1;
}

static void expect_bad(const char *sfen, int column, const char *fragment)
{
    nnue_shogi_pos pos, copy;
    memset(&pos, 0x5A, sizeof pos);
    copy = pos;
    nnue_error err;
    ck_assert_int_eq(nnue_shogi_parse_sfen(&pos, sfen, &err), NNUE_E_SYNTAX);
    ck_assert_int_eq(err.code, NNUE_E_SYNTAX);
    ck_assert_str_eq(err.file, "SFEN");
    ck_assert_int_eq(err.line, 1);
    ck_assert_msg(err.column == column, "'%s': column %d, expected %d (%s)", sfen, err.column,
                  column, err.message);
    ck_assert_msg(strstr(err.message, fragment) != NULL, "'%s': message '%s' lacks '%s'", sfen,
                  err.message, fragment);
    ck_assert_mem_eq(&pos, &copy, sizeof pos);   /* untouched on failure */
}

START_TEST(start_position_round_trip)
{
    nnue_shogi_pos pos;
    shogi_parse_ok(&pos, START);
    ck_assert_str_eq(shogi_sfen(&pos), START);
    const nnue_board *b = &pos.board;
    ck_assert_int_eq(b->num_squares, 81);
    ck_assert_int_eq(b->piece_count, 40);
    ck_assert_int_eq(b->side_to_move, 0);
    ck_assert_int_eq(b->king_sq[0], 4 * 9 + 8);   /* 5i */
    ck_assert_int_eq(b->king_sq[1], 4 * 9 + 0);   /* 5a */
    ck_assert_int_eq(b->piece_on[60], NNUE_PIECE(0, NNUE_SHOGI_PAWN));   /* 7g */
    ck_assert_int_eq(b->piece_on[1 * 9 + 7], NNUE_PIECE(0, NNUE_SHOGI_ROOK));   /* 2h */
    ck_assert_int_eq(b->piece_on[7 * 9 + 7], NNUE_PIECE(0, NNUE_SHOGI_BISHOP)); /* 8h */
    ck_assert_int_eq(b->piece_on[0], NNUE_PIECE(1, NNUE_SHOGI_LANCE));  /* 1a */
    ck_assert_int_eq(nnue_shogi_in_check(&pos), 0);
}
END_TEST

START_TEST(hands_any_order_and_defaults)
{
    nnue_shogi_pos pos;
    shogi_parse_ok(&pos, "4k4/9/9/9/9/9/9/9/4K4 b P2LrbGS10p\n");
    ck_assert_str_eq(shogi_sfen(&pos), "4k4/9/9/9/9/9/9/9/4K4 b GS2LPrb10p 1");
    ck_assert_int_eq(pos.board.hand[0][NNUE_SHOGI_LANCE], 2);
    ck_assert_int_eq(pos.board.hand[1][NNUE_SHOGI_PAWN], 10);
    ck_assert_int_eq(pos.board.piece_count, 2);
    shogi_parse_ok(&pos, "4k4/9/9/9/9/9/9/9/4K4 w -  77  ");
    ck_assert_str_eq(shogi_sfen(&pos), "4k4/9/9/9/9/9/9/9/4K4 w - 77");
    shogi_parse_ok(&pos, "4k3+P/9/9/9/9/9/9/9/+l3K4 b 2B 3");   /* promoted pieces may stand anywhere */
    ck_assert_str_eq(shogi_sfen(&pos), "4k3+P/9/9/9/9/9/9/9/+l3K4 b 2B 3");
    char small[8];
    ck_assert_uint_eq(nnue_shogi_to_sfen(&pos, small, sizeof small), 32);
    ck_assert_str_eq(small, "4k3+P/9");
}
END_TEST

START_TEST(corpus_round_trip)
{
    test_require_shared("oracle/shogi/corpusA.sfen");
    shogi_lines lines = shogi_read_lines("oracle/shogi/corpusA.sfen");
    for (int i = 0; i < lines.count; i++) {
        nnue_shogi_pos pos;
        shogi_parse_ok(&pos, lines.line[i]);
        ck_assert_str_eq(shogi_sfen(&pos), lines.line[i]);
        shogi_check_board(&pos.board);
    }
    shogi_free_lines(&lines);
}
END_TEST

START_TEST(bad_piece_letter)
{
    const char *s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/4X4/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    expect_bad(s, col_of(s, "X"), "bad piece letter 'X'");
    s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/4+4/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    expect_bad(s, col_of(s, "+") + 1, "'+' must be followed by a piece letter");
    s = "lnsgkgsnl/1r5b1/ppppppppp/9/0/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    expect_bad(s, col_of(s, "0"), "bad piece letter '0'");
    expect_bad("4k4/9/9/9/9/9/9/9/4K3+", 23, "the end of the text");
}
END_TEST

START_TEST(bad_rank_length)
{
    const char *s = "lnsgkgsnl/1r5b1/ppppppppp/9/46/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    expect_bad(s, col_of(s, "46") + 1, "rank e has more than 9 squares");
    s = "lnsgkgsnlp/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    expect_bad(s, 10, "rank a has more than 9 squares");
    s = "lnsgkgsnl/1r5b1/pppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    expect_bad(s, col_of(s, "pppppppp/") + 8, "rank c has 8 squares, expected 9");
    s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1";
    expect_bad(s, col_of(s, " "), "rank i has 8 squares, expected 9");
}
END_TEST

START_TEST(bad_rank_count)
{
    const char *s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    expect_bad(s, col_of(s, " "), "board has 8 ranks, expected 9");
    s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/9 b - 1";
    expect_bad(s, col_of(s, "L/9") + 1, "more than 9 ranks");
    expect_bad("", 1, "missing board");
}
END_TEST

START_TEST(impossible_piece_counts)
{
    const char *s = START " P";
    expect_bad(s, (int)strlen(s), "unexpected text after the SFEN");
    s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1";
    expect_bad(s, col_of(s, " P ") + 1, "too many pawns: a set has 18");
    s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 2b 1";
    expect_bad(s, col_of(s, "2b"), "too many bishops: a set has 2");
    expect_bad("4k4/9/9/9/B1B1B4/9/9/9/4K4 b - 1", 15, "too many bishops");
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 b 3G2g 1", col_of("4k4/9/9/9/9/9/9/9/4K4 b 3G2g 1", "2g"),
               "too many golds: a set has 4");
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", 25, "hand count 19");
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 b 0P 1", 25, "hand count 0");
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 b P2P 1", 27, "'P' appears twice");
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 b K 1", 25, "a king cannot be in hand");
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 b 2 1", 26, "bad piece letter ' ' in hands");
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 b +P 1", 25, "bad piece letter '+' in hands");
}
END_TEST

START_TEST(kings)
{
    const char *s = "lnsgkgsnl/1r5b1/ppppppppp/9/4K4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    expect_bad(s, (int)(strrchr(s, 'K') - s) + 1, "second black king");
    expect_bad("4k4/9/9/9/9/9/9/9/4k4 b - 1", 20, "second white king");
    expect_bad("4k4/9/9/9/9/9/9/9/9 b - 1", 1, "board has no black king");
    expect_bad("9/9/9/9/9/9/9/9/4K4 b - 1", 1, "board has no white king");
}
END_TEST

START_TEST(side_to_move)
{
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 x - 1", 23, "side to move must be 'b' or 'w', found 'x'");
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 black - 1", 23, "side to move must be 'b' or 'w'");
    expect_bad("4k4/9/9/9/9/9/9/9/4K4", 22, "missing side to move");
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 b", 24, "missing hands");
    /* the side not to move may not be in check (its king could be taken) */
    expect_bad("4k4/4R4/9/9/9/9/9/9/4K4 b - 1", 25, "side not to move (white) is in check");
    nnue_shogi_pos pos;
    shogi_parse_ok(&pos, "4k4/4R4/9/9/9/9/9/9/4K4 w - 1");
    ck_assert_int_eq(nnue_shogi_in_check(&pos), 1);
}
END_TEST

START_TEST(move_number)
{
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 b - 0", 27, "move number must be at least 1");
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 b - x1", 27, "move number must be a positive integer, found 'x'");
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 b - -5", 27, "move number must be a positive integer");
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 b - 12x", 29, "found 'x'");
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 b - 99999999999", 27, "move number is too large");
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 b - 1 extra", 29, "unexpected text after the SFEN");
}
END_TEST

START_TEST(promotion_marks)
{
    const char *s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+GKGSNL b - 1";
    expect_bad(s, col_of(s, "+"), "'+G': a gold cannot promote");
    s = "lnsg+kgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    expect_bad(s, 5, "'+k': a king cannot promote");
}
END_TEST

START_TEST(dead_squares)
{
    struct { const char *sfen; char letter; const char *what; } cases[] = {
        {"4k3P/9/9/9/9/9/9/9/4K4 b - 1", 'P', "black pawn on 1a could never move"},
        {"4k3L/9/9/9/9/9/9/9/4K4 b - 1", 'L', "black lance on 1a could never move"},
        {"4k4/N8/9/9/9/9/9/9/4K4 b - 1", 'N', "black knight on 9b could never move"},
        {"4k4/9/9/9/9/9/9/9/l3K4 b - 1", 'l', "white lance on 9i could never move"},
        {"4k4/9/9/9/9/9/9/4n4/4K4 b - 1", 'n', "white knight on 5h could never move"},
        {"4k4/9/9/9/9/9/9/9/4K3p b - 1", 'p', "white pawn on 1i could never move"},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_bad(cases[i].sfen, (int)(strrchr(cases[i].sfen, cases[i].letter) - cases[i].sfen) + 1,
                   cases[i].what);
}
END_TEST

START_TEST(nifu_on_board)
{
    expect_bad("4k4/9/9/4P4/9/9/4P4/9/4K4 b - 1", 18, "two unpromoted black pawns on file 5 (nifu)");
    nnue_shogi_pos pos;
    shogi_parse_ok(&pos, "4k4/9/9/4+P4/9/9/4P4/9/4K4 b - 1");   /* a tokin is no pawn */
}
END_TEST

/* USI moves ------------------------------------------------------------ */

static void expect_move_error(const char *sfen, const char *move, nnue_status code,
                              const char *fragment)
{
    nnue_shogi_pos pos;
    shogi_parse_ok(&pos, sfen);
    nnue_move m = 12345;
    nnue_error err;
    ck_assert_int_eq(nnue_shogi_parse_usi(&pos, move, &m, &err), code);
    ck_assert_int_eq(err.code, code);
    ck_assert_msg(strstr(err.message, fragment) != NULL, "'%s': message '%s' lacks '%s'", move,
                  err.message, fragment);
    ck_assert_uint_eq(m, 12345);
}

START_TEST(usi_round_trip)
{
    nnue_shogi_pos pos;
    shogi_parse_ok(&pos, "4k4/9/9/9/9/9/9/1B7/4K4 b P 1");
    const char *texts[] = {"8h2b+", "8h2b", "P*5e", "5i4h"};
    for (int i = 0; i < 4; i++) {
        nnue_move m;
        ck_assert_int_eq(nnue_shogi_parse_usi(&pos, texts[i], &m, NULL), NNUE_OK);
        char buf[8];
        ck_assert_uint_eq(nnue_shogi_move_to_usi(m, buf, sizeof buf), strlen(texts[i]));
        ck_assert_str_eq(buf, texts[i]);
    }
}
END_TEST

START_TEST(usi_malformed)
{
    const char *bad[] = {"", "7g7", "7g7f++", "7g7f=", "0g7f", "7j7f", "7g7F", "K*5e", "p*5e",
                         "P*5j", "P*0e", "P+5e", "7g7f ", "77g7f", "\x01g7f"};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_move_error(START, bad[i], NNUE_E_SYNTAX, "malformed USI move");
    expect_move_error(START, "K*5e", NNUE_E_SYNTAX, "'K*5e'");
    expect_move_error(START, "\x01g7f", NNUE_E_SYNTAX, "\\x01");
}
END_TEST

START_TEST(usi_illegal)
{
    expect_move_error(START, "7g7e", NNUE_E_ILLEGAL, "illegal move '7g7e': a pawn on 7g cannot move to 7e");
    expect_move_error(START, "7g7f+", NNUE_E_ILLEGAL, "promotion zone");
    expect_move_error(START, "5a5b", NNUE_E_ILLEGAL, "belongs to the opponent");
    expect_move_error(START, "5e5d", NNUE_E_ILLEGAL, "no piece on 5e");
    expect_move_error(START, "P*5e", NNUE_E_ILLEGAL, "no pawn in hand");
    expect_move_error(START, "5i6i", NNUE_E_ILLEGAL, "occupied by the mover's own piece");
    expect_move_error(START, "7g7g", NNUE_E_ILLEGAL, "must change square");
    /* pinned gold, and a gold cannot promote */
    const char *pin = "4k4/9/4r4/9/9/9/9/4G4/4K4 b - 1";
    expect_move_error(pin, "5h4h", NNUE_E_ILLEGAL, "'5h4h': leaves the king in check");
    expect_move_error(pin, "5h5g+", NNUE_E_ILLEGAL, "a gold cannot promote");
    /* in check, a move elsewhere */
    expect_move_error("4k4/9/4r4/9/9/9/9/9/4K3P b G 1", "1i1h", NNUE_E_ILLEGAL,
                      "does not answer the check");
    expect_move_error("4k4/9/4r4/9/9/9/9/9/4K4 b G 1", "G*1e", NNUE_E_ILLEGAL,
                      "does not answer the check");
}
END_TEST

START_TEST(usi_nifu)
{
    const char *s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b P 1";
    expect_move_error(s, "P*5e", NNUE_E_ILLEGAL, "'P*5e': two unpromoted pawns on file 5 (nifu)");
    nnue_shogi_pos pos;
    shogi_parse_ok(&pos, s);
    nnue_move m;
    ck_assert_int_eq(nnue_shogi_parse_usi(&pos, "P*1e", &m, NULL), NNUE_OK);
}
END_TEST

START_TEST(usi_uchifuzume)
{
    /* White king 5a boxed in by its own lances, black gold 5c guards 5b. */
    const char *mate = "3lkl3/9/4G4/9/9/9/9/9/4K4 b P 1";
    expect_move_error(mate, "P*5b", NNUE_E_ILLEGAL, "'P*5b': a pawn drop may not give mate (uchifuzume)");
    nnue_shogi_pos pos;
    shogi_parse_ok(&pos, mate);
    nnue_move m;
    ck_assert_int_eq(nnue_shogi_parse_usi(&pos, "5c5b", &m, NULL), NNUE_OK);  /* a gold may mate */
    /* with an escape square (4a free) the pawn check is legal */
    shogi_parse_ok(&pos, "3lk4/9/4G4/9/9/9/9/9/4K4 b P 1");
    ck_assert_int_eq(nnue_shogi_parse_usi(&pos, "P*5b", &m, NULL), NNUE_OK);
    nnue_shogi_make(&pos, m, NULL);
    ck_assert_int_eq(nnue_shogi_in_check(&pos), 1);
    /* a dropped lance may mate */
    shogi_parse_ok(&pos, "3lkl3/9/4G4/9/9/9/9/9/4K4 b L 1");
    ck_assert_int_eq(nnue_shogi_parse_usi(&pos, "L*5b", &m, NULL), NNUE_OK);
}
END_TEST

START_TEST(usi_dead_end_drop)
{
    const char *s = "4k4/9/9/9/9/9/9/9/4K4 b PLN 1";
    expect_move_error(s, "P*1a", NNUE_E_ILLEGAL, "'P*1a': a pawn dropped on 1a could never move");
    expect_move_error(s, "L*9a", NNUE_E_ILLEGAL, "a lance dropped on 9a could never move");
    expect_move_error(s, "N*2b", NNUE_E_ILLEGAL, "a knight dropped on 2b could never move");
    expect_move_error("4k4/9/9/9/9/9/9/9/4K4 w pln 1", "N*2h", NNUE_E_ILLEGAL,
                      "a knight dropped on 2h could never move");
    expect_move_error(s, "P*5i", NNUE_E_ILLEGAL, "5i is occupied");
}
END_TEST

START_TEST(usi_forced_promotion)
{
    const char *s = "k8/4P4/6N2/9/9/9/9/9/4K4 b - 1";
    expect_move_error(s, "5b5a", NNUE_E_ILLEGAL, "'5b5a': the pawn must promote on 5a");
    expect_move_error(s, "3c4a", NNUE_E_ILLEGAL, "the knight must promote on 4a");
    nnue_shogi_pos pos;
    shogi_parse_ok(&pos, s);
    nnue_move m;
    ck_assert_int_eq(nnue_shogi_parse_usi(&pos, "5b5a+", &m, NULL), NNUE_OK);
    nnue_move moves[NNUE_MAX_MOVES];
    int n = nnue_shogi_legal_moves(&pos, moves), promos = 0;
    for (int i = 0; i < n; i++)
        promos += NNUE_SHOGI_MOVE_IS_PROMOTE(moves[i]);
    /* pawn 5a+ only; knight 4a+ 2a+ only; king 5 squares */
    ck_assert_int_eq(promos, 3);
    ck_assert_int_eq(n, 3 + 5);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("shogi_sfen");
    TCase *tc = tcase_create("sfen");
    tcase_add_test(tc, start_position_round_trip);
    tcase_add_test(tc, hands_any_order_and_defaults);
    tcase_add_test(tc, corpus_round_trip);
    tcase_add_test(tc, bad_piece_letter);
    tcase_add_test(tc, bad_rank_length);
    tcase_add_test(tc, bad_rank_count);
    tcase_add_test(tc, impossible_piece_counts);
    tcase_add_test(tc, kings);
    tcase_add_test(tc, side_to_move);
    tcase_add_test(tc, move_number);
    tcase_add_test(tc, promotion_marks);
    tcase_add_test(tc, dead_squares);
    tcase_add_test(tc, nifu_on_board);
    suite_add_tcase(s, tc);
    TCase *tu = tcase_create("usi");
    tcase_add_test(tu, usi_round_trip);
    tcase_add_test(tu, usi_malformed);
    tcase_add_test(tu, usi_illegal);
    tcase_add_test(tu, usi_nifu);
    tcase_add_test(tu, usi_uchifuzume);
    tcase_add_test(tu, usi_dead_end_drop);
    tcase_add_test(tu, usi_forced_promotion);
    suite_add_tcase(s, tu);
    return test_run(s);
}
