/* tools/tool_error.c: see tool_error.h. */
#include "tools/tool_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tool_print_error(const char *cmd, const nnue_error *err)
{
    char msg[1200];
    nnue_error_format(err, msg, sizeof msg);
    fprintf(stderr, "nnue %s: %s\n", cmd, msg);
}

static nnue_status fill(nnue_error *err, nnue_status code, const char *file, int line, int column, const char *fmt,
                        va_list ap)
{
    if (!err)
        return code;
    memset(err, 0, sizeof *err);
    err->offset = -1;
    err->code = code;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    err->column = column;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    return code;
}

nnue_status tool_fail(nnue_error *err, nnue_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fill(err, code, NULL, 0, 0, fmt, ap);
    va_end(ap);
    return code;
}

nnue_status tool_fail_at(nnue_error *err, nnue_status code, const char *file, int line, int column, const char *fmt,
                         ...)
{
    va_list ap;
    va_start(ap, fmt);
    fill(err, code, file, line, column, fmt, ap);
    va_end(ap);
    return code;
}
