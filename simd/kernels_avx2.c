/* simd/kernels_avx2.c: the AVX2 kernel set (256-bit vectors). Compiled with per-function
 * target attributes so the library keeps running on plain x86-64; only called when the CPU
 * has AVX2. u8 x i8 products use vpmaddubsw + vpmaddwd, exact because inputs are <= 127 (the
 * pairwise i16 sums stay within 2 * 127 * 128 = 32512). All loads are unaligned. */
#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#include "simd/kernels.h"
#include "simd/nz_table.h"
#include "base/targets.h"

#define TGT NNUE_TARGET(NNUE_TARGET_AVX2)
#define TILE 8 /* vectors of 16 i16 kept in registers per pass over the rows */

TGT static void acc_i16(int16_t *dst, const int16_t *src, const int16_t *const *sub, int n_sub,
                        const int16_t *const *add, int n_add, uint32_t n)
{
    uint32_t j = 0;
    for (; j + 16 * TILE <= n; j += 16 * TILE) {
        __m256i v[TILE];
        for (int t = 0; t < TILE; t++)
            v[t] = _mm256_loadu_si256((const __m256i *)(src + j + 16 * t));
        for (int k = 0; k < n_sub; k++)
            for (int t = 0; t < TILE; t++)
                v[t] = _mm256_sub_epi16(v[t], _mm256_loadu_si256((const __m256i *)(sub[k] + j + 16 * t)));
        for (int k = 0; k < n_add; k++)
            for (int t = 0; t < TILE; t++)
                v[t] = _mm256_add_epi16(v[t], _mm256_loadu_si256((const __m256i *)(add[k] + j + 16 * t)));
        for (int t = 0; t < TILE; t++)
            _mm256_storeu_si256((__m256i *)(dst + j + 16 * t), v[t]);
    }
    for (; j + 16 <= n; j += 16) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(src + j));
        for (int k = 0; k < n_sub; k++)
            v = _mm256_sub_epi16(v, _mm256_loadu_si256((const __m256i *)(sub[k] + j)));
        for (int k = 0; k < n_add; k++)
            v = _mm256_add_epi16(v, _mm256_loadu_si256((const __m256i *)(add[k] + j)));
        _mm256_storeu_si256((__m256i *)(dst + j), v);
    }
    for (; j < n; j++) {
        uint16_t v = (uint16_t)src[j];
        for (int k = 0; k < n_sub; k++)
            v = (uint16_t)(v - (uint16_t)sub[k][j]);
        for (int k = 0; k < n_add; k++)
            v = (uint16_t)(v + (uint16_t)add[k][j]);
        dst[j] = (int16_t)v;
    }
}

/* i8 rows widened with vpmovsxbw (16 values per load), same tiling as acc_i16. */
TGT static void acc_i8(int16_t *dst, const int16_t *src, const int8_t *const *sub, int n_sub, const int8_t *const *add,
                       int n_add, uint32_t n)
{
    uint32_t j = 0;
    for (; j + 16 * TILE <= n; j += 16 * TILE) {
        __m256i v[TILE];
        for (int t = 0; t < TILE; t++)
            v[t] = _mm256_loadu_si256((const __m256i *)(src + j + 16 * t));
        for (int k = 0; k < n_sub; k++)
            for (int t = 0; t < TILE; t++)
                v[t] = _mm256_sub_epi16(
                    v[t], _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(sub[k] + j + 16 * t))));
        for (int k = 0; k < n_add; k++)
            for (int t = 0; t < TILE; t++)
                v[t] = _mm256_add_epi16(
                    v[t], _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(add[k] + j + 16 * t))));
        for (int t = 0; t < TILE; t++)
            _mm256_storeu_si256((__m256i *)(dst + j + 16 * t), v[t]);
    }
    for (; j < n; j++) {
        uint16_t v = (uint16_t)src[j];
        for (int k = 0; k < n_sub; k++)
            v = (uint16_t)(v - (uint16_t)(int16_t)sub[k][j]);
        for (int k = 0; k < n_add; k++)
            v = (uint16_t)(v + (uint16_t)(int16_t)add[k][j]);
        dst[j] = (int16_t)v;
    }
}

TGT static void acc_i32(int32_t *dst, const int32_t *src, const int32_t *const *sub, int n_sub,
                        const int32_t *const *add, int n_add, uint32_t n)
{
    uint32_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(src + j));
        for (int k = 0; k < n_sub; k++)
            v = _mm256_sub_epi32(v, _mm256_loadu_si256((const __m256i *)(sub[k] + j)));
        for (int k = 0; k < n_add; k++)
            v = _mm256_add_epi32(v, _mm256_loadu_si256((const __m256i *)(add[k] + j)));
        _mm256_storeu_si256((__m256i *)(dst + j), v);
    }
    for (; j < n; j++) {
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

TGT static void ft_clamp_u8(const int16_t *acc, uint8_t *out, uint32_t n, int32_t max)
{
    const __m256i zero = _mm256_setzero_si256(), hi = _mm256_set1_epi16((int16_t)max);
    uint32_t j = 0;
    for (; j + 32 <= n; j += 32) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(acc + j));
        __m256i b = _mm256_loadu_si256((const __m256i *)(acc + j + 16));
        a = _mm256_min_epi16(_mm256_max_epi16(a, zero), hi);
        b = _mm256_min_epi16(_mm256_max_epi16(b, zero), hi);
        __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
        _mm256_storeu_si256((__m256i *)(out + j), p);
    }
    for (; j < n; j++)
        out[j] = (uint8_t)clamp(acc[j], max);
}

TGT static void ft_pairwise_u8(const int16_t *acc, uint8_t *out, uint32_t half, int32_t max, int shift)
{
    const __m256i zero = _mm256_setzero_si256(), hi = _mm256_set1_epi16((int16_t)max);
    const __m128i sh = _mm_cvtsi32_si128(shift);
    uint32_t j = 0;
    for (; j + 32 <= half; j += 32) {
        __m256i a0 = _mm256_loadu_si256((const __m256i *)(acc + j));
        __m256i a1 = _mm256_loadu_si256((const __m256i *)(acc + j + 16));
        __m256i b0 = _mm256_loadu_si256((const __m256i *)(acc + half + j));
        __m256i b1 = _mm256_loadu_si256((const __m256i *)(acc + half + j + 16));
        a0 = _mm256_min_epi16(_mm256_max_epi16(a0, zero), hi);
        a1 = _mm256_min_epi16(_mm256_max_epi16(a1, zero), hi);
        b0 = _mm256_min_epi16(_mm256_max_epi16(b0, zero), hi);
        b1 = _mm256_min_epi16(_mm256_max_epi16(b1, zero), hi);
        __m256i p0 = _mm256_srl_epi16(_mm256_mullo_epi16(a0, b0), sh);
        __m256i p1 = _mm256_srl_epi16(_mm256_mullo_epi16(a1, b1), sh);
        _mm256_storeu_si256((__m256i *)(out + j), _mm256_permute4x64_epi64(_mm256_packus_epi16(p0, p1), 0xD8));
    }
    for (; j < half; j++)
        out[j] = (uint8_t)(clamp(acc[j], max) * clamp(acc[j + half], max) >> shift);
}

TGT static int nonzero_groups(const uint8_t *in, uint32_t groups, uint16_t *idx)
{
    int count = 0;
    uint32_t g = 0;
    const __m256i zero = _mm256_setzero_si256();
    for (; g + 8 <= groups; g += 8) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(in + 4 * g));
        unsigned nz = ~(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, zero))) & 0xFFu;
        __m128i pos = _mm_cvtepu8_epi16(_mm_loadl_epi64((const __m128i *)nnue_nz_table[nz]));
        _mm_storeu_si128((__m128i *)(idx + count), _mm_add_epi16(_mm_set1_epi16((int16_t)g), pos));
        count += __builtin_popcount(nz);
    }
    for (; g < groups; g++)
        if (in[4 * g] | in[4 * g + 1] | in[4 * g + 2] | in[4 * g + 3])
            idx[count++] = (uint16_t)g;
    return count;
}


TGT static inline __m256i bcast(const uint8_t *p)
{
    int32_t x;
    memcpy(&x, p, 4);
    return _mm256_set1_epi32(x);
}

TGT static inline __m256i dot(__m256i acc, __m256i x, const int8_t *w)
{
    __m256i p = _mm256_maddubs_epi16(x, _mm256_loadu_si256((const __m256i *)w));
    return _mm256_add_epi32(acc, _mm256_madd_epi16(p, _mm256_set1_epi16(1)));
}

TGT static inline void finish(__m256i sum, const int32_t *bias, int32_t *out, uint32_t o, uint32_t n_out)
{
    if (o + 8 <= n_out) {
        sum = _mm256_add_epi32(sum, _mm256_loadu_si256((const __m256i *)(bias + o)));
        _mm256_storeu_si256((__m256i *)(out + o), sum);
    } else {
        int32_t tmp[8];
        _mm256_storeu_si256((__m256i *)tmp, sum);
        for (uint32_t k = 0; o + k < n_out; k++)
            out[o + k] = (int32_t)((uint32_t)tmp[k] + (uint32_t)bias[o + k]);
    }
}

/* One pass over the input groups (all of them, or the listed ones) for nb blocks of
 * 8 outputs: 4 groups in flight, so 4 * nb independent sums hide the latency. */
TGT static inline void pass(const uint8_t *in, const uint16_t *idx, uint32_t count, const int8_t *wb, size_t stride,
                            const int nb, __m256i *res)
{
    __m256i s[4][4];
    for (int u = 0; u < 4; u++)
        for (int b = 0; b < nb; b++)
            s[u][b] = _mm256_setzero_si256();
    uint32_t i = 0;
    for (; i + 4 <= count; i += 4)
        for (int u = 0; u < 4; u++) {
            uint32_t g = idx ? idx[i + u] : i + u;
            __m256i x = bcast(in + 4 * g);
            for (int b = 0; b < nb; b++)
                s[u][b] = dot(s[u][b], x, wb + g * stride + 32 * b);
        }
    for (; i < count; i++) {
        uint32_t g = idx ? idx[i] : i;
        __m256i x = bcast(in + 4 * g);
        for (int b = 0; b < nb; b++)
            s[0][b] = dot(s[0][b], x, wb + g * stride + 32 * b);
    }
    for (int b = 0; b < nb; b++)
        res[b] = _mm256_add_epi32(_mm256_add_epi32(s[0][b], s[1][b]), _mm256_add_epi32(s[2][b], s[3][b]));
}

TGT static void run(const uint8_t *in, const uint16_t *idx, uint32_t count, const int8_t *w, const int32_t *bias,
                    int32_t *out, uint32_t n_out, uint32_t out_pad)
{
    size_t stride = (size_t)out_pad * 4;
    __m256i res[2];
    for (uint32_t o = 0; o < n_out;) {
        uint32_t left = (n_out - o + 7) / 8;
        int nb = left >= 2 ? 2 : (int)left; /* 16 registers: 4 x 2 sums */
        const int8_t *wb = w + (size_t)o * 4;
        switch (nb) { /* constant block counts, so the sums stay in registers */
        case 2: pass(in, idx, count, wb, stride, 2, res); break;
        default: pass(in, idx, count, wb, stride, 1, res); break;
        }
        for (int b = 0; b < nb; b++, o += 8)
            finish(res[b], bias, out, o, n_out);
    }
}

TGT static void affine_u8(const uint8_t *in, uint32_t groups, const int8_t *w, const int32_t *bias, int32_t *out,
                          uint32_t n_out, uint32_t out_pad)
{
    run(in, NULL, groups, w, bias, out, n_out, out_pad);
}

TGT static void affine_u8_list(const uint8_t *in, const uint16_t *idx, int count, const int8_t *w,
                               const int32_t *bias, int32_t *out, uint32_t n_out, uint32_t out_pad)
{
    run(in, idx, (uint32_t)count, w, bias, out, n_out, out_pad);
}

TGT static inline __m256i widen_add(__m256i acc64, __m256i v32)
{
    acc64 = _mm256_add_epi64(acc64, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(v32)));
    return _mm256_add_epi64(acc64, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v32, 1)));
}

TGT static inline int64_t hsum64(__m256i v)
{
    int64_t t[4];
    _mm256_storeu_si256((__m256i *)t, v);
    return t[0] + t[1] + t[2] + t[3];
}

/* See kernels.h. Fast form: t = c * w in i16 and t * c pairs summed in i32 (vpmaddwd), exact
 * when max(c) * wmax <= 32767; i32 partial sums are widened to i64 before they could overflow.
 * Otherwise every product is formed in i64. */
TGT static int64_t sq_dot_i16(const int16_t *acc, const int16_t *w, uint32_t n, int32_t clip, int32_t wmax)
{
    const __m256i zero = _mm256_setzero_si256(), hi = _mm256_set1_epi16((int16_t)clip);
    uint32_t vec_n = n / 16 * 16;
    int64_t cmax = clip;
    if (cmax * wmax > 32767) { /* the actual largest activation may still allow the fast form */
        __m256i m = zero;
        for (uint32_t j = 0; j < vec_n; j += 16)
            m = _mm256_max_epi16(m, _mm256_loadu_si256((const __m256i *)(acc + j)));
        int16_t t[16];
        _mm256_storeu_si256((__m256i *)t, _mm256_min_epi16(m, hi));
        cmax = 0;
        for (int k = 0; k < 16; k++)
            cmax = t[k] > cmax ? t[k] : cmax;
    }
    __m256i s64 = zero;
    if (cmax * wmax <= 32767) {
        int64_t pair = 2 * cmax * cmax * wmax;
        uint32_t block = pair ? (uint32_t)(INT32_MAX / pair) : 1u << 30; /* >= 1 here */
        uint32_t j = 0;
        while (j < vec_n) {
            __m256i s32 = zero;
            for (uint32_t b = 0; b < block && j < vec_n; b++, j += 16) {
                __m256i c = _mm256_min_epi16(_mm256_max_epi16(_mm256_loadu_si256((const __m256i *)(acc + j)), zero), hi);
                __m256i t = _mm256_mullo_epi16(c, _mm256_loadu_si256((const __m256i *)(w + j)));
                s32 = _mm256_add_epi32(s32, _mm256_madd_epi16(t, c));
            }
            s64 = widen_add(s64, s32);
        }
    } else {
        for (uint32_t j = 0; j < vec_n; j += 8) {
            __m256i c = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(acc + j)));
            c = _mm256_min_epi32(_mm256_max_epi32(c, zero), _mm256_set1_epi32(clip));
            __m256i c2 = _mm256_mullo_epi32(c, c); /* <= 2^30 */
            __m256i wv = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(w + j)));
            s64 = _mm256_add_epi64(s64, _mm256_mul_epi32(c2, wv));
            s64 = _mm256_add_epi64(s64, _mm256_mul_epi32(_mm256_srli_epi64(c2, 32), _mm256_srli_epi64(wv, 32)));
        }
    }
    int64_t sum = hsum64(s64);
    for (uint32_t j = vec_n; j < n; j++) {
        int64_t c = clamp(acc[j], clip);
        sum += c * c * w[j];
    }
    return sum;
}

TGT static void crelu_i32(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max)
{
    const __m128i sh = _mm_cvtsi32_si128(shift);
    const __m256i zero = _mm256_setzero_si256(), hi = _mm256_set1_epi32(max);
    uint32_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256i v = _mm256_sra_epi32(_mm256_loadu_si256((const __m256i *)(in + j)), sh);
        _mm256_storeu_si256((__m256i *)(out + j), _mm256_min_epi32(_mm256_max_epi32(v, zero), hi));
    }
    for (; j < n; j++)
        out[j] = clamp(in[j] >> shift, max);
}

TGT static void sqr_crelu_i32(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max, int32_t bound)
{
    const __m128i sh = _mm_cvtsi32_si128(shift);
    const __m256i b = _mm256_set1_epi32(bound), hi = _mm256_set1_epi32(max);
    uint32_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256i a = _mm256_min_epu32(_mm256_abs_epi32(_mm256_loadu_si256((const __m256i *)(in + j))), b);
        __m256i v = _mm256_srl_epi32(_mm256_mullo_epi32(a, a), sh);
        _mm256_storeu_si256((__m256i *)(out + j), _mm256_min_epi32(v, hi));
    }
    for (; j < n; j++) {
        int64_t v = (int64_t)in[j] * in[j] >> shift;
        out[j] = (int32_t)(v > max ? max : v);
    }
}

static void pack_u8(const int32_t *in, uint8_t *out, uint32_t n, uint32_t n_pad)
{
    for (uint32_t j = 0; j < n; j++)
        out[j] = (uint8_t)in[j];
    memset(out + n, 0, n_pad - n);
}

const nnue_kernels nnue_kernels_avx2 = {
    NNUE_ISA_AVX2, acc_i16, acc_i32, ft_clamp_u8, ft_pairwise_u8, nonzero_groups, affine_u8, affine_u8_list,
    sq_dot_i16, crelu_i32, sqr_crelu_i32, pack_u8, acc_i8, NULL, /* tail_32_32_1: the layers one by one */
    NULL,       /* board_scan: the portable one (16 bytes a step) */
};
#endif
