/* tests/simd/test_simd_kernels_rows.c: the accumulator row kernels of kernels.h (acc_i16, acc_i8,
 * acc_mixed with its PSQT rows, acc_i32) of every kernel set the CPU supports against the scalar set
 * and against the definition by hand at one value: i16 rows with wrap-around, i8 rows in the paired
 * byte order (simd/paired_i8.h) at widths of whole 64-value blocks, in place and out of place,
 * nothing written past the end. Part of test_simd_kernels (one program). */
#include <string.h>

#include "kernel_inputs.h"
#include "support.h"

START_TEST(accumulators)
{
    const nnue_kernels *ref = &nnue_kernels_scalar;
    static int16_t rows[40][MAXN], src[MAXN], a[MAXN], b[MAXN];
    static int32_t rows32[40][MAXN], src32[MAXN], a32[MAXN], b32[MAXN];
    static int8_t rows8[40][MAXN];
    for (int isa = 1; isa < NNUE_ISA_COUNT; isa++) {
        const nnue_kernels *k = isa_set(isa);
        if (!k)
            continue;
        for (int rep = 0; rep < 200; rep++) {
            uint32_t n = sizes[rnd() % N_SIZES];
            int n_sub = (int)(rnd() % 4), n_add = (int)(rnd() % 41 < 30 ? rnd() % 4 : rnd() % 38);
            for (uint32_t j = 0; j < n; j++) {
                src[j] = (int16_t)pick(-32768, 32767);
                src32[j] = pick(INT32_MIN, INT32_MAX);
                for (int r = 0; r < 40; r++) {
                    rows[r][j] = (int16_t)(rep % 3 ? pick(-600, 600) : pick(-32768, 32767));
                    rows32[r][j] = rep % 3 ? pick(-100000, 100000) : pick(INT32_MIN, INT32_MAX);
                    rows8[r][j] = (int8_t)pick(-128, 127);
                }
            }
            const int16_t *sub[4], *add[40];
            const int32_t *sub32[4], *add32[40];
            const int8_t *sub8[4], *add8[40];
            for (int r = 0; r < n_sub; r++)
                sub[r] = rows[r], sub32[r] = rows32[r], sub8[r] = rows8[r];
            for (int r = 0; r < n_add; r++)
                add[r] = rows[39 - r], add32[r] = rows32[39 - r], add8[r] = rows8[39 - r];
            ref->acc_i16(a, src, sub, n_sub, add, n_add, n);
            memcpy(b, src, sizeof b[0] * n);
            b[n] = 12345;
            k->acc_i16(b, b, sub, n_sub, add, n_add, n); /* in place */
            ck_assert_msg(memcmp(a, b, n * sizeof a[0]) == 0, "%s acc_i16 n=%u sub=%d add=%d", nnue_isa_label(isa), n,
                          n_sub, n_add);
            ck_assert_int_eq(b[n], 12345);
            /* i8 rows (Full_Threats, narrowed sets): paired, whole 64-value blocks */
            uint32_t n8 = sizes8[rnd() % N_SIZES8];
            ref->acc_i8(a, src, sub8, n_sub, add8, n_add, n8);
            uint32_t at = rnd() % n8; /* the definition, by hand at one value */
            uint16_t w8 = (uint16_t)src[at];
            for (int r = 0; r < n_sub; r++)
                w8 = (uint16_t)(w8 - (uint16_t)paired_by_hand(sub8[r], at));
            for (int r = 0; r < n_add; r++)
                w8 = (uint16_t)(w8 + (uint16_t)paired_by_hand(add8[r], at));
            ck_assert_int_eq((int16_t)w8, a[at]);
            memcpy(b, src, sizeof b[0] * n8);
            b[n8] = 12345;
            k->acc_i8(b, b, sub8, n_sub, add8, n_add, n8);
            ck_assert_msg(memcmp(a, b, n8 * sizeof a[0]) == 0, "%s acc_i8 n=%u sub=%d add=%d", nnue_isa_label(isa), n8,
                          n_sub, n_add);
            ck_assert_int_eq(b[n8], 12345);
            b[n] = 12345;
            /* both kinds in one pass (acc_mixed): i16 rows and i8 rows, each removed and added (i8 rows
             * only at widths of whole 64-value blocks, as their contract says) */
            int n_sub8 = (int)(rnd() % 4), n_add8 = (int)(rnd() % 41 < 30 ? rnd() % 4 : rnd() % 30);
            if (n % 64)
                n_sub8 = n_add8 = 0;
            const int8_t *sub8m[4], *add8m[40];
            for (int r = 0; r < n_sub8; r++)
                sub8m[r] = rows8[4 + r];
            for (int r = 0; r < n_add8; r++)
                add8m[r] = rows8[8 + r];
            /* with their PSQT rows (i32) in the same call, on every other repetition */
            const int32_t *psub[8], *padd[80];
            for (int r = 0; r < n_sub + n_sub8; r++)
                psub[r] = rows32[(5 * r) % 40];
            for (int r = 0; r < n_add + n_add8; r++)
                padd[r] = rows32[(7 * r + 3) % 40];
            uint32_t nb = rep % 4 == 1 ? 0 : n <= 8 || rep % 2 ? (n < 8 ? n : 8) : n;
            nnue_mixed_rows mr = {sub, add, sub8m, add8m, n_sub, n_add, n_sub8, n_add8, psub, padd, a32, src32, nb};
            ref->acc_mixed(a, src, &mr, n);
            if (nb) { /* the PSQT definition, by hand at one value */
                uint32_t pw = (uint32_t)src32[nb / 2];
                for (int r = 0; r < n_sub + n_sub8; r++)
                    pw -= (uint32_t)psub[r][nb / 2];
                for (int r = 0; r < n_add + n_add8; r++)
                    pw += (uint32_t)padd[r][nb / 2];
                ck_assert_int_eq((int32_t)pw, a32[nb / 2]);
            }
            mr.psqt_dst = b32;
            b32[nb] = 555;
            uint16_t want = (uint16_t)src[n / 2]; /* the definition, by hand at one value */
            for (int r = 0; r < n_sub; r++)
                want = (uint16_t)(want - (uint16_t)sub[r][n / 2]);
            for (int r = 0; r < n_add; r++)
                want = (uint16_t)(want + (uint16_t)add[r][n / 2]);
            for (int r = 0; r < n_sub8; r++)
                want = (uint16_t)(want - (uint16_t)paired_by_hand(sub8m[r], n / 2));
            for (int r = 0; r < n_add8; r++)
                want = (uint16_t)(want + (uint16_t)paired_by_hand(add8m[r], n / 2));
            ck_assert_int_eq((int16_t)want, a[n / 2]);
            memcpy(b, src, sizeof b[0] * n);
            k->acc_mixed(b, b, &mr, n);
            ck_assert_msg(memcmp(a, b, n * sizeof a[0]) == 0, "%s acc_mixed n=%u sub=%d/%d add=%d/%d",
                          nnue_isa_label(isa), n, n_sub, n_sub8, n_add, n_add8);
            ck_assert_int_eq(b[n], 12345);
            b[n] = 0;
            k->acc_mixed(b, src, &mr, n); /* out of place */
            ck_assert_msg(memcmp(a, b, n * sizeof a[0]) == 0, "%s acc_mixed (out of place) n=%u", nnue_isa_label(isa), n);
            ck_assert_int_eq(b[n], 0);
            ck_assert_msg(memcmp(a32, b32, nb * sizeof a32[0]) == 0, "%s acc_mixed psqt n=%u", nnue_isa_label(isa), nb);
            ck_assert_int_eq(b32[nb], 555);
            uint32_t n32 = rep % 2 ? 8 : sizes[rnd() % 12];
            ref->acc_i32(a32, src32, sub32, n_sub, add32, n_add, n32);
            b32[n32] = 777;
            k->acc_i32(b32, src32, sub32, n_sub, add32, n_add, n32);
            ck_assert_msg(memcmp(a32, b32, n32 * sizeof a32[0]) == 0, "%s acc_i32 n=%u", nnue_isa_label(isa), n32);
            ck_assert_int_eq(b32[n32], 777);
        }
    }
}
END_TEST

void add_row_kernel_tests(TCase *tc)
{
    tcase_add_test(tc, accumulators);
}
