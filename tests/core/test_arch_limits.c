/* tests/core/test_arch_limits.c: architectures past the loader's limits (core/arch_limits.h,
 * docs/arch-yaml.md "Limits") are refused at the YAML line that crosses them, never accepted
 * with a wrapped size. Graphs are generated: nested 4-way concats grow x4 per level. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    suite_add_tcase(s, tc);
    return test_run(s);
}
