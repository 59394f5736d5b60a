/* tests/simd/test_simd_kernels_refresh.c: kernels.h acc_sum (a refresh in one pass) of every
 * kernel set the CPU supports against the scalar set and against the definition by hand: one to
 * three parts of i16 or i8 rows (tiles of only i16 rows and tiles with i8 rows take different
 * code, and so do rows of fewer than 4 tiles, addressed from the index, and wider rows, listed,
 * more than 128 of a kind in chunks), indices repeated or not, up to 256 rows, with and without
 * PSQT rows, every width of kernel_inputs.h (on both sides of each tile size) and PSQT widths
 * 0..33; nothing written past the accumulator's or the PSQT values' end. The flagged rows of i8
 * parts with flags listed in order, as by hand, and nothing listed for parts without. Part of
 * test_simd_kernels (one program). */
#include <string.h>

#include "kernel_inputs.h"
#include "simd/paired_i8.h"
#include "support.h"

#define TABLE_ROWS 48
#define MAX_BUCKETS 33

/* The paired byte order (simd/paired_i8.h), as the net's rows are written (nnue_paired_put) and as
 * the kernels' definitions read them (nnue_paired_value): every value at every place of two blocks
 * round-trips, lands on the byte the layout's words name, and touches no other byte. */
START_TEST(paired_rows)
{
    int8_t row[128];
    for (uint32_t j = 0; j < 128; j++)
        for (int v = -128; v <= 127; v++) {
            memset(row, 0x5A, sizeof row);
            nnue_paired_put(row, j, (int8_t)v);
            ck_assert_int_eq(nnue_paired_value(row, j), v);
            ck_assert_int_eq(paired_by_hand(row, j), v);
            uint32_t k = j % 64, at = j / 64 * 64 + (k < 32 ? 2 * k : 2 * (k - 32) + 1);
            for (uint32_t i = 0; i < sizeof row; i++)
                if (i != at)
                    ck_assert_int_eq(row[i], 0x5A);
        }
}
END_TEST

START_TEST(acc_sum)
{
    const nnue_kernels *ref = &nnue_kernels_scalar;
    static int16_t rows16[TABLE_ROWS * MAXN], bias[MAXN], a[MAXN + 1], b[MAXN + 1];
    static int8_t rows8[TABLE_ROWS * MAXN];
    static int32_t psqt[3][TABLE_ROWS * MAX_BUCKETS], pa[MAX_BUCKETS + 1], pb[MAX_BUCKETS + 1];
    static uint32_t idx[3][256], flagged[2][3][257];
    int n_flagged[2][3];
    _Static_assert(TABLE_ROWS <= 64, "one word of flags");
    static const uint32_t bucket_counts[] = {0, 1, 2, 7, 8, 9, 16, 17, 33};
    for (int isa = 0; isa < NNUE_ISA_COUNT; isa++) {
        const nnue_kernels *k = isa_set(isa);
        if (!k)
            continue;
        for (int rep = 0; rep < 300; rep++) {
            uint32_t n = sizes[rnd() % N_SIZES], buckets = bucket_counts[rnd() % 9];
            for (uint32_t j = 0; j < n; j++)
                bias[j] = (int16_t)pick(-32768, 32767);
            for (size_t j = 0; j < (size_t)TABLE_ROWS * n; j++) {
                rows16[j] = (int16_t)(rep % 3 ? pick(-600, 600) : pick(-32768, 32767));
                rows8[j] = (int8_t)pick(-128, 127);
            }
            for (int q = 0; q < 3; q++)
                for (size_t j = 0; j < (size_t)TABLE_ROWS * buckets; j++)
                    psqt[q][j] = rep % 2 ? pick(-100000, 100000) : pick(INT32_MIN, INT32_MAX);
            int n_parts = 1 + (int)(rnd() % 3);
            nnue_sum_part parts[3];
            const uint64_t flags = (uint64_t)rnd() << 32 | rnd();
            for (int q = 0; q < n_parts; q++) {
                int count = rnd() % 8 == 0 ? (int)(rnd() % 257) : (int)(rnd() % 40);
                for (int i = 0; i < count; i++) /* repeats allowed (shogi HalfKP's padding index) */
                    idx[q][i] = rnd() % TABLE_ROWS;
                int i8 = n % 64 ? 0 : rep % 4 == 0 ? q == 1 : (int)(rnd() % 2); /* paired: 64-value blocks */
                parts[q] = (nnue_sum_part){i8 ? (const void *)rows8 : (const void *)rows16,
                                           rnd() % 4 ? psqt[q] : NULL,
                                           idx[q],
                                           count,
                                           i8,
                                           i8 && rnd() % 2 ? &flags : NULL,
                                           NULL,
                                           NULL};
            }
            a[n] = b[n] = 12345;
            pa[buckets] = pb[buckets] = 777;
            for (int q = 0; q < n_parts; q++) {
                n_flagged[0][q] = n_flagged[1][q] = -1;
                parts[q].flagged = flagged[0][q];
                parts[q].n_flagged = &n_flagged[0][q];
            }
            ref->acc_sum(a, bias, pa, parts, n_parts, n, buckets);
            for (int q = 0; q < n_parts; q++) {
                parts[q].flagged = flagged[1][q];
                parts[q].n_flagged = &n_flagged[1][q];
            }
            k->acc_sum(b, bias, pb, parts, n_parts, n, buckets);
            for (int q = 0; q < n_parts; q++) {
                int want = 0;
                for (int i = 0; i < parts[q].n && parts[q].flags; i++)
                    if (flags >> idx[q][i] & 1) {
                        ck_assert_uint_eq(flagged[0][q][want], idx[q][i]);
                        ck_assert_uint_eq(flagged[1][q][want], idx[q][i]);
                        want++;
                    }
                want = parts[q].flags ? want : -1;
                ck_assert_msg(n_flagged[0][q] == want && n_flagged[1][q] == want, "%s flagged %d %d want %d",
                              nnue_isa_label(isa), n_flagged[0][q], n_flagged[1][q], want);
            }
            ck_assert_msg(memcmp(a, b, n * sizeof a[0]) == 0, "%s acc_sum n=%u parts=%d", nnue_isa_label(isa), n,
                          n_parts);
            ck_assert_msg(buckets == 0 || memcmp(pa, pb, buckets * sizeof pa[0]) == 0, "%s acc_sum psqt %u",
                          nnue_isa_label(isa), buckets);
            ck_assert_int_eq(b[n], 12345);
            ck_assert_int_eq(pb[buckets], 777);
            if (isa != 0)
                continue;
            /* The definition by hand at one value and one bucket. */
            uint32_t j = rnd() % n;
            uint16_t want = (uint16_t)bias[j];
            uint32_t want_p = 0, bk = buckets ? rnd() % buckets : 0;
            for (int q = 0; q < n_parts; q++)
                for (int i = 0; i < parts[q].n; i++) {
                    size_t at = (size_t)idx[q][i] * n + j;
                    want = (uint16_t)(want + (uint16_t)(parts[q].i8 ? paired_by_hand(rows8 + at - j, j) : rows16[at]));
                    if (parts[q].psqt && buckets)
                        want_p += (uint32_t)parts[q].psqt[(size_t)idx[q][i] * buckets + bk];
                }
            ck_assert_int_eq((int16_t)want, a[j]);
            if (buckets)
                ck_assert_int_eq((int32_t)want_p, pa[bk]);
        }
    }
}
END_TEST

void add_refresh_kernel_tests(TCase *tc)
{
    tcase_add_test(tc, paired_rows);
    tcase_add_test(tc, acc_sum);
}
