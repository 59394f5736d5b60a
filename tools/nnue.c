/* tools/nnue.c: entry point of the `nnue` command-line tool; dispatches to subcommands. */
#include <stdio.h>
#include <string.h>

#include "tools/commands.h"

static const nnue_command commands[] = {
    {"arch", "[--json | --dot] FILE.yaml...",
     "description string, hashes, parameter count and file size of architectures", cmd_arch},
    {"info", "[--json] NET", "header, hashes and matching architectures of a net file", cmd_info},
    {"eval", "--net NET [--arch A.yaml] (--fen POSITION | --file FILE) [--json] [--threads N]",
     "evaluate positions: bucket, psqt, positional, total, scaled (side to move's view)", cmd_eval},
    {"bench", "--net NET [--arch A.yaml] --file POSITIONS [--iter N] [--mode incremental|refresh|moves|all]",
     "the BENCH.md workload: ns/eval and evals/s per mode, with checksums", cmd_bench},
    {"init", "[--seed N] ARCH.yaml OUT", "write a net with deterministic random weights for an architecture", cmd_init},
    {"perft", "[--game chess|shogi] [--divide] POSITION DEPTH",
     "count leaf nodes of the legal move tree (game guessed from the position)", cmd_perft},
    {NULL, NULL, NULL, NULL},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: nnue COMMAND [ARGS]\n\ncommands:\n");
    for (const nnue_command *c = commands; c->name; c++)
        fprintf(out, "  %-6s %s\n         %s\n", c->name, c->usage, c->summary);
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (const nnue_command *c = commands; c->name; c++)
        if (strcmp(c->name, argv[1]) == 0)
            return c->run(argc - 1, argv + 1);
    fprintf(stderr, "nnue: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
