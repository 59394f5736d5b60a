/* tests/tools/test_cli_walls.c: what a new user met in the first hour (issue 39, item 4): the
 * release nets named by info, usage errors that say what was wrong, the help texts, info's
 * JSON ranges, the TSV line column. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "core/net/known_nets.h"
#include "support.h"

/* Stockfish 17.1's big and small nets and 18's big net (the names are their SHA-256 heads). */
static const struct {
    const char *sha, *arch, *what;
} release[] = {
    {"1c0000000000a67d", "SFNNv9", "Stockfish 17.1 default net (big)"},
    {"37f18f62d772f310", "SFNNv8-small", "Stockfish 17.1 and 18 small net"},
    {"c288c895ea924429", "SFNNv10", "Stockfish 18 default net (big)"},
    {"1a298aa575a08543", "SFNNv16", "Stockfish 19 default net"},
};

START_TEST(release_nets_are_known)
{
    for (size_t i = 0; i < sizeof release / sizeof *release; i++) {
        const known_net *k = known_net_find(release[i].sha);
        ck_assert_msg(k != NULL, "nn-%.12s is not a known net", release[i].sha);
        ck_assert_str_eq(k->arch, release[i].arch);
        ck_assert_str_eq(k->what, release[i].what);
    }
}
END_TEST

/* The same through `nnue info` on the fetched nets (scripts/setup.sh puts them in the cache). */
START_TEST(info_names_release_nets)
{
    const char *home = getenv("HOME");
    int seen = 0;
    for (size_t i = 0; i < sizeof release / sizeof *release; i++) {
        char path[4096], args[5000], line[256], *out;
        snprintf(path, sizeof path, "%s/.cache/nnue-nets/nn-%.12s.nnue", home ? home : "", release[i].sha);
        if (access(path, R_OK) != 0) {
            fprintf(stderr, "SKIP (one net): %s is absent (scripts/setup.sh fetches it)\n", path);
            continue;
        }
        snprintf(args, sizeof args, "info '%s'", path);
        ck_assert_int_eq(cli_run(args, &out), 0);
        snprintf(line, sizeof line, "known net     nn-%.12s: %s (%s)\n", release[i].sha, release[i].what,
                 release[i].arch);
        cli_expect_contains(out, line);
        free(out);
        seen++;
    }
    fprintf(stderr, "%d of 4 release nets checked through nnue info\n", seen);
}
END_TEST

/* A usage error says what was wrong before the usage text (exit 2). */
START_TEST(usage_errors_say_what)
{
    static const struct {
        const char *args, *says;
    } cases[] = {
        {"match --bogus", "nnue match: unexpected argument '--bogus'"},
        {"match --game chess --bogus x", "nnue match: unexpected argument '--bogus'"},
        {"match --games 0 --game chess", "nnue match: --games expects a whole number from 1 to 1000000, found '0'"},
        {"match --game go", "nnue match: --game: unknown game 'go' (expected one of: chess, shogi, xiangqi"},
        {"match --game chess --engine a --games", "nnue match: option '--games' needs a value"},
        {"match --game chess --engine a", "nnue match: --opponent is required"},
        {"match --engine a --opponent b", "nnue match: --game is required"},
        {"match --game xiangqi --engine a --opponent b --ranks-from 2",
         "nnue match: --ranks-from expects a whole number from 0 to 1"},
        {"match --game chess --engine a --opponent b --seed x1", "nnue match: --seed expects a whole number, found 'x1'"},
        {"eval --fen startpos", "nnue eval: --net NET is required"},
        {"eval --net x", "nnue eval: --fen POSITION or --file FILE is required"},
        {"eval --net x --fen startpos --file y", "nnue eval: give --fen or --file, not both"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *out;
        ck_assert_msg(cli_run(cases[i].args, &out) == 2, "%s: exit status not 2:\n%s", cases[i].args, out);
        ck_assert_msg(strncmp(out, cases[i].says, strlen(cases[i].says)) == 0, "%s: first line is not '%s':\n%s",
                      cases[i].args, cases[i].says, out);
        cli_expect_contains(out, "usage: nnue ");
        free(out);
    }
}
END_TEST

/* The help texts name every option and say what --out writes. */
START_TEST(help_texts)
{
    char *out;
    ck_assert_int_eq(cli_run("match --help", &out), 0);
    cli_expect_contains(out, "--ranks-from N");
    cli_expect_contains(out, "--opponent-ranks-from");
    cli_expect_contains(out, "--game GAME           chess, shogi, xiangqi");
    cli_expect_contains(out, "CSA (shogi)");
    ck_assert_msg(strstr(out, "lines (shogi)") == NULL, "shogi --out said to write position lines:\n%s", out);
    free(out);
    ck_assert_int_eq(cli_run("info --help", &out), 0);
    cli_expect_contains(out, "[--arch A.yaml]");
    cli_expect_contains(out, "--arch A.yaml the net's architecture");
    free(out);
    /* No file of the repository is called BENCH.md: the help points to docs/speed.md. */
    ck_assert_int_eq(cli_run("bench --help", &out), 0);
    ck_assert_msg(strstr(out, "BENCH.md") == NULL, "bench --help names BENCH.md:\n%s", out);
    cli_expect_contains(out, "docs/speed.md");
    free(out);
}
END_TEST

static int starts(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

/* eval --file's TSV: the JSON's words, and each row's input line, so a skipped bad line shifts
 * nothing. The net: SFNNv1's random weights (nnue init, no file needed). */
START_TEST(tsv_rows_name_their_line)
{
    char dir[4096], args[9000], *out;
    snprintf(dir, sizeof dir, "%s/walls-tsv", test_build_dir());
    snprintf(args, sizeof args,
             "mkdir -p '%s' && printf 'startpos\\nbad line\\n# comment\\n8/8/8/8/8/8/8/K6k w - - 0 1\\n' > '%s/p.fen'",
             dir, dir);
    ck_assert_int_eq(system(args), 0);
    snprintf(args, sizeof args, "init sfnnv1 '%s/v1.nnue'", dir);
    ck_assert_int_eq(cli_run(args, &out), 0);
    free(out);
    snprintf(args, sizeof args, "eval --quiet --net '%s/v1.nnue' --file '%s/p.fen' 2>/dev/null", dir, dir);
    ck_assert_int_eq(cli_run_stdout(args, &out), 1); /* one bad line */
    ck_assert_msg(starts(out, "position\tbucket\tpsqt\tpositional\ttotal\tscaled\tcp\tline\n"),
                  "header:\n%s", out);
    char *row1 = strchr(out, '\n') + 1, *row2 = strchr(row1, '\n') + 1;
    ck_assert_msg(starts(row1, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t"), "%s", out);
    ck_assert_msg(strstr(row1, "\t1\n") == strchr(row1, '\n') - 2, "row 1 is not line 1:\n%s", out);
    ck_assert_msg(starts(row2, "8/8/8/8/8/8/8/K6k w - - 0 1\t"), "%s", out);
    ck_assert_msg(strstr(row2, "\t4\n") == strchr(row2, '\n') - 2, "row 2 is not line 4:\n%s", out);
    free(out);
    /* --fen: one row, no line column. */
    snprintf(args, sizeof args, "eval --quiet --net '%s/v1.nnue' --fen startpos", dir);
    ck_assert_int_eq(cli_run_stdout(args, &out), 0);
    ck_assert_msg(starts(out, "position\tbucket\tpsqt\tpositional\ttotal\tscaled\tcp\n"), "%s", out);
    free(out);
}
END_TEST

/* info --json carries the worst-case ranges the text prints. */
START_TEST(info_json_has_ranges)
{
    char dir[4096], args[9000], *text, *json;
    snprintf(dir, sizeof dir, "%s/walls-info", test_build_dir());
    snprintf(args, sizeof args, "mkdir -p '%s'", dir);
    ck_assert_int_eq(system(args), 0);
    snprintf(args, sizeof args, "init sfnnv1 '%s/v1.nnue'", dir);
    ck_assert_int_eq(cli_run(args, &text), 0);
    free(text);
    snprintf(args, sizeof args, "info '%s/v1.nnue'", dir);
    ck_assert_int_eq(cli_run_stdout(args, &text), 0);
    snprintf(args, sizeof args, "info --json '%s/v1.nnue'", dir);
    ck_assert_int_eq(cli_run_stdout(args, &json), 0);
    /* Every range line of the text is an item of the JSON list. */
    char *acc = strstr(text, "\naccumulator   ");
    ck_assert_msg(acc != NULL, "no accumulator line:\n%s", text);
    char item[512];
    snprintf(item, sizeof item, "\"ranges\": [\"%.*s\"", (int)(strchr(acc + 1, '\n') - acc - 1), acc + 1);
    cli_expect_contains(json, item);
    cli_expect_contains(json, "\"layer fc2     inputs");
    cli_expect_contains(json, "\"overflow\": null}");
    free(text);
    free(json);
}
END_TEST

/* convert refuses Stockfish 18's and 19's nets saying why and what to do (docs/tool.md). */
START_TEST(convert_says_why_not)
{
    const char *home = getenv("HOME");
    const char *nets[] = {"c288c895ea924429", "1a298aa575a08543"}, *archs[] = {"SFNNv10", "SFNNv16"};
    for (int i = 0; i < 2; i++) {
        char net[4096], args[9000], *out;
        snprintf(net, sizeof net, "%s/.cache/nnue-nets/nn-%.12s.nnue", home ? home : "", nets[i]);
        int made = access(net, R_OK) != 0; /* no cached release net: a random one of its architecture */
        if (made) {
            snprintf(net, sizeof net, "%s/walls-%s.nnue", test_build_dir(), archs[i]);
            snprintf(args, sizeof args, "init archs/%s.yaml '%s'", i ? "sfnnv16" : "sfnnv10", net);
            ck_assert_int_eq(cli_run(args, &out), 0);
            free(out);
        }
        snprintf(args, sizeof args, "convert --to plain '%s' '%s/walls-out.nnue'", net, test_build_dir());
        ck_assert_int_eq(cli_run(args, &out), 1);
        char line[256];
        snprintf(line, sizeof line, "nnue convert: %s has %d feature sets (threat inputs of i8 weights", archs[i],
                 i ? 3 : 2);
        cli_expect_contains(out, line);
        cli_expect_contains(out, "use the file as it is");
        cli_expect_contains(out, "docs/tool.md, Converting nets");
        free(out);
        if (made)
            unlink(net);
    }
    char *doc = test_read_file(test_source_path("docs/tool.md"), NULL);
    ck_assert_ptr_nonnull(doc);
    cli_expect_contains(doc, "Stockfish 18's and 19's nets (SFNNv10, SFNNv16) are refused");
    free(doc);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_walls");
    TCase *tc = tcase_create("walls");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, release_nets_are_known);
    tcase_add_test(tc, info_names_release_nets);
    tcase_add_test(tc, usage_errors_say_what);
    tcase_add_test(tc, help_texts);
    tcase_add_test(tc, tsv_rows_name_their_line);
    tcase_add_test(tc, info_json_has_ranges);
    tcase_add_test(tc, convert_says_why_not);
    suite_add_tcase(s, tc);
    return test_run(s);
}
