/* tools/commands.h: the `nnue` subcommands. Adding one: a cmd_<name>.c file
 * and one line in the table in tools/nnue.c. Each returns the process exit
 * code: 0 success, 1 failure of the work, 2 bad usage. */
#ifndef NNUE_TOOLS_COMMANDS_H
#define NNUE_TOOLS_COMMANDS_H

typedef int (*nnue_command_fn)(int argc, char **argv);

typedef struct nnue_command {
    const char *name;
    const char *usage;     /* one line: arguments */
    const char *summary;   /* one line: what it does */
    const char *options;   /* lines of "  --option  meaning" for `nnue CMD --help` */
    nnue_command_fn run;
    int loads_net;         /* takes --strict (tools/net_setup.h) */
} nnue_command;

int cmd_arch(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_init(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_rescore(int argc, char **argv);

#endif
