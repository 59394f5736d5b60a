/* tests/tools/test_cli.c: the `nnue` tool as a user runs it: arch (text, --json, --dot rendered
 * by Graphviz), eval with architecture detection, errors. Detection and help: test_cli_detect.c,
 * test_cli_help.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli_run.h"
#include "nets/nets_helpers.h"
#include "support.h"

/* FORMATS.md section 1, as printed by the tool. */
START_TEST(arch_text_lists_reference_hashes)
{
    char *out;
    ck_assert_int_eq(cli_run("arch archs/sfnnv1.yaml archs/sfnnv5.yaml archs/shogi_halfkp.yaml", &out), 0);
    cli_expect_contains(out, "file hash     0x3E5AA6EE");
    cli_expect_contains(out, "ft hash       0x5D69D7B8");
    cli_expect_contains(out, "network hash  0x63337156");
    cli_expect_contains(out, "file hash     0x1C102EF2");
    cli_expect_contains(out, "ft hash       0x7F2344B8");
    cli_expect_contains(out, "network hash  0x63336A4A");
    cli_expect_contains(out, "file size     64217066 bytes");
    cli_expect_contains(out, "Features=HalfKP(Friend)[125388->256x2],Network=AffineTransform[1<-32](ClippedReLU[32]("
                         "AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))\n");
    free(out);
    /* A Progress section's hash is folded into the file hash (shared/oracle/shogi/yo26/FACTS.md s.1):
     * the text prints the file's, as --json does. */
    ck_assert_int_eq(cli_run("arch archs/shogi_sfnn_progress8.yaml archs/shogi_sfnn_shard.yaml", &out), 0);
    cli_expect_contains(out, "file hash     0x5370697D");
    cli_expect_contains(out, "file hash     0x3C203B32");
    free(out);
}
END_TEST

START_TEST(arch_json)
{
    char *out;
    ck_assert_int_eq(cli_run("arch --json archs/sfnnv8small.yaml archs/cwtch6.yaml", &out), 0);
    cli_expect_contains(out, "\"name\": \"SFNNv8-small\"");
    cli_expect_contains(out, "\"file_hash\": \"0x1C103C92\"");
    cli_expect_contains(out, "\"ft_hash\": \"0x7F234DB8\"");
    cli_expect_contains(out, "\"network_hash\": \"0x6333712A\"");
    cli_expect_contains(out, "\"file_size\": 3163200");
    cli_expect_contains(out, "\"file_size_exact\": true");
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
    ck_assert_int_eq(cli_run(args, &out), 0);
    free(out);
    char command[8192];
    snprintf(command, sizeof command, "dot -Tsvg '%s/sfnnv5.dot' -o '%s/sfnnv5.svg' 2>&1", test_build_dir(),
             test_build_dir());
    ck_assert_msg(system(command) == 0, "dot failed to render the graph");
    char path[4096];
    snprintf(path, sizeof path, "%s/sfnnv5.svg", test_build_dir());
    char *svg = test_read_file(path, NULL);
    ck_assert_ptr_nonnull(svg);
    cli_expect_contains(svg, "<svg");
    cli_expect_contains(svg, "fc0_skip");
    cli_expect_contains(svg, "layer stack x8");
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
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, "bad_arch.yaml:6:41: layer 1 (affine): unknown key 'bias'");
    free(out);
}
END_TEST

/* ASan reserves terabytes of address space: `ulimit -v` would stop the tool before main. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* Issue 26 finding 8: the description buffer was used unchecked. 9 levels of 4-way concats of a
 * shared slice give a 31 MB description; under a 24 MB address space malloc fails and `nnue arch`
 * died with SIGSEGV. It must exit 1 with a message instead (since the description limit of
 * base/arch_limits.h, the YAML itself is refused there: exit 1 too). */
START_TEST(arch_description_out_of_memory)
{
#ifdef UNDER_ASAN
    fprintf(stderr, "arch_description_out_of_memory: not under AddressSanitizer (ulimit -v)\n");
    return;
#endif
    char path[4096], command[8192];
    snprintf(path, sizeof path, "%s/blowup_arch.yaml", test_build_dir());
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("name: blowup\ngame: chess\nformat: {kind: stockfish, version: 0x7AF32F16}\n"
          "feature_transformer: {features: HalfKP, width: 8}\nlayers:\n"
          "  - {name: d0, type: concat, inputs: [ft, ft, ft, ft]}\n",
          f);
    for (int k = 1; k <= 9; k++)
        fprintf(f, "  - {name: s%d, type: slice, input: d%d, size: 4}\n"
                   "  - {name: d%d, type: concat, inputs: [s%d, s%d, s%d, s%d]}\n",
                k, k - 1, k, k, k, k, k);
    fputs("  - {name: out, type: affine, outputs: 1}\n", f);
    fclose(f);
    snprintf(command, sizeof command, "ulimit -v 24000 && exec '%s' arch '%s' 2>&1 >/dev/null", getenv("NNUE_TOOL"),
             path);
    FILE *p = popen(command, "r");
    ck_assert_ptr_nonnull(p);
    char err[2048] = "";
    size_t n = fread(err, 1, sizeof err - 1, p);
    err[n] = 0;
    int status = pclose(p);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1, "nnue arch: %s %d, expected exit 1; stderr: %s",
                  WIFEXITED(status) ? "exit" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                  err);
    cli_expect_contains(err, "nnue arch: ");
    cli_expect_contains(err, "blowup_arch.yaml");
}
END_TEST

static const char *net_v1;

/* A v1 net is recognised by its hash and evaluated; the values match the golden file's first row. */
START_TEST(eval_detects_arch_and_prints_tsv_and_json)
{
    char *out, args[4096];
    snprintf(args, sizeof args, "eval --net '%s' --fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'",
             net_v1);
    ck_assert_int_eq(cli_run(args, &out), 0);
    char *golden = test_read_file(test_shared_path("oracle/chess/golden-sfnnv1-A.tsv"), NULL);
    char *row = strchr(golden, '\n') + 1;
    char *f[6];
    *strchr(row, '\n') = 0;
    test_split_tabs(row, f, 6);
    char expected[512];
    snprintf(expected, sizeof expected, "%s\t%s\t%s\t%s\t%s\t", f[0], f[1], f[2], f[3], f[4]);
    cli_expect_contains(out, expected);
    free(out);
    snprintf(args, sizeof args, "eval --json --net '%s' --fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'",
             net_v1);
    ck_assert_int_eq(cli_run(args, &out), 0);
    snprintf(expected, sizeof expected, "\"positional\": %s, \"total\": %s", f[3], f[4]);
    cli_expect_contains(out, expected);
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
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, "bad_positions.fen:4:14:");
    free(out);
}
END_TEST

/* OpenMP batch evaluation gives the same lines, in the same order, on 1 and 2 threads. */
START_TEST(eval_threads_agree)
{
    char *one, *two, args[4096];
    snprintf(args, sizeof args, "eval --arch archs/sfnnv1.yaml --net '%s' --file '%s' --threads 1", net_v1,
             test_shared_path("oracle/chess/corpusA.fen"));
    ck_assert_int_eq(cli_run_stdout(args, &one), 0);
    snprintf(args, sizeof args, "eval --arch archs/sfnnv1.yaml --net '%s' --file '%s' --threads 2", net_v1,
             test_shared_path("oracle/chess/corpusA.fen"));
    ck_assert_int_eq(cli_run_stdout(args, &two), 0);
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
    ck_assert_int_eq(cli_run(args, &out), 0);
    char expected[64];
    snprintf(expected, sizeof expected, "\t%d\t%d\t-\n", embedded, embedded); /* total, scaled; cp: none for v1 */
    cli_expect_contains(out, expected);
    free(out);
}
END_TEST

int main(void)
{
    test_require_shared("oracle/chess/sfnnv1-random.nnue.xz");
    cli_use_source_archs();
    net_v1 = nets_shared("oracle/chess/sfnnv1-random.nnue.xz", "sfnnv1-random.nnue", 21022657);
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, arch_text_lists_reference_hashes);
    tcase_add_test(tc, arch_json);
    tcase_add_test(tc, arch_dot_renders);
    tcase_add_test(tc, arch_error_is_located);
    tcase_add_test(tc, arch_description_out_of_memory);
    tcase_add_test(tc, eval_detects_arch_and_prints_tsv_and_json);
    tcase_add_test(tc, eval_reports_bad_positions_with_location);
    tcase_add_test(tc, embedding_example_agrees_with_eval);
    tcase_add_test(tc, eval_threads_agree);
    suite_add_tcase(s, tc);
    return test_run(s);
}
