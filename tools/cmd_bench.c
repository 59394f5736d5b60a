/* tools/cmd_bench.c: `nnue bench --net NET [--arch A.yaml] --file POSITIONS [--iter N]
 * [--mode incremental|refresh|moves|all|tree|tree-refresh] [--depth N] [--cache on|off]
 * [--clock wall|cpu]`: the
 * benchmark workload of shared/oracle/chess/BENCH.md and shared/oracle/shogi/BENCH.md. Per
 * position: evaluate it from scratch, then every legal child (make, evaluate, unmake).
 * incremental: children update from the parent's accumulators; refresh: every child is
 * computed from scratch; moves: make + unmake only. One thread.
 * tree (not part of `all`): a search-shaped walk: from each position, depth-first to --depth
 * plies (default 2), legal moves generated at each node inside the timed loop, every node
 * pushed, evaluated and popped as a search does (depth 1 is the incremental workload);
 * tree-refresh: the same walk with every node computed from scratch (its checksums are the
 * oracle for tree's). The refresh cache (include/nnue.h) follows the library's default unless
 * `--cache on|off` says otherwise, in incremental and tree mode only (BENCH.md's refresh mode
 * forbids reusing accumulators of earlier positions). Each line says which (cache=on|off).
 * Prints one line per mode: workload, isa, evals, ns/eval, evals/s and two checksums (sum of
 * totals, sum of raw network outputs). Times are wall time by a steady clock (BENCH.md) unless
 * `--clock cpu` asks for the thread's CPU time (lines then say clock=cpu): on a shared, busy
 * machine that figure moves less with the other jobs, for A/B comparisons of two builds.
 * Bad lines of the file are reported and skipped, as in `nnue eval --file`; exit status 1 then.
 * `--threats adapter` (the default): where the net reads threat features
 * (nnue_state_takes_threats) and the game's adapter records a move's threat changes at
 * make time (nnue_game_make_threats_filtered: chess, xiangqi; only the pairs the net can read,
 * nnue_state_threat_filter), every make does and every push hands them in
 * (nnue_state_push_threats), as an engine on the shipped adapter would, in the incremental, moves
 * and tree modes (lines then say threats=adapter; the refresh modes make plainly: a refresh never
 * reads them). `--threats boards`: plain make and push (the sets list them from the boards). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/commands.h"
#include "tools/net_setup.h"
#include "tools/positions.h"
#include "tools/tool_args.h"

typedef enum { MODE_INCREMENTAL, MODE_REFRESH, MODE_MOVES, MODE_TREE, MODE_TREE_REFRESH } bench_mode;
static const char *const mode_names[] = {"incremental", "refresh", "moves", "tree", "tree-refresh"};

typedef struct move_list {
    int count;
    nnue_move *moves;
} move_list;

static clockid_t bench_clock = CLOCK_MONOTONIC;
static int bench_threats = 1; /* --threats adapter */
static const nnue_threat_filter *bench_filter; /* the pairs the net reads (nnue_state_threat_filter) */

/* " threats=adapter" when makes record threat changes for the pushes, else nothing. */
static const char *threats_note(const nnue_game *game)
{
    return bench_threats && nnue_game_records_threats(game) ? " threats=adapter" : "";
}

/* A make for the pushes: with the move's threat changes when the adapter records them, --threats
 * adapter is on and the mode updates incrementally (`record`: a refresh never reads them, so the
 * refresh modes make plainly, as an engine that refreshes would); *with says whether it did. */
static void bench_make(const nnue_game *game, void *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats,
                       int *with, int record)
{
    if (bench_threats && record)
        *with = nnue_game_make_threats_filtered(game, pos, move, delta, threats, bench_filter);
    else {
        game->make(pos, move, delta);
        *with = 0;
    }
}

/* " clock=cpu" at the end of each line when timed by CPU time, else nothing. */
static const char *clock_note(void)
{
    return bench_clock == CLOCK_MONOTONIC ? "" : " clock=cpu";
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(bench_clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct tree_walk {
    const nnue_game *game;
    nnue_state *state;
    nnue_move *moves;      /* [depth][NNUE_MAX_MOVES]: one list per ply */
    int refresh;           /* tree-refresh: every node from scratch */
    int64_t sum_total, sum_raw, evals;
    nnue_threats threats;  /* scratch of one make (pushes copy it) */
} tree_walk;

static void tree_eval(tree_walk *w, void *pos)
{
    nnue_eval_detail d;
    if (w->refresh)
        nnue_state_invalidate(w->state);
    nnue_evaluate(w->state, w->game->board(pos), &d);
    w->sum_total += d.total;
    w->sum_raw += d.positional;
    w->evals++;
}

/* Evaluates the node, then walks every child to `depth` more plies (push, recurse, pop). */
static void tree_node(tree_walk *w, void *pos, int depth, int ply)
{
    tree_eval(w, pos);
    if (depth == 0)
        return;
    nnue_move *moves = w->moves + (size_t)ply * NNUE_MAX_MOVES;
    int n = w->game->legal_moves(pos, moves);
    for (int m = 0; m < n; m++) {
        nnue_delta delta;
        int with;
        bench_make(w->game, pos, moves[m], &delta, &w->threats, &with, !w->refresh);
        nnue_state_push_threats(w->state, w->game->board(pos), &delta, with ? &w->threats : NULL);
        tree_node(w, pos, depth - 1, ply + 1);
        nnue_state_pop(w->state);
        w->game->unmake(pos, moves[m]);
    }
}

static void run_tree(bench_mode mode, const position_list *list, nnue_state *state, int iters, int depth,
                     int cache, const char *workload)
{
    static tree_walk w;
    w = (tree_walk){list->game, state, malloc(sizeof(nnue_move) * NNUE_MAX_MOVES * ((size_t)depth + 1)),
                    mode == MODE_TREE_REFRESH, 0, 0, 0, {0}};
    if (!w.moves) {
        fprintf(stderr, "nnue bench: out of memory\n");
        return;
    }
    cache = cache && mode == MODE_TREE;
    nnue_state_set_refresh_cache(state, cache);
    double t0 = now_seconds();
    for (int it = 0; it < iters; it++)
        for (int i = 0; i < list->count; i++) {
            void *pos = position_at(list, i);
            nnue_state_reset(state, list->game->board(pos));
            tree_node(&w, pos, depth, 0);
        }
    double secs = now_seconds() - t0;
    printf("bench workload=%s mode=%s depth=%d isa=%s cache=%s iters=%d evals=%" PRId64 " ns/eval=%.1f evals/s=%.0f "
           "checksum_total=%" PRId64 " checksum_raw=%" PRId64 " seconds=%.3f%s%s\n",
           workload, mode_names[mode], depth, nnue_isa_name(), cache ? "on" : "off", iters, w.evals,
           secs * 1e9 / (double)w.evals, (double)w.evals / secs, w.sum_total, w.sum_raw, secs, clock_note(),
           w.refresh ? "" : threats_note(list->game));
    fflush(stdout);
    free(w.moves);
}

static void run_mode(bench_mode mode, const position_list *list, const move_list *moves, nnue_state *state, int iters,
                     int cache_allowed, const char *workload)
{
    const nnue_game *game = list->game;
    int64_t sum_total = 0, sum_raw = 0, evals = 0, made = 0;
    nnue_eval_detail d;
    static nnue_threats threats; /* scratch of one make (pushes copy it) */
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
                int with;
                bench_make(game, pos, move, &delta, &threats, &with, mode != MODE_REFRESH);
                made++;
                const nnue_threats *given = with ? &threats : NULL;
                if (mode == MODE_INCREMENTAL) {
                    nnue_state_push_threats(state, game->board(pos), &delta, given);
                    nnue_evaluate(state, game->board(pos), &d);
                    nnue_state_pop(state);
                } else if (mode == MODE_REFRESH) {
                    /* BENCH.md: the root's accumulators are marked not computed too, so the
                     * child is computed from scratch. */
                    nnue_state_invalidate(state);
                    nnue_state_push_threats(state, game->board(pos), &delta, given);
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
        printf("bench workload=%s mode=moves iters=%d moves=%" PRId64 " ns/move=%.1f seconds=%.3f%s%s\n", workload, iters,
               made, secs * 1e9 / (double)(made ? made : 1), secs, clock_note(), threats_note(game));
    else
        printf("bench workload=%s mode=%s isa=%s cache=%s iters=%d evals=%" PRId64 " ns/eval=%.1f evals/s=%.0f "
               "checksum_total=%" PRId64 " checksum_raw=%" PRId64 " seconds=%.3f%s%s\n",
               workload, mode_names[mode], nnue_isa_name(), cache ? "on" : "off", iters, evals, secs * 1e9 / (double)evals,
               (double)evals / secs, sum_total, sum_raw, secs, clock_note(), mode == MODE_REFRESH ? "" : threats_note(game));
    fflush(stdout);
}

static const char bench_usage[] =
    "--net NET [--arch A.yaml] --file POSITIONS [--iter N (20)] [--mode incremental|refresh|moves|all|tree|tree-refresh] "
    "[--depth N (tree modes, 0..64, 2)] [--cache on|off (incremental and tree modes; default: the library's)] "
    "[--clock wall|cpu] [--threats adapter|boards]";

int cmd_bench(int argc, char **argv)
{
    const char *net_path = NULL, *arch_path = NULL, *file = NULL, *mode = "all";
    int iters = 20, cache = -1, depth = 2;
    static const char *const value_options[] = {"--net", "--arch", "--file", "--iter", "--mode", "--depth",
                                                 "--cache", "--clock", "--threats", NULL};
    for (int i = 1; i < argc; i++) {
        /* An option as the value ("--file --iter 3"): the value is missing. */
        const char *a = argv[i], *v = i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0 ? argv[i + 1] : NULL;
        if (!v || strncmp(a, "--", 2) != 0)
            return tool_bad_argument("bench", a, value_options);
        i++;
        if (strcmp(a, "--net") == 0)
            net_path = v;
        else if (strcmp(a, "--arch") == 0)
            arch_path = v;
        else if (strcmp(a, "--file") == 0)
            file = v;
        else if (strcmp(a, "--iter") == 0) {
            if (tool_parse_int("bench", a, v, 1, 1000000000, &iters) != 0)
                return 2;
        } else if (strcmp(a, "--mode") == 0)
            mode = v;
        else if (strcmp(a, "--depth") == 0) {
            if (tool_parse_int("bench", a, v, 0, 64, &depth) != 0)
                return 2;
        } else if (strcmp(a, "--cache") == 0 && (!strcmp(v, "on") || !strcmp(v, "off")))
            cache = strcmp(v, "on") == 0;
        else if (strcmp(a, "--clock") == 0 && (!strcmp(v, "wall") || !strcmp(v, "cpu")))
            bench_clock = strcmp(v, "cpu") == 0 ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
        else if (strcmp(a, "--threats") == 0 && (!strcmp(v, "adapter") || !strcmp(v, "boards")))
            bench_threats = strcmp(v, "adapter") == 0;
        else if (strcmp(a, "--cache") == 0 || strcmp(a, "--clock") == 0 || strcmp(a, "--threats") == 0) {
            fprintf(stderr, "nnue bench: %s expects %s, found '%s'\n", a,
                    strcmp(a, "--cache") == 0 ? "on or off" : strcmp(a, "--clock") == 0 ? "wall or cpu" : "adapter or boards",
                    v);
            return 2;
        } else
            return tool_bad_argument("bench", a, value_options);
    }
    int m_inc = !strcmp(mode, "all") || !strcmp(mode, "incremental");
    int m_ref = !strcmp(mode, "all") || !strcmp(mode, "refresh");
    int m_mov = !strcmp(mode, "all") || !strcmp(mode, "moves");
    int m_tree = !strcmp(mode, "tree"), m_tree_ref = !strcmp(mode, "tree-refresh");
    if (!(m_inc || m_ref || m_mov || m_tree || m_tree_ref)) {
        fprintf(stderr, "nnue bench: --mode expects incremental, refresh, moves, all, tree or tree-refresh, "
                        "found '%s'\n", mode);
        return 2;
    }
    if (!net_path || !file) {
        fprintf(stderr, "nnue bench: %s\nusage: nnue bench %s\n", !net_path ? "--net NET is needed" : "--file POSITIONS is needed",
                bench_usage);
        return 2;
    }
    nnue_net *net;
    if (tool_load_net("bench", net_path, arch_path, &net) != 0)
        return 1;
    const nnue_game *game = nnue_arch_game(nnue_net_arch(net));
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
    nnue_state *state = nnue_state_new(net, depth > 4 ? depth : 4);
    if (!nnue_state_takes_threats(state))
        bench_threats = 0; /* the net reads no threat feature: recording them would be wasted work */
    bench_filter = nnue_state_threat_filter(state);
    if (cache < 0)
        cache = 0; /* the library's default: off (include/nnue.h nnue_state_set_refresh_cache) */
    const char *slash = strrchr(file, '/');
    char workload[300];
    snprintf(workload, sizeof workload, "%s:%s", slash ? slash + 1 : file, nnue_arch_name(nnue_net_arch(net)));
    if (m_inc)
        run_mode(MODE_INCREMENTAL, &list, moves, state, iters, cache, workload);
    if (m_ref)
        run_mode(MODE_REFRESH, &list, moves, state, iters, 0, workload);
    if (m_mov)
        run_mode(MODE_MOVES, &list, moves, state, iters, 0, workload);
    if (m_tree || m_tree_ref)
        run_tree(m_tree ? MODE_TREE : MODE_TREE_REFRESH, &list, state, iters, depth, cache, workload);
    nnue_state_free(state);
    for (int i = 0; i < list.count; i++)
        free(moves[i].moves);
    free(moves);
    int bad = list.bad;
    positions_free(&list);
    nnue_net_free(net);
    return bad ? 1 : 0; /* as eval --file: the bad lines were skipped, the run is not clean */
}
