/* base/line_read.c: see base/line_read.h. Byte by byte through getc_unlocked (the stream's own
 * buffer does the I/O), so nothing past the bound is ever stored. */
#include "base/line_read.h"

#include <stdlib.h>

/* Room for at least need bytes, doubling from 256, capped at limit. 0 or -1 (out of memory). */
static int grow(char **buf, size_t *cap, size_t need, size_t limit)
{
    if (*cap >= need)
        return 0;
    size_t size = *cap ? *cap : 256;
    while (size < need)
        size *= 2;
    if (size > limit)
        size = limit;
    char *p = realloc(*buf, size);
    if (!p)
        return -1;
    *buf = p;
    *cap = size;
    return 0;
}

line_read_status line_read(FILE *f, char **buf, size_t *cap, size_t max, size_t *len)
{
    size_t n = 0;
    int c, any = 0;
    *len = 0;
    if (grow(buf, cap, 1, max + 1) != 0)
        return LINE_READ_NOMEM;
    (*buf)[0] = 0;
    while ((c = getc_unlocked(f)) != EOF) {
        any = 1;
        if (c == '\n')
            break;
        if (n == max) /* one byte too many */
            return LINE_READ_TOO_LONG;
        if (n + 2 > *cap && grow(buf, cap, n + 2, max + 1) != 0)
            return LINE_READ_NOMEM;
        (*buf)[n++] = (char)c;
    }
    if (!any)
        return LINE_READ_END;
    while (n > 0 && (*buf)[n - 1] == '\r')
        n--;
    (*buf)[n] = 0;
    *len = n;
    return LINE_READ_OK;
}

void line_skip_rest(FILE *f)
{
    int c;
    while ((c = getc_unlocked(f)) != EOF && c != '\n')
        ;
}
