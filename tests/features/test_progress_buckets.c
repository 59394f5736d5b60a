/* tests/features/test_progress_buckets.c: YaneuraOu's progress (features/shogi_progress.c) from
 * its sum S, against the definition restated here: P = how many of T_i = llround(ln(i / (256 - i))
 * * 65536), i = 1..255, are <= S (shared/oracle/shogi/yo26/FACTS.md section 6). Every threshold,
 * one below and one above it, and sums far outside the thresholds' range (int64 both ways): the
 * runner's blocks of 16 and its int32 clamp must give the same count as the definition. No net
 * is read: the table is the bias (0) and zero weights, so S is what the test hands in as a part. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "features/table_var.h"
#include "support.h"

static int32_t thresholds[255];

static int32_t by_definition(int64_t s)
{
    int32_t n = 0;
    for (int i = 0; i < 255; i++)
        n += thresholds[i] <= s;
    return n;
}

START_TEST(value_of_counts_thresholds)
{
    const nnue_table_var *tv = nnue_table_var_find("progress");
    ck_assert_ptr_nonnull(tv);
    ck_assert_ptr_nonnull(tv->prepare);
    ck_assert_ptr_nonnull(tv->value_of);
    int32_t *table = calloc((size_t)tv->values + tv->derived, sizeof *table);
    ck_assert_ptr_nonnull(table);
    tv->prepare(table);
    for (int i = 1; i < 256; i++)
        thresholds[i - 1] = (int32_t)llround(log((i / 256.0) / (1.0 - i / 256.0)) * 65536.0);
    for (int i = 0; i < 255; i++)
        for (int64_t d = -1; d <= 1; d++) {
            int64_t parts[2] = {thresholds[i] + d, 0}, measure = 0;
            int32_t p = tv->value_of(table, parts, &measure);
            ck_assert_int_eq(measure, parts[0]);
            ck_assert_msg(p == by_definition(parts[0]), "S = %lld: %d, the definition %d", (long long)parts[0], p,
                          by_definition(parts[0]));
        }
    const int64_t far[] = {INT64_MIN / 4, (int64_t)INT32_MIN - 1, INT32_MIN, -1, 0, 1,
                           INT32_MAX - 1, INT32_MAX,  (int64_t)INT32_MAX + 1, INT64_MAX / 4};
    for (size_t k = 0; k < sizeof far / sizeof far[0]; k++) {
        int64_t parts[2] = {far[k] / 2, far[k] - far[k] / 2};
        ck_assert_int_eq(tv->value_of(table, parts, NULL), by_definition(far[k]));
    }
    ck_assert_int_eq(tv->value_of(table, (int64_t[2]){INT32_MAX, INT32_MAX}, NULL), 255);
    ck_assert_int_eq(tv->value_of(table, (int64_t[2]){INT32_MIN, INT32_MIN}, NULL), 0);
    free(table);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("progress_buckets");
    TCase *tc = tcase_create("buckets");
    tcase_add_test(tc, value_of_counts_thresholds);
    suite_add_tcase(s, tc);
    return test_run(s);
}
