/* tests/tools/test_cli_help.c: every `nnue` command answers --help with its usage on stdout and
 * exit 0; `nnue --version` prints the version; bad usage exits 2 with the usage on stderr; the
 * exit codes are stated in the help; bench's help names every option it takes; --strict is
 * shown and accepted only by the commands that load a net. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "support.h"

static const char *const commands[] = {"arch", "info", "eval", "bench", "init", "perft", "convert"};

START_TEST(every_command_answers_help)
{
    const char *command = commands[_i];
    char args[256], expected[256], *out;
    snprintf(args, sizeof args, "%s --help 2>/dev/null", command);
    ck_assert_int_eq(cli_run_stdout(args, &out), 0);
    snprintf(expected, sizeof expected, "usage: nnue %s ", command);
    ck_assert_msg(strncmp(out, expected, strlen(expected)) == 0, "'%s' printed:\n%s", args, out);
    cli_expect_contains(out, "options:\n");
    cli_expect_contains(out, "exit status: 0 success, 1 ");
    /* `nnue help CMD` says the same. */
    char *again;
    snprintf(args, sizeof args, "help %s 2>/dev/null", command);
    ck_assert_int_eq(cli_run_stdout(args, &again), 0);
    ck_assert_str_eq(out, again);
    free(again);
    free(out);
    /* stdout only: nothing of the help goes to stderr. */
    snprintf(args, sizeof args, "%s -h 2>&1 >/dev/null", command);
    ck_assert_int_eq(cli_run_stdout(args, &out), 0);
    ck_assert_str_eq(out, "");
    free(out);
}
END_TEST

START_TEST(top_level_help_and_version)
{
    char *out;
    ck_assert_int_eq(cli_run_stdout("--help 2>/dev/null", &out), 0);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        char line[64];
        snprintf(line, sizeof line, "\n  %s ", commands[i]);
        cli_expect_contains(out, line);
    }
    cli_expect_contains(out, "exit status:");
    free(out);
    ck_assert_int_eq(cli_run_stdout("--version 2>/dev/null", &out), 0);
    regex_t re;
    ck_assert_int_eq(regcomp(&re, "^nnue [0-9]+\\.[0-9]+\\.[0-9]+\n$", REG_EXTENDED), 0);
    ck_assert_msg(regexec(&re, out, 0, NULL, 0) == 0, "--version printed '%s'", out);
    regfree(&re);
    free(out);
    /* The version equals the project's (meson.build). */
    char *meson = test_read_file(test_source_path("meson.build"), NULL);
    char *v = strstr(meson, "version: '");
    ck_assert_ptr_nonnull(v);
    v += strlen("version: '");
    *strchr(v, '\'') = 0;
    ck_assert_int_eq(cli_run_stdout("--version", &out), 0);
    char expected[64];
    snprintf(expected, sizeof expected, "nnue %s\n", v);
    ck_assert_str_eq(out, expected);
    free(out);
    free(meson);
}
END_TEST

/* Bad usage: exit 2, the usage on stderr, nothing on stdout. */
START_TEST(bad_usage_exits_2)
{
    char *out;
    ck_assert_int_eq(cli_run_stdout("eval --frobnicate 2>/dev/null", &out), 2);
    ck_assert_str_eq(out, "");
    free(out);
    ck_assert_int_eq(cli_run_stdout("eval --frobnicate 2>&1 >/dev/null", &out), 2);
    cli_expect_contains(out, "usage: nnue eval");
    free(out);
    static const char *const cases[][2] = {
        {"", "usage: nnue COMMAND"},
        {"help frobnicate", "unknown command 'frobnicate'"},
        {"frobnicate", "unknown command 'frobnicate'"},
        {"arch", "usage: nnue arch"},
        {"eval --net x", "usage: nnue eval"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ck_assert_int_eq(cli_run(cases[i][0], &out), 2);
        cli_expect_contains(out, cases[i][1]);
        free(out);
    }
}
END_TEST

START_TEST(bench_help_names_every_option)
{
    char *out;
    ck_assert_int_eq(cli_run_stdout("bench --help", &out), 0);
    static const char *const options[] = {"--net NET", "--arch A.yaml", "--file", "--iter N", "--mode M",
                                          "tree-refresh", "tree / tree-refresh", "--depth N", "0 to 64 (default 2)",
                                          "--cache on|off", "--clock wall|cpu"};
    for (size_t i = 0; i < sizeof options / sizeof *options; i++)
        cli_expect_contains(out, options[i]);
    free(out);
}
END_TEST

START_TEST(strict_only_where_a_net_is_loaded)
{
    static const struct { const char *command; int loads_net; } cases[] = {
        {"eval", 1}, {"bench", 1}, {"info", 1}, {"convert", 1}, {"arch", 0}, {"init", 0}, {"perft", 0}, {"match", 0},
    };
    char args[256], *out;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(args, sizeof args, "%s --help", cases[i].command);
        ck_assert_int_eq(cli_run_stdout(args, &out), 0);
        ck_assert_msg((strstr(out, "--strict") != NULL) == cases[i].loads_net, "%s --help:\n%s", cases[i].command, out);
        free(out);
    }
    ck_assert_int_eq(cli_run("arch --strict archs/sfnnv5.yaml", &out), 2);
    cli_expect_contains(out, "nnue arch: --strict applies only to the commands that load a net (eval, bench, info, convert)");
    free(out);
    /* Where it applies it is taken: past it, eval complains only of the missing net. */
    ck_assert_int_eq(cli_run("eval --strict --net /nonexistent.nnue --fen startpos", &out), 1);
    cli_expect_contains(out, "cannot open the net file");
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_help");
    TCase *tc = tcase_create("help");
    tcase_add_loop_test(tc, every_command_answers_help, 0, (int)(sizeof commands / sizeof *commands));
    tcase_add_test(tc, top_level_help_and_version);
    tcase_add_test(tc, bad_usage_exits_2);
    tcase_add_test(tc, bench_help_names_every_option);
    tcase_add_test(tc, strict_only_where_a_net_is_loaded);
    suite_add_tcase(s, tc);
    return test_run(s);
}
