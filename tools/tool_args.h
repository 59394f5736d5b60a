/* tools/tool_args.h: the command-line mistakes every command reports the same way: an option
 * given without its value, an unknown argument, a number out of range. Each prints one line
 * "nnue CMD: ..." on stderr and returns 2 (bad usage) so a command can `return` it. */
#ifndef NNUE_TOOLS_TOOL_ARGS_H
#define NNUE_TOOLS_TOOL_ARGS_H

/* "option '--fen' needs a value" when arg is one of value_options (NULL-terminated: the
 * options that take a value, arg being the last argument), else "unexpected argument 'X'". */
int tool_bad_argument(const char *cmd, const char *arg, const char *const *value_options);

/* Reads text as a decimal integer in [min, max] into *out: 0, or 2 after saying what is wrong
 * ("--iter expects a whole number from 1 to 1000000000, found '-5'"). */
int tool_parse_int(const char *cmd, const char *option, const char *text, long min, long max, int *out);

#endif
