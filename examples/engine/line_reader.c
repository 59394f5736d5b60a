/* examples/engine/line_reader.c: the engines' input lines, read with a fixed buffer. A line
 * longer than the limit is consumed up to its newline and refused whole: reading it in pieces
 * would run its tail as a command, and growing the buffer would let one line take any amount of
 * memory. */
#include <stdio.h>

#include "engine.h"

long engine_read_line(FILE *in, char *line, size_t limit)
{
    size_t n = 0;
    int c;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n == limit) { /* one character past the limit: drop the rest of the line */
            while ((c = getc(in)) != EOF && c != '\n') {
            }
            line[0] = 0;
            return ENGINE_LINE_TOO_LONG;
        }
        line[n++] = (char)c;
    }
    line[n] = 0;
    return c == EOF && n == 0 ? ENGINE_LINE_END : (long)n;
}
