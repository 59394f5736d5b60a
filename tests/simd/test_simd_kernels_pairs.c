/* tests/simd/test_simd_kernels_pairs.c: where head_u8_fc0 may add two input groups' products in
 * one i16 lane (kernels.h pairs): the plan's proof (layers/plan.c nnue_plan_pair_blocks) at its
 * exact bounds, and every kernel set at inputs and weights on those bounds, against the scalar set. */
#include <check.h>
#include <string.h>

#include "kernel_inputs.h"
#include "layers/plan.h"

enum { GROUPS = 64, PAD = 32 };

static int8_t w[GROUPS * PAD * 4];

/* Output o's half h of group g is (a, b), every other weight 0. */
static uint32_t blocks_with(int o, int g, int h, int a, int b, int64_t in_hi)
{
    memset(w, 0, sizeof w);
    w[((size_t)g * PAD + o) * 4 + 2 * h] = (int8_t)a;
    w[((size_t)g * PAD + o) * 4 + 2 * h + 1] = (int8_t)b;
    return nnue_plan_pair_blocks(w, GROUPS, PAD, in_hi);
}

START_TEST(pair_blocks_bounds)
{
    /* 2 * 127 * (a + b) <= 32767 for the positive weights, 32768 for the negative ones */
    static const struct { int a, b, in_hi, ok; } cases[] = {
        {64, 64, 127, 1},   {65, 64, 127, 1},   {65, 65, 127, 0},   {-64, -64, 127, 1}, {-65, -64, 127, 1},
        {-65, -65, 127, 0}, {-128, -1, 127, 1}, {-128, -2, 127, 0}, {127, -128, 127, 1}, {127, 3, 126, 1},
        {127, 4, 126, 0},   {127, 127, 126, 0}, {127, 127, 64, 1},  {0, 0, 255, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (int o = 0; o < PAD; o += 7)
            for (int h = 0; h < 2; h++) {
                uint32_t bits = blocks_with(o, (int)(c * 5 % GROUPS), h, cases[c].a, cases[c].b, cases[c].in_hi);
                uint32_t want = cases[c].ok ? 3u : 3u & ~(1u << (o / 16));
                ck_assert_msg(bits == want, "(%d, %d) at output %d half %d, inputs <= %d: blocks %x, want %x",
                              cases[c].a, cases[c].b, o, h, cases[c].in_hi, bits, want);
            }
}
END_TEST

/* Every group's halves at the largest weights the proof allows, every input 127, every group
 * listed: the sums of two groups reach 32766 (or -32766) in an i16 lane, and each set with pairs
 * must still give the scalar set's values. */
START_TEST(pairs_at_the_bound)
{
    static uint8_t in[GROUPS * 4];
    static uint16_t idx[GROUPS + 16];
    static const int32_t b0[PAD] = {0}, b1[32] = {0}, b2[1] = {0};
    static int8_t w1[8 * 32 * 4], w2[16 * 16 * 4];
    memset(in, 127, sizeof in);
    for (int g = 0; g < GROUPS; g++)
        idx[g] = (uint16_t)g;
    for (int sign = -1; sign <= 1; sign += 2) {
        for (size_t j = 0; j < sizeof w; j++)
            w[j] = (int8_t)(sign * (j % 2 ? 64 : 65));
        uint32_t pairs = nnue_plan_pair_blocks(w, GROUPS, PAD, 127);
        ck_assert_uint_eq(pairs, 3);
        nnue_head_u8 h = {.m0 = 15, .n0 = 32, .sq0 = {19, 127, 46340}, .cr0 = {6, 127}, .cr1 = {6, 127}};
        int32_t want_o0[PAD], o0[PAD];
        int32_t want = nnue_kernels_scalar.head_u8_fc0(&h, in, idx, GROUPS, 0, w, b0, want_o0, w1, b1, w2, b2);
        for (int o = 0; o < PAD; o++) /* each output: every group's 4 inputs of 127 times 65, 64, 65, 64 */
            ck_assert_int_eq(want_o0[o], sign * 127 * 258 * GROUPS);
        for (int isa = 1; isa < NNUE_ISA_COUNT; isa++) {
            const nnue_kernels *k = isa_set(isa);
            if (!k)
                continue;
            for (int listed = 0; listed < 2; listed++) {
                int32_t got = k->head_u8_fc0(&h, in, listed ? idx : NULL, GROUPS, pairs, w, b0, o0, w1, b1, w2, b2);
                ck_assert_msg(got == want && memcmp(o0, want_o0, sizeof o0) == 0,
                              "%s head_u8_fc0 with pairs at the bound (sign %d, listed %d): fc0[0] %d, want %d",
                              nnue_isa_label(isa), sign, listed, o0[0], want_o0[0]);
            }
        }
    }
}
END_TEST

void add_pairs_kernel_tests(TCase *tc)
{
    tcase_add_test(tc, pair_blocks_bounds);
    tcase_add_test(tc, pairs_at_the_bound);
}
