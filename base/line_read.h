/* base/line_read.h: reading text lines with memory bounded while reading (training/text.c,
 * tools/eval_batch.c, tools/positions.c). getline() grows its buffer to the whole line before
 * the caller can refuse it: a 200 MB line, or /dev/zero, cost that much memory or more. */
#ifndef NNUE_BASE_LINE_READ_H
#define NNUE_BASE_LINE_READ_H

#include <stddef.h>
#include <stdio.h>

typedef enum line_read_status {
    LINE_READ_OK = 1,        /* *len bytes in *buf (NUL bytes possible), newline and CR stripped */
    LINE_READ_END = 0,       /* end of file (or a read error: check ferror) before any byte */
    LINE_READ_TOO_LONG = -1, /* more than max bytes: max + 1 of them were read and dropped */
    LINE_READ_NOMEM = -2,    /* the buffer could not grow */
} line_read_status;

/* The next line of f into *buf (grown as needed, never past max + 1 bytes; *cap its size;
 * NUL-terminated). A last line without a newline counts. After LINE_READ_TOO_LONG the stream
 * stands inside that line: a reader that stops there is done at once (a stream without newlines,
 * like /dev/zero, is refused after max bytes); one that goes on calls line_skip_rest first. */
line_read_status line_read(FILE *f, char **buf, size_t *cap, size_t max, size_t *len);
/* Reads and drops the rest of the current line, through its newline. */
void line_skip_rest(FILE *f);

#endif
