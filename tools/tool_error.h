/* tools/tool_error.h: how every command of the tool reports a library error: one line on stderr,
 * "nnue CMD: " and the formatted error (file, line/column or byte offset, what was expected). */
#ifndef NNUE_TOOLS_TOOL_ERROR_H
#define NNUE_TOOLS_TOOL_ERROR_H

#include "nnue_error.h"

/* Prints "nnue CMD: <formatted error>" to stderr. */
void tool_print_error(const char *cmd, const nnue_error *err);

/* Fill *err (NULL: nothing) as the library does: code and message, without a location
 * (tool_fail) or at a text position, file and 1-based line and column (tool_fail_at). Return
 * code. The tool's own errors (its line reader, `convert`) in the library's form. */
nnue_status tool_fail(nnue_error *err, nnue_status code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
nnue_status tool_fail_at(nnue_error *err, nnue_status code, const char *file, int line, int column, const char *fmt,
                         ...) __attribute__((format(printf, 6, 7)));

#endif
