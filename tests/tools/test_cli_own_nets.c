/* tests/tools/test_cli_own_nets.c: a user's own `nnue init` net loads without --arch (issue 39).
 * The file hash leaves out layer stacks and PSQT buckets, so a 128-wide HalfKAv2_hm net of the
 * user's own stacks has SFNNv8-small's hash: its description (written by nnue init) names its
 * architecture, which is taken when found (beside the net here), and otherwise the tool says to
 * pass --arch instead of calling the file truncated or taking SFNNv8-small. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "support.h"

static char dir[4096], away[4096];

/* SFNNv8-small's numbers (archs/sfnnv8small.yaml) with 4 stacks and 4 PSQT buckets: same file hash. */
static const char yaml_text[] =
    "name: my-small\n"
    "game: chess\n"
    "format: {kind: stockfish, version: 0x7AF32F20%s}\n"
    "feature_transformer:\n"
    "  features: HalfKAv2_hm\n"
    "  width: 128\n"
    "  psqt_buckets: 4\n"
    "  activation: {type: pairwise, max: 127, shift: 7}\n"
    "stacks: {count: 4, selector: (pieces - 1) / 8}\n"
    "layers:\n"
    "  - {name: fc0, type: affine_sparse, outputs: 16}\n"
    "  - {name: fc0_main, type: slice, input: fc0, offset: 0, size: 15}\n"
    "  - {name: fc0_skip, type: slice, input: fc0, offset: 15, size: 1}\n"
    "  - {name: ac0_sqr, type: sqr_crelu, input: fc0_main}\n"
    "  - {name: ac0, type: crelu, input: fc0_main}\n"
    "  - {name: ac0_both, type: concat, inputs: [ac0_sqr, ac0]}\n"
    "  - {name: fc1, type: affine, outputs: 32}\n"
    "  - {name: ac1, type: crelu}\n"
    "  - {name: fc2, type: affine, outputs: 1}\n"
    "  - {name: out, type: skip, inputs: [fc2, fc0_skip], scale: [9600, 8128]}\n"
    "output: {divisor: 16}\n";

static void write_yaml(const char *path, int leb128)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, yaml_text, leb128 ? ", leb128: true" : "");
    ck_assert_int_eq(fclose(f), 0);
}

/* The net's start-position row with --arch (the reference) and without. */
static void same_eval_with_and_without_arch(const char *net, const char *yaml)
{
    char args[8192], *with, *without;
    snprintf(args, sizeof args, "eval --arch '%s' --net '%s' --fen startpos --quiet", yaml, net);
    ck_assert_int_eq(cli_run_stdout(args, &with), 0);
    snprintf(args, sizeof args, "eval --net '%s' --fen startpos --quiet", net);
    ck_assert_int_eq(cli_run(args, &without), 0);
    ck_assert_msg(strstr(with, "RNBQKBNR w KQkq - 0 1\t") != NULL, "no row with --arch:\n%s", with);
    ck_assert_str_eq(without, with);
    free(with);
    free(without);
}

START_TEST(plain_net_beside_its_yaml_loads)
{
    char yaml[4200], net[4200], args[16384], *out;
    snprintf(yaml, sizeof yaml, "%s/plain.yaml", dir);
    snprintf(net, sizeof net, "%s/plain.nnue", dir);
    write_yaml(yaml, 0);
    snprintf(args, sizeof args, "init '%s' '%s'", yaml, net);
    ck_assert_int_eq(cli_run(args, &out), 0);
    free(out);
    same_eval_with_and_without_arch(net, yaml);
    snprintf(args, sizeof args, "info '%s'", net);
    ck_assert_int_eq(cli_run(args, &out), 0);
    cli_expect_contains(out, "architecture  my-small  ");
    cli_expect_contains(out, "plain.yaml  (chosen)\n");
    ck_assert_ptr_null(strstr(out, "truncated"));
    free(out);
}
END_TEST

START_TEST(leb128_net_beside_its_yaml_loads)
{
    char yaml[4200], net[4200], args[16384], *out;
    snprintf(yaml, sizeof yaml, "%s/leb.yaml", dir);
    snprintf(net, sizeof net, "%s/leb.nnue", dir);
    write_yaml(yaml, 1);
    snprintf(args, sizeof args, "init '%s' '%s'", yaml, net);
    ck_assert_int_eq(cli_run(args, &out), 0);
    free(out);
    /* SFNNv8-small fits a LEB128 file of this hash at any size: the description decides. */
    same_eval_with_and_without_arch(net, yaml);
}
END_TEST

/* The net moved away from its YAML: a clear refusal naming the architecture and --arch. */
START_TEST(net_without_its_yaml_says_pass_arch)
{
    char src[4200], yaml[4200], net[4200], args[20000], *out;
    snprintf(yaml, sizeof yaml, "%s/plain2.yaml", dir);
    snprintf(src, sizeof src, "%s/plain2.nnue", dir);
    snprintf(net, sizeof net, "%s/plain2.nnue", away);
    write_yaml(yaml, 0);
    snprintf(args, sizeof args, "init '%s' '%s' && mv '%s' '%s'", yaml, src, src, net);
    ck_assert_int_eq(cli_run(args, &out), 0);
    free(out);
    const char *cmds[] = {"eval --fen startpos --net", "info"};
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "%s '%s'", cmds[i], net);
        ck_assert_int_eq(cli_run(args, &out), 1);
        cli_expect_contains(out, "nnue init wrote this net for architecture 'my-small'");
        cli_expect_contains(out, "SFNNv8-small (built-in (archs/sfnnv8small.yaml)) shares its file hash 0x1C103C92");
        cli_expect_contains(out, "pass --arch with the YAML of 'my-small'");
        ck_assert_msg(strstr(out, "truncated or damaged") == NULL, "called damaged:\n%s", out);
        free(out);
    }
    snprintf(args, sizeof args, "eval --arch '%s' --net '%s' --fen startpos --quiet", yaml, net);
    ck_assert_int_eq(cli_run(args, &out), 0);
    free(out);
}
END_TEST

/* A file that only shares the hash and says nothing: the size message also names --arch. */
START_TEST(size_mismatch_mentions_arch)
{
    char yaml[4200], net[4200], args[16384], *out;
    snprintf(yaml, sizeof yaml, "%s/plain3.yaml", dir);
    snprintf(net, sizeof net, "%s/plain3.nnue", away);
    write_yaml(yaml, 0);
    /* Description bytes 12.. overwritten: no longer nnue init's sentence. */
    snprintf(args, sizeof args,
             "init '%s' '%s' && printf 'X' | dd of='%s' bs=1 seek=12 conv=notrunc status=none", yaml, net, net);
    ck_assert_int_eq(cli_run(args, &out), 0);
    free(out);
    snprintf(args, sizeof args, "eval --fen startpos --net '%s'", net);
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, "(truncated or damaged?)");
    cli_expect_contains(out, "or a net of another architecture with the same file hash");
    cli_expect_contains(out, "pass its --arch");
    free(out);
}
END_TEST

int main(void)
{
    snprintf(dir, sizeof dir, "%s/own-nets", test_build_dir());
    snprintf(away, sizeof away, "%s/own-nets/away", test_build_dir());
    char command[9000];
    snprintf(command, sizeof command, "rm -rf '%s' && mkdir -p '%s'", dir, away);
    if (system(command) != 0)
        return 1;
    Suite *s = suite_create("cli_own_nets");
    TCase *tc = tcase_create("own_nets");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, plain_net_beside_its_yaml_loads);
    tcase_add_test(tc, leb128_net_beside_its_yaml_loads);
    tcase_add_test(tc, net_without_its_yaml_says_pass_arch);
    tcase_add_test(tc, size_mismatch_mentions_arch);
    suite_add_tcase(s, tc);
    return test_run(s);
}
