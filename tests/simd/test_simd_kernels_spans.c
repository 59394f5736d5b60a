/* tests/simd/test_simd_kernels_spans.c: affine_u8_spans (output-major layers with few outputs,
 * YaneuraOu's common + shard fc0) of every kernel set the CPU supports equals the scalar set bit
 * for bit, and both equal the plain sum of the definition: random spans of odd lengths (whole
 * vectors and rests), -128/127 weights, 0/127 inputs, wrapping biases. Part of test_simd_kernels. */
#include <string.h>

#include "kernel_inputs.h"
#include "support.h"

/* The definition (kernels.h), written out: 64-bit sums truncated to 32 bits. */
static int32_t spans_sum(const uint8_t *in, uint32_t n1, uint32_t at, uint32_t n2, const int8_t *w, int32_t bias)
{
    int64_t sum = bias;
    for (uint32_t j = 0; j < n1; j++)
        sum += (int64_t)in[j] * w[j];
    for (uint32_t j = 0; j < n2; j++)
        sum += (int64_t)in[at + j] * w[n1 + j];
    return (int32_t)(uint32_t)(uint64_t)sum;
}

START_TEST(affine_spans)
{
    enum { MAXIN = 1100, MAXO = 20 };
    static uint8_t in[MAXIN];
    static int8_t w[MAXO * MAXIN];
    static uint32_t at[MAXO];
    static int32_t bias[MAXO], want[MAXO + 1], a[MAXO + 1], b[MAXO + 1];
    for (int isa = 0; isa < NNUE_ISA_COUNT; isa++) {
        const nnue_kernels *k = isa_set(isa);
        if (!k)
            continue;
        for (int rep = 0; rep < 300; rep++) {
            /* YaneuraOu's shape first, then random ones (lengths not multiples of any vector) */
            uint32_t n_out = rep == 0 ? 8 : rnd() % MAXO + 1, n1 = rep == 0 ? 256 : rnd() % 400;
            uint32_t n2 = rep == 0 ? 192 : rnd() % 300, in_size = n1 + n2 + (rep == 0 ? 576 : rnd() % 300);
            uint32_t row = n1 + n2 + rnd() % 8;
            for (uint32_t j = 0; j < in_size; j++)
                in[j] = rep % 3 == 0 ? 127 : rnd() % 3 ? 0 : (uint8_t)pick(0, 127);
            for (uint32_t o = 0; o < n_out; o++) {
                at[o] = rnd() % (in_size - n2 + 1);
                bias[o] = rep % 4 == 0 ? pick(INT32_MIN, INT32_MAX) : pick(-100000, 100000);
                for (uint32_t j = 0; j < row; j++)
                    w[(size_t)o * row + j] = (int8_t)pick(-128, 127);
                want[o] = spans_sum(in, n1, at[o], n2, w + (size_t)o * row, bias[o]);
            }
            a[n_out] = b[n_out] = 4242;
            nnue_kernels_scalar.affine_u8_spans(in, n1, at, n2, w, row, bias, a, n_out);
            k->affine_u8_spans(in, n1, at, n2, w, row, bias, b, n_out);
            ck_assert_msg(memcmp(want, a, n_out * 4) == 0, "scalar affine_u8_spans against the definition, rep %d",
                          rep);
            ck_assert_msg(memcmp(a, b, n_out * 4) == 0, "%s affine_u8_spans out=%u n1=%u n2=%u rep %d",
                          nnue_isa_label(isa), n_out, n1, n2, rep);
            ck_assert_int_eq(b[n_out], 4242); /* no output past n_out written */
        }
    }
}
END_TEST

void add_spans_kernel_tests(TCase *tc)
{
    tcase_add_test(tc, affine_spans);
}
