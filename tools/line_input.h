/* tools/line_input.h: the lines of a position list (`eval --file`, positions for `bench`), with
 * memory bounded while reading: a 200 MB line, or /dev/zero, is refused after max bytes instead of
 * being held whole (getline would). The tool's own reader: it uses the public API only. */
#ifndef NNUE_TOOLS_LINE_INPUT_H
#define NNUE_TOOLS_LINE_INPUT_H

#include <stddef.h>
#include <stdio.h>

typedef enum tool_line_status {
    TOOL_LINE_OK = 1,        /* *len bytes in *buf (NUL bytes possible), newline and CRs stripped */
    TOOL_LINE_END = 0,       /* end of file (or a read error: check ferror) before any byte */
    TOOL_LINE_TOO_LONG = -1, /* more than max bytes: the line was read to its end and dropped */
    TOOL_LINE_NOMEM = -2,    /* no buffer */
} tool_line_status;

/* The next line of f into *buf (allocated on first use with max + 1 bytes, *cap its size; the
 * caller frees; NUL-terminated). A last line without a newline counts. */
tool_line_status tool_line_read(FILE *f, char **buf, size_t *cap, size_t max, size_t *len);

#endif
