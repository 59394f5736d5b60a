/* tests/chess/test_chess_moves.c: make/unmake against the reference
 * (shared/oracle/chess/movesA.tsv: FEN after each move and its flags), exact
 * restoration and delta consistency for every legal move of corpus A, FEN
 * round trips, and long random games undone move by move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess_helpers.h"
#include "support.h"

static nnue_chess_pos pos, saved, fresh;

START_TEST(moves_a_match_reference)
{
    test_require_shared("oracle/chess/movesA.tsv");
    test_lines lines;
    lines_read(&lines, test_shared_path("oracle/chess/movesA.tsv"));
    ck_assert_str_eq(lines.line[0], "fen\tmove\tfen_after\tflags");
    int rows = 0;
    for (int i = 1; i < lines.count; i++) {
        char *f[5], what[512], fen[128], flags[64], uci[8];
        ck_assert_int_eq(test_split_tabs(lines.line[i], f, 5), 4);
        snprintf(what, sizeof what, "%s + %s", f[0], f[1]);
        parse_ok(&pos, f[0]);
        nnue_move move;
        nnue_error err;
        ck_assert_msg(nnue_chess_parse_uci(&pos, f[1], &move, &err) == NNUE_OK, "%s: %s", what,
                      err.message);
        nnue_chess_move_to_uci(move, uci, sizeof uci);
        ck_assert_str_eq(uci, f[1]);
        saved = pos;
        nnue_delta delta;
        memset(&delta, 0xAB, sizeof delta);
        nnue_chess_make(&pos, move, &delta);
        nnue_chess_to_fen(&pos, fen, sizeof fen);
        ck_assert_msg(strcmp(fen, f[2]) == 0, "%s: got '%s', expected '%s'", what, fen, f[2]);
        move_flags(move, &delta, &pos, flags, sizeof flags);
        ck_assert_msg(strcmp(flags, f[3]) == 0, "%s: flags '%s', expected '%s'", what, flags,
                      f[3]);
        assert_delta_consistent(&saved, &pos, &delta, what);
        parse_ok(&fresh, f[2]);
        ck_assert_msg(memcmp(&fresh.board, &pos.board, sizeof pos.board) == 0,
                      "%s: board differs from the parsed fen_after", what);
        ck_assert_msg(fresh.ep == pos.ep && fresh.castling == pos.castling,
                      "%s: ep/castling differ from the parsed fen_after", what);
        nnue_chess_unmake(&pos, move);
        assert_same_position(&pos, &saved, what);
        rows++;
    }
    ck_assert_int_eq(rows, 2000);
    lines_free(&lines);
}
END_TEST

START_TEST(corpus_every_move_restores)
{
    test_require_shared("oracle/chess/corpusA.fen");
    test_lines lines;
    lines_read(&lines, test_shared_path("oracle/chess/corpusA.fen"));
    long total = 0;
    for (int i = 0; i < lines.count; i++) {
        parse_ok(&pos, lines.line[i]);
        saved = pos;
        nnue_move moves[NNUE_MAX_MOVES];
        int n = nnue_chess_legal_moves(&pos, moves);
        for (int m = 0; m < n; m++) {
            char what[512], uci[8], fen[128];
            nnue_chess_move_to_uci(moves[m], uci, sizeof uci);
            snprintf(what, sizeof what, "%s + %s", lines.line[i], uci);
            nnue_delta delta;
            nnue_chess_make(&pos, moves[m], &delta);
            assert_delta_consistent(&saved, &pos, &delta, what);
            /* The incrementally made position equals a fresh parse of its FEN. */
            nnue_chess_to_fen(&pos, fen, sizeof fen);
            parse_ok(&fresh, fen);
            fresh.ply = pos.ply;
            assert_same_position(&fresh, &pos, what);
            /* The move string names this move. */
            nnue_move back;
            nnue_error err;
            ck_assert_int_eq(nnue_chess_parse_uci(&saved, uci, &back, &err), NNUE_OK);
            ck_assert_uint_eq(back, moves[m]);
            nnue_chess_unmake(&pos, moves[m]);
            assert_same_position(&pos, &saved, what);
            total++;
        }
    }
    ck_assert_int_gt(total, 50000);
    lines_free(&lines);
}
END_TEST

START_TEST(corpus_fen_round_trip)
{
    test_require_shared("oracle/chess/corpusA.fen");
    test_lines lines;
    lines_read(&lines, test_shared_path("oracle/chess/corpusA.fen"));
    ck_assert_int_eq(lines.count, 2981);
    for (int i = 0; i < lines.count; i++) {
        char fen[128];
        parse_ok(&pos, lines.line[i]);
        size_t len = nnue_chess_to_fen(&pos, fen, sizeof fen);
        ck_assert_str_eq(fen, lines.line[i]);
        ck_assert_uint_eq(len, strlen(lines.line[i]));
    }
    lines_free(&lines);
}
END_TEST

/* Random games from corpus positions, 200 plies deep where possible, undone
 * move by move back to the start: each intermediate position is checked. */
START_TEST(random_games_unwind)
{
    test_require_shared("oracle/chess/corpusA.fen");
    test_lines lines;
    lines_read(&lines, test_shared_path("oracle/chess/corpusA.fen"));
    static nnue_chess_pos history[201];
    static nnue_move played[200];
    unsigned long long rng = 0x9E3779B97F4A7C15ull;
    for (int g = 0; g < 60; g++) {
        parse_ok(&pos, lines.line[(g * 53) % lines.count]);
        int plies = 0;
        while (plies < 200) {
            nnue_move moves[NNUE_MAX_MOVES];
            int n = nnue_chess_legal_moves(&pos, moves);
            if (n == 0)
                break;
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            history[plies] = pos;
            played[plies] = moves[(rng >> 33) % (unsigned)n];
            nnue_delta delta;
            nnue_chess_make(&pos, played[plies], &delta);
            assert_delta_consistent(&history[plies], &pos, &delta, "random game");
            plies++;
        }
        while (plies > 0) {
            plies--;
            nnue_chess_unmake(&pos, played[plies]);
            assert_same_position(&pos, &history[plies], "random game unwind");
        }
    }
    lines_free(&lines);
}
END_TEST

/* Delta layout for each kind of move, on hand-made positions. */
START_TEST(delta_layout)
{
    nnue_move move;
    nnue_delta d;
    nnue_error err;
    parse_ok(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    ck_assert_int_eq(nnue_chess_parse_uci(&pos, "e1c1", &move, &err), NNUE_OK);
    nnue_chess_make(&pos, move, &d);
    ck_assert_int_eq(d.count, 2);
    ck_assert_int_eq(d.king_moved[0], 1);
    ck_assert_int_eq(d.king_moved[1], 0);
    ck_assert_int_eq(d.dirty[0].old_sq, 4);
    ck_assert_int_eq(d.dirty[0].new_sq, 2);
    ck_assert_int_eq(d.dirty[0].old_piece, NNUE_PIECE(0, NNUE_CHESS_KING));
    ck_assert_int_eq(d.dirty[1].old_sq, 0);
    ck_assert_int_eq(d.dirty[1].new_sq, 3);
    ck_assert_int_eq(d.dirty[1].new_piece, NNUE_PIECE(0, NNUE_CHESS_ROOK));

    parse_ok(&pos, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    ck_assert_int_eq(nnue_chess_parse_uci(&pos, "e5d6", &move, &err), NNUE_OK);
    nnue_chess_make(&pos, move, &d);
    ck_assert_int_eq(d.count, 2);
    ck_assert_int_eq(d.dirty[1].old_sq, 35);   /* d5: the victim's own square */
    ck_assert_int_eq(d.dirty[1].new_sq, NNUE_SQ_NONE);
    ck_assert_int_eq(d.dirty[1].old_piece, NNUE_PIECE(1, NNUE_CHESS_PAWN));
    ck_assert_int_eq(d.king_moved[0] | d.king_moved[1], 0);

    parse_ok(&pos, "1r2k3/2P5/8/8/8/8/8/4K3 w - - 0 1");
    ck_assert_int_eq(nnue_chess_parse_uci(&pos, "c7b8n", &move, &err), NNUE_OK);
    nnue_chess_make(&pos, move, &d);
    ck_assert_int_eq(d.count, 2);
    ck_assert_int_eq(d.dirty[0].old_piece, NNUE_PIECE(0, NNUE_CHESS_PAWN));
    ck_assert_int_eq(d.dirty[0].new_piece, NNUE_PIECE(0, NNUE_CHESS_KNIGHT));
    ck_assert_int_eq(d.dirty[1].old_piece, NNUE_PIECE(1, NNUE_CHESS_ROOK));
    ck_assert_int_eq(pos.board.piece_count, 3);
}
END_TEST

/* The en-passant square is written only when a pawn of the side to move can
 * reach it (FORMATS.md section 6), also after a FEN naming an unusable one. */
START_TEST(ep_output_rule)
{
    char fen[128];
    nnue_move move;
    nnue_error err;
    parse_ok(&pos, NNUE_CHESS_START_FEN);
    ck_assert_int_eq(nnue_chess_parse_uci(&pos, "e2e4", &move, &err), NNUE_OK);
    nnue_chess_make(&pos, move, NULL);
    nnue_chess_to_fen(&pos, fen, sizeof fen);
    ck_assert_str_eq(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    parse_ok(&pos, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    nnue_chess_to_fen(&pos, fen, sizeof fen);
    ck_assert_str_eq(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /* Pinned capturer: still written (legality is not checked), but not generated. */
    parse_ok(&pos, "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    nnue_chess_to_fen(&pos, fen, sizeof fen);
    ck_assert_str_eq(fen, "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    ck_assert_int_eq(nnue_chess_parse_uci(&pos, "e5d6", &move, &err), NNUE_E_ILLEGAL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("chess_moves");
    TCase *tc = tcase_create("moves");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, moves_a_match_reference);
    tcase_add_test(tc, corpus_every_move_restores);
    tcase_add_test(tc, corpus_fen_round_trip);
    tcase_add_test(tc, random_games_unwind);
    tcase_add_test(tc, delta_layout);
    tcase_add_test(tc, ep_output_rule);
    suite_add_tcase(s, tc);
    return test_run(s);
}
