/* tests/tools/test_cli_errors.c: the tool's messages for a new user's usual mistakes say what is
 * wrong: a missing or empty net file (errno text, "empty file"; no hint about raw nets), an
 * option without its value, a number out of range; and bench treats bad lines of its file as
 * eval --file does (reported at FILE:LINE:COLUMN, skipped, counted, exit 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "eval/eval_nets.h"
#include "support.h"

static const char *net_v1;

static void expect_absent(const char *text, const char *fragment)
{
    ck_assert_msg(strstr(text, fragment) == NULL, "output has '%s':\n%s", fragment, text);
}

static const char *write_file(const char *name, const char *text)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", test_build_dir(), name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path;
}

START_TEST(missing_and_empty_nets)
{
    char *out, args[8192];
    ck_assert_int_eq(cli_run("eval --net /nonexistent/net.nnue --fen startpos", &out), 1);
    cli_expect_contains(out, "nnue eval: /nonexistent/net.nnue: cannot open the net file: No such file or directory\n");
    expect_absent(out, "header-less");
    free(out);
    snprintf(args, sizeof args, "info '%s'", write_file("cli-empty.nnue", ""));
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, "cli-empty.nnue: byte 0: empty file (0 bytes), not a net\n");
    expect_absent(out, "header-less");
    free(out);
    snprintf(args, sizeof args, "bench --net '%s' --file x", write_file("cli-empty.nnue", ""));
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, "cli-empty.nnue: byte 0: empty file (0 bytes), not a net\n");
    expect_absent(out, "header-less");
    free(out);
    /* A file with bytes but no header may be a raw net: the hint stays, naming no candidate. */
    snprintf(args, sizeof args, "eval --net '%s' --fen startpos", write_file("cli-text.nnue", "not a net at all\n"));
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, "cli-text.nnue: no Stockfish-format header (its first word, 0x20746F6E, is no built-in "
                             "net version) and no CBNF header: a header-less (raw) net");
    cli_expect_contains(out, "No built-in raw architecture has its size (17 bytes)");
    cli_expect_contains(out, "Name it: the tool's --arch NAME");
    free(out);
}
END_TEST

START_TEST(option_values)
{
    char *out, args[8192];
    snprintf(args, sizeof args, "eval --net '%s' --fen", net_v1);
    ck_assert_int_eq(cli_run(args, &out), 2);
    cli_expect_contains(out, "nnue eval: option '--fen' needs a value");
    free(out);
    snprintf(args, sizeof args, "eval --fen --net '%s'", net_v1);
    ck_assert_int_eq(cli_run(args, &out), 2);
    cli_expect_contains(out, "nnue eval: option '--fen' needs a value");
    free(out);
    static const struct { const char *args, *message; } cases[] = {
        {"bench --net n --file f --iter 99999999999999999999",
         "nnue bench: --iter expects a whole number from 1 to 1000000000, found '99999999999999999999' (too large)"},
        {"bench --net n --file f --iter -5",
         "nnue bench: --iter expects a whole number from 1 to 1000000000, found '-5' (too small)"},
        {"bench --net n --file f --iter 12x", "nnue bench: --iter expects a whole number from 1 to 1000000000, found '12x'\n"},
        {"bench --net n --file f --depth 65", "nnue bench: --depth expects a whole number from 0 to 64, found '65' (too large)"},
        {"bench --net n --file f --mode fast", "nnue bench: --mode expects incremental, refresh, moves, all, tree or "
                                               "tree-refresh, found 'fast'"},
        {"bench --net n --file f --cache maybe", "nnue bench: --cache expects on or off, found 'maybe'"},
        {"bench --net n --file", "nnue bench: option '--file' needs a value"},
        {"bench --net n --file f --bogus 1", "nnue bench: unexpected argument '--bogus'"},
        {"eval --net n --fen x --threads 0", "nnue eval: --threads expects a whole number from 1 to 1024, found '0'"},
        {"perft --game", "nnue perft: option '--game' needs a value"},
        {"init --seed", "nnue init: option '--seed' needs a value"},
        {"convert --to", "nnue convert: option '--to' needs a value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_msg(cli_run(cases[i].args, &out) == 2, "%s: exit status not 2:\n%s", cases[i].args, out);
        cli_expect_contains(out, cases[i].message);
        free(out);
    }
}
END_TEST

/* The value of "key=" in a bench line, as text up to the next space. */
static void field(const char *line, const char *key, char *out, size_t size)
{
    const char *p = strstr(line, key);
    ck_assert_msg(p != NULL, "no %s in:\n%s", key, line);
    p += strlen(key);
    snprintf(out, size, "%.*s", (int)strcspn(p, " \n"), p);
}

START_TEST(bench_skips_bad_lines_like_eval)
{
    char *out, args[8192], clean_sum[64], sum[64], evals[64];
    snprintf(args, sizeof args, "bench --net '%s' --file '%s' --iter 1 --mode incremental", net_v1,
             write_file("cli-bench-clean.fen", "startpos\n"));
    ck_assert_int_eq(cli_run(args, &out), 0);
    field(out, "checksum_total=", clean_sum, sizeof clean_sum);
    free(out);
    const char *path = write_file("cli-bench-mixed.fen", "fen\nstartpos\n"
                                                         "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0\n"
                                                         "# comment\n"
                                                         "8/8/8/8/8/8/8/8 w - - 0 1\n");
    snprintf(args, sizeof args, "bench --net '%s' --file '%s' --iter 1 --mode incremental", net_v1, path);
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, "nnue bench: ");
    cli_expect_contains(out, "cli-bench-mixed.fen:3:");
    cli_expect_contains(out, "cli-bench-mixed.fen:5:1: field 1 (piece placement): no white king");
    cli_expect_contains(out, "cli-bench-mixed.fen: 2 bad lines (the first: line 3), skipped\n");
    /* The good position was benchmarked: itself and its 20 children. */
    field(out, "evals=", evals, sizeof evals);
    ck_assert_str_eq(evals, "21");
    field(out, "checksum_total=", sum, sizeof sum);
    ck_assert_str_eq(sum, clean_sum);
    free(out);
    /* No good line at all: nothing to measure. */
    snprintf(args, sizeof args, "bench --net '%s' --file '%s' --iter 1", net_v1, write_file("cli-bench-bad.fen", "x\n"));
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, "cli-bench-bad.fen: no positions\n");
    expect_absent(out, "bench workload=");
    free(out);
}
END_TEST

/* A match naming an engine that does not exist says which, before any game (exit 1). */
START_TEST(match_names_a_missing_engine)
{
    char *out;
    ck_assert_int_eq(cli_run("match --game chess --engine ./no-such-engine --opponent /bin/true --games 1", &out), 1);
    cli_expect_contains(out, "nnue match: --engine './no-such-engine': the program ./no-such-engine does not exist\n");
    ck_assert_msg(strstr(out, "game 1/1") == NULL, "a game was played:\n%s", out);
    free(out);
    ck_assert_int_eq(cli_run("match --game shogi --engine /bin/true --opponent 'no-such-usi-engine -x' --games 1", &out),
                     1);
    cli_expect_contains(out, "--opponent 'no-such-usi-engine -x': the program 'no-such-usi-engine' is not found on PATH");
    free(out);
}
END_TEST

int main(void)
{
    cli_use_source_archs();
    net_v1 = eval_net_file(eval_net_find("sfnnv1"));
    Suite *s = suite_create("cli_errors");
    TCase *tc = tcase_create("errors");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, missing_and_empty_nets);
    tcase_add_test(tc, option_values);
    tcase_add_test(tc, bench_skips_bad_lines_like_eval);
    tcase_add_test(tc, match_names_a_missing_engine);
    suite_add_tcase(s, tc);
    return test_run(s);
}
