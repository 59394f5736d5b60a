/* tests/shogi/shogi_helpers.h: data-file iteration and board checks shared by
 * the shogi test programs. */
#ifndef NNUE_TESTS_SHOGI_HELPERS_H
#define NNUE_TESTS_SHOGI_HELPERS_H

#include <check.h>
#include <string.h>

#include "nnue_shogi.h"

/* Cheap assertions for hot loops: Check's ck_assert_* records every passing
 * check (an I/O call in fork mode), which dominates loops over 100k moves. */
#define SH_REQUIRE(cond)                                                            \
    do {                                                                            \
        if (!(cond))                                                                \
            ck_abort_msg("%s:%d: assertion failed: %s", __FILE__, __LINE__, #cond); \
    } while (0)
#define SH_REQUIRE_INT(a, b)                                                              \
    do {                                                                                  \
        long long a_ = (long long)(a), b_ = (long long)(b);                               \
        if (a_ != b_)                                                                     \
            ck_abort_msg("%s:%d: %s == %s failed: %lld != %lld", __FILE__, __LINE__, #a, #b, \
                         a_, b_);                                                         \
    } while (0)
#define SH_REQUIRE_STR(a, b)                                                                 \
    do {                                                                                     \
        const char *a_ = (a), *b_ = (b);                                                     \
        if (strcmp(a_, b_) != 0)                                                             \
            ck_abort_msg("%s:%d: %s == %s failed: '%s' != '%s'", __FILE__, __LINE__, #a, #b, \
                         a_, b_);                                                            \
    } while (0)

/* Data lines of a shared file (no '#' headers, no empty lines). The buffer
 * owns the lines; free with shogi_free_lines. Fails the test if unreadable. */
typedef struct shogi_lines {
    char *buf;
    char **line;
    int count;
} shogi_lines;

shogi_lines shogi_read_lines(const char *relative);
void shogi_free_lines(shogi_lines *lines);

/* Parses an SFEN that must be valid; fails the test with the error otherwise. */
void shogi_parse_ok(nnue_shogi_pos *pos, const char *sfen);

/* The position's SFEN in a static buffer rotated over 4 calls. */
const char *shogi_sfen(const nnue_shogi_pos *pos);

/* Fails the test unless the nnue_board agrees with itself (piece count, king squares). */
void shogi_check_board(const nnue_board *b);

/* Applies delta to a copy of before, checking each entry's old state on the way;
 * fails the test unless the result equals after (piece_on and hands). */
void shogi_check_delta(const nnue_board *before, const nnue_delta *delta, const nnue_board *after);

/* SFEN spelling of a piece code ("P", "+r"), static buffer. */
const char *shogi_piece_text(unsigned piece);

#endif
