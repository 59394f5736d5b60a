/* tests/training/test_cli_training.c: the tool on training files. `nnue rescore` of
 * games.binpack gives the same records as rescoring games.plain (scores: the net's total), and
 * its binpack output is what our writer makes of those records; `nnue eval --file` prints the
 * same rows for games.binpack and games.plain (and --format reads a file of another name). The
 * net: random weights for tests/nets/tiny_sf.yaml (`nnue init --seed 1`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "tools/cli_run.h"
#include "training_helpers.h"

#define TRAINING "oracle/chess/training/"

static char net[4096], arch[4096];

static void make_net(void)
{
    char args[8192], *out;
    snprintf(arch, sizeof arch, "%s", test_source_path("tests/nets/tiny_sf.yaml"));
    snprintf(net, sizeof net, "%s", train_tmp("tiny_sf.nnue"));
    snprintf(args, sizeof args, "init --seed 1 '%s' '%s'", arch, net);
    ck_assert_msg(cli_run(args, &out) == 0, "%s", out);
    free(out);
}

static char *run_ok(const char *args)
{
    char *out;
    int rc = cli_run_stdout(args, &out);
    ck_assert_msg(rc == 0, "nnue %s: exit %d\n%s", args, rc, out);
    return out;
}

START_TEST(rescore_binpack_equals_rescore_plain)
{
    test_require_shared(TRAINING "games.binpack");
    make_net();
    char args[16384];
    const char *bin_out = train_tmp("rescored.binpack"), *plain_out = train_tmp("rescored.plain");
    snprintf(args, sizeof args, "rescore --quiet --net '%s' --arch '%s' '%s' '%s'", net, arch,
             test_shared_path(TRAINING "games.binpack"), bin_out);
    free(run_ok(args));
    snprintf(args, sizeof args, "rescore --quiet --net '%s' --arch '%s' '%s' '%s'", net, arch,
             test_shared_path(TRAINING "games.plain"), plain_out);
    free(run_ok(args));
    rec_list from_bin = {0}, from_plain = {0}, orig = {0};
    recs_read(bin_out, NNUE_TRAIN_BINPACK, &from_bin);
    recs_read(plain_out, NNUE_TRAIN_PLAIN, &from_plain);
    recs_read(test_shared_path(TRAINING "games.plain"), NNUE_TRAIN_PLAIN, &orig);
    ck_assert_uint_eq(from_bin.n, 2882);
    ck_assert_uint_eq(from_plain.n, 2882);
    int changed = 0;
    for (size_t i = 0; i < from_bin.n; i++) {
        const nnue_train_record *a = &from_bin.r[i], *b = &from_plain.r[i], *o = &orig.r[i];
        ck_assert_str_eq(a->position, b->position);
        ck_assert_str_eq(a->position, o->position);
        ck_assert_str_eq(a->move, o->move);
        ck_assert_int_eq(a->ply, o->ply);
        ck_assert_str_eq(a->result, o->result);
        ck_assert_msg(a->score == b->score, "record %zu: binpack %d, plain %d", i, a->score, b->score);
        changed += a->score != o->score;
    }
    ck_assert_int_gt(changed, 2000);
    /* The tool's binpack is our writer's file of the rescored records (chains as the input's). */
    recs_write(train_tmp("rewritten.binpack"), NNUE_TRAIN_BINPACK, &from_plain);
    size_t n1, n2;
    char *b1 = test_read_file(bin_out, &n1), *b2 = test_read_file(train_tmp("rewritten.binpack"), &n2);
    ck_assert(n1 == n2 && memcmp(b1, b2, n1) == 0);
    free(b1);
    free(b2);
    /* --format names the format of a file of another name. */
    snprintf(args, sizeof args, "cp '%s' '%s'", test_shared_path(TRAINING "games.binpack"), train_tmp("games.dat"));
    ck_assert_int_eq(system(args), 0);
    snprintf(args, sizeof args, "rescore --quiet --format binpack --net '%s' --arch '%s' '%s' '%s'", net, arch,
             train_tmp("games.dat"), train_tmp("rescored-dat.binpack"));
    free(run_ok(args));
    b1 = test_read_file(bin_out, &n1);
    b2 = test_read_file(train_tmp("rescored-dat.binpack"), &n2);
    ck_assert(n1 == n2 && memcmp(b1, b2, n1) == 0);
    free(b1);
    free(b2);
    recs_free(&from_bin);
    recs_free(&from_plain);
    recs_free(&orig);
}
END_TEST

/* Each line's last tab-separated column removed, in place. */
static void drop_last_column(char *text)
{
    char *out = text, *line = text;
    while (*line) {
        char *end = strchr(line, '\n'), *tab = NULL;
        if (!end)
            end = line + strlen(line);
        for (char *p = line; p < end; p++)
            if (*p == '\t')
                tab = p;
        size_t keep = (size_t)((tab ? tab : end) - line);
        memmove(out, line, keep);
        out += keep;
        if (*end)
            *out++ = '\n';
        line = *end ? end + 1 : end;
    }
    *out = 0;
}

START_TEST(eval_file_reads_training_files)
{
    test_require_shared(TRAINING "games.binpack");
    make_net();
    char args[16384];
    snprintf(args, sizeof args, "eval --quiet --net '%s' --arch '%s' --file '%s' 2>/dev/null", net, arch,
             test_shared_path(TRAINING "games.binpack"));
    char *from_bin = run_ok(args);
    snprintf(args, sizeof args, "eval --quiet --net '%s' --arch '%s' --file '%s' 2>/dev/null", net, arch,
             test_shared_path(TRAINING "games.plain"));
    char *from_plain = run_ok(args);
    /* The same rows but the last column, the record's place: byte offset / line. */
    ck_assert_ptr_nonnull(strstr(from_bin, "\tcp\toffset\n"));
    ck_assert_ptr_nonnull(strstr(from_plain, "\tcp\tline\n"));
    drop_last_column(from_bin);
    drop_last_column(from_plain);
    ck_assert_str_eq(from_bin, from_plain);
    int lines = 0;
    for (char *p = from_bin; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 1 + 2882);
    ck_assert_ptr_nonnull(strstr(from_bin, "\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t"));
    snprintf(args, sizeof args, "eval --quiet --json --format binpack --net '%s' --arch '%s' --file - < '%s' "
             "2>/dev/null", net, arch, test_shared_path(TRAINING "games.binpack"));
    char *json = run_ok(args);
    ck_assert_ptr_nonnull(strstr(json, "\"offset\": 8, \"bucket\""));
    free(json);
    free(from_bin);
    free(from_plain);
    /* A malformed binpack stops the run with its place. */
    write_bytes(train_tmp("bad.binpack"), "BINQ\0\0\0\0", 8);
    char *out;
    snprintf(args, sizeof args, "eval --quiet --net '%s' --arch '%s' --file '%s'", net, arch, train_tmp("bad.binpack"));
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, "bad.binpack: byte 0: expected a chunk starting with \"BINP\"");
    free(out);
    snprintf(args, sizeof args, "rescore --net '%s' --arch '%s' '%s' '%s'", net, arch, train_tmp("bad.binpack"),
             train_tmp("never.binpack"));
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, "nnue rescore: ");
    cli_expect_contains(out, "bad.binpack: byte 0: expected a chunk starting with \"BINP\"");
    free(out);
    FILE *never = fopen(train_tmp("never.binpack"), "rb");
    ck_assert_msg(!never, "rescore left an output after an error");
    snprintf(args, sizeof args, "rescore --format bin --net '%s' --arch '%s' a b", net, arch);
    ck_assert_int_eq(cli_run(args, &out), 2);
    cli_expect_contains(out, "unknown training-data format \"bin\"");
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_training");
    TCase *tc = tcase_create("cli_training");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, rescore_binpack_equals_rescore_plain);
    tcase_add_test(tc, eval_file_reads_training_files);
    suite_add_tcase(s, tc);
    return test_run(s);
}
