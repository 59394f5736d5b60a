/* tools/cmd_bench.c: `nnue bench --net NET [--arch A.yaml] --file POSITIONS [--iter N]
 * [--mode incremental|refresh|moves|all] [--cache on|off]`: the benchmark workload of shared/oracle/chess/BENCH.md
 * and shared/oracle/shogi/BENCH.md. Per position: evaluate it from scratch, then every legal
 * child (make, evaluate, unmake). incremental: children update from the parent's accumulators;
 * refresh: every child is computed from scratch; moves: make + unmake only. One thread.
 * The refresh cache (include/nnue.h) is off, as in the library's default; `--cache on` turns
 * it on in incremental mode only (BENCH.md's refresh mode forbids reusing accumulators of
 * earlier positions). Each line says which (cache=on|off).
 * Prints one line per mode: workload, isa, evals, ns/eval, evals/s and two checksums (sum of
 * totals, sum of raw network outputs). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/state.h"
#include "tools/commands.h"
#include "tools/net_setup.h"
#include "tools/positions.h"

typedef enum { MODE_INCREMENTAL, MODE_REFRESH, MODE_MOVES } bench_mode;
static const char *const mode_names[] = {"incremental", "refresh", "moves"};

typedef struct move_list {
    int count;
    nnue_move *moves;
} move_list;

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void run_mode(bench_mode mode, const position_list *list, const move_list *moves, nnue_state *state, int iters,
                     int cache_allowed, const char *workload)
{
    const nnue_game *game = list->game;
    int64_t sum_total = 0, sum_raw = 0, evals = 0, made = 0;
    nnue_eval_detail d;
    int cache = mode == MODE_INCREMENTAL && cache_allowed;
    nnue_state_set_refresh_cache(state, cache);
    double t0 = now_seconds();
    for (int it = 0; it < iters; it++) {
        for (int i = 0; i < list->count; i++) {
            void *pos = position_at(list, i);
            if (mode != MODE_MOVES) {
                nnue_state_reset(state, game->board(pos));
                nnue_evaluate(state, game->board(pos), &d);
                sum_total += d.total;
                sum_raw += d.positional;
                evals++;
            }
            for (int m = 0; m < moves[i].count; m++) {
                nnue_move move = moves[i].moves[m];
                nnue_delta delta;
                game->make(pos, move, &delta);
                made++;
                if (mode == MODE_INCREMENTAL) {
                    nnue_state_push(state, game->board(pos), &delta);
                    nnue_evaluate(state, game->board(pos), &d);
                    nnue_state_pop(state);
                } else if (mode == MODE_REFRESH) {
                    /* BENCH.md: the root's accumulators are marked not computed too, so the
                     * child is computed from scratch. */
                    nnue_state_invalidate(state);
                    nnue_state_push(state, game->board(pos), &delta);
                    nnue_evaluate(state, game->board(pos), &d);
                    nnue_state_pop(state);
                }
                if (mode != MODE_MOVES) {
                    sum_total += d.total;
                    sum_raw += d.positional;
                    evals++;
                }
                game->unmake(pos, move);
            }
        }
    }
    double secs = now_seconds() - t0;
    if (mode == MODE_MOVES)
        printf("bench workload=%s mode=moves iters=%d moves=%" PRId64 " ns/move=%.1f seconds=%.3f\n", workload, iters,
               made, secs * 1e9 / (double)(made ? made : 1), secs);
    else
        printf("bench workload=%s mode=%s isa=%s cache=%s iters=%d evals=%" PRId64 " ns/eval=%.1f evals/s=%.0f "
               "checksum_total=%" PRId64 " checksum_raw=%" PRId64 " seconds=%.3f\n",
               workload, mode_names[mode], nnue_isa_name(), cache ? "on" : "off", iters, evals, secs * 1e9 / (double)evals,
               (double)evals / secs, sum_total, sum_raw, secs);
    fflush(stdout);
}

int cmd_bench(int argc, char **argv)
{
    const char *net_path = NULL, *arch_path = NULL, *file = NULL, *mode = "all";
    int iters = 20, cache = 0;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--net") == 0)
            net_path = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--arch") == 0)
            arch_path = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--file") == 0)
            file = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--iter") == 0)
            iters = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--mode") == 0)
            mode = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--cache") == 0)
            cache = strcmp(argv[++i], "off") != 0;
        else {
            fprintf(stderr, "nnue bench: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    int m_inc = !strcmp(mode, "all") || !strcmp(mode, "incremental");
    int m_ref = !strcmp(mode, "all") || !strcmp(mode, "refresh");
    int m_mov = !strcmp(mode, "all") || !strcmp(mode, "moves");
    if (!net_path || !file || iters < 1 || !(m_inc || m_ref || m_mov)) {
        fprintf(stderr, "usage: nnue bench --net NET [--arch A.yaml] --file POSITIONS [--iter N (20)] "
                        "[--mode incremental|refresh|moves|all] [--cache on|off (incremental mode)]\n");
        return 2;
    }
    nnue_net *net;
    if (tool_load_net("bench", net_path, arch_path, &net) != 0)
        return 1;
    const nnue_game *game = nnue_game_find(net->arch->game);
    position_list list;
    if (positions_from_file(&list, game, file, "bench") != 0) {
        positions_free(&list);
        nnue_net_free(net);
        return 1;
    }
    /* Set-up, not timed: legal moves of every position. */
    move_list *moves = calloc((size_t)list.count, sizeof *moves);
    nnue_move buf[NNUE_MAX_MOVES];
    for (int i = 0; i < list.count; i++) {
        moves[i].count = game->legal_moves(position_at(&list, i), buf);
        moves[i].moves = malloc(sizeof(nnue_move) * (size_t)(moves[i].count ? moves[i].count : 1));
        memcpy(moves[i].moves, buf, sizeof(nnue_move) * (size_t)moves[i].count);
    }
    nnue_state *state = nnue_state_new(net, 4);
    const char *slash = strrchr(file, '/');
    char workload[300];
    snprintf(workload, sizeof workload, "%s:%s", slash ? slash + 1 : file, net->arch->name);
    if (m_inc)
        run_mode(MODE_INCREMENTAL, &list, moves, state, iters, cache, workload);
    if (m_ref)
        run_mode(MODE_REFRESH, &list, moves, state, iters, 0, workload);
    if (m_mov)
        run_mode(MODE_MOVES, &list, moves, state, iters, 0, workload);
    nnue_state_free(state);
    for (int i = 0; i < list.count; i++)
        free(moves[i].moves);
    free(moves);
    positions_free(&list);
    nnue_net_free(net);
    return 0;
}
