/* tools/tool_error.c: see tool_error.h. */
#include "tools/tool_error.h"

#include <stdio.h>

void tool_print_error(const char *cmd, const nnue_error *err)
{
    char msg[1200];
    nnue_error_format(err, msg, sizeof msg);
    fprintf(stderr, "nnue %s: %s\n", cmd, msg);
}
