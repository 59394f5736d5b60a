/* tests/simd/test_simd_kernels_pairs.c: where head_u8_fc0 may add two (four, eight) input groups'
 * products in one i16 lane (kernels.h pairs): the plan's proof (layers/plan_pairs.c) at its
 * exact bounds, and every kernel set at inputs and weights on those bounds, against the scalar set. */
#include <check.h>
#include <string.h>

#include "kernel_inputs.h"
#include "layers/plan_pairs.h"

enum { GROUPS = 64, PAD = 32 };

static int8_t w[GROUPS * PAD * 4];

/* Output o's half h of groups g and g2 is (a, b) and (c, d), every other weight 0. */
static uint32_t blocks_with(int o, int g, int g2, int h, const int v[4], int64_t in_hi)
{
    memset(w, 0, sizeof w);
    w[((size_t)g * PAD + o) * 4 + 2 * h] = (int8_t)v[0];
    w[((size_t)g * PAD + o) * 4 + 2 * h + 1] = (int8_t)v[1];
    w[((size_t)g2 * PAD + o) * 4 + 2 * h] = (int8_t)v[2];
    w[((size_t)g2 * PAD + o) * 4 + 2 * h + 1] = (int8_t)v[3];
    return nnue_plan_pair_blocks(w, GROUPS, PAD, in_hi);
}

START_TEST(pair_blocks_bounds)
{
    /* in_hi times the two groups' positive weights at most 32767 (127: a sum of 258 passes, 259
     * not), the negative ones 32768: a group is never paired with itself, so one large group
     * alone passes */
    static const struct { int v[4], in_hi, ok; } cases[] = {
        {{64, 64, 64, 64}, 127, 1},     {{65, 64, 64, 64}, 127, 1},     {{65, 65, 64, 64}, 127, 1},
        {{65, 65, 65, 64}, 127, 0},     {{-64, -64, -65, -64}, 127, 1}, {{-65, -65, -64, -64}, 127, 1},
        {{-65, -65, -65, -64}, 127, 0}, {{-128, -1, -128, -1}, 127, 1}, {{-128, -2, -128, -1}, 127, 0},
        {{127, -128, 127, -128}, 127, 1}, {{127, 127, 0, 0}, 127, 1},   {{127, 127, 4, 0}, 127, 1},
        {{127, 127, 0, 5}, 127, 0},     {{-128, -128, 0, 0}, 127, 1},   {{-128, -128, -3, 0}, 127, 0},
        {{127, 3, 127, 3}, 126, 1},     {{127, 4, 127, 3}, 126, 0},     {{127, 127, 127, 127}, 64, 1},
        {{0, 0, 0, 0}, 255, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (int o = 0; o < PAD; o += 7)
            for (int h = 0; h < 2; h++) {
                int g = (int)(c * 5 % GROUPS), g2 = (g + 1 + (int)c) % GROUPS;
                uint32_t bits = blocks_with(o, g, g2, h, cases[c].v, cases[c].in_hi);
                uint32_t want = cases[c].ok ? 3u : 3u & ~(1u << (o / 16));
                /* two groups only: any four or eight take the same two */
                want |= want << NNUE_QUADS_SHIFT | want << NNUE_EIGHTS_SHIFT;
                ck_assert_msg(bits == want, "case %zu at output %d half %d, inputs <= %d: blocks %x, want %x", c, o,
                              h, cases[c].in_hi, bits, want);
            }
}
END_TEST

/* head_u8_fc0 of 32 outputs over `groups` groups of every vector set, dense and listed (idx: every
 * group), with pairs word `pairs` (proven for w0), equals the scalar set's, whose fc0 values are
 * each fc0_each. */
/* The layers after fc0 in the checks below: fc1's weights 5, -2, -2, ..., fc2's 3 on output 0
 * of each block (every bias 0). */
static int8_t w1[8 * 32 * 4], w2[16 * 16 * 4];
static const int32_t b1[32], b2[1];

static void fill_after_fc0(void)
{
    for (size_t j = 0; j < sizeof w1; j++)
        w1[j] = (int8_t)(j % 3 == 0 ? 5 : -2);
    for (int g = 0; g < 8; g++)
        w2[g * 64] = 3;
}

static void head_as_scalar(const uint8_t *in, const uint16_t *idx, uint32_t groups, uint32_t pairs, const int8_t *w0,
                           const int32_t *b0, int32_t fc0_each, const char *what)
{
    fill_after_fc0();
    nnue_head_u8 h = {.m0 = 15, .n0 = 32, .n1 = 32, .sq0 = {19, 127, 46340}, .cr0 = {6, 127}, .cr1 = {6, 127}};
    int32_t want_o0[32], o0[32];
    int32_t want = nnue_kernels_scalar.head_u8_fc0(&h, in, NULL, groups, 0, w0, b0, want_o0, w1, b1, w2, b2);
    for (int o = 0; o < 32; o++)
        ck_assert_int_eq(want_o0[o], fc0_each);
    for (int isa = 1; isa < NNUE_ISA_COUNT; isa++) {
        const nnue_kernels *k = isa_set(isa);
        if (!k)
            continue;
        for (int listed = 0; listed < 2; listed++) {
            int32_t got = k->head_u8_fc0(&h, in, listed ? idx : NULL, groups, pairs, w0, b0, o0, w1, b1, w2, b2);
            ck_assert_msg(got == want && memcmp(o0, want_o0, sizeof o0) == 0,
                          "%s head_u8_fc0 with %s at the bound (pairs %x, listed %d): fc0[0] %d, want %d",
                          nnue_isa_label(isa), what, pairs, listed, o0[0], want_o0[0]);
        }
    }
}

/* Every group's halves at the largest weights the proof allows, every input 127, every group
 * listed: the sums of two groups reach 32766 (or -32766) in an i16 lane, and each set with pairs
 * must still give the scalar set's values. */
START_TEST(pairs_at_the_bound)
{
    static uint8_t in[GROUPS * 4];
    static uint16_t idx[GROUPS + 16];
    static const int32_t b0[PAD] = {0};
    memset(in, 127, sizeof in);
    for (int g = 0; g < GROUPS; g++)
        idx[g] = (uint16_t)g;
    for (int sign = -1; sign <= 1; sign += 2) {
        for (size_t j = 0; j < sizeof w; j++)
            w[j] = (int8_t)(sign * (j % 2 ? 64 : 65));
        uint32_t pairs = nnue_plan_pair_blocks(w, GROUPS, PAD, 127);
        ck_assert_int_eq(pairs, 3);
        /* each output: every group's 4 inputs of 127 times 65, 64, 65, 64 */
        head_as_scalar(in, idx, GROUPS, pairs, w, b0, sign * 127 * 258 * GROUPS, "pairs");
    }
}
END_TEST

/* fc0_tail_32_32_1 of every vector set with pairs word `pairs` (proven for w0) equals the scalar
 * set's; every fc0 bias is lift, which puts negative sums mid-range (fc0's shift then keeps a
 * wrapped lane visible in the result). */
static void tail_as_scalar(const uint8_t *in, uint32_t groups, uint32_t pairs, const int8_t *w0, int32_t lift)
{
    int32_t b0[32];
    fill_after_fc0();
    for (int o = 0; o < 32; o++)
        b0[o] = lift;
    int32_t want = nnue_kernels_scalar.fc0_tail_32_32_1(in, groups, 0, w0, b0, 14, 127, w1, b1, 0, 127, w2, b2);
    for (int isa = 1; isa < NNUE_ISA_COUNT; isa++) {
        const nnue_kernels *k = isa_set(isa);
        if (!k || !k->fc0_tail_32_32_1)
            continue;
        int32_t got = k->fc0_tail_32_32_1(in, groups, pairs, w0, b0, 14, 127, w1, b1, 0, 127, w2, b2);
        ck_assert_msg(got == want, "%s fc0_tail_32_32_1 with pairs %x (lift %d): %d, want %d", nnue_isa_label(isa),
                      pairs, lift, got, want);
    }
}

/* Four groups a lane: the proof takes the four largest halves (each 64 here: 127 * 256 = 32512
 * passes; with one of 67, 127 * 259, not), and fc0_tail_32_32_1 summing four groups of 127s in
 * an i16 lane gives the scalar set's value (fc0's sums land mid-range after its shift, so a lane
 * that wrapped would change the result). */
START_TEST(quads_at_the_bound)
{
    enum { G = 32 };
    static int8_t w0[G * 32 * 4];
    static uint8_t in[G * 4];
    memset(in, 127, sizeof in);
    for (int sign = -1; sign <= 1; sign += 2) {
        for (size_t j = 0; j < sizeof w0; j++)
            w0[j] = (int8_t)(sign * 32);
        uint32_t pairs = nnue_plan_pair_blocks(w0, G, 32, 127);
        ck_assert_uint_eq(pairs, 3u | 3u << NNUE_QUADS_SHIFT);
        w0[5 * 128 + 7 * 4] = (int8_t)(sign * 35); /* a half of 67 (259 in four): pairs only */
        uint32_t block1 = nnue_plan_pair_blocks(w0, G, 32, 127);
        ck_assert_uint_eq(block1, 3u | 2u << NNUE_QUADS_SHIFT);
        int32_t lift = sign < 0 ? 127 * 256 * G * 2 : 0; /* the negative sums lifted to mid-range */
        tail_as_scalar(in, G, block1, w0, lift); /* the pass over both blocks pairs */
        w0[5 * 128 + 7 * 4] = (int8_t)(sign * 32);
        tail_as_scalar(in, G, pairs, w0, lift);
    }
}
END_TEST

/* Eight groups a lane: the proof takes the eight largest halves (each 32 here: 127 * 256 = 32512
 * passes; with one of 35, 127 * 259, not: fours only), and head_u8_fc0 (dense: the eights' loop,
 * listed: pairs) and fc0_tail_32_32_1 summing eight groups of 127s in an i16 lane give the scalar
 * set's values. */
START_TEST(eights_at_the_bound)
{
    enum { G = 40 }; /* five runs of eight */
    static int8_t w0[G * 32 * 4];
    static uint8_t in[G * 4];
    static uint16_t idx[G];
    int32_t b0[32];
    memset(in, 127, sizeof in);
    for (int g = 0; g < G; g++)
        idx[g] = (uint16_t)g;
    for (int sign = -1; sign <= 1; sign += 2) {
        for (size_t j = 0; j < sizeof w0; j++)
            w0[j] = (int8_t)(sign * 16);
        uint32_t pairs = nnue_plan_pair_blocks(w0, G, 32, 127);
        ck_assert_uint_eq(pairs, 3u | 3u << NNUE_QUADS_SHIFT | 3u << NNUE_EIGHTS_SHIFT);
        w0[5 * 128 + 20 * 4 + 3] = (int8_t)(sign * 19); /* output 20's second half of 35: block 1 */
        uint32_t block0 = nnue_plan_pair_blocks(w0, G, 32, 127);
        ck_assert_uint_eq(block0, 3u | 3u << NNUE_QUADS_SHIFT | 1u << NNUE_EIGHTS_SHIFT);
        int32_t lift = sign < 0 ? 127 * 128 * G * 2 : 0; /* the negative sums lifted to mid-range */
        tail_as_scalar(in, G, block0, w0, lift); /* block 1's lane would leave i16 by eight */
        w0[5 * 128 + 20 * 4 + 3] = (int8_t)(sign * 16);
        for (int o = 0; o < 32; o++)
            b0[o] = lift;
        /* each output: every group's 4 inputs of 127 times 16 */
        head_as_scalar(in, idx, G, pairs, w0, b0, lift + sign * 127 * 64 * G, "eights");
        tail_as_scalar(in, G, pairs, w0, lift);
    }
}
END_TEST

void add_pairs_kernel_tests(TCase *tc)
{
    tcase_add_test(tc, pair_blocks_bounds);
    tcase_add_test(tc, pairs_at_the_bound);
    tcase_add_test(tc, quads_at_the_bound);
    tcase_add_test(tc, eights_at_the_bound);
}
