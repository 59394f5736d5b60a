/* tests/tools/test_cli_limits.c: the tool's position-file and training-file readers bound their
 * memory while reading (base/line_read.h). A line past 64 KiB is a bad line, reported at
 * FILE:LINE:1 and skipped, and the line after it is still read; the process's peak memory does
 * not follow the line's length (measured with wait4's rusage against a file of short lines).
 * Before, `eval --file` took any length (a FEN followed by 100 MB of spaces evaluated, at 2.5x
 * its size in memory) and `rescore --format plain /dev/zero` grew until memory ran out. Needs no
 * reference data: the net is `nnue init`'s, for tests/nets/tiny_sf.yaml. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

#define LONG_LINE_BYTES (100 << 20)
#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

static char yaml[4096], net[4096], short_file[4096], long_file[4096];

/* Runs the tool with args (NULL-terminated, after argv[0]); stdout and stderr into out (up to
 * size - 1 bytes). Returns the exit status; *peak_kb the child's peak resident memory. */
static int run_tool(const char *const *args, char *out, size_t size, long *peak_kb)
{
    char log[4096];
    snprintf(log, sizeof log, "%s/cli_limits_%d.log", test_build_dir(), (int)getpid());
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        const char *argv[16] = {getenv("NNUE_TOOL")};
        for (int i = 0; args[i] && i < 14; i++)
            argv[i + 1] = args[i];
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status;
    struct rusage u;
    wait4(pid, &status, 0, &u);
    *peak_kb = u.ru_maxrss;
    FILE *f = fopen(log, "r");
    size_t n = f ? fread(out, 1, size - 1, f) : 0;
    out[n] = 0;
    if (f)
        fclose(f);
    unlink(log);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void write_file(const char *path, int long_line)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs(START_FEN, f);
    if (long_line) /* trailing spaces: once trimmed and evaluated whatever the length */
        for (int i = 0; i < LONG_LINE_BYTES; i++)
            fputc(' ', f);
    fputs("\n8/8/8/8/8/8/8/K6k w - - 0 1\n", f);
    fclose(f);
}

START_TEST(eval_file_long_line_is_a_bad_line)
{
    char out[8192];
    long small_kb, long_kb;
    const char *args_short[] = {"eval", "--net", net, "--arch", yaml, "--file", short_file, "--quiet", NULL};
    const char *args_long[] = {"eval", "--net", net, "--arch", yaml, "--file", long_file, "--quiet", NULL};
    ck_assert_int_eq(run_tool(args_short, out, sizeof out, &small_kb), 0);
    ck_assert_int_eq(run_tool(args_long, out, sizeof out, &long_kb), 1);
    ck_assert_msg(strstr(out, ":1:1: line longer than 65536 bytes"), "%s", out);
    ck_assert_msg(strstr(out, "8/8/8/8/8/8/8/K6k w - - 0 1\t"), "line 2 was not evaluated:\n%s", out);
    ck_assert_msg(!strstr(out, START_FEN "\t"), "the over-long line was evaluated:\n%s", out);
    ck_assert_msg(long_kb - small_kb < 20 * 1024, "peak memory %ld KB for the 100 MB line, %ld KB without", long_kb,
                  small_kb);
}
END_TEST

START_TEST(bench_file_long_line_is_a_bad_line)
{
    char out[8192];
    long kb;
    const char *args[] = {"bench", "--net", net, "--arch", yaml, "--file", long_file, "--iter", "1", NULL};
    run_tool(args, out, sizeof out, &kb);
    ck_assert_msg(strstr(out, ":1:1: line longer than 65536 bytes"), "%s", out);
    ck_assert_msg(strstr(out, "1 bad line (the first: line 1), skipped"), "%s", out);
}
END_TEST

START_TEST(rescore_endless_input_stops)
{
    char out[8192], dst[4096];
    long kb;
    snprintf(dst, sizeof dst, "%s/cli_limits_rescored.plain", test_build_dir());
    const char *args[] = {"rescore", "--net", net, "--arch", yaml, "--format", "plain", "/dev/zero", dst, NULL};
    ck_assert_int_eq(run_tool(args, out, sizeof out, &kb), 1);
    ck_assert_msg(strstr(out, "/dev/zero:1:0: line longer than 65536 bytes"), "%s", out);
    ck_assert_int_ne(access(dst, F_OK), 0); /* nothing written */
}
END_TEST

int main(void)
{
    if (!getenv("NNUE_TOOL")) {
        fprintf(stderr, "SKIP: NNUE_TOOL is not set (run through meson test)\n");
        return 77;
    }
    snprintf(yaml, sizeof yaml, "%s", test_source_path("tests/nets/tiny_sf.yaml"));
    snprintf(net, sizeof net, "%s/cli_limits_tiny.nnue", test_build_dir());
    snprintf(short_file, sizeof short_file, "%s/cli_limits_short.fen", test_build_dir());
    snprintf(long_file, sizeof long_file, "%s/cli_limits_long.fen", test_build_dir());
    char command[16384];
    snprintf(command, sizeof command, "'%s' init '%s' '%s' >/dev/null", getenv("NNUE_TOOL"), yaml, net);
    if (system(command) != 0) {
        fprintf(stderr, "FAIL: %s\n", command);
        return 1;
    }
    write_file(short_file, 0);
    write_file(long_file, 1);
    Suite *s = suite_create("cli_limits");
    TCase *tc = tcase_create("limits");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, eval_file_long_line_is_a_bad_line);
    tcase_add_test(tc, bench_file_long_line_is_a_bad_line);
    suite_add_tcase(s, tc);
    TCase *endless = tcase_create("endless"); /* its own case: CK_RUN_CASE can leave it out */
    tcase_set_timeout(endless, 120);
    tcase_add_test(endless, rescore_endless_input_stops);
    suite_add_tcase(s, endless);
    int rc = test_run(s);
    unlink(long_file);
    return rc;
}
