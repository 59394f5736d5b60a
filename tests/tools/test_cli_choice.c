/* tests/tools/test_cli_choice.c: the tool and the library choose the same architecture for the
 * same file (one chooser, include/nnue_netfile.h nnue_arch_choose; docs/detection.md): for known
 * SFNNv4/v5 nets, an unknown file of their hashes, SFNNv1 beside YaneuraOu's HalfKP net (same
 * hashes), a truncated file, and the edge case where they used to differ: an `nnue init` net of
 * a built-in architecture whose size is another candidate's (the tool took the other one; both
 * now refuse, naming the architecture the description names and its size). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "eval/eval_nets.h"
#include "nnue.h"
#include "support.h"

static const char *net_v4, *net_v5, *net_v1, *net_shogi;
static char dir[4096], unknown_v5[4200], truncated_v1[4200], named_v1[4200];

/* SFNNv1 with two layer stacks: the same file hash (it leaves out stacks), a larger file. */
static const char two_stacks_yaml[] =
    "name: SFNNv1-two\ngame: chess\nformat: {kind: stockfish, version: 0x7AF32F16}\n"
    "feature_transformer: {features: HalfKP, width: 256, activation: {type: clamp, max: 127}}\n"
    "stacks: {count: 2, selector: (pieces - 1) / 16}\n"
    "layers:\n  - {name: fc0, type: affine, outputs: 32}\n  - {name: ac0, type: crelu}\n"
    "  - {name: fc1, type: affine, outputs: 32}\n  - {name: ac1, type: crelu}\n"
    "  - {name: fc2, type: affine, outputs: 1}\noutput: {divisor: 16}\n";

/* The tool's choice for net (`nnue info --json`: the chosen source, "" for none) and exit code. */
static int tool_choice(const char *net, char *chosen, size_t size)
{
    char args[8192], *out;
    snprintf(args, sizeof args, "info --json '%s' 2>/dev/null", net);
    int rc = cli_run_stdout(args, &out);
    const char *p = strstr(out, "\"chosen\": \"");
    ck_assert_msg(p != NULL, "no chosen in:\n%s", out);
    p += strlen("\"chosen\": \"");
    size_t n = strcspn(p, "\"");
    ck_assert_uint_lt(n, size);
    memcpy(chosen, p, n);
    chosen[n] = 0;
    free(out);
    return rc;
}

/* The library's choice with the folders the tool searches here ($NNUE_ARCHS_DIR). */
static nnue_choice *library_choice(const char *net)
{
    const char *dirs[] = {dir};
    nnue_choice *c;
    nnue_error err;
    ck_assert_msg(nnue_arch_choose(net, dirs, 1, NNUE_CHOOSE_BESIDE_NET, &c, &err) == NNUE_OK, "%s", err.message);
    return c;
}

static void same_choice(const char *net, const char *expected_source)
{
    char tool[4200];
    int rc = tool_choice(net, tool, sizeof tool);
    nnue_choice *c = library_choice(net);
    int i = nnue_choice_chosen(c);
    const char *lib = i >= 0 ? nnue_choice_source(c, i) : "";
    ck_assert_msg(strcmp(tool, lib) == 0, "%s: the tool chose '%s', the library '%s'", net, tool, lib);
    ck_assert_msg(strcmp(lib, expected_source) == 0, "%s: chose '%s', expected '%s'", net, lib, expected_source);
    if (i < 0) {
        nnue_arch *none;
        nnue_error err;
        ck_assert_int_ne(nnue_choice_result(c, &none, &err), NNUE_OK);
        ck_assert_ptr_null(none);
        ck_assert_msg(strstr(err.message, net) != NULL, "the error does not name the file: %s", err.message);
        ck_assert_int_ne(nnue_choice_kind_of(c), NNUE_CHOICE_DEFAULT);
        if (nnue_choice_kind_of(c) != NNUE_CHOICE_AMBIGUOUS)
            ck_assert_int_eq(rc, 1);
    } else {
        ck_assert_int_eq(rc, 0);
    }
    nnue_choice_free(c);
}

START_TEST(same_choice_for_the_same_file)
{
    same_choice(net_v4, "built-in (archs/sfnnv4.yaml)");
    same_choice(net_v5, "built-in (archs/sfnnv5.yaml)");
    same_choice(unknown_v5, "built-in (archs/sfnnv5.yaml)");
    same_choice(net_v1, "built-in (archs/sfnnv1.yaml)");
    same_choice(net_shogi, "built-in (archs/shogi_halfkp.yaml)");
    same_choice(truncated_v1, "");
}
END_TEST

/* The edge case: nnue init wrote the net for SFNNv1 (its description says so), and the file has
 * the size of SFNNv1-two (a YAML the tool finds). Before, the tool took SFNNv1-two (the only
 * one of that size) while the library said truncated; now neither takes another architecture. */
START_TEST(named_but_of_another_size)
{
    same_choice(named_v1, "");
    nnue_choice *c = library_choice(named_v1);
    ck_assert_int_eq(nnue_choice_kind_of(c), NNUE_CHOICE_NAMED_SIZE);
    ck_assert_str_eq(nnue_choice_named(c), "SFNNv1");
    nnue_choice_free(c);
    char args[8192], *out;
    snprintf(args, sizeof args, "eval --fen startpos --net '%s'", named_v1);
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, "nnue init wrote this net for the built-in SFNNv1, whose file has ");
    cli_expect_contains(out, "(truncated or damaged?)");
    free(out);
    /* The library alone (built-ins only) says the same. */
    nnue_net *net;
    nnue_error err;
    ck_assert_int_eq(nnue_net_load_auto(named_v1, &net, &err), NNUE_E_FORMAT);
    ck_assert_msg(strstr(err.message, "nnue init wrote this net for the built-in SFNNv1, whose file has "), "%s",
                  err.message);
}
END_TEST

int main(void)
{
    net_v4 = eval_net_file(eval_net_find("sfnnv4"));
    net_v5 = eval_net_file(eval_net_find("sfnnv5"));
    net_v1 = eval_net_file(eval_net_find("sfnnv1"));
    net_shogi = eval_net_file(eval_net_find("shogi"));
    snprintf(dir, sizeof dir, "%s/cli-choice", test_build_dir());
    snprintf(unknown_v5, sizeof unknown_v5, "%s/unknown-v5.nnue", dir);
    snprintf(truncated_v1, sizeof truncated_v1, "%s/truncated-v1.nnue", dir);
    snprintf(named_v1, sizeof named_v1, "%s/named-v1.nnue", dir);
    char command[30000];
    /* unknown v5: one description byte changed (an unknown SHA-256, same hashes and size). */
    snprintf(command, sizeof command,
             "rm -rf '%s' && mkdir -p '%s' && cp '%s' '%s' && printf 'X' | dd of='%s' bs=1 seek=20 conv=notrunc "
             "status=none && head -c 1000000 '%s' > '%s'",
             dir, dir, net_v5, unknown_v5, unknown_v5, net_v1, truncated_v1);
    if (system(command) != 0)
        return 1;
    char yaml[4200];
    snprintf(yaml, sizeof yaml, "%s/sfnnv1-two.yaml", dir);
    FILE *f = fopen(yaml, "w");
    if (!f || fputs(two_stacks_yaml, f) < 0 || fclose(f) != 0)
        return 1;
    /* SFNNv1's nnue init net, grown by zeros to SFNNv1-two's size. */
    nnue_arch *v1, *two;
    nnue_error err;
    if (nnue_arch_load_builtin("sfnnv1", &v1, &err) != NNUE_OK || nnue_arch_load(yaml, &two, &err) != NNUE_OK ||
        nnue_net_write_random(v1, named_v1, 3, &err) != NNUE_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    nnue_arch_layout l1, l2;
    nnue_arch_layout_get(v1, &l1, sizeof l1);
    nnue_arch_layout_get(two, &l2, sizeof l2);
    nnue_arch_free(v1);
    nnue_arch_free(two);
    snprintf(command, sizeof command, "truncate -s +%llu '%s'", (unsigned long long)(l2.file_size - l1.file_size),
             named_v1);
    if (l2.file_size <= l1.file_size || system(command) != 0)
        return 1;
    setenv("NNUE_ARCHS_DIR", dir, 1);
    Suite *s = suite_create("cli_choice");
    TCase *tc = tcase_create("choice");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, same_choice_for_the_same_file);
    tcase_add_test(tc, named_but_of_another_size);
    suite_add_tcase(s, tc);
    return test_run(s);
}
