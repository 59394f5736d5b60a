/* tests/eval/test_eval_bench.c: `nnue bench` runs the BENCH.md workloads exactly: one
 * iteration in every mode gives the checksums the reference engines printed
 * (chess: 7,242,223 per iteration; shogi raw: 262,400,773 and eval: 16,375,856). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_nets.h"
#include "support.h"

static const char *chess_net, *shogi_net;

static char *bench(const char *net, const char *arch, const char *positions, const char *extra)
{
    char command[8192];
    snprintf(command, sizeof command, "cd '%s' && '%s' bench --net '%s' --arch %s --file '%s' --iter 1 %s 2>&1",
             test_source_dir(), getenv("NNUE_TOOL"), net, arch, test_shared_path(positions), extra);
    FILE *p = popen(command, "r");
    ck_assert_ptr_nonnull(p);
    static char out[8192];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    ck_assert_int_eq(pclose(p), 0);
    return out;
}

static void expect_line(const char *out, const char *mode, const char *fragment)
{
    const char *line = strstr(out, mode);
    ck_assert_msg(line != NULL, "no %s line in:\n%s", mode, out);
    const char *end = strchr(line, '\n');
    ck_assert_msg(strstr(line, fragment) && strstr(line, fragment) < end, "%s line lacks %s:\n%s", mode, fragment, out);
}

START_TEST(chess_checksums)
{
    char *out = bench(chess_net, "archs/sfnnv5.yaml", "oracle/chess/corpusA.fen", "--mode all");
    expect_line(out, "mode=incremental", "evals=82990 ");
    expect_line(out, "mode=incremental", "checksum_total=7242223 ");
    expect_line(out, "mode=refresh", "checksum_total=7242223 ");
    expect_line(out, "mode=moves", "moves=80009 ");
    out = bench(chess_net, "archs/sfnnv5.yaml", "oracle/chess/corpusA.fen", "--mode incremental --cache on");
    expect_line(out, "cache=on", "checksum_total=7242223 ");
}
END_TEST

START_TEST(shogi_checksums)
{
    char *out = bench(shogi_net, "archs/shogi_halfkp.yaml", "oracle/shogi/corpusA.sfen", "--mode all");
    expect_line(out, "mode=incremental", "evals=140261 ");
    expect_line(out, "mode=incremental", "checksum_total=16375856 checksum_raw=262400773 ");
    expect_line(out, "mode=refresh", "checksum_total=16375856 checksum_raw=262400773 ");
    expect_line(out, "mode=moves", "moves=138261 ");
}
END_TEST

int main(void)
{
    test_require_shared("oracle/chess/corpusA.fen");
    test_require_shared("oracle/shogi/corpusA.sfen");
    chess_net = eval_net_file(eval_net_find("sf151"));
    shogi_net = eval_net_file(eval_net_find("shogi"));
    Suite *s = suite_create("eval_bench");
    TCase *tc = tcase_create("bench");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, chess_checksums);
    tcase_add_test(tc, shogi_checksums);
    suite_add_tcase(s, tc);
    return test_run(s);
}
