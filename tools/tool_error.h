/* tools/tool_error.h: how every command of the tool reports a library error: one line on stderr,
 * "nnue CMD: " and the formatted error (file, line/column or byte offset, what was expected). */
#ifndef NNUE_TOOLS_TOOL_ERROR_H
#define NNUE_TOOLS_TOOL_ERROR_H

#include "nnue_error.h"

/* Prints "nnue CMD: <formatted error>" to stderr. */
void tool_print_error(const char *cmd, const nnue_error *err);

#endif
