/* simd/kernels_scalar.c: the plain C kernel set. It is the reference the vector sets
 * are tested against (tests/simd), and the set used on CPUs without AVX2. Same math as the
 * layers' scalar propagate functions, on the prepared layouts of kernels.h. */
#include "simd/kernels.h"

static void acc_i16(int16_t *dst, const int16_t *src, const int16_t *const *sub, int n_sub,
                    const int16_t *const *add, int n_add, uint32_t n)
{
    for (uint32_t j = 0; j < n; j++) {
        uint16_t v = (uint16_t)src[j];
        for (int k = 0; k < n_sub; k++)
            v = (uint16_t)(v - (uint16_t)sub[k][j]);
        for (int k = 0; k < n_add; k++)
            v = (uint16_t)(v + (uint16_t)add[k][j]);
        dst[j] = (int16_t)v;
    }
}

static void acc_i8(int16_t *dst, const int16_t *src, const int8_t *const *sub, int n_sub, const int8_t *const *add,
                   int n_add, uint32_t n)
{
    for (uint32_t j = 0; j < n; j++) {
        uint16_t v = (uint16_t)src[j];
        for (int k = 0; k < n_sub; k++)
            v = (uint16_t)(v - (uint16_t)(int16_t)sub[k][j]);
        for (int k = 0; k < n_add; k++)
            v = (uint16_t)(v + (uint16_t)(int16_t)add[k][j]);
        dst[j] = (int16_t)v;
    }
}

static void acc_i32(int32_t *dst, const int32_t *src, const int32_t *const *sub, int n_sub,
                    const int32_t *const *add, int n_add, uint32_t n)
{
    for (uint32_t j = 0; j < n; j++) {
        uint32_t v = (uint32_t)src[j];
        for (int k = 0; k < n_sub; k++)
            v -= (uint32_t)sub[k][j];
        for (int k = 0; k < n_add; k++)
            v += (uint32_t)add[k][j];
        dst[j] = (int32_t)v;
    }
}

static inline int32_t clamp(int32_t v, int32_t max)
{
    return v < 0 ? 0 : v > max ? max : v;
}

static void ft_clamp_u8(const int16_t *acc, uint8_t *out, uint32_t n, int32_t max)
{
    for (uint32_t j = 0; j < n; j++)
        out[j] = (uint8_t)clamp(acc[j], max);
}

static void ft_pairwise_u8(const int16_t *acc, uint8_t *out, uint32_t half, int32_t max, int shift)
{
    for (uint32_t j = 0; j < half; j++)
        out[j] = (uint8_t)(clamp(acc[j], max) * clamp(acc[j + half], max) >> shift);
}

static int nonzero_groups(const uint8_t *in, uint32_t groups, uint16_t *idx)
{
    int count = 0;
    for (uint32_t g = 0; g < groups; g++)
        if (in[4 * g] | in[4 * g + 1] | in[4 * g + 2] | in[4 * g + 3])
            idx[count++] = (uint16_t)g;
    return count;
}

static void affine_u8(const uint8_t *in, uint32_t groups, const int8_t *w, const int32_t *bias, int32_t *out,
                      uint32_t n_out, uint32_t out_pad)
{
    for (uint32_t o = 0; o < n_out; o++) {
        uint32_t sum = (uint32_t)bias[o]; /* wraps like the vector adds (and like int64 truncated) */
        for (uint32_t g = 0; g < groups; g++) {
            const int8_t *wg = w + ((size_t)g * out_pad + o) * 4;
            for (int k = 0; k < 4; k++)
                sum += (uint32_t)((int32_t)in[4 * g + k] * wg[k]);
        }
        out[o] = (int32_t)sum;
    }
}

static void affine_u8_list(const uint8_t *in, const uint16_t *idx, int count, const int8_t *w, const int32_t *bias,
                           int32_t *out, uint32_t n_out, uint32_t out_pad)
{
    for (uint32_t o = 0; o < n_out; o++) {
        uint32_t sum = (uint32_t)bias[o];
        for (int i = 0; i < count; i++) {
            uint32_t g = idx[i];
            const int8_t *wg = w + ((size_t)g * out_pad + o) * 4;
            for (int k = 0; k < 4; k++)
                sum += (uint32_t)((int32_t)in[4 * g + k] * wg[k]);
        }
        out[o] = (int32_t)sum;
    }
}

static int64_t sq_dot_i16(const int16_t *acc, const int16_t *w, uint32_t n, int32_t clip, int32_t wmax)
{
    (void)wmax;
    int64_t sum = 0;
    for (uint32_t j = 0; j < n; j++) {
        int64_t c = clamp(acc[j], clip);
        sum += c * c * w[j];
    }
    return sum;
}

static void crelu_i32(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max)
{
    for (uint32_t j = 0; j < n; j++)
        out[j] = clamp(in[j] >> shift, max);
}

static void sqr_crelu_i32(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max, int32_t bound)
{
    (void)bound;
    for (uint32_t j = 0; j < n; j++) {
        int64_t v = (int64_t)in[j] * in[j] >> shift;
        out[j] = (int32_t)(v > max ? max : v);
    }
}

static void pack_u8(const int32_t *in, uint8_t *out, uint32_t n, uint32_t n_pad)
{
    for (uint32_t j = 0; j < n; j++)
        out[j] = (uint8_t)in[j];
    for (uint32_t j = n; j < n_pad; j++)
        out[j] = 0;
}

static int32_t tail_32_32_1(const int32_t *in, int s1, int32_t m1, const int8_t *w1, const int32_t *b1, int s2,
                            int32_t m2, const int8_t *w2, const int32_t *b2)
{
    int32_t v[32], o[32];
    uint8_t h[32];
    crelu_i32(in, v, 32, s1, m1);
    pack_u8(v, h, 32, 32);
    affine_u8(h, 8, w1, b1, o, 32, 32);
    crelu_i32(o, v, 32, s2, m2);
    pack_u8(v, h, 32, 32);
    affine_u8(h, 8, w2, b2, o, 1, 16);
    return o[0];
}

const nnue_kernels nnue_kernels_scalar = {
    NNUE_ISA_SCALAR, acc_i16, acc_i32, ft_clamp_u8, ft_pairwise_u8, nonzero_groups, affine_u8, affine_u8_list,
    sq_dot_i16, crelu_i32, sqr_crelu_i32, pack_u8, acc_i8, tail_32_32_1, NULL, /* board_scan: the portable one */
};
