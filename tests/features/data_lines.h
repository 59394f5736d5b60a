/* tests/features/data_lines.h: iterate the lines of a reference TSV/text file (tests only). */
#ifndef NNUE_TESTS_DATA_LINES_H
#define NNUE_TESTS_DATA_LINES_H

#include <stdlib.h>
#include <string.h>

#include "support.h"

/* Loads shared/<relative> (exit 77 when absent) and splits it into lines in place.
 * Returns the number of non-empty lines not starting with '#'; *buf must be freed. */
static inline int data_lines(const char *relative, char **buf, char ***lines)
{
    test_require_shared(relative);
    size_t size = 0;
    *buf = test_read_file(test_shared_path(relative), &size);
    ck_assert_msg(*buf != NULL, "cannot read %s", relative);
    int cap = 1024, n = 0;
    *lines = malloc((size_t)cap * sizeof **lines);
    for (char *p = *buf; *p;) {
        char *end = strchr(p, '\n');
        if (end)
            *end = 0;
        size_t len = strlen(p);
        if (len && p[len - 1] == '\r')
            p[--len] = 0;
        if (len && p[0] != '#') {
            if (n == cap)
                *lines = realloc(*lines, (size_t)(cap *= 2) * sizeof **lines);
            (*lines)[n++] = p;
        }
        if (!end)
            break;
        p = end + 1;
    }
    return n;
}

#endif
