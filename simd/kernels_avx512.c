/* simd/kernels_avx512.c: the AVX-512 (F + BW) kernel set, 512-bit vectors. Same math and
 * exactness arguments as kernels_avx2.c; compiled per function with target attributes. The
 * VNNI set (kernels_vnni512.c) reuses everything here except the u8 x i8 dot products, so the
 * shared functions are exported through kernels_avx512.h. */
#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#include "simd/kernels_avx512.h"
#include "simd/nz_table.h"
#include "base/targets.h"

#define TGT NNUE_TARGET(NNUE_TARGET_AVX512)
#define TILE 8 /* vectors of 32 i16 kept in registers per pass over the rows */

TGT void nnue_avx512_acc_i16(int16_t *dst, const int16_t *src, const int16_t *const *sub, int n_sub,
                             const int16_t *const *add, int n_add, uint32_t n)
{
    uint32_t j = 0;
    for (; j + 32 * TILE <= n; j += 32 * TILE) {
        __m512i v[TILE];
        for (int t = 0; t < TILE; t++)
            v[t] = _mm512_loadu_si512(src + j + 32 * t);
        for (int k = 0; k < n_sub; k++)
            for (int t = 0; t < TILE; t++)
                v[t] = _mm512_sub_epi16(v[t], _mm512_loadu_si512(sub[k] + j + 32 * t));
        for (int k = 0; k < n_add; k++)
            for (int t = 0; t < TILE; t++)
                v[t] = _mm512_add_epi16(v[t], _mm512_loadu_si512(add[k] + j + 32 * t));
        for (int t = 0; t < TILE; t++)
            _mm512_storeu_si512(dst + j + 32 * t, v[t]);
    }
    for (; j < n; j += 32) {
        __mmask32 m = n - j >= 32 ? 0xFFFFFFFFu : (__mmask32)((1u << (n - j)) - 1);
        __m512i v = _mm512_maskz_loadu_epi16(m, src + j);
        for (int k = 0; k < n_sub; k++)
            v = _mm512_sub_epi16(v, _mm512_maskz_loadu_epi16(m, sub[k] + j));
        for (int k = 0; k < n_add; k++)
            v = _mm512_add_epi16(v, _mm512_maskz_loadu_epi16(m, add[k] + j));
        _mm512_mask_storeu_epi16(dst + j, m, v);
    }
}

/* i8 rows widened with vpmovsxbw (32 values per load), same tiling as acc_i16. */
TGT void nnue_avx512_acc_i8(int16_t *dst, const int16_t *src, const int8_t *const *sub, int n_sub,
                            const int8_t *const *add, int n_add, uint32_t n)
{
    uint32_t j = 0;
    for (; j + 32 * TILE <= n; j += 32 * TILE) {
        __m512i v[TILE];
        for (int t = 0; t < TILE; t++)
            v[t] = _mm512_loadu_si512(src + j + 32 * t);
        for (int k = 0; k < n_sub; k++)
            for (int t = 0; t < TILE; t++)
                v[t] = _mm512_sub_epi16(v[t], _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(sub[k] + j + 32 * t))));
        for (int k = 0; k < n_add; k++)
            for (int t = 0; t < TILE; t++)
                v[t] = _mm512_add_epi16(v[t], _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(add[k] + j + 32 * t))));
        for (int t = 0; t < TILE; t++)
            _mm512_storeu_si512(dst + j + 32 * t, v[t]);
    }
    for (; j < n; j += 32) {
        __mmask32 m = n - j >= 32 ? 0xFFFFFFFFu : (__mmask32)((1u << (n - j)) - 1);
        __m512i v = _mm512_maskz_loadu_epi16(m, src + j);
        for (int k = 0; k < n_sub; k++)
            v = _mm512_sub_epi16(v, _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(m, sub[k] + j)));
        for (int k = 0; k < n_add; k++)
            v = _mm512_add_epi16(v, _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(m, add[k] + j)));
        _mm512_mask_storeu_epi16(dst + j, m, v);
    }
}

TGT void nnue_avx512_acc_i32(int32_t *dst, const int32_t *src, const int32_t *const *sub, int n_sub,
                             const int32_t *const *add, int n_add, uint32_t n)
{
    for (uint32_t j = 0; j < n; j += 8) { /* PSQT rows are 8 values: 256-bit vectors */
        __mmask8 m = n - j >= 8 ? 0xFF : (__mmask8)((1u << (n - j)) - 1);
        __m256i v = _mm256_maskz_loadu_epi32(m, src + j);
        for (int k = 0; k < n_sub; k++)
            v = _mm256_sub_epi32(v, _mm256_maskz_loadu_epi32(m, sub[k] + j));
        for (int k = 0; k < n_add; k++)
            v = _mm256_add_epi32(v, _mm256_maskz_loadu_epi32(m, add[k] + j));
        _mm256_mask_storeu_epi32(dst + j, m, v);
    }
}

static const uint64_t pack_order[8] = {0, 2, 4, 6, 1, 3, 5, 7}; /* undoes packus's lane interleave */

TGT void nnue_avx512_ft_clamp_u8(const int16_t *acc, uint8_t *out, uint32_t n, int32_t max)
{
    const __m512i zero = _mm512_setzero_si512(), hi = _mm512_set1_epi16((int16_t)max);
    const __m512i order = _mm512_loadu_si512(pack_order);
    uint32_t j = 0;
    for (; j + 64 <= n; j += 64) {
        __m512i a = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512(acc + j), zero), hi);
        __m512i b = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512(acc + j + 32), zero), hi);
        _mm512_storeu_si512(out + j, _mm512_permutexvar_epi64(order, _mm512_packus_epi16(a, b)));
    }
    for (; j < n; j += 32) {
        __mmask32 m = n - j >= 32 ? 0xFFFFFFFFu : (__mmask32)((1u << (n - j)) - 1);
        __m512i a = _mm512_min_epi16(_mm512_max_epi16(_mm512_maskz_loadu_epi16(m, acc + j), zero), hi);
        _mm256_mask_storeu_epi8(out + j, m, _mm512_cvtepi16_epi8(a));
    }
}

TGT void nnue_avx512_ft_pairwise_u8(const int16_t *acc, uint8_t *out, uint32_t half, int32_t max, int shift)
{
    const __m512i zero = _mm512_setzero_si512(), hi = _mm512_set1_epi16((int16_t)max);
    const __m512i order = _mm512_loadu_si512(pack_order);
    const __m128i sh = _mm_cvtsi32_si128(shift);
    uint32_t j = 0;
    for (; j + 64 <= half; j += 64) {
        __m512i a0 = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512(acc + j), zero), hi);
        __m512i a1 = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512(acc + j + 32), zero), hi);
        __m512i b0 = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512(acc + half + j), zero), hi);
        __m512i b1 = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512(acc + half + j + 32), zero), hi);
        __m512i p0 = _mm512_srl_epi16(_mm512_mullo_epi16(a0, b0), sh);
        __m512i p1 = _mm512_srl_epi16(_mm512_mullo_epi16(a1, b1), sh);
        _mm512_storeu_si512(out + j, _mm512_permutexvar_epi64(order, _mm512_packus_epi16(p0, p1)));
    }
    for (; j < half; j += 32) {
        __mmask32 m = half - j >= 32 ? 0xFFFFFFFFu : (__mmask32)((1u << (half - j)) - 1);
        __m512i a = _mm512_min_epi16(_mm512_max_epi16(_mm512_maskz_loadu_epi16(m, acc + j), zero), hi);
        __m512i b = _mm512_min_epi16(_mm512_max_epi16(_mm512_maskz_loadu_epi16(m, acc + half + j), zero), hi);
        __m512i p = _mm512_srl_epi16(_mm512_mullo_epi16(a, b), sh);
        _mm256_mask_storeu_epi8(out + j, m, _mm512_cvtepi16_epi8(p));
    }
}

TGT int nnue_avx512_nonzero_groups(const uint8_t *in, uint32_t groups, uint16_t *idx)
{
    int count = 0;
    const __m128i eight = _mm_set1_epi16(8);
    __m128i base = _mm_setzero_si128();
    for (uint32_t g = 0; g < groups; g += 16) {
        __mmask16 m = groups - g >= 16 ? 0xFFFF : (__mmask16)((1u << (groups - g)) - 1);
        __m512i v = _mm512_maskz_loadu_epi32(m, in + 4 * g);
        unsigned nz = _mm512_test_epi32_mask(v, v);
        for (int half = 0; half < 2; half++) { /* idx has room: up to 8 stored past the count */
            unsigned byte = (nz >> (8 * half)) & 0xFF;
            __m128i pos = _mm_cvtepu8_epi16(_mm_loadl_epi64((const __m128i *)nnue_nz_table[byte]));
            _mm_storeu_si128((__m128i *)(idx + count), _mm_add_epi16(base, pos));
            count += __builtin_popcount(byte);
            base = _mm_add_epi16(base, eight);
        }
    }
    return count;
}


/* vpmaddubsw's pairwise i16 sums are exact for inputs <= 127; vpmaddwd with ones widens. */
TGT static inline __m512i dot(__m512i acc, __m512i x, const int8_t *w)
{
    __m512i p = _mm512_maddubs_epi16(x, _mm512_loadu_si512(w));
    return _mm512_add_epi32(acc, _mm512_madd_epi16(p, _mm512_set1_epi16(1)));
}

#include "simd/affine_u8_avx512.h"


static inline int32_t clamp(int32_t v, int32_t max)
{
    return v < 0 ? 0 : v > max ? max : v;
}

/* See kernels_avx2.c: the same two forms on 32 values per step. */
TGT int64_t nnue_avx512_sq_dot_i16(const int16_t *acc, const int16_t *w, uint32_t n, int32_t clip, int32_t wmax)
{
    const __m512i zero = _mm512_setzero_si512(), hi = _mm512_set1_epi16((int16_t)clip);
    uint32_t vec_n = n / 32 * 32;
    int64_t cmax = clip;
    if (cmax * wmax > 32767) {
        __m512i m = zero;
        for (uint32_t j = 0; j < vec_n; j += 32)
            m = _mm512_max_epi16(m, _mm512_loadu_si512(acc + j));
        int16_t t[32];
        _mm512_storeu_si512(t, _mm512_min_epi16(m, hi));
        cmax = 0;
        for (int k = 0; k < 32; k++)
            cmax = t[k] > cmax ? t[k] : cmax;
    }
    __m512i s64 = zero;
    if (cmax * wmax <= 32767) {
        int64_t pair = 2 * cmax * cmax * wmax;
        uint32_t block = pair ? (uint32_t)(INT32_MAX / pair) : 1u << 30;
        uint32_t j = 0;
        while (j < vec_n) {
            __m512i s32 = zero;
            for (uint32_t b = 0; b < block && j < vec_n; b++, j += 32) {
                __m512i c = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512(acc + j), zero), hi);
                __m512i t = _mm512_mullo_epi16(c, _mm512_loadu_si512(w + j));
                s32 = _mm512_add_epi32(s32, _mm512_madd_epi16(t, c));
            }
            s64 = _mm512_add_epi64(s64, _mm512_cvtepi32_epi64(_mm512_castsi512_si256(s32)));
            s64 = _mm512_add_epi64(s64, _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(s32, 1)));
        }
    } else {
        for (uint32_t j = 0; j < vec_n; j += 16) {
            __m512i c = _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)(acc + j)));
            c = _mm512_min_epi32(_mm512_max_epi32(c, zero), _mm512_set1_epi32(clip));
            __m512i c2 = _mm512_mullo_epi32(c, c);
            __m512i wv = _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)(w + j)));
            s64 = _mm512_add_epi64(s64, _mm512_mul_epi32(c2, wv));
            s64 = _mm512_add_epi64(s64, _mm512_mul_epi32(_mm512_srli_epi64(c2, 32), _mm512_srli_epi64(wv, 32)));
        }
    }
    int64_t sum = _mm512_reduce_add_epi64(s64);
    for (uint32_t j = vec_n; j < n; j++) {
        int64_t c = clamp(acc[j], clip);
        sum += c * c * w[j];
    }
    return sum;
}

TGT void nnue_avx512_crelu_i32(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max)
{
    const __m128i sh = _mm_cvtsi32_si128(shift);
    const __m512i zero = _mm512_setzero_si512(), hi = _mm512_set1_epi32(max);
    for (uint32_t j = 0; j < n; j += 16) {
        __mmask16 m = n - j >= 16 ? 0xFFFF : (__mmask16)((1u << (n - j)) - 1);
        __m512i v = _mm512_sra_epi32(_mm512_maskz_loadu_epi32(m, in + j), sh);
        _mm512_mask_storeu_epi32(out + j, m, _mm512_min_epi32(_mm512_max_epi32(v, zero), hi));
    }
}

/* min(max, x * x >> shift) with |x| capped at `bound` (kernels.h), so the square fits 32 bits. */
TGT void nnue_avx512_sqr_crelu_i32(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max, int32_t bound)
{
    const __m128i sh = _mm_cvtsi32_si128(shift);
    const __m512i b = _mm512_set1_epi32(bound), hi = _mm512_set1_epi32(max);
    for (uint32_t j = 0; j < n; j += 16) {
        __mmask16 m = n - j >= 16 ? 0xFFFF : (__mmask16)((1u << (n - j)) - 1);
        __m512i a = _mm512_min_epu32(_mm512_abs_epi32(_mm512_maskz_loadu_epi32(m, in + j)), b);
        __m512i v = _mm512_srl_epi32(_mm512_mullo_epi32(a, a), sh);
        _mm512_mask_storeu_epi32(out + j, m, _mm512_min_epi32(v, hi));
    }
}

TGT void nnue_avx512_pack_u8(const int32_t *in, uint8_t *out, uint32_t n, uint32_t n_pad)
{
    uint32_t j = 0;
    for (; j < n; j += 16) {
        __mmask16 m = n - j >= 16 ? 0xFFFF : (__mmask16)((1u << (n - j)) - 1);
        _mm_storeu_si128((__m128i *)(out + j), _mm512_cvtepi32_epi8(_mm512_maskz_loadu_epi32(m, in + j)));
    }
    memset(out + n, 0, n_pad - n);
}

const nnue_kernels nnue_kernels_avx512 = {
    NNUE_ISA_AVX512, nnue_avx512_acc_i16, nnue_avx512_acc_i32, nnue_avx512_ft_clamp_u8, nnue_avx512_ft_pairwise_u8,
    nnue_avx512_nonzero_groups, affine_u8, affine_u8_list, nnue_avx512_sq_dot_i16, nnue_avx512_crelu_i32,
    nnue_avx512_sqr_crelu_i32, nnue_avx512_pack_u8, nnue_avx512_acc_i8, tail_32_32_1, nnue_avx512_board_scan,
};
#endif
