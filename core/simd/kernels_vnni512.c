/* core/simd/kernels_vnni512.c: the AVX-512 VNNI kernel set: the AVX-512 set with the u8 x i8
 * dot products done by vpdpbusd (4 products and the add in one instruction, exact for any u8
 * input). Four independent accumulators per output block hide the instruction's latency. */
#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#include "core/simd/kernels_avx512.h"

#define TGT __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,avx2,bmi,bmi2,popcnt")))

TGT static inline __m512i dot4(__m512i acc, const uint8_t *in, uint32_t g, const int8_t *w)
{
    int32_t x;
    memcpy(&x, in + 4 * g, 4);
    return _mm512_dpbusd_epi32(acc, _mm512_set1_epi32(x), _mm512_loadu_si512(w));
}

TGT static inline void finish(__m512i sum, const int32_t *bias, int32_t *out, uint32_t o, uint32_t n_out)
{
    __mmask16 m = n_out - o >= 16 ? 0xFFFF : (__mmask16)((1u << (n_out - o)) - 1);
    sum = _mm512_add_epi32(sum, _mm512_maskz_loadu_epi32(m, bias + o));
    _mm512_mask_storeu_epi32(out + o, m, sum);
}

TGT static void affine_u8(const uint8_t *in, uint32_t groups, const int8_t *w, const int32_t *bias, int32_t *out,
                          uint32_t n_out, uint32_t out_pad)
{
    size_t stride = (size_t)out_pad * 4;
    for (uint32_t o = 0; o < n_out; o += 16) {
        const int8_t *wb = w + (size_t)o * 4;
        __m512i s0 = _mm512_setzero_si512(), s1 = s0, s2 = s0, s3 = s0;
        uint32_t g = 0;
        for (; g + 4 <= groups; g += 4) {
            s0 = dot4(s0, in, g, wb + g * stride);
            s1 = dot4(s1, in, g + 1, wb + (g + 1) * stride);
            s2 = dot4(s2, in, g + 2, wb + (g + 2) * stride);
            s3 = dot4(s3, in, g + 3, wb + (g + 3) * stride);
        }
        for (; g < groups; g++)
            s0 = dot4(s0, in, g, wb + g * stride);
        finish(_mm512_add_epi32(_mm512_add_epi32(s0, s1), _mm512_add_epi32(s2, s3)), bias, out, o, n_out);
    }
}

TGT static void affine_u8_list(const uint8_t *in, const uint16_t *idx, int count, const int8_t *w,
                               const int32_t *bias, int32_t *out, uint32_t n_out, uint32_t out_pad)
{
    size_t stride = (size_t)out_pad * 4;
    for (uint32_t o = 0; o < n_out; o += 16) {
        const int8_t *wb = w + (size_t)o * 4;
        __m512i s0 = _mm512_setzero_si512(), s1 = s0, s2 = s0, s3 = s0;
        int i = 0;
        for (; i + 4 <= count; i += 4) {
            s0 = dot4(s0, in, idx[i], wb + idx[i] * stride);
            s1 = dot4(s1, in, idx[i + 1], wb + idx[i + 1] * stride);
            s2 = dot4(s2, in, idx[i + 2], wb + idx[i + 2] * stride);
            s3 = dot4(s3, in, idx[i + 3], wb + idx[i + 3] * stride);
        }
        for (; i < count; i++)
            s0 = dot4(s0, in, idx[i], wb + idx[i] * stride);
        finish(_mm512_add_epi32(_mm512_add_epi32(s0, s1), _mm512_add_epi32(s2, s3)), bias, out, o, n_out);
    }
}

const nnue_kernels nnue_kernels_vnni512 = {
    NNUE_ISA_VNNI512, nnue_avx512_acc_i16, nnue_avx512_acc_i32, nnue_avx512_ft_clamp_u8, nnue_avx512_ft_pairwise_u8,
    nnue_avx512_nonzero_groups, affine_u8, affine_u8_list, nnue_avx512_sq_dot_i16,
};
#endif
