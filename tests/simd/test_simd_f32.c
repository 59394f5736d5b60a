/* tests/simd/test_simd_f32.c: every float32 kernel set the CPU runs (simd/kernels_f32.h) equals
 * the float affine layer's propagate (layers/affine_f32.c, the definition) bit for bit, with
 * and without `lanes` (2 to 64: below and above each level's vector width), and the dequantize
 * layer's (layers/dequantize.c) on int32 sums of every size: random sizes around the vector widths and the 2026 nets' own (16/32/64
 * inputs, 1/32/64 outputs), values of every magnitude with exact zeros of both signs,
 * subnormals, and sums that cancel, overflow to infinity or turn NaN (NaN equals NaN here: its
 * payload is not part of the definition). The whole nets run on every set in simd_plentychess,
 * simd_reckless and simd_viridithas (test_simd_nets.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/isa.h"
#include "core/arch/layer.h"
#include "simd/kernels_f32.h"
#include "support.h"

static uint64_t rng = 0x13198A2E03707344ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* A float of any kind: mostly ordinary values of a net's size, then zeros of both signs,
 * subnormals, large values (whose products overflow) and, when `special`, infinities. */
static float value(int special)
{
    uint32_t r = rnd() % 32;
    float u = (float)(rnd() % 2000001) / 1000000.0f - 1.0f;
    switch (r) {
    case 0: return 0.0f;
    case 1: return -0.0f;
    case 2: return u * 1e-39f;  /* subnormal */
    case 3: return u * 3e38f;   /* products of two overflow */
    case 4: return special ? (rnd() % 2 ? INFINITY : -INFINITY) : u;
    case 5: return u * 1e-20f;  /* products underflow */
    default: {
        uint32_t bits = rnd(); /* any finite float, its exponent kept within +-2^20 */
        float f;
        bits = (bits & 0x807FFFFFu) | ((uint32_t)(107 + rnd() % 40) << 23);
        memcpy(&f, &bits, 4);
        return r < 12 ? f : u;
    }
    }
}

static int same(float a, float b)
{
    return memcmp(&a, &b, 4) == 0 || (isnan(a) && isnan(b));
}

static nnue_layer layer_of(uint32_t in, uint32_t out, uint32_t lanes)
{
    nnue_layer l;
    memset(&l, 0, sizeof l);
    l.type = nnue_layer_type_find("affine_f32");
    ck_assert_ptr_nonnull(l.type);
    l.n_inputs = 1;
    l.in_size = l.input_sizes[0] = in;
    l.out_size = out;
    l.value_type = NNUE_F32;
    l.p.f32.lanes = lanes;
    return l;
}

enum { MAXI = 192, MAXO = 80 };
static float w[MAXO * MAXI], wt[MAXI * MAXO + 64], x[MAXI], bias[MAXO], a[MAXO + 1], b[MAXO + 1];

/* Random weights, inputs and biases for in x out; `wt` the weights input-major, out_pad wide. */
static void fill(uint32_t in, uint32_t out, uint32_t out_pad, int special)
{
    for (uint32_t o = 0; o < out; o++)
        for (uint32_t j = 0; j < in; j++)
            w[o * in + j] = value(special);
    memset(wt, 0, sizeof wt);
    for (uint32_t o = 0; o < out; o++)
        for (uint32_t j = 0; j < in; j++)
            wt[j * out_pad + o] = w[o * in + j];
    for (uint32_t j = 0; j < in; j++)
        x[j] = value(special);
    for (uint32_t o = 0; o < out; o++)
        bias[o] = value(special);
}

/* The definition's outputs into a[0 .. out). */
static void definition(const nnue_layer *l)
{
    nnue_layer_weights lw;
    memset(&lw, 0, sizeof lw);
    lw.biases = bias;
    lw.weights = w;
    const int32_t *inputs[1] = {(const int32_t *)(const void *)x};
    l->type->propagate(l, &lw, inputs, (int32_t *)(void *)a);
}

START_TEST(affine_one_chain)
{
    static const uint32_t outs[] = {1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 80};
    for (int isa = 1; isa <= (int)nnue_isa_best(); isa++) {
        const nnue_kernels_f32 *k = nnue_kernels_f32_for((nnue_isa)isa);
        if (!k)
            continue;
        for (int rep = 0; rep < 3000; rep++) {
            uint32_t out = outs[rnd() % 15], in = rep % 4 == 0 ? 16u << (rnd() % 3) : rnd() % MAXI + 1;
            uint32_t out_pad = (out + 15) / 16 * 16;
            int special = rep % 5 == 0;
            fill(in, out, out_pad, special);
            nnue_layer l = layer_of(in, out, 0);
            definition(&l);
            b[out] = 42.0f;
            k->affine(x, in, wt, bias, b, out, out_pad);
            for (uint32_t o = 0; o < out; o++)
                ck_assert_msg(same(a[o], b[o]), "%s affine_f32 %u <- %u, output %u: %a, definition %a",
                              nnue_isa_label((nnue_isa)isa), out, in, o, (double)b[o], (double)a[o]);
            ck_assert_msg(b[out] == 42.0f, "%s affine_f32 wrote past output %u", nnue_isa_label((nnue_isa)isa), out);
        }
    }
}
END_TEST

START_TEST(affine_lanes)
{
    static const uint32_t lane_counts[] = {2, 4, 8, 16, 32, 64};
    for (int isa = 1; isa <= (int)nnue_isa_best(); isa++) {
        const nnue_kernels_f32 *k = nnue_kernels_f32_for((nnue_isa)isa);
        if (!k)
            continue;
        for (int rep = 0; rep < 3000; rep++) {
            uint32_t lanes = lane_counts[rnd() % 6], in = lanes * (rnd() % (MAXI / lanes) + 1);
            uint32_t out = rep % 2 ? 1 : rnd() % 9 + 1;
            fill(in, out, out, rep % 5 == 0);
            nnue_layer l = layer_of(in, out, lanes);
            definition(&l);
            b[out] = 42.0f;
            k->affine_lanes(x, in, w, bias, b, out, lanes);
            for (uint32_t o = 0; o < out; o++)
                ck_assert_msg(same(a[o], b[o]), "%s affine_f32 %u <- %u lanes %u, output %u: %a, definition %a",
                              nnue_isa_label((nnue_isa)isa), out, in, lanes, o, (double)b[o], (double)a[o]);
            ck_assert_msg(b[out] == 42.0f, "%s affine_lanes wrote past output %u", nnue_isa_label((nnue_isa)isa), out);
        }
    }
}
END_TEST

/* dequantize: fma((float) in[o], scale, bias[o]) against the layer's propagate, sums of every
 * magnitude (those past 2^24 round on conversion) and scales of both signs. */
START_TEST(dequantize)
{
    const nnue_layer_type *t = nnue_layer_type_find("dequantize");
    ck_assert_ptr_nonnull(t);
    static int32_t sums[MAXO];
    for (int isa = 1; isa <= (int)nnue_isa_best(); isa++) {
        const nnue_kernels_f32 *k = nnue_kernels_f32_for((nnue_isa)isa);
        if (!k)
            continue;
        for (int rep = 0; rep < 3000; rep++) {
            uint32_t n = rnd() % MAXO + 1;
            for (uint32_t o = 0; o < n; o++) {
                uint32_t r = rnd();
                sums[o] = rep % 3 == 0 ? (int32_t)(r ^ (rnd() << 21)) : (int32_t)(r % 200001) - 100000;
                bias[o] = value(rep % 5 == 0);
            }
            nnue_layer l;
            memset(&l, 0, sizeof l);
            l.type = t;
            l.n_inputs = 1;
            l.in_size = l.input_sizes[0] = l.out_size = n;
            l.value_type = NNUE_F32;
            l.p.f32.scale = rep % 4 == 0 ? value(0) : 512.0f / 4161600.0f;
            nnue_layer_weights lw;
            memset(&lw, 0, sizeof lw);
            lw.biases = bias;
            const int32_t *inputs[1] = {sums};
            t->propagate(&l, &lw, inputs, (int32_t *)(void *)a);
            b[n] = 42.0f;
            k->dequantize(sums, n, l.p.f32.scale, bias, b);
            for (uint32_t o = 0; o < n; o++)
                ck_assert_msg(same(a[o], b[o]), "%s dequantize %u values, value %u (sum %d, scale %a): %a, definition %a",
                              nnue_isa_label((nnue_isa)isa), n, o, sums[o], (double)l.p.f32.scale, (double)b[o],
                              (double)a[o]);
            ck_assert_msg(b[n] == 42.0f, "%s dequantize wrote past value %u", nnue_isa_label((nnue_isa)isa), n);
        }
    }
}
END_TEST

/* The head's element-wise steps (kernels_f32.h head) against their layers' propagates, on values
 * of every kind: zeros of both signs, NaN, infinities, subnormals (a step that chose another min,
 * max or rounding than its layer would differ here). One step a call, then the steps of a
 * dequantize, a dual, a one-chain affine and a to_i32 in one call. */
static const struct {
    const char *type;
    int op, two_inputs;
} elementwise[] = {
    {"crelu_f32", NNUE_F32_CRELU, 0},         {"sqr_crelu_f32", NNUE_F32_SQR_CRELU, 0},
    {"dual_f32", NNUE_F32_DUAL, 0},           {"hardswish_f32", NNUE_F32_HARDSWISH, 0},
    {"mul_f32", NNUE_F32_MUL, 1},             {"add_f32", NNUE_F32_ADD, 1},
    {"to_i32", NNUE_F32_TO_I32, 0},
};

static float special(void)
{
    switch (rnd() % 8) {
    case 0: return NAN;
    case 1: return -0.0f;
    case 2: return rnd() % 2 ? INFINITY : -INFINITY;
    case 3: return (float)(rnd() % 9) - 4.0f; /* the clip bounds and 0, -3, 3 exactly */
    default: return value(0);
    }
}

START_TEST(head_steps)
{
    static float buf[4 * MAXO + 1], want[2 * MAXO];
    for (int isa = 1; isa <= (int)nnue_isa_best(); isa++) {
        const nnue_kernels_f32 *k = nnue_kernels_f32_for((nnue_isa)isa);
        if (!k)
            continue;
        for (int rep = 0; rep < 7 * 400; rep++) {
            int e = rep % 7;
            const nnue_layer_type *t = nnue_layer_type_find(elementwise[e].type);
            ck_assert_ptr_nonnull(t);
            uint32_t n = rnd() % MAXO + 1, n_out = elementwise[e].op == NNUE_F32_DUAL ? 2 * n : n;
            for (uint32_t i = 0; i < 2 * n; i++)
                buf[i] = special();
            nnue_layer l;
            memset(&l, 0, sizeof l);
            l.type = t;
            l.n_inputs = elementwise[e].two_inputs ? 2 : 1;
            l.in_size = l.input_sizes[0] = l.input_sizes[1] = n;
            l.out_size = n_out;
            l.p.f32.max = rep % 3 ? 1.0f : (float)(rnd() % 100 + 1);
            l.p.f32.scale = rep % 3 ? 287.0f : value(0);
            float param = elementwise[e].op == NNUE_F32_TO_I32 ? l.p.f32.scale : l.p.f32.max;
            const int32_t *inputs[2] = {(const int32_t *)(const void *)buf, (const int32_t *)(const void *)(buf + n)};
            t->propagate(&l, NULL, inputs, (int32_t *)(void *)want);
            nnue_f32_head h;
            memset(&h, 0, sizeof h);
            h.n_steps = 1;
            h.steps[0] = (nnue_f32_step){.op = (uint8_t)elementwise[e].op, .in = 0, .in2 = n, .out = 2 * n,
                                         .n_in = n, .n_out = n_out, .param = param};
            buf[2 * n + n_out] = 42.0f;
            k->head(&h, NULL, 0, buf);
            for (uint32_t o = 0; o < n_out; o++)
                ck_assert_msg(memcmp(&want[o], &buf[2 * n + o], 4) == 0 ||
                                  (elementwise[e].op != NNUE_F32_TO_I32 && isnan(want[o]) && isnan(buf[2 * n + o])),
                              "%s head step %s, %u values, value %u (input %a): %a, definition %a",
                              nnue_isa_label((nnue_isa)isa), elementwise[e].type, n, o, (double)buf[o % n],
                              (double)buf[2 * n + o], (double)want[o]);
            ck_assert_msg(buf[2 * n + n_out] == 42.0f, "%s head step %s wrote past its values",
                          nnue_isa_label((nnue_isa)isa), elementwise[e].type);
        }
    }
}
END_TEST

/* The levels that must have float kernels have them (else the tests above compare nothing). */
START_TEST(levels_with_tables)
{
    ck_assert_ptr_null(nnue_kernels_f32_for(NNUE_ISA_SCALAR));
#if defined(__x86_64__) || defined(__aarch64__)
    if (nnue_isa_best() > NNUE_ISA_SCALAR && !getenv("NNUE_CPU_MASK"))
        ck_assert_ptr_nonnull(nnue_kernels_f32_for(nnue_isa_best()));
#endif
}
END_TEST

int main(void)
{
    fprintf(stderr, "float kernel sets tested against affine_f32 and dequantize: up to %s\n", nnue_isa_label(nnue_isa_best()));
    Suite *s = suite_create("simd_f32");
    TCase *tc = tcase_create("f32");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, affine_one_chain);
    tcase_add_test(tc, affine_lanes);
    tcase_add_test(tc, dequantize);
    tcase_add_test(tc, head_steps);
    tcase_add_test(tc, levels_with_tables);
    suite_add_tcase(s, tc);
    return test_run(s);
}
