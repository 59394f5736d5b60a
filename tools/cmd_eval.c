/* tools/cmd_eval.c: `nnue eval --net NET [--arch A.yaml] (--fen POS | --file FILE) [--json]
 * [--threads N]`: bucket, psqt, positional, total (and scaled) per position, side to move's view.
 * Positions are evaluated in parallel with OpenMP, each thread with its own state; output keeps
 * the input order. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/state.h"
#include "tools/commands.h"
#include "tools/json_out.h"
#include "tools/net_setup.h"
#include "tools/positions.h"

static int usage(void)
{
    fprintf(stderr, "usage: nnue eval --net NET [--arch A.yaml] (--fen POSITION | --file FILE) [--json] "
                    "[--threads N]\n");
    return 2;
}

int cmd_eval(int argc, char **argv)
{
    const char *net_path = NULL, *arch_path = NULL, *fen = NULL, *file = NULL;
    int json = 0, threads = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--json") == 0)
            json = 1;
        else if (i + 1 < argc && strcmp(a, "--net") == 0)
            net_path = argv[++i];
        else if (i + 1 < argc && strcmp(a, "--arch") == 0)
            arch_path = argv[++i];
        else if (i + 1 < argc && strcmp(a, "--fen") == 0)
            fen = argv[++i];
        else if (i + 1 < argc && strcmp(a, "--file") == 0)
            file = argv[++i];
        else if (i + 1 < argc && strcmp(a, "--threads") == 0)
            threads = atoi(argv[++i]);
        else {
            fprintf(stderr, "nnue eval: unexpected argument '%s'\n", a);
            return usage();
        }
    }
    if (!net_path || (!fen == !file))
        return usage();
    nnue_net *net;
    if (tool_load_net("eval", net_path, arch_path, &net) != 0)
        return 1;
    const nnue_game *game = nnue_game_find(net->arch->game);
    position_list list;
    int rc = fen ? positions_from_text(&list, game, fen, "eval") : positions_from_file(&list, game, file, "eval");
    if (rc != 0) {
        positions_free(&list);
        nnue_net_free(net);
        return 1;
    }
    nnue_eval_detail *results = calloc((size_t)list.count + 1, sizeof *results);
    int failed = 0;
    if (threads > 0)
        omp_set_num_threads(threads);
#pragma omp parallel reduction(| : failed)
    {
        nnue_state *state = nnue_state_new(net, 0);
        if (!state)
            failed = 1;
#pragma omp for schedule(static)
        for (int i = 0; i < list.count; i++) {
            if (!state)
                continue;
            const nnue_board *board = game->board(position_at(&list, i));
            nnue_state_reset(state, board);
            nnue_evaluate(state, board, &results[i]);
        }
        nnue_state_free(state);
    }
    if (failed) {
        fprintf(stderr, "nnue eval: out of memory for the evaluation state\n");
        rc = 1;
    } else if (json) {
        printf("[");
        for (int i = 0; i < list.count; i++) {
            const nnue_eval_detail *d = &results[i];
            printf("%s\n  {", i ? "," : "");
            json_key_string("position", list.texts[i], 1);
            printf(", \"bucket\": %d, \"psqt\": %d, \"positional\": %d, \"total\": %d, \"scaled\": %d}", d->bucket,
                   d->psqt, d->positional, d->total, d->scaled);
        }
        printf("\n]\n");
    } else {
        printf("%s\tbucket\tpsqt\tpositional\ttotal\tscaled\n", strcmp(game->name, "shogi") == 0 ? "sfen" : "fen");
        for (int i = 0; i < list.count; i++) {
            const nnue_eval_detail *d = &results[i];
            printf("%s\t%d\t%d\t%d\t%d\t%d\n", list.texts[i], d->bucket, d->psqt, d->positional, d->total, d->scaled);
        }
    }
    free(results);
    positions_free(&list);
    nnue_net_free(net);
    return rc;
}
