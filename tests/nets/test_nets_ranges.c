/* tests/nets/test_nets_ranges.c: the worst-case ranges computed at load (core/net/net_ranges.h) on
 * crafted tiny nets (tests/nets/tiny_sf.yaml: Chess768, width 8, at most 32 active features,
 * 2 PSQT buckets). Expected values are worked out by hand from the bytes the test writes: a
 * column of 1000s gives 32 * 1000 = 32000 (fits int16), of 1100s 35200 (does not); PSQT rows of
 * 10^8 give 3.2 * 10^9 (beyond int32). The warning names the neuron; `nnue info` prints the
 * ranges; `--strict` refuses; the overflowing net still evaluates without UB (sanitizer run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "base/isa.h"
#include "core/net/net.h"
#include "core/net/net_ranges.h"
#include "eval/eval_nets.h"
#include "nets_helpers.h"
#include "support.h"

enum { WIDTH = 8, INPUTS = 768, BUCKETS = 2, NEURON = 3 };
static char base_path[4096];
static nnue_arch *arch;

/* Byte offsets in the tiny_sf file: header (12 + description), FT hash, biases, weights, PSQT. */
static uint64_t ft_start(const char *path)
{
    return 12 + nets_u32_at(path, 8) + 4;
}

/* A copy of the random net with neuron NEURON's bias 0 and its weight `w` in every row. */
static const char *with_column(const char *name, int16_t w)
{
    const char *path = nets_copy(base_path, name, UINT64_MAX);
    uint64_t at = ft_start(path);
    int16_t zero = 0;
    nets_patch(path, at + NEURON * 2, &zero, 2);
    for (int f = 0; f < INPUTS; f++)
        nets_patch(path, at + WIDTH * 2 + ((uint64_t)f * WIDTH + NEURON) * 2, &w, 2);
    return path;
}

static char *report(const nnue_net *net)
{
    size_t need = nnue_net_range_report(net, NULL, 0) + 1;
    char *text = malloc(need);
    ck_assert_uint_eq(nnue_net_range_report(net, text, need), need - 1);
    return text;
}

/* The net loads without a warning and its report contains both fragments. */
static void expect_fits(const char *path, const char *fragment, const char *fragment2)
{
    nnue_net *net = nets_load(arch, path);
    ck_assert_ptr_null(nnue_net_warning(net));
    char *text = report(net);
    ck_assert_msg(strstr(text, fragment) && strstr(text, fragment2), "%s", text);
    free(text);
    nnue_net_free(net);
}

START_TEST(random_net_fits)
{
    expect_fits(base_path, "with 32 active features", "int16: fits");
}
END_TEST

START_TEST(column_at_the_limit_fits)
{
    expect_fits(with_column("ranges-32000.nnue", 1000), "..32000 worst case with 32 active features", "and 3)");
}
END_TEST

START_TEST(column_over_the_limit_warns)
{
    const char *path = with_column("ranges-35200.nnue", 1100);
    nnue_net *net = nets_load(arch, path);
    const char *w = nnue_net_warning(net);
    ck_assert_ptr_nonnull(w);
    ck_assert_msg(strstr(w, path) && strstr(w, "int16 accumulator can overflow: neuron 3 reaches 0..35200 with 32 "
                                              "active features (1 neurons can)"),
                  "%s", w);
    char *text = report(net);
    ck_assert_msg(strstr(text, "CAN OVERFLOW") && strstr(text, "first neuron 3 (0..35200)"), "%s", text);
    free(text);
    /* It still evaluates (wrapping like the engines): no UB, checked by the sanitizer run. */
    const nnue_game *chess = nnue_game_find("chess");
    void *pos = eval_parse(chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    eval_fresh(net, chess->board(pos), NULL);
    free(pos);
    nnue_net_free(net);
}
END_TEST

/* Every row's PSQT value for bucket 1 set to v; returns the load warning (copied) or NULL. */
static char *psqt_warning(const char *name, int32_t v)
{
    const char *path = nets_copy(base_path, name, UINT64_MAX);
    uint64_t psqt = ft_start(path) + WIDTH * 2 + (uint64_t)INPUTS * WIDTH * 2;
    for (int f = 0; f < INPUTS; f++)
        nets_patch(path, psqt + ((uint64_t)f * BUCKETS + 1) * 4, &v, 4);
    nnue_net *net = nets_load(arch, path);
    char *w = nnue_net_warning(net) ? strdup(nnue_net_warning(net)) : NULL;
    nnue_net_free(net);
    return w;
}

START_TEST(psqt_over_int32_warns)
{
    char *w = psqt_warning("ranges-psqt.nnue", 100000000);
    ck_assert_msg(w && strstr(w, "int32 PSQT sum can overflow") && strstr(w, "..3200000000 with 32 active features"), "%s",
                  w ? w : "no warning");
    free(w);
    /* INT32_MIN rows (found by fuzz_arch_net: negating it was UB): 32 * -2^31. */
    w = psqt_warning("ranges-psqt-min.nnue", INT32_MIN);
    ck_assert_msg(w && strstr(w, "int32 PSQT sum can overflow: -68719476736.."), "%s", w ? w : "no warning");
    free(w);
}
END_TEST

/* The tool prints the warning, `--strict` refuses (exit 1), `nnue info` shows the ranges. */
START_TEST(tool_warns_and_strict_refuses)
{
    const char *path = with_column("ranges-tool.nnue", 1100);
    char cmd[12000];
    const char *tool = getenv("NNUE_TOOL");
    ck_assert_ptr_nonnull(tool);
    const char *fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    snprintf(cmd, sizeof cmd, "'%s' eval --arch '%s' --net '%s' --fen '%s' 2>&1 | grep -q 'nnue eval: warning: .*neuron 3'",
             tool, test_source_path("tests/nets/tiny_sf.yaml"), path, fen);
    ck_assert_msg(system(cmd) == 0, "%s", cmd);
    snprintf(cmd, sizeof cmd, "'%s' eval --strict --arch '%s' --net '%s' --fen '%s' >/dev/null 2>&1", tool,
             test_source_path("tests/nets/tiny_sf.yaml"), path, fen);
    int rc = system(cmd);
    ck_assert_msg(WIFEXITED(rc) && WEXITSTATUS(rc) == 1, "%s: status %d", cmd, rc);
    /* A folder with tiny_sf.yaml alone (tiny_sf_leb128.yaml has the same hash and size). */
    snprintf(cmd, sizeof cmd,
             "d=$(mktemp -d) && cp '%s' \"$d\" && NNUE_ARCHS_DIR=\"$d\" '%s' info '%s' 2>/dev/null > \"$d/out\"; "
             "grep -q '^overflow .*first neuron 3 (0..35200)' \"$d/out\"; s=$?; rm -rf \"$d\"; exit $s",
             test_source_path("tests/nets/tiny_sf.yaml"), tool, path);
    ck_assert_msg(system(cmd) == 0, "%s", cmd);
}
END_TEST

/* Issue 39: the warning is said once, `--quiet` hides it, `info` leaves it to its ranges. */
START_TEST(quiet_hides_the_warning)
{
    const char *path = with_column("ranges-quiet.nnue", 1100), *tool = getenv("NNUE_TOOL");
    const char *yaml = test_source_path("tests/nets/tiny_sf.yaml");
    char cmd[12000];
    ck_assert_ptr_nonnull(tool);
    struct {
        const char *args, *count; /* lines naming the warning or its explanation */
    } cases[] = {
        {"eval --quiet --fen startpos", "0"},
        {"eval -q --fen startpos", "0"},
        {"eval --fen startpos", "2"},
        {"bench --iter 1 --file data/positions.fen", "2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(cmd, sizeof cmd, "cd '%s' && n=$('%s' %s --arch '%s' --net '%s' 2>&1 >/dev/null | grep -c "
                 "-e 'neuron 3' -e 'a worst case over all inputs'); test \"$n\" = %s || { echo \"$n lines\"; exit 1; }",
                 test_source_dir(), tool, cases[i].args, yaml, path, cases[i].count);
        ck_assert_msg(system(cmd) == 0, "%s", cmd);
    }
    /* info: nothing on stderr, the overflow in its ranges. */
    snprintf(cmd, sizeof cmd, "e=$('%s' info --arch '%s' '%s' 2>&1 >/dev/null); test -z \"$e\" || { echo \"$e\"; exit 1; }",
             tool, yaml, path);
    ck_assert_msg(system(cmd) == 0, "%s", cmd);
}
END_TEST

/* Issue 26 finding 4: a crafted raw net (Chess768, width 8, sqrrelu, 8 nested 4-way concats:
 * 2^20 values of up to 32767^2 into one affine of weights 32767; here width 16 and 7 levels,
 * 2^19 values, as the description limit now refuses 8 levels) overflowed int64 in the range
 * analysis on load (UBSan: core/net/net_ranges.c signed integer overflow) and, with FT biases 32767,
 * in the affine's sum when evaluated. Now: the analysis saturates (and warns), the sum wraps like
 * the engines' int32 sums: the output is the exact sum modulo 2^32 on every kernel set. */
START_TEST(crafted_sums_are_defined)
{
    char yaml[2048];
    int n = snprintf(yaml, sizeof yaml,
                     "name: crafted\ngame: chess\nformat:\n  kind: raw\n  blocks:\n"
                     "    - {tensor: ft.weights, dtype: i16}\n    - {tensor: ft.biases, dtype: i16}\n"
                     "    - {tensor: out.weights, dtype: i16}\n    - {tensor: out.biases, dtype: i32}\n"
                     "feature_transformer: {features: Chess768, width: 16, activation: {type: sqrrelu}}\n"
                     "layers:\n  - {name: c0, type: concat, inputs: [ft, ft, ft, ft]}\n");
    for (int k = 1; k < 7; k++)
        n += snprintf(yaml + n, sizeof yaml - (size_t)n, "  - {name: c%d, type: concat, inputs: [c%d, c%d, c%d, c%d]}\n",
                      k, k - 1, k - 1, k - 1, k - 1);
    snprintf(yaml + n, sizeof yaml - (size_t)n, "  - {name: out, type: affine, outputs: 1}\noutput: {divisor: 1}\n");
    nnue_arch *a;
    nnue_error err;
    nnue_status ast = nnue_arch_load_string(yaml, strlen(yaml), "crafted.yaml", &a, &err);
    char msg[1200];
    nnue_error_format(&err, msg, sizeof msg);
    ck_assert_msg(ast == NNUE_OK, "%s", msg);
    enum { W = 16, IN = 2 * W << 14 }; /* 2 * 16 FT outputs, x4 seven times: 2^19 */
    size_t size = (size_t)INPUTS * W * 2 + W * 2 + (size_t)IN * 2 + 4;
    unsigned char *bytes = calloc(1, size);
    for (size_t i = (size_t)INPUTS * W * 2; i + 4 < size; i += 2) { /* FT biases, out weights: 32767 */
        bytes[i] = 0xFF;
        bytes[i + 1] = 0x7F;
    }
    nnue_net *net;
    nnue_status st = nnue_net_load_memory(a, bytes, size, "crafted.bin", &net, &err);
    ck_assert_msg(st == NNUE_OK, "%s", err.message);
    ck_assert_ptr_nonnull(nnue_net_warning(net)); /* the affine's sum can overflow: said, not UB */
    const nnue_game *chess = nnue_game_find("chess");
    void *pos = eval_parse(chess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    /* every FT output is 32767^2: the sum is IN * 32767 * 32767^2, wrapped to 32 bits */
    int32_t expected = (int32_t)(uint32_t)((uint64_t)IN * 32767u * (32767u * 32767u));
    for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
        nnue_state *s = nnue_state_new(net, 4);
        if (nnue_state_set_isa(s, (nnue_isa)isa) == 0) {
            nnue_state_reset(s, chess->board(pos));
            nnue_eval_detail d;
            nnue_evaluate(s, chess->board(pos), &d);
            ck_assert_msg(d.positional == expected, "%s: %d, expected %d", nnue_isa_label((nnue_isa)isa),
                          d.positional, expected);
        }
        nnue_state_free(s);
    }
    free(pos);
    free(bytes);
    nnue_net_free(net);
    nnue_arch_free(a);
}
END_TEST

/* The column sums behind every range (nnue_extreme_column_sums: thresholds and heaps per
 * column) equal a brute force (each column sorted) on random matrices: small values only, i16
 * outliers beyond the counted span, fewer positives or negatives than k, ties, extreme values,
 * k from 1 to more than the rows, widths that are not a multiple of the column chunk, k and
 * counts beyond 16 bits, and matrices large enough to be split over two threads. */
static int cmp_desc(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x < y) - (x > y);
}

START_TEST(column_sums_equal_brute_force)
{
    const nnue_dtype types[] = {NNUE_I8, NNUE_I16, NNUE_I32};
    uint64_t seed = 12345;
    int cases = 0;
    for (int trial = 0; trial < 65; trial++) {
        nnue_dtype t = types[trial % 3];
        uint32_t rows = 1 + (uint32_t)(trial * 37 % 300), cols = 1 + (uint32_t)(trial * 13 % 70);
        if (trial == 60 || trial == 61) /* k beyond 16 bits (i8 candidates), counts beyond 16 bits */
            rows = 70000, cols = 3;
        if (trial >= 62) /* past TWO_THREADS_FROM (4M values): the columns split over two threads */
            rows = 33000, cols = 130;
        int k = trial % 5 == 0 ? (int)rows + 3 : 1 + trial % 40;
        int shape = trial == 60 || trial == 61 ? 5 : trial / 3 % 5; /* 0 small, 1 outliers, 2 mostly negative, 3 extremes,
                                                        4 ties, 5 one value (a count past 16 bits) */
        size_t n = (size_t)rows * cols, bytes = t == NNUE_I8 ? 1 : t == NNUE_I16 ? 2 : 4;
        void *m = malloc(n * bytes);
        int64_t *v = malloc(n * sizeof *v), *col = malloc(rows * sizeof *col);
        for (size_t i = 0; i < n; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            int64_t x = (int64_t)(seed >> 33);
            int64_t lim = t == NNUE_I8 ? 128 : t == NNUE_I16 ? 32768 : 2147483648ll;
            int64_t val = shape == 0 ? x % 200 - 100
                        : shape == 1 ? (x % 10 == 0 ? x % (2 * lim) - lim : x % 500 - 250)
                        : shape == 2 ? (x % 20 == 0 ? x % 300 : -(x % 400))
                        : shape == 3 ? (x % 2 ? lim - 1 : -lim)
                        : shape == 4 ? (x % 3) * 7 - 7
                                     : (trial % 2 ? 1 : -3);
            val = val < -lim ? -lim : val > lim - 1 ? lim - 1 : val;
            v[i] = val;
            if (t == NNUE_I8)
                ((int8_t *)m)[i] = (int8_t)val;
            else if (t == NNUE_I16)
                ((int16_t *)m)[i] = (int16_t)val;
            else
                ((int32_t *)m)[i] = (int32_t)val;
        }
        int64_t *hi = calloc(cols, sizeof *hi), *lo = calloc(cols, sizeof *lo);
        ck_assert_int_eq(nnue_extreme_column_sums(m, t, rows, cols, k, hi, lo), 0);
        for (uint32_t c = 0; c < cols; c++) {
            for (uint32_t r = 0; r < rows; r++)
                col[r] = v[(size_t)r * cols + c];
            qsort(col, rows, sizeof *col, cmp_desc);
            int64_t want_hi = 0, want_lo = 0;
            for (int i = 0; i < k && i < (int)rows; i++) {
                want_hi += col[i] > 0 ? col[i] : 0;
                want_lo += col[rows - 1 - i] < 0 ? col[rows - 1 - i] : 0;
            }
            ck_assert_msg(hi[c] == want_hi && lo[c] == want_lo,
                          "trial %d (type %d, shape %d, %ux%u, k %d) column %u: %lld..%lld, brute force %lld..%lld",
                          trial, (int)t, shape, rows, cols, k, c, (long long)lo[c], (long long)hi[c],
                          (long long)want_lo, (long long)want_hi);
            cases++;
        }
        free(m), free(v), free(col), free(hi), free(lo);
    }
    ck_assert_int_gt(cases, 1000);
}
END_TEST

int main(void)
{
    arch = eval_random_net_main("tests/nets/tiny_sf.yaml", "ranges", 5, base_path, sizeof base_path);
    if (!arch)
        return 1;
    Suite *s = suite_create("nets_ranges");
    TCase *tc = tcase_create("ranges");
    tcase_add_test(tc, random_net_fits);
    tcase_add_test(tc, column_at_the_limit_fits);
    tcase_add_test(tc, column_over_the_limit_warns);
    tcase_add_test(tc, psqt_over_int32_warns);
    tcase_add_test(tc, tool_warns_and_strict_refuses);
    tcase_add_test(tc, quiet_hides_the_warning);
    tcase_add_test(tc, crafted_sums_are_defined);
    tcase_add_test(tc, column_sums_equal_brute_force);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    nnue_arch_free(arch);
    return rc;
}
