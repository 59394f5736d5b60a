/* tests/tools/test_cli_batch.c: `nnue eval --file` as users run it on large files: a bad line is
 * reported with its line number and the run goes on (exit 1 at the end, with a summary); the
 * progress bar appears on a terminal (run under script(1)) and not with --quiet or when stderr
 * is not a terminal; standard input works. Values: golden-sfnnv1-A.tsv (printed by Stockfish 12). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "eval/eval_nets.h"
#include "support.h"

static const char *net_v1;
static char mixed[4096], single[4096];
static char golden_rows[3][1024]; /* "fen\tbucket\tpsqt\tpositional\ttotal\t" of corpus A 1..3 */

START_TEST(bad_lines_are_reported_and_skipped)
{
    char *out, args[8192];
    snprintf(args, sizeof args, "eval --net '%s' --file '%s'", net_v1, mixed);
    ck_assert_int_eq(cli_run(args, &out), 1);
    for (int i = 0; i < 3; i++)
        cli_expect_contains(out, golden_rows[i]);
    cli_expect_contains(out, "cli-mixed.fen:3:");
    cli_expect_contains(out, "cli-mixed.fen:5:");
    cli_expect_contains(out, "2 bad lines (the first: line 3), skipped\n");
    cli_expect_contains(out, "nnue eval: 3 positions evaluated, 2 bad, in ");
    free(out);
    /* One position: the summary says so in the singular. */
    snprintf(args, sizeof args, "eval --net '%s' --file '%s'", net_v1, single);
    ck_assert_int_eq(cli_run(args, &out), 0);
    cli_expect_contains(out, "nnue eval: 1 position evaluated, 0 bad, in ");
    free(out);
    /* stdout: the header and three rows, in input order. */
    snprintf(args, sizeof args, "eval --net '%s' --file '%s' 2>/dev/null", net_v1, mixed);
    ck_assert_int_eq(cli_run_stdout(args, &out), 1);
    char *row1 = strstr(out, golden_rows[0]), *row2 = strstr(out, golden_rows[1]), *row3 = strstr(out, golden_rows[2]);
    ck_assert_msg(row1 && row2 && row3 && row1 < row2 && row2 < row3, "rows missing or out of order:\n%s", out);
    int lines = 0;
    for (char *p = out; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 4);
    free(out);
}
END_TEST

START_TEST(stdin_and_json)
{
    char *out, args[8192];
    snprintf(args, sizeof args, "eval --quiet --json --net '%s' --file - < '%s'", net_v1, mixed);
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, "(stdin):3:");
    cli_expect_contains(out, "\"line\": 6,");
    ck_assert_ptr_null(strstr(out, "positions evaluated"));
    free(out);
}
END_TEST

/* Runs the tool under script(1), which gives it a terminal; returns what the terminal showed. */
static char *on_terminal(const char *extra)
{
    char command[12000];
    snprintf(command, sizeof command,
             "script -qec \"'%s' eval --net '%s' --file '%s' %s > /dev/null\" /dev/null < /dev/null 2>&1",
             getenv("NNUE_TOOL"), net_v1, test_shared_path("oracle/chess/corpusA.fen"), extra);
    FILE *p = popen(command, "r");
    ck_assert_ptr_nonnull(p);
    char *buf = calloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, p);
    buf[n] = 0;
    ck_assert_int_eq(pclose(p), 0);
    return buf;
}

START_TEST(progress_bar_only_on_a_terminal)
{
    char *out = on_terminal("");
    cli_expect_contains(out, "100.0% [########################] 2981/2981  ");
    cli_expect_contains(out, " pos/s  ETA 0:00");
    cli_expect_contains(out, "\r\033[K");
    cli_expect_contains(out, "2981 positions evaluated, 0 bad");
    free(out);
    out = on_terminal("--quiet");
    ck_assert_msg(strstr(out, "pos/s") == NULL && strstr(out, "positions evaluated") == NULL, "quiet run showed:\n%s", out);
    free(out);
    /* Not a terminal: the summary, no bar. */
    char args[8192];
    snprintf(args, sizeof args, "eval --net '%s' --file '%s' 2>&1 >/dev/null", net_v1,
             test_shared_path("oracle/chess/corpusA.fen"));
    ck_assert_int_eq(cli_run_stdout(args, &out), 0);
    ck_assert_ptr_null(strstr(out, "pos/s"));
    cli_expect_contains(out, "nnue eval: 2981 positions evaluated, 0 bad, in ");
    free(out);
}
END_TEST

int main(void)
{
    test_require_shared("oracle/chess/golden-sfnnv1-A.tsv");
    cli_use_source_archs();
    net_v1 = eval_net_file(eval_net_find("sfnnv1"));
    char *golden = test_read_file(test_shared_path("oracle/chess/golden-sfnnv1-A.tsv"), NULL);
    char *line = strchr(golden, '\n') + 1;
    char fens[3][256];
    for (int i = 0; i < 3; i++) {
        char *end = strchr(line, '\n'), *f[6];
        *end = 0;
        test_split_tabs(line, f, 6);
        snprintf(golden_rows[i], sizeof golden_rows[i], "%s\t%s\t%s\t%s\t%s\t", f[0], f[1], f[2], f[3], f[4]);
        snprintf(fens[i], sizeof fens[i], "%s", f[0]);
        line = end + 1;
    }
    free(golden);
    snprintf(mixed, sizeof mixed, "%s/cli-mixed.fen", test_build_dir());
    FILE *f = fopen(mixed, "w");
    fprintf(f, "fen\n%s\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0\n# comment\n"
               "8/8/8/8/8/8/8/8 w - - 0 1\t(no kings)\n%s\n\n%s\n",
            fens[0], fens[1], fens[2]);
    fclose(f);
    snprintf(single, sizeof single, "%s/cli-single.fen", test_build_dir());
    f = fopen(single, "w");
    fprintf(f, "%s\n", fens[0]);
    fclose(f);
    Suite *s = suite_create("cli_batch");
    TCase *tc = tcase_create("batch");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, bad_lines_are_reported_and_skipped);
    tcase_add_test(tc, stdin_and_json);
    tcase_add_test(tc, progress_bar_only_on_a_terminal);
    suite_add_tcase(s, tc);
    return test_run(s);
}
