/* tests/eval/test_eval_bench.c [shogi|sfnn1536]: `nnue bench` runs the BENCH.md workloads
 * exactly: one iteration in every mode gives the checksums the reference engines printed
 * (chess, no argument: Stockfish 15.1's net, 7,242,223 per iteration, from the repository's
 * tests/reference/chess/bench-checksums.tsv and corpus; shogi: raw 262,400,773 and eval
 * 16,375,856, on the shared data).
 * The search-shaped `--mode tree`: at depth 1 it is that workload (same evals, same
 * checksums); deeper, on the first corpus positions, it gives the checksums of the same walk
 * with every node from scratch (tree-refresh), with the refresh cache on and off, on every ISA.
 * With the argument sfnn1536: YaneuraOu's SFNN1536 net on the shogi workload, raw -842,028,725
 * per iteration in both modes (shogi FORMATS.md section 11).
 * With the argument reckless, viridithas, stormphrax or plentychess: that engine's random net on
 * the chess workload, the checksum its own nnuebench printed (shared/oracle/third/<engine>/FACTS.md,
 * "nnuebench": the sum of raw, 16,082,591, 193,633 and -506,892,218,468 (past 32 bits) per
 * iteration; PlentyChess's the sum of nnue, -6,193,009), in every mode, with the cache on and off. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/isa.h"
#include "eval_nets.h"
#include "support.h"

static const char *chess_net, *shogi_net, *sfnn_net;

/* positions: a data path (test_data_path), or an absolute path. env: prefix such as "NNUE_ISA=avx2". */
static char *bench_env(const char *env, const char *net, const char *arch, const char *positions, const char *extra)
{
    char command[8192];
    snprintf(command, sizeof command, "cd '%s' && %s '%s' bench --net '%s' --arch %s --file '%s' --iter 1 %s 2>&1",
             test_source_dir(), env, getenv("NNUE_TOOL"), net, arch,
             positions[0] == '/' ? positions : test_data_path(positions), extra);
    FILE *p = popen(command, "r");
    ck_assert_ptr_nonnull(p);
    static char out[8192];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    ck_assert_int_eq(pclose(p), 0);
    return out;
}

static char *bench(const char *net, const char *arch, const char *positions, const char *extra)
{
    return bench_env("", net, arch, positions, extra);
}

static void expect_line(const char *out, const char *mode, const char *fragment)
{
    const char *line = strstr(out, mode);
    ck_assert_msg(line != NULL, "no %s line in:\n%s", mode, out);
    const char *end = strchr(line, '\n');
    ck_assert_msg(strstr(line, fragment) && strstr(line, fragment) < end, "%s line lacks %s:\n%s", mode, fragment, out);
}

static const char *chess_checksum;   /* "checksum_total=7242223 ": bench-checksums.tsv, Stockfish 15.1 */

START_TEST(chess_checksums)
{
    char *out = bench(chess_net, "archs/sfnnv5.yaml", EVAL_CHESS_CORPUS, "--mode all");
    expect_line(out, "mode=incremental", "evals=82990 ");
    expect_line(out, "mode=incremental", chess_checksum);
    expect_line(out, "mode=refresh", chess_checksum);
    expect_line(out, "mode=moves", "moves=80009 ");
    out = bench(chess_net, "archs/sfnnv5.yaml", EVAL_CHESS_CORPUS, "--mode incremental --cache on");
    expect_line(out, "cache=on", chess_checksum);
}
END_TEST

START_TEST(shogi_checksums)
{
    char *out = bench(shogi_net, "archs/shogi_halfkp.yaml", "oracle/shogi/corpusA.sfen", "--mode all");
    expect_line(out, "mode=incremental", "evals=140261 ");
    expect_line(out, "mode=incremental", "checksum_total=16375856 checksum_raw=262400773 ");
    expect_line(out, "mode=refresh", "checksum_total=16375856 checksum_raw=262400773 ");
    expect_line(out, "mode=moves", "moves=138261 ");
    out = bench(shogi_net, "archs/shogi_halfkp.yaml", "oracle/shogi/corpusA.sfen", "--mode incremental --clock cpu");
    expect_line(out, "mode=incremental", "checksum_raw=262400773 seconds=");
    expect_line(out, "mode=incremental", " clock=cpu\n");
}
END_TEST

/* The " evals=... checksum_raw=N " part of a bench line, which every tree variant must share. */
static void tree_sums(const char *out, char *sums, size_t size)
{
    const char *a = strstr(out, " evals="), *b = a ? strstr(a, " seconds=") : NULL;
    ck_assert_msg(a && b, "no tree line in:\n%s", out);
    const char *ns = strstr(a, " ns/eval="), *ck = strstr(a, " checksum_total=");
    ck_assert(ns && ck && ns < ck && ck < b);
    snprintf(sums, size, "%.*s%.*s ", (int)(ns - a), a, (int)(b - ck), ck);
}

static void expect_same_sums(const char *out, const char *sums)
{
    char got[512];
    tree_sums(out, got, sizeof got);
    ck_assert_msg(strcmp(got, sums) == 0, "tree sums differ: %s vs %s in:\n%s", got, sums, out);
}

/* Depth-2 trees from the first `count` positions of a corpus: every variant agrees with the
 * from-scratch walk. */
static void tree_agrees(const char *net, const char *arch, const char *corpus, int count)
{
    char path[512], *text = test_read_file(test_data_path(corpus), NULL);
    ck_assert_ptr_nonnull(text);
    snprintf(path, sizeof path, "%s/bench_tree_%d.txt", test_build_dir(), (int)getpid());
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    char *line = text;
    for (int i = 0; i < count && *line; i++) {
        char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line + 1) : strlen(line);
        fwrite(line, 1, n, f);
        line += n;
    }
    fclose(f);
    free(text);
    char sums[512];
    tree_sums(bench(net, arch, path, "--mode tree-refresh --depth 2"), sums, sizeof sums);
    ck_assert_msg(strstr(sums, " evals=0 ") == NULL, "empty tree");
    expect_same_sums(bench(net, arch, path, "--mode tree --depth 2 --cache off"), sums);
    expect_same_sums(bench(net, arch, path, "--mode tree --depth 2 --cache on"), sums);
    for (int i = 0; i < NNUE_ISA_COUNT; i++) { /* a level the CPU lacks runs the best one: still must agree */
        char env[64];
        snprintf(env, sizeof env, "NNUE_ISA=%s", nnue_isa_label((nnue_isa)i));
        expect_same_sums(bench_env(env, net, arch, path, "--mode tree --depth 2 --cache on"), sums);
    }
    remove(path);
}

START_TEST(chess_tree)
{
    char *out = bench(chess_net, "archs/sfnnv5.yaml", EVAL_CHESS_CORPUS, "--mode tree --depth 1");
    expect_line(out, "mode=tree", "evals=82990 ");
    expect_line(out, "mode=tree", chess_checksum);
    tree_agrees(chess_net, "archs/sfnnv5.yaml", EVAL_CHESS_CORPUS, 12);
}
END_TEST

START_TEST(shogi_tree)
{
    char *out = bench(shogi_net, "archs/shogi_halfkp.yaml", "oracle/shogi/corpusA.sfen", "--mode tree --depth 1");
    expect_line(out, "mode=tree", "evals=140261 ");
    expect_line(out, "mode=tree", "checksum_total=16375856 checksum_raw=262400773 ");
    tree_agrees(shogi_net, "archs/shogi_halfkp.yaml", "oracle/shogi/corpusA.sfen", 6);
}
END_TEST

START_TEST(shogi_sfnn1536_checksums)
{
    char *out = bench(sfnn_net, "archs/shogi_sfnn1536.yaml", "oracle/shogi/corpusA.sfen", "--mode all");
    expect_line(out, "mode=incremental", "evals=140261 ");
    expect_line(out, "mode=incremental", "checksum_raw=-842028725 ");
    expect_line(out, "mode=refresh", "checksum_raw=-842028725 ");
}
END_TEST

/* The third-party engines' nets: name, arch, the checksum their engine printed. */
static const struct third_net {
    const char *name, *arch, *checksum;
} third_nets[] = {
    {"reckless", "archs/reckless.yaml", "checksum_total=16082591 "},
    {"viridithas", "archs/viridithas.yaml", "checksum_total=193633 "},
    {"stormphrax", "archs/stormphrax.yaml", "checksum_total=-506892218468 "},
    {"plentychess", "archs/plentychess.yaml", "checksum_total=-6193009 "},
};
static const struct third_net *third;
static const char *third_path;

START_TEST(third_checksums)
{
    char *out = bench(third_path, third->arch, EVAL_CHESS_CORPUS, "--mode all");
    expect_line(out, "mode=incremental", "evals=82990 ");
    expect_line(out, "mode=incremental", third->checksum);
    expect_line(out, "mode=refresh", third->checksum);
    out = bench(third_path, third->arch, EVAL_CHESS_CORPUS, "--mode incremental --cache on");
    expect_line(out, "mode=incremental", third->checksum);
}
END_TEST

int main(int argc, char **argv)
{
    for (size_t i = 0; argc > 1 && i < sizeof third_nets / sizeof third_nets[0]; i++)
        if (strcmp(argv[1], third_nets[i].name) == 0) {
            third = &third_nets[i];
            third_path = eval_net_file(eval_net_find(third->name)); /* exits 77 when absent */
            Suite *s = suite_create("eval_bench");
            TCase *tc = tcase_create(third->name);
            tcase_set_timeout(tc, 600);
            tcase_add_test(tc, third_checksums);
            suite_add_tcase(s, tc);
            return test_run(s);
        }
    if (argc > 1 && strcmp(argv[1], "sfnn1536") == 0) {
        test_require_shared("oracle/shogi/corpusA.sfen");
        sfnn_net = eval_net_file(eval_net_find("sfnn1536"));
        Suite *s = suite_create("eval_bench");
        TCase *tc = tcase_create("bench_sfnn1536");
        tcase_set_timeout(tc, 600);
        tcase_add_test(tc, shogi_sfnn1536_checksums);
        suite_add_tcase(s, tc);
        return test_run(s);
    }
    Suite *s = suite_create("eval_bench");
    TCase *tc = tcase_create("bench");
    tcase_set_timeout(tc, 600);
    if (argc > 1 && strcmp(argv[1], "shogi") == 0) {
        test_require_shared("oracle/shogi/corpusA.sfen");
        shogi_net = eval_net_file(eval_net_find("shogi"));
        tcase_add_test(tc, shogi_checksums);
        tcase_add_test(tc, shogi_tree);
    } else {
        /* the repository's corpus and checksum, the net Debian's stockfish exports */
        if (!(chess_checksum = eval_bench_checksum("sf151"))) {
            fprintf(stderr, "FAIL: tests/reference/chess/bench-checksums.tsv has no row for sf151\n");
            return 1;
        }
        chess_net = eval_net_file(eval_net_find("sf151"));
        tcase_add_test(tc, chess_checksums);
        tcase_add_test(tc, chess_tree);
    }
    suite_add_tcase(s, tc);
    return test_run(s);
}
