/* tests/eval/test_eval_tool_nets.c NET: the `nnue` tool on today's Stockfish nets (sfnnv9,
 * sfnnv10 random nets; sf17, sf18, sf18small, sf19: Stockfish's own release nets) without --arch:
 * `info` names the matching architecture, `eval` reproduces the first golden rows, and
 * `bench --mode all --iter 1` gives the checksum Stockfish printed for the BENCH.md workload
 * (FORMATS.md section 9: SFNNv9 657,150, SFNNv10 5,621,873 per iteration; the release nets:
 * tests/reference/chess/bench-checksums.tsv, the engines' own figures); the small net, whose
 * checksum no engine printed, must give the same checksum in every mode. The release nets need
 * only the repository (goldens, corpus and checksums in tests/reference/chess) and the nets
 * scripts/fetch_nets.py fetches; the random nets need the shared data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_nets.h"
#include "support.h"

typedef struct tool_net {
    const char *name, *arch;
    const char *checksum;   /* "checksum_total=N " of one iteration, or NULL: see printed */
    int printed;            /* 1: an engine printed it (bench-checksums.tsv); 0: all modes must agree */
    int threats;            /* the net reads threat features: makes record them (threats=adapter) */
} tool_net;

static const tool_net tool_nets[] = {
    {"sfnnv9", "archs/sfnnv9.yaml", "checksum_total=657150 ", 1, 0},
    {"sfnnv10", "archs/sfnnv10.yaml", "checksum_total=5621873 ", 1, 1},
    {"sf17", "archs/sfnnv9.yaml", NULL, 1, 0},
    {"sf18", "archs/sfnnv10.yaml", NULL, 1, 1},
    {"sf18small", "archs/sfnnv8small.yaml", NULL, 0, 0},
    {"sf19", "archs/sfnnv16.yaml", NULL, 1, 1},
};

static const tool_net *tn;
static const eval_net *net_info;
static const char *net_path;

/* Runs the tool from the source tree (so archs/ is found); returns its output. */
static char *run(const char *args)
{
    char command[8192];
    snprintf(command, sizeof command, "cd '%s' && '%s' %s 2>&1", test_source_dir(), getenv("NNUE_TOOL"), args);
    FILE *p = popen(command, "r");
    ck_assert_ptr_nonnull(p);
    size_t cap = 1 << 16, n = 0, got;
    char *out = malloc(cap);
    while ((got = fread(out + n, 1, cap - 1 - n, p)) > 0)
        if ((n += got) == cap - 1)
            out = realloc(out, cap *= 2);
    out[n] = 0;
    ck_assert_msg(pclose(p) == 0, "`nnue %s` failed:\n%s", args, out);
    return out;
}

static void expect_line(const char *out, const char *mode, const char *fragment)
{
    const char *line = strstr(out, mode);
    ck_assert_msg(line != NULL, "no %s line in:\n%s", mode, out);
    const char *end = strchr(line, '\n');
    const char *at = strstr(line, fragment);
    ck_assert_msg(at && (!end || at < end), "%s line lacks %s:\n%s", mode, fragment, out);
}

START_TEST(info_names_the_architecture)
{
    char args[4096];
    snprintf(args, sizeof args, "info '%s'", net_path);
    char *out = run(args);
    ck_assert_msg(strstr(out, tn->arch) != NULL, "info does not name %s:\n%s", tn->arch, out);
    ck_assert_msg(strstr(out, "cannot tell") == NULL, "info finds more than one architecture:\n%s", out);
    free(out);
}
END_TEST

START_TEST(eval_detects_and_matches_goldens)
{
    char *golden = test_read_file(test_data_path(net_info->golden), NULL);
    ck_assert_ptr_nonnull(golden);
    char *save = NULL;
    int rows = 0;
    for (char *line = strtok_r(golden, "\n", &save); line && rows < 4; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "fen\t", 4) == 0)
            continue;
        char *f[6], args[4096], expected[512];
        test_split_tabs(line, f, 6);
        snprintf(args, sizeof args, "eval --net '%s' --fen '%s'", net_path, f[0]);
        char *out = run(args);
        snprintf(expected, sizeof expected, "%s\t%s\t%s\t%s\t%s\t", f[0], f[1], f[2], f[3], f[4]);
        ck_assert_msg(strstr(out, expected) != NULL, "expected %s in:\n%s", expected, out);
        free(out);
        rows++;
    }
    ck_assert_int_eq(rows, 4);
    free(golden);
}
END_TEST

/* "checksum_total=N " from the incremental line, for nets without a known checksum. */
static const char *incremental_checksum(const char *out, char *buf, size_t size)
{
    const char *line = strstr(out, "mode=incremental");
    const char *at = line ? strstr(line, "checksum_total=") : NULL;
    ck_assert_msg(at != NULL, "no incremental checksum in:\n%s", out);
    size_t n = strcspn(at, " \n");
    snprintf(buf, size, "%.*s ", (int)n, at);
    return buf;
}

START_TEST(bench_checksums)
{
    char args[8192], own[128];
    snprintf(args, sizeof args, "bench --net '%s' --file '%s' --iter 1 --mode all", net_path,
             test_data_path(EVAL_CHESS_CORPUS));
    char *out = run(args);
    const char *checksum = tn->checksum ? tn->checksum : tn->printed ? eval_bench_checksum(tn->name)
                                                                     : incremental_checksum(out, own, sizeof own);
    ck_assert_msg(checksum != NULL, "tests/reference/chess/bench-checksums.tsv has no row for %s", tn->name);
    expect_line(out, "mode=incremental", "evals=82990 ");
    expect_line(out, "mode=incremental", checksum);
    expect_line(out, "mode=refresh", checksum);
    expect_line(out, "mode=moves", "moves=80009 ");
    /* The adapter records threat changes only for a net that reads them (nnue_state_takes_threats):
     * a net without threat inputs once paid for them at every make (issue 46). */
    const char *inc = strstr(out, "mode=incremental");
    const char *eol = inc ? strchr(inc, '\n') : NULL;
    const char *note = inc ? strstr(inc, " threats=adapter") : NULL;
    ck_assert_msg(inc && (tn->threats ? note && note < eol : !note || note > eol),
                  "%s: threats=adapter %s on the incremental line:\n%s", tn->name,
                  tn->threats ? "missing" : "present", out);
    free(out);
    snprintf(args, sizeof args, "bench --net '%s' --arch %s --file '%s' --iter 1 --mode incremental --cache on",
             net_path, tn->arch, test_data_path(EVAL_CHESS_CORPUS));
    out = run(args);
    expect_line(out, "cache=on", checksum);
    free(out);
}
END_TEST

int main(int argc, char **argv)
{
    for (size_t i = 0; argc == 2 && i < sizeof tool_nets / sizeof tool_nets[0]; i++)
        if (strcmp(argv[1], tool_nets[i].name) == 0)
            tn = &tool_nets[i];
    if (!tn || !(net_info = eval_net_find(tn->name))) {
        fprintf(stderr, "usage: test_eval_tool_nets sfnnv9|sfnnv10|sf17|sf18|sf18small|sf19\n");
        return 2;
    }
    test_require_data(net_info->golden);
    net_path = eval_net_file(net_info);
    Suite *s = suite_create("eval_tool_nets");
    TCase *tc = tcase_create(tn->name);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, info_names_the_architecture);
    tcase_add_test(tc, eval_detects_and_matches_goldens);
    tcase_add_test(tc, bench_checksums);
    suite_add_tcase(s, tc);
    return test_run(s);
}
