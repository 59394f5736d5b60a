/* tests/core/test_layers.c: the layer types without a Stockfish net to test them against
 * (pairwise, avg/max pooling, quantmoid4) load, chain, describe, hash, and compute what
 * docs/arch-yaml.md defines. */
#include <string.h>

#include "core/arch/arch_api.h"
#include "core/arch/layer.h"
#include "support.h"

static nnue_arch *load_future(void)
{
    nnue_arch *a;
    nnue_error err;
    nnue_status st = nnue_arch_load(test_source_path("tests/core/future_layers.yaml"), &a, &err);
    char msg[1200];
    nnue_error_format(&err, msg, sizeof msg);
    ck_assert_msg(st == NNUE_OK, "%s", msg);
    return a;
}

static int layer_named(const nnue_arch *a, const char *name)
{
    for (int i = 0; i < a->n_layers; i++)
        if (strcmp(a->layers[i].name, name) == 0)
            return i;
    ck_abort_msg("no layer %s", name);
    return -1;
}

/* SFNNv16's tail (docs/formats-sfnnv16.md section 6): diff = fc0[30] - fc0[31]; the output is
 * (int64) sum * 9600 / 16384, truncated toward zero, without an int32 overflow on the way. */
START_TEST(diff_and_scale_values)
{
    nnue_arch *a;
    nnue_error err;
    ck_assert_int_eq(nnue_arch_load(test_source_path("archs/sfnnv16.yaml"), &a, &err), NNUE_OK);
    const nnue_layer *d = &a->layers[layer_named(a, "fc0_skip")], *sc = &a->layers[layer_named(a, "out")];
    int32_t x = 5, y = 9, out;
    const int32_t *pair[2] = {&x, &y};
    d->type->propagate(d, NULL, pair, &out);
    ck_assert_int_eq(out, -4);
    static const int32_t in[] = {-12345, 12345, 1 << 30, -(1 << 30), 1, -1, 0};
    static const int32_t want[] = {-7233, 7233, 629145600, -629145600, 0, 0, 0};
    for (int i = 0; i < 7; i++) {
        const int32_t *one[1] = {&in[i]};
        sc->type->propagate(sc, NULL, one, &out);
        ck_assert_int_eq(out, want[i]);
    }
    char desc[8192];
    nnue_arch_describe(a, desc, sizeof desc);
    ck_assert_ptr_nonnull(strstr(desc, "Rescale[1;*9600/16384](SkipAdd[1;*1/1](AffineTransform[1<-128](Concat[128]("));
    ck_assert_ptr_nonnull(strstr(desc, "Difference[1](Slice[1(30:31)]("));
    nnue_arch_free(a);
}
END_TEST

/* rescale and skip without a division (den 1: Stormphrax's d_lin and t) give the 64-bit rule's
 * values: the product saturated (rescale) or wrapped (skip), at the int32 extremes and at every
 * scale around them; and with a divisor as before. */
START_TEST(rescale_skip_den1)
{
    nnue_arch *a;
    nnue_error err;
    ck_assert_int_eq(nnue_arch_load(test_source_path("archs/stormphrax.yaml"), &a, &err), NNUE_OK);
    nnue_layer sc = a->layers[layer_named(a, "d_lin")], sk = a->layers[layer_named(a, "t")];
    ck_assert_int_eq(sc.p.scale.den, 1);
    ck_assert_int_eq(sk.p.skip.den, 1);
    enum { N = 24 };
    int32_t x[N] = {INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1, 0, 1, -1, 4096, -4096, 1 << 30, -(1 << 30)};
    int32_t y[N], out[N];
    static const int32_t nums[] = {1, 2, 3, 7, 64, 65536, 1 << 24, -1, -3, -(1 << 24)};
    for (int r = 0; r < 10; r++) {
        int32_t num = nums[r];
        for (int i = 11; i < N; i++) /* the edges of num's exact range and past them */
        {
            int64_t e = (i % 2 ? (int64_t)INT32_MAX / num : (int64_t)INT32_MIN / num) + (i - 16 - i % 2) / 2;
            x[i] = (int32_t)(e > INT32_MAX ? INT32_MAX : e < INT32_MIN ? INT32_MIN : e);
        }
        for (int i = 0; i < N; i++)
            y[i] = x[N - 1 - i];
        sc.p.scale.num = num;
        sc.in_size = sc.out_size = N;
        const int32_t *one[1] = {x};
        sc.type->propagate(&sc, NULL, one, out);
        for (int i = 0; i < N; i++) {
            int64_t v = (int64_t)x[i] * num;
            int32_t want = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
            ck_assert_msg(out[i] == want, "rescale num=%d x=%d: %d, want %d", num, x[i], out[i], want);
        }
        if (num < -65536 || num > 65536) /* skip's scale range */
            continue;
        sk.p.skip.num = num;
        sk.in_size = sk.out_size = N;
        const int32_t *two[2] = {x, y};
        sk.type->propagate(&sk, NULL, two, out);
        for (int i = 0; i < N; i++) {
            int32_t want = (int32_t)(uint32_t)((int64_t)x[i] + (int64_t)y[i] * num);
            ck_assert_msg(out[i] == want, "skip num=%d: %d, want %d", num, out[i], want);
        }
    }
    sc.p.scale.num = 9600;
    sc.p.scale.den = 16384; /* with a divisor: truncated toward zero */
    const int32_t *one[1] = {x};
    sc.type->propagate(&sc, NULL, one, out);
    ck_assert_int_eq(out[6], 0);
    ck_assert_int_eq(out[2], (int32_t)((int64_t)INT32_MAX * 9600 / 16384));
    nnue_arch_free(a);
}
END_TEST

START_TEST(future_layers_load_and_chain)
{
    nnue_arch *a = load_future();
    ck_assert_int_eq(a->n_layers, 9);
    ck_assert_uint_eq(a->layers[2].out_size, 32);  /* pairwise 64 -> 32 */
    ck_assert_uint_eq(a->layers[3].out_size, 16);  /* avg_pool /2 */
    ck_assert_uint_eq(a->layers[4].out_size, 16);  /* max_pool /4 of 64 */
    ck_assert_uint_eq(a->layers[5].out_size, 32);
    char desc[4096];
    nnue_arch_describe(a, desc, sizeof desc);
    ck_assert_ptr_nonnull(strstr(desc, "Quantmoid4[8;>>6](AffineTransform[8<-32](Concat[32](AvgPool[16<-32]("
                                       "PairwiseProduct[32<-64;groups=1,>>7](ClippedReLU[64]("));
    ck_assert_ptr_nonnull(strstr(desc, "MaxPool[16<-64](ClippedReLU[64]("));
    /* Hash: only affine and crelu steps count (docs/arch-yaml.md), in declaration order. */
    uint32_t h = 0xEC42E90Du ^ 512u;
    h = (0xCC03DAE4u + 64) ^ (h >> 1) ^ (h << 31);
    h = 0x538D24C7u + h;
    h = (0xCC03DAE4u + 8) ^ (h >> 1) ^ (h << 31);
    h = (0xCC03DAE4u + 1) ^ (h >> 1) ^ (h << 31);
    ck_assert_uint_eq(a->network_hash, h);
    nnue_arch_free(a);
}
END_TEST

static void run_layer(const nnue_arch *a, int index, const int32_t *in, int32_t *out)
{
    const nnue_layer *l = &a->layers[index];
    const int32_t *inputs[1] = {in};
    l->type->propagate(l, NULL, inputs, out);
}

START_TEST(pooling_and_pairwise_values)
{
    nnue_arch *a = load_future();
    int32_t in[64], out[64];
    for (int i = 0; i < 64; i++)
        in[i] = (i % 2) ? -3 * i : 2 * i;
    run_layer(a, 3, in, out); /* avg of pairs, floor */
    for (int i = 0; i < 16; i++) {
        int32_t s = in[2 * i] + in[2 * i + 1];
        int32_t floor_avg = s >= 0 ? s / 2 : -((-s + 1) / 2);
        ck_assert_int_eq(out[i], floor_avg);
    }
    run_layer(a, 4, in, out); /* max of fours */
    for (int i = 0; i < 16; i++) {
        int32_t m = in[4 * i];
        for (int k = 1; k < 4; k++)
            m = in[4 * i + k] > m ? in[4 * i + k] : m;
        ck_assert_int_eq(out[i], m);
    }
    for (int i = 0; i < 64; i++)
        in[i] = i * 2;
    run_layer(a, 2, in, out); /* one group: x[j] * x[j + 32] >> 7 */
    for (int j = 0; j < 32; j++)
        ck_assert_int_eq(out[j], (in[j] * in[j + 32]) >> 7);
    nnue_arch_free(a);
}
END_TEST

START_TEST(quantmoid4_is_monotone_on_0_to_126)
{
    nnue_arch *a = load_future();
    int32_t in[8], out[8], prev = -1;
    for (int32_t x = -140 * 64; x <= 140 * 64; x += 64) {
        for (int i = 0; i < 8; i++)
            in[i] = x;
        run_layer(a, 7, in, out);
        ck_assert_int_ge(out[0], prev);
        ck_assert_int_ge(out[0], 0);
        ck_assert_int_le(out[0], 126);
        prev = out[0];
    }
    in[0] = 0;
    run_layer(a, 7, in, out);
    ck_assert_int_eq(out[0], 63); /* q = 127^2 >> 8 = 63 at x = 0 */
    ck_assert_int_eq(prev, 126);
    nnue_arch_free(a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("layers");
    TCase *tc = tcase_create("future");
    tcase_add_test(tc, future_layers_load_and_chain);
    tcase_add_test(tc, diff_and_scale_values);
    tcase_add_test(tc, rescale_skip_den1);
    tcase_add_test(tc, pooling_and_pairwise_values);
    tcase_add_test(tc, quantmoid4_is_monotone_on_0_to_126);
    suite_add_tcase(s, tc);
    return test_run(s);
}
