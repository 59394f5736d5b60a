/* tests/tools/test_engines.c: what a new user of the example engines (nnue-uci, nnue-usi) meets
 * first, through the protocol and the command line, with no net file needed: an engine without a
 * usable net says so at every isready and go (info string), --help and --version answer on
 * stdout with exit 0, "go movetime" thinks for the time given (minus a small margin), and a line
 * longer than the protocol's limit is refused whole: nothing of it runs as a command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <time.h>

#include "nnue.h"
#include "support.h"

/* Runs a shell command (stdout and stderr together); *status: exit code, -1 if killed. */
static char *run(const char *command, int *status)
{
    FILE *p = popen(command, "r");
    ck_assert_ptr_nonnull(p);
    size_t cap = 1 << 16, len = 0, n;
    char *buf = malloc(cap);
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0)
        if ((len += n) + 1 >= cap)
            buf = realloc(buf, cap *= 2);
    buf[len] = 0;
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return buf;
}

/* Feeds script (printf escapes) to the engine on stdin; end of input ends the session. */
static char *session(const char *engine, const char *script)
{
    char command[4096];
    snprintf(command, sizeof command, "printf '%s' | '%s/examples/engine/%s' 2>&1", script, test_build_dir(), engine);
    int status;
    char *out = run(command, &status);
    ck_assert_msg(status == 0, "%s: exit %d:\n%s", engine, status, out);
    return out;
}

static int count(const char *text, const char *fragment)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, fragment)); p++)
        n++;
    return n;
}

static void expect(const char *text, const char *fragment)
{
    ck_assert_msg(strstr(text, fragment) != NULL, "output lacks '%s':\n%s", fragment, text);
}

START_TEST(no_net_is_reported_at_isready_and_go)
{
    static const char *const engines[] = {"nnue-uci", "nnue-usi"};
    static const char *const scripts[] = {"uci\\nisready\\nposition startpos\\ngo depth 1\\n",
                                          "usi\\nisready\\nposition startpos\\ngo depth 1\\n"};
    for (int i = 0; i < 2; i++) {
        char *out = session(engines[i], scripts[i]);
        /* Once before readyok, once before the search: never a silent search on zeros. */
        ck_assert_msg(count(out, "info string error: no net: EvalFile is not set, every position evaluates to 0") == 2,
                      "%s:\n%s", engines[i], out);
        const char *warn = strstr(out, "no net"), *ready = strstr(out, "readyok");
        ck_assert_msg(warn && ready && warn < ready, "%s: the warning must come before readyok:\n%s", engines[i], out);
        expect(out, "bestmove ");
        free(out);
    }
    /* A net that fails to load: the load error once, then the warning at every isready / go. */
    char *out = session("nnue-uci", "setoption name EvalFile value /nonexistent.nnue\\nisready\\nisready\\n"
                                    "position startpos\\ngo depth 1\\n");
    ck_assert_int_eq(count(out, "info string error: EvalFile: /nonexistent.nnue"), 1);
    ck_assert_int_eq(count(out, "info string error: no net: EvalFile /nonexistent.nnue did not load"), 3);
    ck_assert_int_eq(count(out, "readyok"), 2);
    expect(out, "bestmove ");
    free(out);
}
END_TEST

/* `eval` prints the library's centipawns (nnue_cp_convert) after the raw terms: Stockfish 15.1's
 * divisor for an SFNNv5 net, none and why for an SFNNv8-small one. */
START_TEST(eval_prints_centipawns)
{
    static const char *const archs[] = {"sfnnv5", "sfnnv8small"};
    for (int i = 0; i < 2; i++) {
        char net[512], command[2048], script[1024];
        snprintf(net, sizeof net, "%s/engine-cp-%s-%d.nnue", test_build_dir(), archs[i], (int)getpid());
        snprintf(command, sizeof command, "'%s/tools/nnue' init --seed 7 %s '%s' 2>&1", test_build_dir(), archs[i], net);
        int status;
        free(run(command, &status));
        ck_assert_int_eq(status, 0);
        snprintf(script, sizeof script, "setoption name EvalFile value %s\\nposition startpos moves e2e4\\neval\\n",
                 net);
        char *out = session("nnue-uci", script);
        unlink(net);
        const char *line = strstr(out, "info string eval ");
        ck_assert_msg(line != NULL, "%s", out);
        int total = 0;
        ck_assert_int_eq(sscanf(strstr(line, " total ") + 7, "%d", &total), 1);
        if (i == 0) {
            char want[64];
            snprintf(want, sizeof want, "info string centipawns %d (Stockfish 15.1)", total * 100 / 361);
            expect(out, want);
        } else {
            expect(out, "info string centipawns none: SFNNv8-small nets");
        }
        free(out);
    }
}
END_TEST

START_TEST(help_and_version)
{
    static const char *const engines[] = {"nnue-uci", "nnue-usi"};
    static const char *const protocols[] = {"speaks UCI", "speaks USI"};
    char command[4096];
    int status;
    for (int i = 0; i < 2; i++) {
        snprintf(command, sizeof command, "'%s/examples/engine/%s' --help 2>/dev/null </dev/null", test_build_dir(),
                 engines[i]);
        char *out = run(command, &status);
        ck_assert_int_eq(status, 0);
        char head[64];
        snprintf(head, sizeof head, "usage: %s [--help | --version]", engines[i]);
        expect(out, head);
        expect(out, protocols[i]);
        expect(out, "EvalFile PATH");
        free(out);
        snprintf(command, sizeof command, "'%s/examples/engine/%s' --version 2>/dev/null </dev/null", test_build_dir(),
                 engines[i]);
        out = run(command, &status);
        ck_assert_int_eq(status, 0);
        char want[64];
        snprintf(want, sizeof want, "%s %s\n", engines[i], NNUE_VERSION_STRING);
        ck_assert_str_eq(out, want);
        free(out);
        snprintf(command, sizeof command, "'%s/examples/engine/%s' --bogus 2>&1 </dev/null", test_build_dir(), engines[i]);
        out = run(command, &status);
        ck_assert_int_eq(status, 2);
        expect(out, "unexpected argument '--bogus'");
        free(out);
    }
}
END_TEST

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

START_TEST(movetime_uses_the_time_given)
{
    /* End of input lets the timed search finish: the session lasts as long as the move. */
    double t0 = seconds_now();
    char *out = session("nnue-uci", "position startpos\\ngo movetime 1000\\n");
    double secs = seconds_now() - t0;
    expect(out, "bestmove ");
    ck_assert_msg(secs >= 0.8 && secs < 2.0, "go movetime 1000 answered after %.3f s:\n%s", secs, out);
    free(out);
}
END_TEST

/* The engine's output for `size` bytes of input, given as a file (too long for printf). */
static char *session_bytes(const char *engine, const char *data, size_t size)
{
    char path[4096], command[8192];
    snprintf(path, sizeof path, "%s/engine-input-%d.txt", test_build_dir(), (int)getpid());
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fwrite(data, 1, size, f), size);
    fclose(f);
    snprintf(command, sizeof command, "'%s/examples/engine/%s' < '%s' 2>&1", test_build_dir(), engine, path);
    int status;
    char *out = run(command, &status);
    remove(path);
    ck_assert_msg(status == 0, "%s: exit %d:\n%.2000s", engine, status, out);
    return out;
}

/* A line longer than NNUE_PROTOCOL_MAX_LINE (65536) characters is refused whole with one error
 * naming the limit; its tail is never read as a command (here "isready" just past the limit, and
 * a 3 MB line ending in "isready"); a line of exactly the limit is a command. */
START_TEST(long_lines_are_refused_whole)
{
    static const char *const engines[] = {"nnue-uci", "nnue-usi"};
    const size_t limit = 65536, big = 3u << 20;
    char *data = malloc(big + 2 * limit + 64);
    ck_assert_ptr_nonnull(data);
    for (int e = 0; e < 2; e++) {
        /* 65537 x's then "isready": the old loop ran the tail as a command. */
        size_t n = limit + 1;
        memset(data, 'x', n);
        n += (size_t)sprintf(data + n, "isready\n");
        memset(data + n, 'y', big);
        n += big;
        n += (size_t)sprintf(data + n, "isready\n");
        /* Exactly the limit: "isready" and spaces. */
        memset(data + n, ' ', limit);
        memcpy(data + n, "isready", 7);
        n += limit;
        n += (size_t)sprintf(data + n, "\nquit\n");
        char *out = session_bytes(engines[e], data, n);
        ck_assert_msg(count(out, "info string error: command: line longer than 65536 characters") == 2,
                      "%s: expected 2 refusals:\n%.3000s", engines[e], out);
        ck_assert_msg(count(out, "info string error: command") == 2, "%s:\n%.3000s", engines[e], out);
        ck_assert_msg(count(out, "info string error: no net") == 1, "%s:\n%.3000s", engines[e], out);
        ck_assert_msg(count(out, "readyok") == 1, "%s: only the line of exactly the limit is a command:\n%.3000s",
                      engines[e], out);
        free(out);
    }
    free(data);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("engines");
    TCase *tc = tcase_create("engines");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, no_net_is_reported_at_isready_and_go);
    tcase_add_test(tc, help_and_version);
    tcase_add_test(tc, eval_prints_centipawns);
    tcase_add_test(tc, movetime_uses_the_time_given);
    tcase_add_test(tc, long_lines_are_refused_whole);
    suite_add_tcase(s, tc);
    return test_run(s);
}
