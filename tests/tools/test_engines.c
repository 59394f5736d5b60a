/* tests/tools/test_engines.c: what a new user of the example engines (nnue-uci, nnue-usi) meets
 * first, through the protocol and the command line, with no net file needed: an engine without a
 * usable net says so at every isready and go (info string), --help and --version answer on
 * stdout with exit 0, and "go movetime" thinks for the time given (minus a small margin). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

int main(void)
{
    Suite *s = suite_create("engines");
    TCase *tc = tcase_create("engines");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, no_net_is_reported_at_isready_and_go);
    tcase_add_test(tc, help_and_version);
    tcase_add_test(tc, movetime_uses_the_time_given);
    suite_add_tcase(s, tc);
    return test_run(s);
}
