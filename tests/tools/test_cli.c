/* tests/tools/test_cli.c: the `nnue` tool as a user runs it: arch (text, --json, --dot rendered
 * by Graphviz), info and eval with architecture detection, ambiguity refusal, errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

/* Runs `nnue ARGS` (from the source tree), captures stdout+stderr; returns the exit status. */
static int run(const char *args, char **output)
{
    char command[8192];
    snprintf(command, sizeof command, "cd '%s' && '%s' %s 2>&1", test_source_dir(), getenv("NNUE_TOOL"), args);
    FILE *p = popen(command, "r");
    ck_assert_ptr_nonnull(p);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (len + 1 >= cap)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = 0;
    int status = pclose(p);
    *output = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void expect_contains(const char *text, const char *fragment)
{
    ck_assert_msg(strstr(text, fragment) != NULL, "output lacks '%s':\n%s", fragment, text);
}

/* FORMATS.md section 1, as printed by the tool. */
START_TEST(arch_text_lists_reference_hashes)
{
    char *out;
    ck_assert_int_eq(run("arch archs/sfnnv1.yaml archs/sfnnv5.yaml archs/shogi_halfkp.yaml", &out), 0);
    expect_contains(out, "file hash     0x3E5AA6EE");
    expect_contains(out, "ft hash       0x5D69D7B8");
    expect_contains(out, "network hash  0x63337156");
    expect_contains(out, "file hash     0x1C102EF2");
    expect_contains(out, "ft hash       0x7F2344B8");
    expect_contains(out, "network hash  0x63336A4A");
    expect_contains(out, "file size     64217066 bytes");
    expect_contains(out, "Features=HalfKP(Friend)[125388->256x2],Network=AffineTransform[1<-32](ClippedReLU[32]("
                         "AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))\n");
    free(out);
}
END_TEST

START_TEST(arch_json)
{
    char *out;
    ck_assert_int_eq(run("arch --json archs/sfnnv8small.yaml archs/cwtch6.yaml", &out), 0);
    expect_contains(out, "\"name\": \"SFNNv8-small\"");
    expect_contains(out, "\"file_hash\": \"0x1C103C92\"");
    expect_contains(out, "\"ft_hash\": \"0x7F234DB8\"");
    expect_contains(out, "\"network_hash\": \"0x6333712A\"");
    expect_contains(out, "\"file_size\": 3163200");
    expect_contains(out, "\"file_size_exact\": true");
    ck_assert_int_eq(out[0], '[');
    free(out);
}
END_TEST

/* The Graphviz picture is valid: dot renders it. */
START_TEST(arch_dot_renders)
{
    char *out;
    char args[4096];
    snprintf(args, sizeof args, "arch --dot archs/sfnnv5.yaml > '%s/sfnnv5.dot'", test_build_dir());
    ck_assert_int_eq(run(args, &out), 0);
    free(out);
    char command[8192];
    snprintf(command, sizeof command, "dot -Tsvg '%s/sfnnv5.dot' -o '%s/sfnnv5.svg' 2>&1", test_build_dir(),
             test_build_dir());
    ck_assert_msg(system(command) == 0, "dot failed to render the graph");
    char path[4096];
    snprintf(path, sizeof path, "%s/sfnnv5.svg", test_build_dir());
    char *svg = test_read_file(path, NULL);
    ck_assert_ptr_nonnull(svg);
    expect_contains(svg, "<svg");
    expect_contains(svg, "fc0_skip");
    expect_contains(svg, "layer stack x8");
    free(svg);
}
END_TEST

START_TEST(arch_error_is_located)
{
    char *out;
    char args[4096];
    snprintf(args, sizeof args, "arch '%s/bad_arch.yaml'", test_build_dir());
    char path[4096];
    snprintf(path, sizeof path, "%s/bad_arch.yaml", test_build_dir());
    FILE *f = fopen(path, "w");
    fputs("name: x\ngame: chess\nformat: {kind: stockfish, version: 1}\nfeature_transformer: {features: HalfKP, "
          "width: 8}\nlayers:\n  - {name: a, type: affine, outputs: 1, bias: 3}\n",
          f);
    fclose(f);
    ck_assert_int_eq(run(args, &out), 1);
    expect_contains(out, "bad_arch.yaml:6:41: layer 1 (affine): unknown key 'bias'");
    free(out);
}
END_TEST

START_TEST(usage_errors)
{
    char *out;
    ck_assert_int_eq(run("frobnicate", &out), 2);
    expect_contains(out, "unknown command 'frobnicate'");
    free(out);
    ck_assert_int_eq(run("arch", &out), 2);
    expect_contains(out, "usage: nnue arch");
    free(out);
    ck_assert_int_eq(run("eval --net x", &out), 2);
    free(out);
}
END_TEST

static const char *net_v5, *net_v1;

/* v4 and v5 files share every hash: info lists both, eval refuses to guess. */
START_TEST(info_and_eval_refuse_ambiguity)
{
    char *out, args[4096];
    snprintf(args, sizeof args, "info '%s'", net_v5);
    ck_assert_int_eq(run(args, &out), 0);
    expect_contains(out, "file hash     0x1C102EF2");
    expect_contains(out, "archs/sfnnv4.yaml");
    expect_contains(out, "archs/sfnnv5.yaml");
    expect_contains(out, "cannot tell them apart");
    free(out);
    snprintf(args, sizeof args, "eval --net '%s' --fen '8/8/8/8/8/8/8/K6k w - - 0 1'", net_v5);
    ck_assert_int_eq(run(args, &out), 1);
    expect_contains(out, "fits 2 architectures");
    expect_contains(out, "--arch");
    free(out);
}
END_TEST

/* A v1 net is recognised by its hash and evaluated; the values match the golden file's first row. */
START_TEST(eval_detects_arch_and_prints_tsv_and_json)
{
    char *out, args[4096];
    snprintf(args, sizeof args, "eval --net '%s' --fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'",
             net_v1);
    ck_assert_int_eq(run(args, &out), 0);
    char *golden = test_read_file(test_shared_path("oracle/chess/golden-sfnnv1-A.tsv"), NULL);
    char *row = strchr(golden, '\n') + 1;
    char *f[6];
    *strchr(row, '\n') = 0;
    test_split_tabs(row, f, 6);
    char expected[512];
    snprintf(expected, sizeof expected, "%s\t%s\t%s\t%s\t%s\t", f[0], f[1], f[2], f[3], f[4]);
    expect_contains(out, expected);
    free(out);
    snprintf(args, sizeof args, "eval --json --net '%s' --fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'",
             net_v1);
    ck_assert_int_eq(run(args, &out), 0);
    snprintf(expected, sizeof expected, "\"positional\": %s, \"total\": %s", f[3], f[4]);
    expect_contains(out, expected);
    free(out);
    free(golden);
}
END_TEST

START_TEST(eval_reports_bad_positions_with_location)
{
    char *out, args[4096], path[4096];
    snprintf(path, sizeof path, "%s/bad_positions.fen", test_build_dir());
    FILE *f = fopen(path, "w");
    fputs("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\n# comment\nrnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n", f);
    fclose(f);
    snprintf(args, sizeof args, "eval --net '%s' --file '%s'", net_v1, path);
    ck_assert_int_eq(run(args, &out), 1);
    expect_contains(out, "bad_positions.fen:4:14:");
    free(out);
}
END_TEST

/* OpenMP batch evaluation gives the same lines, in the same order, on 1 and 2 threads. */
START_TEST(eval_threads_agree)
{
    char *one, *two, args[4096];
    snprintf(args, sizeof args, "eval --arch archs/sfnnv1.yaml --net '%s' --file '%s' --threads 1", net_v1,
             test_shared_path("oracle/chess/corpusA.fen"));
    ck_assert_int_eq(run(args, &one), 0);
    snprintf(args, sizeof args, "eval --arch archs/sfnnv1.yaml --net '%s' --file '%s' --threads 2", net_v1,
             test_shared_path("oracle/chess/corpusA.fen"));
    ck_assert_int_eq(run(args, &two), 0);
    ck_assert_uint_gt(strlen(one), 2981 * 60);
    ck_assert_str_eq(one, two);
    free(one);
    free(two);
}
END_TEST

/* The public-API example (examples/embed_chess.c) plays moves incrementally; its last value
 * equals a fresh evaluation of the final position by the tool. */
START_TEST(embedding_example_agrees_with_eval)
{
    char *out, args[4096], command[8192];
    snprintf(command, sizeof command, "cd '%s' && '%s/examples/embed_chess' archs/sfnnv1.yaml '%s' "
             "'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' e2e4 e7e5 g1f3 2>&1",
             test_source_dir(), test_build_dir(), net_v1);
    FILE *p = popen(command, "r");
    char line[512], last[512] = "";
    while (fgets(line, sizeof line, p))
        snprintf(last, sizeof last, "%s", line);
    ck_assert_int_eq(pclose(p), 0);
    int embedded;
    ck_assert_int_eq(sscanf(last, "after g1f3: total %d", &embedded), 1);
    snprintf(args, sizeof args, "eval --arch archs/sfnnv1.yaml --net '%s' --fen "
             "'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2'", net_v1);
    ck_assert_int_eq(run(args, &out), 0);
    char expected[64];
    snprintf(expected, sizeof expected, "\t%d\t%d\n", embedded, embedded);
    expect_contains(out, expected);
    free(out);
}
END_TEST

int main(void)
{
    test_require_shared("oracle/chess/sfnnv1-random.nnue.xz");
    /* Small fixtures: the v1 net decompressed, and a v5 header copy is enough for info/eval refusal. */
    static char v1[4096], v5[4096];
    snprintf(v1, sizeof v1, "%s/cli-sfnnv1.nnue", test_build_dir());
    snprintf(v5, sizeof v5, "%s/cli-sfnnv5.nnue", test_build_dir());
    char command[12000];
    snprintf(command, sizeof command, "test -s '%s' || xz -dc '%s' > '%s'", v1,
             test_shared_path("oracle/chess/sfnnv1-random.nnue.xz"), v1);
    if (system(command) != 0)
        return 1;
    snprintf(command, sizeof command, "test -s '%s' || xz -dc '%s' > '%s'", v5,
             test_shared_path("oracle/chess/sfnnv5-random.nnue.xz"), v5);
    if (system(command) != 0)
        return 1;
    net_v1 = v1;
    net_v5 = v5;
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, arch_text_lists_reference_hashes);
    tcase_add_test(tc, arch_json);
    tcase_add_test(tc, arch_dot_renders);
    tcase_add_test(tc, arch_error_is_located);
    tcase_add_test(tc, usage_errors);
    tcase_add_test(tc, info_and_eval_refuse_ambiguity);
    tcase_add_test(tc, eval_detects_arch_and_prints_tsv_and_json);
    tcase_add_test(tc, eval_reports_bad_positions_with_location);
    tcase_add_test(tc, embedding_example_agrees_with_eval);
    tcase_add_test(tc, eval_threads_agree);
    suite_add_tcase(s, tc);
    return test_run(s);
}
