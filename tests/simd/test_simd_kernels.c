/* tests/simd/test_simd_kernels.c: every kernel of every kernel set the CPU supports equals the
 * scalar set bit for bit, on random inputs with the extremes mixed in: i16/i32 wrap-around,
 * -128/127 weights, 0/127 (and, where the contract allows it, 255) inputs, odd sizes and
 * padding columns, the bullet dot product's fast and exact forms, and the fused small tail; i8 rows
 * in the kernels' paired byte order, checked by hand against the layout's words. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_inputs.h"
#include "layers/plan_pairs.h"
#include "support.h"

uint64_t rng = 0x243F6A8885A308D3ull;

START_TEST(activations)
{
    const nnue_kernels *ref = &nnue_kernels_scalar;
    static int16_t acc[2 * MAXN];
    static uint8_t a[MAXN + 1], b[MAXN + 1];
    static const int32_t maxes[][2] = {{127, 7}, {127, 0}, {255, 9}, {1, 0}, {181, 8}, {100, 6}};
    for (int isa = 1; isa < NNUE_ISA_COUNT; isa++) {
        const nnue_kernels *k = isa_set(isa);
        if (!k)
            continue;
        for (int rep = 0; rep < 300; rep++) {
            uint32_t n = sizes[rnd() % N_SIZES];
            for (uint32_t j = 0; j < 2 * n; j++)
                acc[j] = (int16_t)(rep % 2 ? pick(-32768, 32767) : pick(-200, 300));
            const int32_t *m = maxes[rnd() % 6];
            ref->ft_clamp_u8(acc, a, n, m[0]);
            b[n] = 0xA5;
            k->ft_clamp_u8(acc, b, n, m[0]);
            ck_assert_msg(memcmp(a, b, n) == 0, "%s clamp n=%u max=%d", nnue_isa_label(isa), n, m[0]);
            ck_assert_int_eq(b[n], 0xA5);
            if (m[0] * m[0] > 32767 || (m[0] * m[0]) >> m[1] > 255)
                continue;
            ref->ft_pairwise_u8(acc, a, n, m[0], m[1]);
            k->ft_pairwise_u8(acc, b, n, m[0], m[1]);
            ck_assert_msg(memcmp(a, b, n) == 0, "%s pairwise half=%u max=%d", nnue_isa_label(isa), n, m[0]);
            ck_assert_int_eq(b[n], 0xA5);
        }
    }
}
END_TEST

START_TEST(nonzero_groups)
{
    static uint8_t in[4 * 700];
    static uint16_t a[700 + 16], b[700 + 16];
    for (int isa = 1; isa < NNUE_ISA_COUNT; isa++) {
        const nnue_kernels *k = isa_set(isa);
        if (!k)
            continue;
        for (int rep = 0; rep < 300; rep++) {
            uint32_t groups = rnd() % 640 + 1, density = rnd() % 5;
            memset(in, 0, sizeof in);
            for (uint32_t j = 0; j < 4 * groups; j++)
                if (rnd() % 8 < density)
                    in[j] = (uint8_t)pick(1, 255);
            for (uint32_t j = 4 * groups; j < sizeof in; j++) /* beyond the end: must be ignored */
                in[j] = 0xFF;
            int na = nnue_kernels_scalar.nonzero_groups(in, groups, a);
            int nb = k->nonzero_groups(in, groups, b);
            ck_assert_int_eq(na, nb);
            ck_assert_msg(memcmp(a, b, (size_t)na * 2) == 0, "%s nonzero_groups groups=%u", nnue_isa_label(isa),
                          groups);
        }
    }
}
END_TEST

/* ft_pairwise_nz: each set's bytes and list equal ft_pairwise_u8's bytes and nonzero_groups' list
 * of the scalar set (two perspectives appended, as the forward pass calls it), sparse and dense. */
START_TEST(pairwise_nz)
{
    static int16_t acc[2][2 * 800];
    static uint8_t a[2 * 800 + 64], b[2 * 800 + 64];
    static uint16_t la[400 + 16], lb[400 + 16];
    static const int32_t maxes[][2] = {{127, 7}, {255, 9}, {100, 6}};
    for (int rep = 0; rep < 600; rep++) {
        uint32_t half = 4 * (rnd() % 200 + 1), density = rnd() % 9;
        const int32_t *m = maxes[rnd() % 3];
        for (int p = 0; p < 2; p++)
            for (uint32_t j = 0; j < 2 * half; j++)
                acc[p][j] = (int16_t)(rnd() % 8 < density ? pick(-32768, 32767) : pick(-300, 0));
        for (int p = 0; p < 2; p++)
            nnue_kernels_scalar.ft_pairwise_u8(acc[p], a + p * half, half, m[0], m[1]);
        int na = nnue_kernels_scalar.nonzero_groups(a, 2 * half / 4, la);
        for (int isa = 0; isa < NNUE_ISA_COUNT; isa++) {
            const nnue_kernels *k = isa_set(isa);
            if (!k)
                continue;
            memset(b, 0xEE, sizeof b);
            int nb = k->ft_pairwise_nz(acc[0], b, 0, half, m[0], m[1], lb, 0);
            nb = k->ft_pairwise_nz(acc[1], b, half, half, m[0], m[1], lb, nb);
            ck_assert_msg(memcmp(a, b, 2 * half) == 0, "%s ft_pairwise_nz bytes half=%u", nnue_isa_label(isa), half);
            ck_assert_int_eq(b[2 * half], 0xEE);
            ck_assert_msg(na == nb && memcmp(la, lb, (size_t)na * 2) == 0, "%s ft_pairwise_nz list half=%u: %d, want %d",
                          nnue_isa_label(isa), half, nb, na);
        }
    }
}
END_TEST

START_TEST(affine)
{
    enum { MAXG = 640, MAXO = 48 };
    static int8_t w[MAXG * MAXO * 4];
    static uint8_t in[4 * MAXG];
    static int32_t bias[MAXO], a[MAXO + 1], b[MAXO + 1];
    static uint16_t idx[MAXG + 16];
    static const uint32_t outs[] = {1, 2, 8, 15, 16, 17, 31, 32, 33, 48};
    int eights = 0; /* reps whose weights the proof let chain eight groups (layers/plan_pairs.c) */
    for (int isa = 1; isa < NNUE_ISA_COUNT; isa++) {
        const nnue_kernels *k = isa_set(isa);
        if (!k)
            continue;
        for (int rep = 0; rep < 300; rep++) {
            uint32_t n_out = outs[rnd() % 10], groups = rnd() % 300 + 1;
            uint32_t out_pad = (n_out + NNUE_KERNEL_OUT_BLOCK - 1) / NNUE_KERNEL_OUT_BLOCK * NNUE_KERNEL_OUT_BLOCK;
            uint32_t in_size = 4 * groups - rnd() % 4; /* the last group may hold padding columns */
            int32_t in_max = vnni(isa) && rep % 2 ? 255 : 127; /* VNNI is exact on any u8 */
            memset(w, 0, sizeof w);
            for (uint32_t g = 0; g < groups; g++)
                for (uint32_t o = 0; o < n_out; o++)
                    for (uint32_t c = 0; c < 4; c++)
                        if (4 * g + c < in_size)
                            w[((size_t)g * out_pad + o) * 4 + c] = (int8_t)(rep % 5 == 1   ? pick(-16, 16)
                                                                            : rep % 5 == 3 ? pick(-32, 32)
                                                                            : rep % 5 == 4 ? pick(-64, 64)
                                                                                           : pick(-128, 127));
            uint32_t pairs = nnue_plan_pair_blocks(w, groups, out_pad, in_max);
            eights += (pairs >> NNUE_EIGHTS_SHIFT & 1) != 0;
            for (uint32_t o = 0; o < n_out; o++)
                bias[o] = rep % 4 == 0 ? pick(INT32_MIN, INT32_MAX) : pick(-100000, 100000);
            memset(in, 0, sizeof in);
            for (uint32_t j = 0; j < in_size; j++)
                in[j] = rep % 3 == 0 ? (uint8_t)in_max : rnd() % 3 ? 0 : (uint8_t)pick(0, in_max);
            nnue_kernels_scalar.affine_u8(in, groups, w, bias, a, n_out, out_pad, 0);
            b[n_out] = 4242;
            k->affine_u8(in, groups, w, bias, b, n_out, out_pad, pairs);
            ck_assert_msg(memcmp(a, b, n_out * 4) == 0, "%s affine_u8 out=%u groups=%u pairs %x", nnue_isa_label(isa),
                          n_out, groups, pairs);
            ck_assert_int_eq(b[n_out], 4242);
            int count = nnue_kernels_scalar.nonzero_groups(in, groups, idx);
            memset(b, 0, sizeof b);
            b[n_out] = 4242;
            k->affine_u8_list(in, idx, count, w, bias, b, n_out, out_pad, pairs);
            ck_assert_msg(memcmp(a, b, n_out * 4) == 0, "%s affine_u8_list out=%u groups=%u pairs %x",
                          nnue_isa_label(isa), n_out, groups, pairs);
            ck_assert_int_eq(b[n_out], 4242);
        }
    }
    if (eights == 0) /* no vector set on this CPU: the proof alone */
        for (int rep = 0; rep < 10 && !eights; rep++) {
            for (size_t j = 0; j < 64 * 16 * 4; j++)
                w[j] = (int8_t)pick(-16, 16);
            eights += (nnue_plan_pair_blocks(w, 64, 16, 127) >> NNUE_EIGHTS_SHIFT & 1) != 0;
        }
    ck_assert_int_gt(eights, 0);
}
END_TEST

START_TEST(bullet_dot)
{
    static int16_t acc[MAXN], w[MAXN];
    for (int isa = 1; isa < NNUE_ISA_COUNT; isa++) {
        const nnue_kernels *k = isa_set(isa);
        if (!k)
            continue;
        for (int rep = 0; rep < 400; rep++) {
            uint32_t n = sizes[rnd() % N_SIZES];
            int32_t clip = rep % 2 ? 255 : 32767;
            int32_t wlim = rep % 4 < 2 ? 128 : rep % 4 == 2 ? 32767 : 20;
            int32_t alim = rep % 3 == 0 ? 32767 : rep % 3 == 1 ? 300 : 1000;
            int32_t wmax = 0;
            for (uint32_t j = 0; j < n; j++) {
                acc[j] = (int16_t)pick(-alim - 1, alim);
                w[j] = (int16_t)pick(-wlim, wlim);
                wmax = abs(w[j]) > wmax ? abs(w[j]) : wmax;
            }
            int64_t a = nnue_kernels_scalar.sq_dot_i16(acc, w, n, clip, wmax);
            int64_t b = k->sq_dot_i16(acc, w, n, clip, wmax);
            ck_assert_msg(a == b, "%s sq_dot_i16 n=%u clip=%d wmax=%d: %lld vs %lld", nnue_isa_label(isa), n, clip, wmax,
                          (long long)a, (long long)b);
            /* a looser bound than the real one must not change the result */
            b = k->sq_dot_i16(acc, w, n, clip, 32768);
            ck_assert_msg(a == b, "%s sq_dot_i16 loose bound n=%u", nnue_isa_label(isa), n);
        }
    }
}
END_TEST

START_TEST(small_layers)
{
    static int32_t in[80], a[80], b[81];
    static uint8_t pa[96], pb[96];
    static const int32_t relu[][2] = {{6, 127}, {0, 127}, {19, 127}, {10, 255}, {30, 1}, {0, 65535}};
    for (int isa = 1; isa < NNUE_ISA_COUNT; isa++) {
        const nnue_kernels *k = isa_set(isa);
        if (!k)
            continue;
        for (int rep = 0; rep < 500; rep++) {
            uint32_t n = rnd() % 64 + 1;
            for (uint32_t j = 0; j < n; j++)
                in[j] = rep % 3 == 0 ? pick(INT32_MIN, INT32_MAX) : rep % 3 == 1 ? pick(-70000, 70000) : pick(-300, 9000);
            const int32_t *r = relu[rnd() % 6];
            nnue_kernels_scalar.crelu_i32(in, a, n, r[0], r[1]);
            b[n] = 99;
            k->crelu_i32(in, b, n, r[0], r[1]);
            ck_assert_msg(memcmp(a, b, n * 4) == 0, "%s crelu n=%u", nnue_isa_label(isa), n);
            ck_assert_int_eq(b[n], 99);
            int64_t bound = 0; /* smallest a with a * a >> shift >= max, as layers/plan.c */
            while (bound <= 46340 && (bound * bound) >> r[0] < r[1])
                bound++;
            if (bound <= 46340) {
                nnue_kernels_scalar.sqr_crelu_i32(in, a, n, r[0], r[1], (int32_t)bound);
                k->sqr_crelu_i32(in, b, n, r[0], r[1], (int32_t)bound);
                ck_assert_msg(memcmp(a, b, n * 4) == 0, "%s sqr_crelu n=%u shift=%d", nnue_isa_label(isa), n, r[0]);
                ck_assert_int_eq(b[n], 99);
            }
            for (uint32_t j = 0; j < n; j++)
                in[j] = pick(0, 255);
            uint32_t n_pad = (n + 3) / 4 * 4 + (rnd() % 2) * 4;
            memset(pa, 0xEE, sizeof pa);
            memset(pb, 0xEE, sizeof pb);
            nnue_kernels_scalar.pack_u8(in, pa, n, n_pad);
            k->pack_u8(in, pb, n, n_pad);
            ck_assert_msg(memcmp(pa, pb, n_pad) == 0, "%s pack_u8 n=%u", nnue_isa_label(isa), n);
        }
    }
}
END_TEST

/* affine_i32 (int32 affine layers: Stormphrax's L2 64 -> 64 and L3 64 -> 1): every product and
 * sum wrapping in 32 bits, weights and inputs over the whole int32 range or the real nets' sizes. */
START_TEST(affine_i32)
{
    enum { MAXI = 130, MAXO = 80 };
    static int32_t w[MAXI * MAXO], in[MAXI], bias[MAXO], a[MAXO + 1], b[MAXO + 1];
    static const uint32_t outs[] = {1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 48, 64, 65, 80};
    for (int isa = 1; isa < NNUE_ISA_COUNT; isa++) {
        const nnue_kernels *k = isa_set(isa);
        if (!k)
            continue;
        for (int rep = 0; rep < 400; rep++) {
            uint32_t n_out = outs[rnd() % 14], n_in = rnd() % MAXI + 1;
            uint32_t out_pad = (n_out + NNUE_KERNEL_OUT_BLOCK - 1) / NNUE_KERNEL_OUT_BLOCK * NNUE_KERNEL_OUT_BLOCK;
            if (n_out == 1 && rep % 2) /* a single output's row as it is (kernels.h) */
                out_pad = 1;
            int wide = rep % 3 == 0; /* else the sizes of Stormphrax's values: no wrap-around */
            memset(w, 0, sizeof w);
            for (uint32_t j = 0; j < n_in; j++) {
                in[j] = wide ? pick(INT32_MIN, INT32_MAX) : rnd() % 3 ? 0 : pick(0, 1 << 18);
                for (uint32_t o = 0; o < n_out; o++)
                    w[j * out_pad + o] = wide ? pick(INT32_MIN, INT32_MAX) : pick(-3000, 3000);
            }
            for (uint32_t o = 0; o < n_out; o++)
                bias[o] = wide ? pick(INT32_MIN, INT32_MAX) : pick(-(1 << 20), 1 << 20);
            nnue_kernels_scalar.affine_i32(in, n_in, w, bias, a, n_out, out_pad);
            b[n_out] = 4242;
            k->affine_i32(in, n_in, w, bias, b, n_out, out_pad);
            ck_assert_msg(memcmp(a, b, n_out * 4) == 0, "%s affine_i32 out=%u in=%u", nnue_isa_label(isa), n_out, n_in);
            ck_assert_int_eq(b[n_out], 4242);
        }
    }
}
END_TEST

/* --- fused heads (issue 47 item 3) --- */
/* affine_i16p (Stormphrax's L2 on pair weights): each set equals the scalar one, and the scalar
 * one equals affine_i32 on the same weights, on inputs and weights over the whole i16 range
 * (-32768 squared twice included) and at the net's sizes; odd input counts leave half a pair. */
START_TEST(affine_i16p)
{
    enum { MAXI = 131, MAXO = 80 };
    static int32_t w32[MAXI * MAXO], in[MAXI], bias[MAXO], a[MAXO + 1], b[MAXO + 1], c[MAXO + 1];
    static int16_t w16[(MAXI + 1) / 2 * MAXO * 2];
    static const uint32_t outs[] = {2, 7, 8, 15, 16, 17, 31, 32, 33, 48, 64, 65, 80};
    for (int rep = 0; rep < 600; rep++) {
        uint32_t n_out = outs[rnd() % 13], n_in = rnd() % MAXI + 1;
        uint32_t out_pad = (n_out + NNUE_KERNEL_OUT_BLOCK - 1) / NNUE_KERNEL_OUT_BLOCK * NNUE_KERNEL_OUT_BLOCK;
        int wide = rep % 3 == 0, extreme = rep % 7 == 0; /* else Stormphrax's sizes: inputs 0..4096 */
        memset(w32, 0, sizeof w32);
        memset(w16, 0, sizeof w16);
        for (uint32_t j = 0; j < n_in; j++) {
            in[j] = extreme ? INT16_MIN : wide ? pick(INT16_MIN, INT16_MAX) : rnd() % 3 ? 0 : pick(0, 4096);
            for (uint32_t o = 0; o < n_out; o++) {
                int32_t v = extreme ? INT16_MIN : wide ? pick(INT16_MIN, INT16_MAX) : pick(-3000, 3000);
                w32[j * out_pad + o] = v;
                w16[((j / 2) * out_pad + o) * 2 + j % 2] = (int16_t)v;
            }
        }
        for (uint32_t o = 0; o < n_out; o++)
            bias[o] = wide || extreme ? pick(INT32_MIN, INT32_MAX) : pick(-(1 << 20), 1 << 20);
        nnue_kernels_scalar.affine_i32(in, n_in, w32, bias, a, n_out, out_pad);
        nnue_kernels_scalar.affine_i16p(in, n_in, w16, bias, c, n_out, out_pad);
        ck_assert_msg(memcmp(a, c, n_out * 4) == 0, "scalar affine_i16p != affine_i32 out=%u in=%u", n_out, n_in);
        for (int isa = 1; isa < NNUE_ISA_COUNT; isa++) {
            const nnue_kernels *k = isa_set(isa);
            if (!k)
                continue;
            b[n_out] = 4242;
            k->affine_i16p(in, n_in, w16, bias, b, n_out, out_pad);
            ck_assert_msg(memcmp(a, b, n_out * 4) == 0, "%s affine_i16p out=%u in=%u", nnue_isa_label(isa), n_out,
                          n_in);
            ck_assert_int_eq(b[n_out], 4242);
        }
    }
}
END_TEST

/* act_u8 (a fused u8 layer's input bytes): each set's bytes equal the scalar set's, which equal
 * crelu_i32 / sqr_crelu_i32 then pack_u8; pieces written one after another at odd offsets (each
 * overwrites what the one before wrote past its end), the values over the whole int32 range. */
START_TEST(act_u8)
{
    enum { PN = 40 };
    static int32_t in[4][PN + 16], v[PN];
    static uint8_t a[4 * PN + 64], b[4 * PN + 64], want[PN];
    static const int32_t relu[][2] = {{6, 127}, {0, 127}, {7, 127}, {21, 127}, {19, 127}, {31, 1}, {0, 0}, {12, 100}};
    for (int rep = 0; rep < 3000; rep++) {
        int pieces = rnd() % 4 + 1;
        uint32_t off[4], n[4], end = 0;
        int32_t shift[4], max[4], bound[4];
        for (int p = 0; p < pieces; p++) {
            n[p] = rnd() % PN + 1;
            off[p] = end;
            end += n[p];
            int r = rnd() % 8;
            shift[p] = relu[r][0];
            max[p] = relu[r][1];
            bound[p] = 0; /* crelu; else sqr_crelu's bound (kernels.h): the least a with (a * a) >> shift >= max */
            if (rnd() % 2) {
                int64_t q = 1;
                while (q < 46340 && (q * q >> shift[p]) < max[p])
                    q++;
                bound[p] = (q * q >> shift[p]) >= max[p] ? (int32_t)q : 0; /* none: sqr_crelu runs its propagate */
            }
            for (uint32_t j = 0; j < n[p] + 16; j++)
                in[p][j] = rep % 3 ? pick(-(1 << 16), 1 << 16) : pick(INT32_MIN, INT32_MAX);
            if (bound[p])
                nnue_kernels_scalar.sqr_crelu_i32(in[p], v, n[p], shift[p], max[p], bound[p]);
            else
                nnue_kernels_scalar.crelu_i32(in[p], v, n[p], shift[p], max[p]);
            nnue_kernels_scalar.pack_u8(v, want, n[p], n[p]);
            memcpy(a + off[p], want, n[p]);
        }
        for (int isa = 0; isa < NNUE_ISA_COUNT; isa++) {
            const nnue_kernels *k = isa_set(isa);
            if (!k)
                continue;
            memset(b, 0xEE, sizeof b);
            for (int p = 0; p < pieces; p++)
                k->act_u8(in[p], b + off[p], n[p], shift[p], max[p], bound[p]);
            ck_assert_msg(memcmp(a, b, end) == 0, "%s act_u8 pieces=%d end=%u", nnue_isa_label(isa), pieces, end);
        }
    }
}
END_TEST

/* The fused 32-32-1 tail equals the scalar set's (which is the six small kernels in a row), and so
 * does fc0 with it (fc0_tail_32_32_1: 1..160 input groups, HalfKP's 128 among them), which also
 * equals the set's own affine_u8 then its tail; a third of the reps have fc0 weights in -64..64,
 * -32..32 or -16..16, which the plan's proof lets pair or sum by fours or eights
 * (layers/plan_pairs.c), and run so. */
START_TEST(small_tail)
{
    static int8_t w0[160 * 32 * 4], w1[8 * 32 * 4], w2[8 * 16 * 4];
    static int32_t in[32], b0[32], b1[32], b2[1];
    static uint8_t x[160 * 4];
    static const int32_t relu[][2] = {{6, 127}, {0, 127}, {19, 127}, {30, 1}, {0, 0}, {31, 127}};
    int paired = 0, quads = 0, eights = 0, sets = 0;
    for (int isa = 1; isa < NNUE_ISA_COUNT; isa++) {
        const nnue_kernels *k = isa_set(isa);
        if (!k || !k->tail_32_32_1)
            continue;
        sets++;
        for (int rep = 0; rep < 2000; rep++) {
            for (size_t j = 0; j < sizeof w1; j++)
                w1[j] = (int8_t)(rep % 5 == 0 ? -128 : pick(-128, 127));
            memset(w2, 0, sizeof w2); /* only output 0 of each block is real; the rest is padding */
            for (int g = 0; g < 8; g++)
                for (int c = 0; c < 4; c++)
                    w2[g * 64 + c] = (int8_t)pick(-128, 127);
            for (int j = 0; j < 32; j++) {
                in[j] = rep % 3 == 0 ? pick(INT32_MIN, INT32_MAX) : pick(-20000, 20000);
                b1[j] = rep % 4 == 0 ? pick(INT32_MIN, INT32_MAX) : pick(-30000, 30000);
            }
            b2[0] = rep % 4 == 1 ? pick(INT32_MIN, INT32_MAX) : pick(-30000, 30000);
            const int32_t *r1 = relu[rnd() % 6], *r2 = relu[rnd() % 6];
            int32_t want = nnue_kernels_scalar.tail_32_32_1(in, r1[0], r1[1], w1, b1, r2[0], r2[1], w2, b2);
            int32_t got = k->tail_32_32_1(in, r1[0], r1[1], w1, b1, r2[0], r2[1], w2, b2);
            ck_assert_msg(got == want, "%s tail_32_32_1 rep %d: %d, scalar %d", nnue_isa_label(isa), rep, got, want);
            ck_assert_msg(k->fc0_tail_32_32_1 != NULL, "%s: tail_32_32_1 without fc0_tail_32_32_1",
                          nnue_isa_label(isa));
            uint32_t groups = rep % 4 ? 128 : 1 + rnd() % 160;
            for (size_t j = 0; j < (size_t)groups * 128; j++)
                w0[j] = (int8_t)(rep % 3 != 2 ? pick(-128, 127)
                                 : rep % 9 == 2 ? pick(-64, 64)
                                 : rep % 9 == 5 ? pick(-32, 32)
                                                : pick(-16, 16));
            for (size_t j = 0; j < (size_t)groups * 4; j++)
                x[j] = (uint8_t)(rep % 7 == 0 ? 127 : pick(0, 127));
            for (int j = 0; j < 32; j++)
                b0[j] = rep % 4 == 0 ? pick(INT32_MIN, INT32_MAX) : pick(-30000, 30000);
            uint32_t pairs = nnue_plan_pair_blocks(w0, groups, 32, 127);
            paired += pairs == 3;
            quads += pairs == (3u | 3u << NNUE_QUADS_SHIFT);
            eights += pairs == (3u | 3u << NNUE_QUADS_SHIFT | 3u << NNUE_EIGHTS_SHIFT);
            want = nnue_kernels_scalar.fc0_tail_32_32_1(x, groups, 0, w0, b0, r1[0], r1[1], w1, b1, r2[0], r2[1], w2,
                                                        b2);
            got = k->fc0_tail_32_32_1(x, groups, pairs, w0, b0, r1[0], r1[1], w1, b1, r2[0], r2[1], w2, b2);
            ck_assert_msg(got == want, "%s fc0_tail_32_32_1 rep %d groups %u pairs %x: %d, scalar %d",
                          nnue_isa_label(isa), rep, groups, pairs, got, want);
            k->affine_u8(x, groups, w0, b0, in, 32, 32, 0);
            ck_assert_int_eq(got, k->tail_32_32_1(in, r1[0], r1[1], w1, b1, r2[0], r2[1], w2, b2));
        }
    }
    if (sets) { /* the paired runs happened, with fours and eights too (where a set has the fused tail) */
        ck_assert_int_gt(paired, 0);
        ck_assert_int_gt(quads, 0);
        ck_assert_int_gt(eights, 0);
    }
}
END_TEST

/* The SFNN head after fc0 (head_u8: fc1 and fc2 with their activations) equals the scalar set's,
 * which is act_u8, affine_u8, act_u8, affine_u8 in a row: Stockfish 15.1's shape (m0 15, fc2 on
 * crelu(fc1)), Stockfish 19's (m0 32, fc2 on all four activations), and every other m0 1..32,
 * with fc1 of 32 outputs and of 64 (YaneuraOu's generated L3 = 64 nets: m0 7, fc2 on
 * crelu(fc1)). */
START_TEST(head_u8)
{
    static int8_t w1[16 * 64 * 4], w2[48 * 16 * 4];
    static int32_t x[48], b1[64], b2[1];
    static const int32_t relu[][2] = {{7, 127}, {6, 127}, {0, 127}, {21, 127}, {19, 127}, {31, 1}, {0, 0}, {12, 100}};
    for (int rep = 0; rep < 3000; rep++) { /* every m0 (AVX2's registers path moves bytes by m0) */
        nnue_head_u8 h = {.m0 = 1 + (uint32_t)(rep % 32), .fc2_all = rnd() % 2, .n1 = rep % 64 < 32 ? 32 : 64};
        int32_t *acts[] = {h.sq0, h.cr0, h.sq1, h.cr1};
        for (int a = 0; a < 4; a++) {
            const int32_t *r = relu[rnd() % 8];
            acts[a][0] = r[0], acts[a][1] = r[1];
        }
        for (int a = 0; a < 3; a += 2) { /* sqr_crelu's bound (kernels.h); sq1's 0 leaves it out */
            if (acts[a][0] == 31)            /* no bound a <= 46340 reaches max: not a sqr_crelu the plan fuses */
                acts[a][0] = 21;
            int64_t q = 1;
            while (q < 46340 && (q * q >> acts[a][0]) < acts[a][1])
                q++;
            acts[a][2] = a == 2 && rnd() % 2 ? 0 : (int32_t)q;
        }
        const uint32_t n1 = h.n1, n2 = (h.fc2_all ? 2 * h.m0 : 0) + (h.sq1[2] ? 2 * n1 : n1);
        memset(w1, 0, sizeof w1);
        memset(w2, 0, sizeof w2); /* the prepared layouts: padding inputs and outputs zero */
        for (uint32_t j = 0; j < 2 * h.m0; j++)
            for (uint32_t o = 0; o < n1; o++)
                w1[(j / 4 * n1 + o) * 4 + j % 4] = (int8_t)(rep % 5 == 0 ? -128 : pick(-128, 127));
        for (uint32_t j = 0; j < n2; j++)
            w2[j / 4 * 64 + j % 4] = (int8_t)pick(-128, 127);
        for (int j = 0; j < 48; j++)
            x[j] = rep % 3 == 0 ? pick(INT32_MIN, INT32_MAX) : pick(-(1 << 16), 1 << 16);
        for (int j = 0; j < 64; j++)
            b1[j] = rep % 4 == 0 ? pick(INT32_MIN, INT32_MAX) : pick(-30000, 30000);
        b2[0] = rep % 4 == 1 ? pick(INT32_MIN, INT32_MAX) : pick(-30000, 30000);
        /* the plain path's kernels, one by one */
        const nnue_kernels *sc = &nnue_kernels_scalar;
        uint8_t in1[64 + 4] = {0}, in2[192 + 4] = {0};
        int32_t o1[64], plain;
        sc->act_u8(x, in1, h.m0, h.sq0[0], h.sq0[1], h.sq0[2]);
        sc->act_u8(x, in1 + h.m0, h.m0, h.cr0[0], h.cr0[1], 0);
        sc->affine_u8(in1, (2 * h.m0 + 3) / 4, w1, b1, o1, n1, n1, 0);
        uint32_t at = h.fc2_all ? 2 * h.m0 : 0;
        memcpy(in2, in1, at);
        if (h.sq1[2]) {
            sc->act_u8(o1, in2 + at, n1, h.sq1[0], h.sq1[1], h.sq1[2]);
            at += n1;
        }
        sc->act_u8(o1, in2 + at, n1, h.cr1[0], h.cr1[1], 0);
        sc->affine_u8(in2, (n2 + 3) / 4, w2, b2, &plain, 1, 16, 0);
        int32_t want = sc->head_u8(&h, x, w1, b1, w2, b2);
        ck_assert_msg(want == plain, "scalar head_u8 rep %d: %d, the plain kernels %d", rep, want, plain);
        for (int isa = 1; isa < NNUE_ISA_COUNT; isa++) {
            const nnue_kernels *k = isa_set(isa);
            if (!k)
                continue;
            int32_t got = k->head_u8(&h, x, w1, b1, w2, b2);
            ck_assert_msg(got == want, "%s head_u8 rep %d m0 %u n1 %u all %u sq1 %d: %d, scalar %d",
                          nnue_isa_label(isa), rep, h.m0, n1, h.fc2_all, h.sq1[2], got, want);
        }
        /* head_u8_fc0: fc0 (64 groups, listed or dense) then the head on its values */
        static uint8_t in0[256];
        static int8_t w0[64 * 32 * 4];
        static uint16_t idx0[64];
        /* rep % 4 == 2: weights in -64..64 (pairs proven), 3: -16..16 (eights) */
        int32_t o0[32], o0k[32], b0[32], count = 0, bounded = rep % 4 >= 2;
        h.n0 = rnd() % 3 == 0 && h.m0 <= 8 ? 8 : h.m0 <= 16 && rnd() % 2 ? 16 : 32; /* 8 laid out 8 wide (YaneuraOu) */
        for (int j = 0; j < 256; j++) /* rep % 8 == 7: every input at its bound 127, the extreme sums */
            in0[j] = (uint8_t)(rep % 8 == 7 ? 127 : rnd() % 4 ? 0 : pick(0, 127));
        for (int j = 0; j < 64 * 32 * 4; j++)
            w0[j] = (int8_t)(rep % 4 == 3 ? pick(-16, 16) : rep % 4 == 2 ? pick(-64, 64) : pick(-128, 127));
        for (int j = 0; j < 32; j++)
            b0[j] = pick(-(1 << 20), 1 << 20);
        for (int g = 0; g < 64; g++)
            if (rnd() % 3)
                idx0[count++] = (uint16_t)g;
        const uint16_t *il = rep % 2 ? idx0 : NULL;
        uint32_t n = il ? (uint32_t)count : 64;
        uint32_t pairs = bounded ? nnue_plan_pair_blocks(w0, 64, NNUE_HEAD_FC0_PAD(h.n0), 127) : 0;
        ck_assert_uint_eq(pairs & 1, (uint32_t)bounded);
        ck_assert_uint_eq(pairs >> NNUE_EIGHTS_SHIFT & 1, (uint32_t)(rep % 4 == 3));
        sc->affine_u8_list(in0, il, (int)n, w0, b0, o0, h.n0, NNUE_HEAD_FC0_PAD(h.n0), 0);
        want = sc->head_u8(&h, o0, w1, b1, w2, b2);
        for (int isa = 0; isa < NNUE_ISA_COUNT; isa++) {
            const nnue_kernels *k = isa ? isa_set(isa) : sc;
            if (!k)
                continue;
            int32_t got = k->head_u8_fc0(&h, in0, il, n, pairs, w0, b0, o0k, w1, b1, w2, b2);
            ck_assert_msg(got == want && memcmp(o0, o0k, h.n0 * 4) == 0,
                          "%s head_u8_fc0 rep %d n0 %u pairs %x: %d, want %d", nnue_isa_label(isa), rep, h.n0, pairs,
                          got, want);
        }
    }
}
END_TEST

/* test_simd_kernels_rows.c, _features.c, _refresh.c, _spans.c, _pairs.c */
void add_row_kernel_tests(TCase *tc), add_feature_kernel_tests(TCase *tc), add_refresh_kernel_tests(TCase *tc),
    add_spans_kernel_tests(TCase *tc), add_pairs_kernel_tests(TCase *tc);

int main(void)
{
    fprintf(stderr, "kernel sets tested against scalar: up to %s\n", nnue_isa_label(nnue_isa_best()));
    Suite *s = suite_create("simd_kernels");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, activations);
    tcase_add_test(tc, nonzero_groups);
    tcase_add_test(tc, affine);
    tcase_add_test(tc, bullet_dot);
    tcase_add_test(tc, small_layers);
    tcase_add_test(tc, affine_i32);
    tcase_add_test(tc, affine_i16p);
    tcase_add_test(tc, act_u8);
    tcase_add_test(tc, small_tail);
    tcase_add_test(tc, head_u8);
    add_row_kernel_tests(tc);
    add_pairs_kernel_tests(tc);
    tcase_add_test(tc, pairwise_nz);
    add_feature_kernel_tests(tc);
    add_refresh_kernel_tests(tc);
    add_spans_kernel_tests(tc);
    suite_add_tcase(s, tc);
    return test_run(s);
}
