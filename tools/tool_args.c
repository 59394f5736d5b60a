/* tools/tool_args.c: see tool_args.h. */
#include "tools/tool_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tool_bad_argument(const char *cmd, const char *arg, const char *const *value_options)
{
    for (const char *const *o = value_options; o && *o; o++)
        if (strcmp(arg, *o) == 0) {
            fprintf(stderr, "nnue %s: option '%s' needs a value (nnue %s --help)\n", cmd, arg, cmd);
            return 2;
        }
    fprintf(stderr, "nnue %s: unexpected argument '%s' (nnue %s --help)\n", cmd, arg, cmd);
    return 2;
}

int tool_parse_int(const char *cmd, const char *option, const char *text, long min, long max, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    /* ERANGE: past what a long holds, so past max too. */
    if (end == text || *end || errno == ERANGE || v < min || v > max) {
        fprintf(stderr, "nnue %s: %s expects a whole number from %ld to %ld, found '%s'%s\n", cmd, option, min, max,
                text, end != text && !*end && (errno == ERANGE || v > max) ? " (too large)"
                      : end != text && !*end && v < min                   ? " (too small)"
                                                                          : "");
        return 2;
    }
    *out = (int)v;
    return 0;
}
