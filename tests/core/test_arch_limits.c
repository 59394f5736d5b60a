/* tests/core/test_arch_limits.c: architectures past the loader's limits (base/arch_limits.h,
 * docs/arch-yaml.md "Limits") are refused at the YAML line that crosses them, never accepted
 * with a wrapped size. Graphs are generated: nested 4-way concats grow x4 per level. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "nnue.h"
#include "support.h"

#define HEADER                                          \
    "name: t\n"                                         \
    "game: chess\n"                                     \
    "format: {kind: stockfish, version: 0x7AF32F16}\n"  \
    "feature_transformer:\n"                            \
    "  features: HalfKP\n"                              \
    "  width: 256\n"                                    \
    "layers:\n"
#define HEADER_LINES 7

typedef struct text {
    char buf[8192];
    size_t len;
    int lines;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->len, sizeof t->buf - t->len, fmt, ap);
    va_end(ap);
    ck_assert(n > 0 && (size_t)n < sizeof t->buf - t->len);
    t->len += (size_t)n;
    t->lines++;
}

static void start(text *t)
{
    t->len = 0;
    t->lines = HEADER_LINES;
    t->buf[0] = 0;
    add(t, "%s", HEADER);
    t->lines = HEADER_LINES;
}

/* Loads t; expects code at `line` (1-based) with fragment in the message. */
static void expect_error(const text *t, nnue_status code, int line, const char *fragment)
{
    nnue_arch *a = NULL;
    nnue_error err;
    nnue_status st = nnue_arch_load_string(t->buf, t->len, "gen.yaml", &a, &err);
    char msg[1200];
    nnue_error_format(&err, msg, sizeof msg);
    if (st == NNUE_OK)
        nnue_arch_free(a);
    ck_assert_msg(st == code, "status %s, expected %s: %s", nnue_status_name(st), nnue_status_name(code), msg);
    ck_assert_msg(err.line == line && err.column > 0, "at %d:%d, expected line %d: %s", err.line, err.column, line,
                  msg);
    ck_assert_msg(strstr(msg, fragment) && strncmp(msg, "gen.yaml:", 9) == 0, "message lacks '%s': %s", fragment,
                  msg);
}

/* Issue 26 finding 2: 2^31 + 2^31 + 1 input values summed in uint32 gave 1; the graph was
 * accepted and the scratch was sized from the wrapped value. Refused where c5 crosses 2^20. */
START_TEST(concat_sizes_do_not_wrap)
{
    text t;
    start(&t);
    add(&t, "  - {name: s, type: slice, input: ft, size: 1}\n");
    add(&t, "  - {name: c0, type: concat, inputs: [ft, ft, ft, ft]}\n"); /* 2048 values */
    for (int k = 1; k <= 10; k++)                                     /* c10: 2^31 */
        add(&t, "  - {name: c%d, type: concat, inputs: [c%d, c%d, c%d, c%d]}\n", k, k - 1, k - 1, k - 1, k - 1);
    add(&t, "  - {name: out, type: concat, inputs: [c10, c10, s]}\n"); /* 2^32 + 1 */
    expect_error(&t, NNUE_E_SHAPE, HEADER_LINES + 7, "expected at most 1048576 input values, found 2097152");
}
END_TEST

/* Every layer within 2^20 values, but together past the 2^22 values of one evaluation's scratch. */
START_TEST(scratch_is_capped)
{
    text t;
    start(&t);
    add(&t, "  - {name: c0, type: concat, inputs: [ft, ft, ft, ft]}\n");
    for (int k = 1; k <= 4; k++)
        add(&t, "  - {name: c%d, type: concat, inputs: [c%d, c%d, c%d, c%d]}\n", k, k - 1, k - 1, k - 1, k - 1);
    add(&t, "  - {name: c5, type: concat, inputs: [c4, c4]}\n"); /* 2^20 values */
    for (int k = 0; k < 3; k++)
        add(&t, "  - {name: r%d, type: crelu}\n", k);
    add(&t, "  - {name: out, type: affine, outputs: 1}\n");
    expect_error(&t, NNUE_E_SHAPE, HEADER_LINES + 9, "expected at most 4194304 scratch values");
}
END_TEST

/* d_k = 4 x slice(d_{k-1}): few values, but each level writes the one below out 4 times. */
static void add_growth(text *t, int levels)
{
    add(t, "  - {name: d0, type: concat, inputs: [ft, ft, ft, ft]}\n");
    for (int k = 1; k <= levels; k++) {
        add(t, "  - {name: s%d, type: slice, input: d%d, size: 4}\n", k, k - 1);
        add(t, "  - {name: d%d, type: concat, inputs: [s%d, s%d, s%d, s%d]}\n", k, k, k, k, k);
    }
    add(t, "  - {name: out, type: affine, outputs: 1}\n");
}

/* Issue 26 finding 3: the description string of 15 such levels is ~2^30 times longer than 15
 * layers; `nnue arch` allocated gigabytes writing it. Refused at d7 (~3 MB), the first layer
 * whose own text passes the 1 MiB limit. */
START_TEST(description_growth_is_refused)
{
    text t;
    start(&t);
    add_growth(&t, 15);
    expect_error(&t, NNUE_E_SHAPE, HEADER_LINES + 1 + 2 * 7, "layer 'd7': expected a description string of at most");
}
END_TEST

static void expect_exact_length(const nnue_arch *a, const char *name)
{
    size_t len = nnue_arch_describe(a, NULL, 0);
    char *buf = malloc(len + 1);
    ck_assert_ptr_nonnull(buf);
    size_t written = nnue_arch_describe(a, buf, len + 1);
    ck_assert_msg(written == len && strlen(buf) == len, "%s: length %zu, wrote %zu", name, len, strlen(buf));
    free(buf);
}

/* The length comes from one pass over the layers; it must equal the text written out. */
START_TEST(description_length_is_exact)
{
    text t;
    start(&t);
    add_growth(&t, 5);
    nnue_arch *a = NULL;
    nnue_error err;
    ck_assert_int_eq(nnue_arch_load_string(t.buf, t.len, "gen.yaml", &a, &err), NNUE_OK);
    expect_exact_length(a, "5 levels");
    nnue_arch_free(a);
    for (int i = 0; i < nnue_arch_builtin_count(); i++) {
        ck_assert_int_eq(nnue_arch_load_builtin(nnue_arch_builtin_name(i), &a, &err), NNUE_OK);
        expect_exact_length(a, nnue_arch_builtin_name(i));
        nnue_arch_free(a);
    }
}
END_TEST

/* The limits leave real shapes alone: the same chain below them loads with exact sizes. */
START_TEST(below_the_limits_loads)
{
    text t;
    start(&t);
    add(&t, "  - {name: c0, type: concat, inputs: [ft, ft, ft, ft]}\n");
    add(&t, "  - {name: c1, type: concat, inputs: [c0, c0, c0, c0]}\n");
    add(&t, "  - {name: out, type: affine, outputs: 1}\n");
    nnue_arch *a = NULL;
    nnue_error err;
    ck_assert_int_eq(nnue_arch_load_string(t.buf, t.len, "gen.yaml", &a, &err), NNUE_OK);
    nnue_arch_free(a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("arch_limits");
    TCase *tc = tcase_create("limits");
    tcase_add_test(tc, concat_sizes_do_not_wrap);
    tcase_add_test(tc, scratch_is_capped);
    tcase_add_test(tc, below_the_limits_loads);
    tcase_add_test(tc, description_growth_is_refused);
    tcase_add_test(tc, description_length_is_exact);
    suite_add_tcase(s, tc);
    return test_run(s);
}
