/* tests/threads/test_threads.c ARCH: the library shared by threads, as nnue.h promises (one net,
 * one state per thread). Plain pthreads, not OpenMP: LLVM's OpenMP runtime is not built with
 * ThreadSanitizer annotations, so TSan reports races inside libomp's own barriers and task
 * queues (false positives about its synchronisation, not ours); pthreads keep the proof about
 * the library. Built and run under -fsanitize=thread by scripts/test.sh (suite 'threads').
 *
 * Each worker walks random games (a fixed seed per worker) with push/pop and evaluates every
 * node; the first nnue_state_new of the process happens in the workers at the same time (the
 * lazily chosen kernel set was a race there). The same walks on one thread must give the same
 * numbers. A second test has every thread load its own copy of the arch and net concurrently.
 * A third runs `nnue eval --threads 1` and `--threads 3` (OpenMP) on positions from such walks:
 * same lines, exit 0; in the TSan build that run sets ignore_noninstrumented_modules=1 so TSan
 * leaves libomp's own (uninstrumented) synchronisation alone while still checking our code.
 * A fourth runs the example engine (nnue-uci / nnue-usi, Lazy SMP: threads sharing the net and
 * the hash table) with Threads 3 to a fixed depth: it must answer bestmove and exit 0 (under
 * TSan a report makes the exit status 66). A fifth (nnue-uci, one arch: the engine's own threads,
 * no net) restarts searches of xiangqi, whose move generator writes the position it is given,
 * with "go infinite searchmoves ..." lines read while the last search still prints its lines. */
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "core/net/net.h"
#include "eval/eval_nets.h"
#include "nets/nets_helpers.h"
#include "nnue.h"
#include "support.h"

enum { WORKERS = 4, GAMES = 3, PLIES = 24, NODES = GAMES * PLIES * 2 };

static const char *arch_rel, *engine_path;
static char arch_path[4096], net_path[4096]; /* resolved in main: test_source_path is not thread-safe */

typedef struct work {
    const nnue_net *shared_net; /* NULL: load arch and net inside the worker */
    uint64_t seed;
    int cache_on;
    int32_t evals[NODES];
    int count;
    int failed;
} work;

/* Optional: every node's position text is appended here (one per line). */
static FILE *positions_out;
static int positions_written;

static const char *start_text(const nnue_game *game)
{
    return strcmp(game->name, "shogi") == 0 ? "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
                                            : "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
}

/* Random games: every ply pushes a random legal move and evaluates; half the plies also try a
 * second move (push, evaluate, pop) so pops and re-pushes are exercised. */
static void walk(const nnue_net *net, work *w)
{
    const nnue_game *game = nnue_game_find(net->arch->game);
    nnue_state *st = nnue_state_new(net, PLIES + 2);
    void *pos = malloc(game->pos_size);
    nnue_move *moves = malloc(sizeof(nnue_move) * NNUE_MAX_MOVES);
    nnue_move *played = malloc(sizeof(nnue_move) * PLIES);
    if (!st || !pos || !moves || !played) {
        w->failed = 1;
        goto out;
    }
    nnue_state_set_refresh_cache(st, w->cache_on);
    uint64_t rng = w->seed;
    for (int g = 0; g < GAMES; g++) {
        nnue_error err;
        if (game->parse(pos, start_text(game), &err) != 0) {
            w->failed = 1;
            goto out;
        }
        nnue_state_reset(st, game->board(pos));
        int depth = 0;
        for (int p = 0; p < PLIES; p++) {
            int n = game->legal_moves(pos, moves);
            if (n == 0)
                break;
            if (p % 2) {
                nnue_move side = moves[eval_random(&rng, (unsigned)n)];
                nnue_delta delta;
                game->make(pos, side, &delta);
                nnue_state_push(st, game->board(pos), &delta);
                w->evals[w->count++] = nnue_evaluate(st, game->board(pos), NULL);
                nnue_state_pop(st);
                game->unmake(pos, side);
            }
            nnue_move m = moves[eval_random(&rng, (unsigned)n)];
            nnue_delta delta;
            game->make(pos, m, &delta);
            nnue_state_push(st, game->board(pos), &delta);
            played[depth++] = m;
            w->evals[w->count++] = nnue_evaluate(st, game->board(pos), NULL);
            if (positions_out) {
                char text[256];
                game->format(pos, text, sizeof text);
                fprintf(positions_out, "%s\n", text);
                positions_written++;
            }
        }
        while (depth > 0) {
            game->unmake(pos, played[--depth]);
            nnue_state_pop(st);
        }
    }
out:
    free(played);
    free(moves);
    free(pos);
    nnue_state_free(st);
}

static void *worker(void *arg)
{
    work *w = arg;
    if (w->shared_net) {
        walk(w->shared_net, w);
        return NULL;
    }
    nnue_arch *arch;
    nnue_net *net;
    nnue_error err;
    if (nnue_arch_load(arch_path, &arch, &err) != NNUE_OK) {
        w->failed = 1;
        return NULL;
    }
    if (nnue_net_load(arch, net_path, &net, &err) != NNUE_OK) {
        w->failed = 1;
        nnue_arch_free(arch);
        return NULL;
    }
    nnue_arch_free(arch);
    walk(net, w);
    nnue_net_free(net);
    return NULL;
}

static void init_work(work *w, int i, const nnue_net *net)
{
    memset(w, 0, sizeof *w);
    w->shared_net = net;
    w->seed = 0x9E3779B97F4A7C15ull * (uint64_t)(i + 1);
    w->cache_on = i % 2;
}

/* Runs the workers concurrently, then each one's walk again on this thread, and compares. */
static void run_and_compare(const nnue_net *shared)
{
    static work threaded[WORKERS], single[WORKERS];
    pthread_t tid[WORKERS];
    for (int i = 0; i < WORKERS; i++) {
        init_work(&threaded[i], i, shared);
        ck_assert_int_eq(pthread_create(&tid[i], NULL, worker, &threaded[i]), 0);
    }
    for (int i = 0; i < WORKERS; i++)
        pthread_join(tid[i], NULL);
    for (int i = 0; i < WORKERS; i++) {
        init_work(&single[i], i, shared);
        worker(&single[i]);
        ck_assert_msg(!threaded[i].failed && !single[i].failed, "worker %d could not run", i);
        ck_assert_int_gt(single[i].count, PLIES);
        ck_assert_int_eq(threaded[i].count, single[i].count);
        for (int k = 0; k < single[i].count; k++)
            ck_assert_msg(threaded[i].evals[k] == single[i].evals[k], "worker %d node %d: %d on threads, %d on one",
                          i, k, threaded[i].evals[k], single[i].evals[k]);
    }
    /* The walks differ from each other (a check that the seeds and the net do something). */
    ck_assert_int_ne(memcmp(single[0].evals, single[1].evals, sizeof single[0].evals), 0);
}

START_TEST(shared_net_states_per_thread)
{
    nnue_arch *arch = nets_arch(arch_rel);
    nnue_net *net = nets_load(arch, net_path);
    nnue_arch_free(arch);
    run_and_compare(net);
    nnue_net_free(net);
}
END_TEST

START_TEST(concurrent_loads)
{
    run_and_compare(NULL);
}
END_TEST

/* The worst-case ranges are computed on first use (nnue_net_warning, nnue_net_range_report), by
 * whichever thread asks first: threads asking at once about a fresh net all get the report a net
 * asked on one thread gives, and the same warning pointer (computed once). */
typedef struct range_ask {
    const nnue_net *net;
    const char *warning;
    char report[4096];
} range_ask;

static void *ask_ranges(void *arg)
{
    range_ask *a = arg;
    a->warning = nnue_net_warning(a->net);
    nnue_net_range_report(a->net, a->report, sizeof a->report);
    return NULL;
}

START_TEST(ranges_on_first_use_from_threads)
{
    nnue_arch *arch = nets_arch(arch_rel);
    nnue_net *alone = nets_load(arch, net_path), *shared = nets_load(arch, net_path);
    nnue_arch_free(arch);
    static range_ask asks[WORKERS], expected;
    expected.net = alone;
    ask_ranges(&expected);
    ck_assert_int_gt((int)strlen(expected.report), 20);
    pthread_t tid[WORKERS];
    for (int i = 0; i < WORKERS; i++) {
        memset(&asks[i], 0, sizeof asks[i]);
        asks[i].net = shared;
        ck_assert_int_eq(pthread_create(&tid[i], NULL, ask_ranges, &asks[i]), 0);
    }
    for (int i = 0; i < WORKERS; i++)
        pthread_join(tid[i], NULL);
    for (int i = 0; i < WORKERS; i++) {
        ck_assert_str_eq(asks[i].report, expected.report);
        ck_assert_ptr_eq(asks[i].warning, asks[0].warning);
        ck_assert_int_eq(asks[i].warning == NULL, expected.warning == NULL);
    }
    nnue_net_free(alone);
    nnue_net_free(shared);
}
END_TEST

static char *run_tool_eval(const char *positions, int threads)
{
    char command[12000];
    const char *tool = getenv("NNUE_TOOL");
    ck_assert_msg(tool != NULL, "NNUE_TOOL is not set");
    snprintf(command, sizeof command, "TSAN_OPTIONS=\"$TSAN_OPTIONS:ignore_noninstrumented_modules=1\" '%s' eval --net '%s' --arch '%s' --file '%s' --threads %d",
             tool, net_path, arch_path, positions, threads);
    FILE *p = popen(command, "r");
    ck_assert(p != NULL);
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    size_t n;
    while ((n = fread(out + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (len + 1 == cap)
            out = realloc(out, cap *= 2);
    }
    out[len] = 0;
    int rc = pclose(p);
    ck_assert_msg(rc == 0, "%s: exit status %d", command, rc);
    return out;
}

START_TEST(tool_eval_openmp_threads_agree)
{
    char positions[4200];
    snprintf(positions, sizeof positions, "%s.positions", net_path);
    positions_out = fopen(positions, "w");
    ck_assert(positions_out != NULL);
    nnue_arch *arch = nets_arch(arch_rel);
    nnue_net *net = nets_load(arch, net_path);
    nnue_arch_free(arch);
    work w;
    init_work(&w, 0, net);
    walk(net, &w);
    fclose(positions_out);
    positions_out = NULL;
    nnue_net_free(net);
    char *one = run_tool_eval(positions, 1), *three = run_tool_eval(positions, 3);
    int lines = 0;
    for (const char *c = one; *c; c++)
        lines += *c == '\n';
    ck_assert_int_ge(positions_written, GAMES * PLIES / 2);
    ck_assert_int_ge(lines, positions_written); /* one line per position (plus a header) */
    ck_assert_str_eq(one, three);
    free(one);
    free(three);
    remove(positions);
}
END_TEST

START_TEST(engine_lazy_smp)
{
    int to_engine[2], from_engine[2];
    ck_assert_int_eq(pipe(to_engine), 0);
    ck_assert_int_eq(pipe(from_engine), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(to_engine[0], 0);
        dup2(from_engine[1], 1);
        close(to_engine[1]);
        close(from_engine[0]);
        execl(engine_path, engine_path, (char *)NULL);
        _exit(127);
    }
    close(to_engine[0]);
    close(from_engine[1]);
    signal(SIGPIPE, SIG_IGN);
    FILE *in = fdopen(to_engine[1], "w"), *out = fdopen(from_engine[0], "r");
    int usi = strstr(engine_path, "usi") != NULL;
    fprintf(in, "%s\nsetoption name EvalFile value %s\nsetoption name EvalArch value %s\n"
                "setoption name Threads value 3\nisready\nposition startpos\ngo depth 5\n",
            usi ? "usi" : "uci", net_path, arch_path);
    fflush(in);
    char line[4096];
    int best = 0;
    while (!best && fgets(line, sizeof line, out))
        best = strncmp(line, "bestmove ", 9) == 0;
    fputs("quit\n", in);
    fclose(in);
    while (fgets(line, sizeof line, out)) {
    }
    fclose(out);
    int status;
    waitpid(pid, &status, 0);
    ck_assert_msg(best, "%s: no bestmove", engine_path);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: exit status %d", engine_path, status);
}
END_TEST

/* The command loop parses a go line's searchmoves while the previous search runs: the search
 * must not read the loop's position (it once did, to print moves: a race TSan reports when
 * the parsing writes it, as xiangqi's move generator did). All lines are written at once, so the
 * loop reads them without waiting for the search's output. */
START_TEST(engine_searchmoves_while_searching)
{
    char input[4096 * 8], command[8192], path[4200];
    size_t n = (size_t)snprintf(input, sizeof input, "uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\n");
    for (int round = 0; round < 8; round++) {
        n += (size_t)snprintf(input + n, sizeof input - n, "go infinite\ngo infinite searchmoves");
        for (int i = 0; i < 200; i++) /* 200 parses of a legal move: time for the search to print */
            n += (size_t)snprintf(input + n, sizeof input - n, " %s", i % 2 ? "h2e2" : "b2e2");
        n += (size_t)snprintf(input + n, sizeof input - n, "\n");
    }
    n += (size_t)snprintf(input + n, sizeof input - n, "stop\nquit\n");
    ck_assert_uint_lt(n, sizeof input - 1);
    snprintf(path, sizeof path, "%s.searchmoves", net_path);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(input, f);
    fclose(f);
    snprintf(command, sizeof command, "'%s' < '%s' 2>&1", engine_path, path);
    FILE *p = popen(command, "r");
    ck_assert_ptr_nonnull(p);
    static char out[1 << 20];
    size_t len = fread(out, 1, sizeof out - 1, p);
    out[len] = 0;
    int status = pclose(p);
    remove(path);
    int best = 0;
    for (const char *c = out; (c = strstr(c, "bestmove ")); c++)
        best++;
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "exit status %d:\n%.6000s", status,
                  strstr(out, "WARNING") ? strstr(out, "WARNING") : out);
    ck_assert_msg(best == 16, "%d bestmoves for 16 searches:\n%.3000s", best, out);
    /* Each searchmoves search plays one of them, even when stopped before its first depth. */
    int chosen = 0;
    for (const char *c = out; (c = strstr(c, "bestmove ")); c++)
        chosen += strncmp(c, "bestmove h2e2", 13) == 0 || strncmp(c, "bestmove b2e2", 13) == 0;
    ck_assert_msg(chosen >= 8, "%d of 8 searchmoves searches played one:\n%.3000s", chosen, out);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_threads ARCH.yaml [ENGINE]\n");
        return 2;
    }
    arch_rel = argv[1];
    engine_path = argc > 2 ? argv[2] : NULL;
    /* The random net is written once per arch by this process (before the Check runner). */
    snprintf(arch_path, sizeof arch_path, "%s", test_source_path(arch_rel));
    nnue_arch *arch = eval_random_net_main(arch_rel, "threads", 11, net_path, sizeof net_path);
    if (!arch)
        return 1;
    nnue_arch_free(arch);
    Suite *s = suite_create("threads");
    TCase *tc = tcase_create("threads");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, shared_net_states_per_thread);
    tcase_add_test(tc, concurrent_loads);
    tcase_add_test(tc, ranges_on_first_use_from_threads);
    tcase_add_test(tc, tool_eval_openmp_threads_agree);
    if (engine_path)
        tcase_add_test(tc, engine_lazy_smp);
    if (engine_path && strstr(engine_path, "nnue-uci") && strstr(arch_rel, "tiny_sf"))
        tcase_add_test(tc, engine_searchmoves_while_searching); /* no net: once is enough */
    suite_add_tcase(s, tc);
    return test_run(s);
}
