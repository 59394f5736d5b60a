/* tools/line_input.c: see line_input.h. Byte by byte through getc_unlocked (the stream's buffer
 * does the I/O), into one buffer of max + 1 bytes: nothing past the bound is stored. */
#include "tools/line_input.h"

#include <stdlib.h>

tool_line_status tool_line_read(FILE *f, char **buf, size_t *cap, size_t max, size_t *len)
{
    *len = 0;
    if (!*buf || *cap < max + 1) {
        char *grown = realloc(*buf, max + 1);
        if (!grown)
            return TOOL_LINE_NOMEM;
        *buf = grown;
        *cap = max + 1;
    }
    size_t n = 0;
    int c = getc_unlocked(f), too_long = 0;
    if (c == EOF)
        return TOOL_LINE_END;
    for (; c != EOF && c != '\n'; c = getc_unlocked(f)) {
        if (n == max)
            too_long = 1; /* read on to the end of the line, keeping nothing */
        else
            (*buf)[n++] = (char)c;
    }
    if (too_long) {
        (*buf)[0] = 0;
        return TOOL_LINE_TOO_LONG;
    }
    while (n > 0 && (*buf)[n - 1] == '\r')
        n--;
    (*buf)[n] = 0;
    *len = n;
    return TOOL_LINE_OK;
}
