/* tests/tools/test_cli_convert.c: `nnue convert`: Stockfish nets plain <-> LEB128 round trip
 * byte for byte (and the LEB128 net of the oracle, written for Stockfish 16.1, re-encoded to the
 * same bytes), YaneuraOu's HalfKP nn.bin the same way, a header-less bullet net (Cwtch 6) into a
 * self-describing file that evaluates like the original without --arch, the refusals, and that a
 * failed conversion leaves the destination alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "eval/eval_nets.h"
#include "support.h"

static const char *net_v5, *net_shogi;

static char *build_path(const char *name)
{
    static char paths[8][4096];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, 4096, "%s/%s", test_build_dir(), name);
    return p;
}

static int same_files(const char *a, const char *b)
{
    char command[9000];
    snprintf(command, sizeof command, "cmp -s '%s' '%s'", a, b);
    return system(command) == 0;
}

static void convert(const char *to, const char *arch, const char *in, const char *out)
{
    char args[9000], *text;
    snprintf(args, sizeof args, "convert %s%s%s --to %s '%s' '%s'", arch ? "--arch '" : "", arch ? arch : "",
             arch ? "'" : "", to, in, out);
    ck_assert_msg(cli_run(args, &text) == 0, "%s failed:\n%s", args, text);
    cli_expect_contains(text, "evaluate as the input\n");
    free(text);
}

START_TEST(stockfish_round_trip)
{
    char *leb = build_path("cv-v5-leb.nnue"), *back = build_path("cv-v5-back.nnue");
    convert("leb128", NULL, net_v5, leb);
    convert("plain", NULL, leb, back);
    ck_assert_msg(same_files(net_v5, back), "plain -> leb128 -> plain changed the bytes");
    ck_assert_msg(!same_files(net_v5, leb), "the LEB128 file equals the plain one");
    /* The LEB128 net evaluates like the plain one (golden-sfnnv5 row 1, printed by Stockfish 15.1). */
    char args[8192], *out;
    snprintf(args, sizeof args, "eval --arch archs/sfnnv5.yaml --net '%s' --file '%s' --quiet", leb,
             test_shared_path("oracle/chess/corpusA.fen"));
    ck_assert_int_eq(cli_run_stdout(args, &out), 0);
    char *plain;
    snprintf(args, sizeof args, "eval --arch archs/sfnnv5.yaml --net '%s' --file '%s' --quiet", net_v5,
             test_shared_path("oracle/chess/corpusA.fen"));
    ck_assert_int_eq(cli_run_stdout(args, &plain), 0);
    ck_assert_str_eq(out, plain);
    free(out);
    free(plain);
    /* A net that was LEB128 from the start: to plain and back gives its own bytes again. */
    const char *small = test_shared_path("oracle/chess/sfnnv8small-random.nnue");
    char *small_plain = build_path("cv-small-plain.nnue"), *small_leb = build_path("cv-small-leb.nnue");
    convert("plain", NULL, small, small_plain);
    convert("leb128", NULL, small_plain, small_leb);
    ck_assert_msg(same_files(small, small_leb), "re-encoding the oracle's LEB128 net changed its bytes");
}
END_TEST

START_TEST(yaneuraou_round_trip)
{
    char *leb = build_path("cv-shogi-leb.bin"), *back = build_path("cv-shogi-back.bin");
    convert("leb128", "archs/shogi_halfkp.yaml", net_shogi, leb);
    convert("plain", "archs/shogi_halfkp.yaml", leb, back);
    ck_assert_msg(same_files(net_shogi, back), "plain -> leb128 -> plain changed the bytes of nn.bin");
}
END_TEST

START_TEST(bullet_net_into_self_describing_file)
{
    const char *raw = test_shared_path("oracle/third/cwtch/cwtch6-quantised.bin");
    char *self = build_path("cv-cwtch6.nnue");
    convert("self-describing", "archs/cwtch6.yaml", raw, self);
    char args[8192], *with_arch, *without;
    snprintf(args, sizeof args, "eval --arch archs/cwtch6.yaml --net '%s' --file '%s' --quiet", raw,
             test_shared_path("oracle/chess/corpusA.fen"));
    ck_assert_int_eq(cli_run_stdout(args, &with_arch), 0);
    snprintf(args, sizeof args, "eval --net '%s' --file '%s' --quiet", self, test_shared_path("oracle/chess/corpusA.fen"));
    ck_assert_int_eq(cli_run_stdout(args, &without), 0);
    ck_assert_uint_gt(strlen(without), 2981 * 60);
    ck_assert_str_eq(with_arch, without);
    free(with_arch);
    free(without);
    snprintf(args, sizeof args, "info '%s'", self);
    ck_assert_int_eq(cli_run(args, &without), 0);
    cli_expect_contains(without, "architecture  cwtch6 (embedded YAML)\n");
    /* Like any other net: its description string and the worst-case ranges. */
    cli_expect_contains(without, "description   Features=Chess768");
    cli_expect_contains(without, "accumulator   -12891..8762 worst case with 32 active features");
    cli_expect_contains(without, "layer out     inputs 0..1073676289, sums -55363801980..59161668846");
    free(without);
    /* Its overflow warning says what it is and what to do; --strict refuses the net. */
    snprintf(args, sizeof args, "eval --arch cwtch6 --net '%s' --fen startpos", raw);
    ck_assert_int_eq(cli_run(args, &without), 0);
    cli_expect_contains(without, "int32 sum of layer 'out' can overflow: stack 1 output 0 reaches 59161668846\n");
    cli_expect_contains(without, "(a worst case over all inputs, not a failure");
    cli_expect_contains(without, "--strict refuses such nets; docs/units.md)\n");
    free(without);
    snprintf(args, sizeof args, "eval --strict --arch cwtch6 --net '%s' --fen startpos", raw);
    ck_assert_int_eq(cli_run(args, &without), 1);
    cli_expect_contains(without, "refused (--strict)");
    free(without);
    /* The raw net itself, without --arch: no nonsense header, a hint and exit 1. */
    snprintf(args, sizeof args, "info '%s'", raw);
    ck_assert_int_eq(cli_run(args, &without), 1);
    cli_expect_contains(without, "a header-less (raw) net, which does not name its architecture");
    cli_expect_contains(without, "is that of the built-in raw architecture cwtch6");
    cli_expect_contains(without, "the tool's --arch cwtch6");
    ck_assert_msg(strstr(without, "version       0x") == NULL, "a header was printed:\n%s", without);
    free(without);
    /* Truncated: said with the byte offset. */
    char *cut = build_path("cv-cwtch6-cut.nnue"), command[9000];
    snprintf(command, sizeof command, "head -c 3000 '%s' > '%s'", self, cut);
    ck_assert_int_eq(system(command), 0);
    snprintf(args, sizeof args, "eval --net '%s' --fen '8/8/8/8/8/8/8/K6k w - - 0 1'", cut);
    ck_assert_int_eq(cli_run(args, &without), 1);
    cli_expect_contains(without, "do not add up to the file size 3000 (truncated?)\n");
    free(without);
}
END_TEST

START_TEST(refusals)
{
    char args[8192], *out;
    snprintf(args, sizeof args, "convert --arch archs/cwtch6.yaml --to leb128 '%s' '%s'",
             test_shared_path("oracle/third/cwtch/cwtch6-quantised.bin"), build_path("cv-never.nnue"));
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, "try --to self-describing");
    free(out);
    snprintf(args, sizeof args, "convert --to self-describing '%s' '%s'", net_v5, build_path("cv-never.nnue"));
    ck_assert_int_eq(cli_run(args, &out), 2);
    cli_expect_contains(out, "needs --arch");
    free(out);
    ck_assert_int_eq(cli_run("convert --to zip a b", &out), 2);
    cli_expect_contains(out, "usage: nnue convert");
    free(out);
    /* Nothing is left behind by a failed conversion. */
    char command[8300];
    snprintf(command, sizeof command, "test ! -e '%s' && test ! -e '%s.tmp'", build_path("cv-never.nnue"),
             build_path("cv-never.nnue"));
    ck_assert_int_eq(system(command), 0);
}
END_TEST

/* A conversion that fails part-way (the input is cut short, so the reader stops after output was
 * written) leaves an existing OUT exactly as it was and no temporary file in its folder. */
START_TEST(failure_leaves_the_destination_alone)
{
    char *dir = build_path("cv-atomic"), command[9000], args[8192], *out;
    snprintf(command, sizeof command, "rm -rf '%s' && mkdir '%s' && printf old > '%s/out.nnue' && "
             "head -c 3000000 '%s' > '%s-cut.nnue'", dir, dir, dir, net_v5, dir);
    ck_assert_int_eq(system(command), 0);
    snprintf(args, sizeof args, "convert --arch archs/sfnnv5.yaml --to leb128 '%s-cut.nnue' '%s/out.nnue'", dir, dir);
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, "-cut.nnue");
    free(out);
    snprintf(command, sizeof command, "test \"$(cat '%s/out.nnue')\" = old && test \"$(ls -A '%s')\" = out.nnue",
             dir, dir);
    ck_assert_msg(system(command) == 0, "a failed conversion changed %s/out.nnue or left a file beside it", dir);
}
END_TEST

int main(void)
{
    test_require_shared("oracle/third/cwtch/cwtch6-quantised.bin");
    test_require_shared("oracle/shogi/random_halfkp_s20260101.bin.xz");
    cli_use_source_archs();
    net_v5 = eval_net_file(eval_net_find("sfnnv5"));
    net_shogi = eval_net_file(eval_net_find("shogi"));
    Suite *s = suite_create("cli_convert");
    TCase *tc = tcase_create("convert");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, stockfish_round_trip);
    tcase_add_test(tc, yaneuraou_round_trip);
    tcase_add_test(tc, bullet_net_into_self_describing_file);
    tcase_add_test(tc, refusals);
    tcase_add_test(tc, failure_leaves_the_destination_alone);
    suite_add_tcase(s, tc);
    return test_run(s);
}
