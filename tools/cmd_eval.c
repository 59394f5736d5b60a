/* tools/cmd_eval.c: `nnue eval --net NET [--arch A.yaml] (--fen POS | --file FILE [--format F])
 * [--json] [--threads N] [--quiet]`: bucket, psqt, positional, total (and scaled) per position, side to
 * move's view, and centipawns where the net's engine conversion is checked (docs/units.md). One position here; files of any length in tools/eval_batch.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/commands.h"
#include "tools/eval_batch.h"
#include "tools/json_out.h"
#include "tools/net_setup.h"
#include "tools/positions.h"
#include "tools/tool_args.h"

static int usage(void)
{
    fprintf(stderr, "usage: nnue eval --net NET [--arch A.yaml] (--fen POSITION | --file FILE "
                    "[--format plain|binpack|bullet]) [--json] [--threads N] [--quiet]\n");
    return 2;
}

static int eval_one(const nnue_net *net, const nnue_game *game, const char *text, int json, int quiet)
{
    position_list list;
    if (positions_from_text(&list, game, text, "eval") != 0) {
        positions_free(&list);
        return 1;
    }
    nnue_state *state = nnue_state_new(net, 0);
    if (!state) {
        fprintf(stderr, "nnue eval: out of memory for the evaluation state\n");
        positions_free(&list);
        return 1;
    }
    const nnue_board *board = game->board(position_at(&list, 0));
    nnue_eval_detail d;
    nnue_state_reset(state, board);
    nnue_evaluate(state, board, &d);
    char cp[16];
    eval_print_header(NULL, json, quiet);
    if (json) {
        printf("[\n  {");
        json_key_string("position", list.texts[0], 1);
        printf(", \"bucket\": %d, \"psqt\": %d, \"positional\": %d, \"total\": %d, \"scaled\": %d, \"cp\": %s}\n]\n",
               d.bucket, d.psqt, d.positional, d.total, d.scaled, eval_cp_text(&d, list.texts[0], 1, cp));
    } else {
        printf("%s\t%d\t%d\t%d\t%d\t%d\t%s\n", list.texts[0], d.bucket, d.psqt, d.positional, d.total, d.scaled,
               eval_cp_text(&d, list.texts[0], 0, cp));
    }
    nnue_state_free(state);
    positions_free(&list);
    return 0;
}

int cmd_eval(int argc, char **argv)
{
    const char *net_path = NULL, *arch_path = NULL, *fen = NULL, *file = NULL;
    eval_batch_options opt = {0};
    static const char *const value_options[] = {"--net", "--arch", "--fen", "--file", "--format", "--threads", NULL};
    for (int i = 1; i < argc; i++) {
        /* An option as the value ("--fen --net N"): the value is missing. */
        const char *a = argv[i], *v = i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0 ? argv[i + 1] : NULL;
        if (strcmp(a, "--json") == 0)
            opt.json = 1;
        else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            opt.quiet = 1;
            tool_quiet = 1; /* no overflow note either */
        } else if (v && strcmp(a, "--net") == 0)
            net_path = argv[++i];
        else if (v && strcmp(a, "--arch") == 0)
            arch_path = argv[++i];
        else if (v && strcmp(a, "--fen") == 0)
            fen = argv[++i];
        else if (v && strcmp(a, "--file") == 0)
            file = argv[++i];
        else if (v && strcmp(a, "--format") == 0)
            opt.format = argv[++i];
        else if (v && strcmp(a, "--threads") == 0) {
            if (tool_parse_int("eval", a, argv[++i], 1, 1024, &opt.threads) != 0)
                return 2;
        } else {
            tool_bad_argument("eval", a, value_options);
            return usage();
        }
    }
    const char *wrong = !net_path ? "--net NET is required"
                        : !fen == !file ? (fen ? "give --fen or --file, not both" : "--fen POSITION or --file FILE is required")
                        : fen && opt.format ? "--format applies to --file only"
                                            : NULL;
    if (wrong) {
        fprintf(stderr, "nnue eval: %s\n", wrong);
        return usage();
    }
    nnue_net *net;
    if (tool_load_net("eval", net_path, arch_path, &net) != 0)
        return 1;
    tool_cp_setup(net, net_path);
    const nnue_game *game = nnue_arch_game(nnue_net_arch(net));
    int rc = fen ? eval_one(net, game, fen, opt.json, opt.quiet) : eval_batch(net, game, file, &opt);
    nnue_net_free(net);
    return rc;
}
