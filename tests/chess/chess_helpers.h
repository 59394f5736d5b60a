/* tests/chess/chess_helpers.h: helpers shared by the chess test programs. */
#ifndef NNUE_TESTS_CHESS_HELPERS_H
#define NNUE_TESTS_CHESS_HELPERS_H

#include "nnue_chess.h"

/* Lines of a text file (NUL-terminated in place, trailing CR/LF removed).
 * lines_free releases both arrays. Fails the current test if unreadable. */
typedef struct test_lines {
    char *text;
    char **line;
    int count;
} test_lines;

void lines_read(test_lines *out, const char *path);
void lines_free(test_lines *lines);

/* Parses a FEN that must be valid (fails the test with the error otherwise). */
void parse_ok(nnue_chess_pos *pos, const char *fen);

/* Asserts that two positions are the same chess position with the same board
 * view, rights, en passant, clocks and ply (the undo ring is not compared);
 * `what` names the situation in failure messages. */
void assert_same_position(const nnue_chess_pos *a, const nnue_chess_pos *b, const char *what);

/* Asserts that `delta` turns before->board into after->board: entries match
 * the old squares, applying them gives the new piece_on, king_moved matches
 * the king squares, piece_count drops by the number of captures. */
void assert_delta_consistent(const nnue_chess_pos *before, const nnue_chess_pos *after,
                             const nnue_delta *delta, const char *what);

/* The movesA.tsv flags of a move ("castle", "ep,capture", "promo,check", "quiet" ...)
 * as derived from the move, its delta and the position after it. */
void move_flags(nnue_move move, const nnue_delta *delta, const nnue_chess_pos *after,
                char *buf, size_t size);

#endif
