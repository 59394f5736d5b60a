/* simd/vec_avx2.h: the vector layer (simd/vec.h) on AVX2, 256-bit vectors. Every function
 * carries AVX2's target attribute (base/targets.h), so the library keeps running on plain
 * x86-64 and this set is only called when the CPU has AVX2. The u8 x i8 dot is vpmaddubsw +
 * vpmaddwd by ones (pairwise i16 sums exact for inputs <= 127: 2 * 127 * 128 = 32512). */
#ifndef NNUE_SIMD_VEC_AVX2_H
#define NNUE_SIMD_VEC_AVX2_H

#include <immintrin.h>

#include "base/targets.h"
#include "simd/vec.h"

typedef __m256i vec_t;
typedef __m256i vdot_t;
#define VEC_BYTES 32
#define VEC_TARGET NNUE_TARGET(NNUE_TARGET_AVX2)
#define VEC_ACC_TILE 8
#define VEC_ACC_TILE_I16 16 /* all 16 registers: i16 rows are the adds' memory operands */
/* acc_sum (a refresh) in tiles of 512 bytes of an i16 row, as acc_i16: chess refresh 3-7% faster
 * than tiles of 8 in four runs of 15-25 alternating rounds (docs/speed.md); i8 rows keep 8 (their
 * widened vectors need registers of their own) */
#define VEC_SUM_TILE16 16
#define VEC_SUM_TILE8 8
#define VEC_AFFINE_BLOCKS 2 /* 16 registers: 4 x 2 sums */
#define VEC_AFFINE_UNROLL 4
#define VEC_FN VEC_TARGET static inline

VEC_FN vec_t vec_zero(void) { return _mm256_setzero_si256(); }
VEC_FN vec_t vec_set1_i16(int16_t x) { return _mm256_set1_epi16(x); }
VEC_FN vec_t vec_set1_i32(int32_t x) { return _mm256_set1_epi32(x); }
VEC_FN vec_t vec_load(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
VEC_FN void vec_store(void *p, vec_t v) { _mm256_storeu_si256((__m256i *)p, v); }
VEC_FN vec_t vec_load_i8_i16(const int8_t *p) { return _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)p)); }
VEC_FN vec_t vec_load_i16_i32(const int16_t *p) { return _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)p)); }

VEC_FN vec_t vec_add_i16(vec_t a, vec_t b) { return _mm256_add_epi16(a, b); }
VEC_FN vec_t vec_srai8_i16(vec_t v) { return _mm256_srai_epi16(v, 8); }
VEC_FN vec_t vec_slli8_i16(vec_t v) { return _mm256_slli_epi16(v, 8); }
VEC_FN vec_t vec_sub_i16(vec_t a, vec_t b) { return _mm256_sub_epi16(a, b); }
VEC_FN vec_t vec_add_i32(vec_t a, vec_t b) { return _mm256_add_epi32(a, b); }
VEC_FN vec_t vec_sub_i32(vec_t a, vec_t b) { return _mm256_sub_epi32(a, b); }
VEC_FN vec_t vec_mullo_i16(vec_t a, vec_t b) { return _mm256_mullo_epi16(a, b); }
VEC_FN vec_t vec_mullo_i32(vec_t a, vec_t b) { return _mm256_mullo_epi32(a, b); }
VEC_FN vec_t vec_max_i16(vec_t a, vec_t b) { return _mm256_max_epi16(a, b); }
VEC_FN vec_t vec_min_i16(vec_t a, vec_t b) { return _mm256_min_epi16(a, b); }
VEC_FN vec_t vec_max_i32(vec_t a, vec_t b) { return _mm256_max_epi32(a, b); }
VEC_FN vec_t vec_min_i32(vec_t a, vec_t b) { return _mm256_min_epi32(a, b); }
VEC_FN vec_t vec_min_u32(vec_t a, vec_t b) { return _mm256_min_epu32(a, b); }
VEC_FN vec_t vec_abs_i32(vec_t a) { return _mm256_abs_epi32(a); }
VEC_FN vec_t vec_srl_i16(vec_t v, int n) { return _mm256_srl_epi16(v, _mm_cvtsi32_si128(n)); }
/* VEC_MULHI_I16: the high halves of the i16 products, and a left shift (the pairwise product's
 * pre-shifted form, kernels_vec.h) */
#define VEC_MULHI_I16 1
VEC_FN vec_t vec_mulhi_i16(vec_t a, vec_t b) { return _mm256_mulhi_epi16(a, b); }
VEC_FN vec_t vec_sll_i16(vec_t v, int n) { return _mm256_sll_epi16(v, _mm_cvtsi32_si128(n)); }
VEC_FN vec_t vec_srl_i32(vec_t v, int n) { return _mm256_srl_epi32(v, _mm_cvtsi32_si128(n)); }
VEC_FN vec_t vec_sra_i32(vec_t v, int n) { return _mm256_sra_epi32(v, _mm_cvtsi32_si128(n)); }
VEC_FN vec_t vec_madd_i16(vec_t a, vec_t b) { return _mm256_madd_epi16(a, b); }

/* vpackus works within 128-bit halves; the 64-bit permute puts the quarters back in order. */
VEC_FN vec_t vec_packus_i16(vec_t a, vec_t b) { return _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8); }
VEC_FN vec_t vec_min_u8(vec_t a, vec_t b) { return _mm256_min_epu8(a, b); }
VEC_FN vec_t vec_packus_i32(vec_t a, vec_t b) { return _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8); }

VEC_FN vec_t vec_widen_add_i64(vec_t s, vec_t v)
{
    s = _mm256_add_epi64(s, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)));
    return _mm256_add_epi64(s, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1)));
}

/* vpmuldq multiplies the even i32 lanes; the odd ones are shifted down for a second one. */
VEC_FN vec_t vec_dot_i32_i64(vec_t s, vec_t a, vec_t b)
{
    s = _mm256_add_epi64(s, _mm256_mul_epi32(a, b));
    return _mm256_add_epi64(s, _mm256_mul_epi32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32)));
}

VEC_FN unsigned vec_nz_mask_i32(vec_t v)
{
    return ~(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, _mm256_setzero_si256()))) & 0xFFu;
}

VEC_FN void vec_nz_store8(uint16_t *dst, const uint8_t *pos, uint16_t base)
{
    __m128i p = _mm_cvtepu8_epi16(_mm_loadl_epi64((const __m128i *)pos));
    _mm_storeu_si128((__m128i *)dst, _mm_add_epi16(_mm_set1_epi16((int16_t)base), p));
}

#include "simd/vnz_x86.h" /* the list's base kept in a vector (vec.h VEC_NZ_BASE) */

VEC_FN vdot_t vdot_zero(void) { return _mm256_setzero_si256(); }
VEC_FN vdot_t vdot_sum(vdot_t s) { return s; }

VEC_FN vec_t vdot_input(const uint8_t *p)
{
    int32_t x;
    memcpy(&x, p, 4);
    return _mm256_set1_epi32(x);
}

VEC_FN vdot_t vdot_add(vdot_t s, vec_t x, const int8_t *w)
{
    __m256i p = _mm256_maddubs_epi16(x, _mm256_loadu_si256((const __m256i *)w));
    return _mm256_add_epi32(s, _mm256_madd_epi16(p, _mm256_set1_epi16(1)));
}

/* A group's products in i16 lanes, and such lanes (n groups' products added, where
 * layers/plan_pairs.c proved that no lane can leave i16) widened into the sums once: kernels_vec.h
 * chained(), 1 + 1/n multiplies a group and output vector instead of 2 (the multiply ports are
 * what HalfKP's and the 1536-wide shogi net's dense fc0 wait on). */
#define VEC_DOT_PAIRS 1
#define VEC_HEAD_TAIL "simd/head_tail_avx2.h" /* kernels_vec.h includes it */
VEC_FN vec_t vdot_prod16(vec_t x, const int8_t *w)
{
    return _mm256_maddubs_epi16(x, _mm256_loadu_si256((const __m256i *)w));
}

VEC_FN vdot_t vdot_widen(vdot_t s, vec_t p)
{
    return _mm256_add_epi32(s, _mm256_madd_epi16(p, _mm256_set1_epi16(1)));
}

VEC_FN vdot_t vdot_add_bytes(vdot_t s, const uint8_t *p, const int8_t *w)
{
    return vdot_add(s, _mm256_loadu_si256((const __m256i *)p), w);
}

VEC_FN int32_t vec_hsum_i32(vec_t v)
{
    __m128i x = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4E));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xB1));
    return _mm_cvtsi128_si32(x);
}

#endif

/* Float32 vectors for simd/kernels_f32_vec.h (listed there): 8 lanes, with FMA3
 * (NNUE_TARGET_AVX2_F32; simd/kernels_f32.c uses this set only when the CPU has FMA). */
#ifndef NNUE_SIMD_VEC_AVX2_F32_H
#define NNUE_SIMD_VEC_AVX2_F32_H
typedef __m256 vecf_t;
#define VECF_LANES 8
#define VECF_TARGET NNUE_TARGET(NNUE_TARGET_AVX2_F32)
#define VECF_FN VECF_TARGET static inline
VECF_FN vecf_t vecf_zero(void) { return _mm256_setzero_ps(); }
VECF_FN vecf_t vecf_set1(float x) { return _mm256_set1_ps(x); }
VECF_FN vecf_t vecf_load(const float *p) { return _mm256_loadu_ps(p); }
VECF_FN void vecf_store(float *p, vecf_t v) { _mm256_storeu_ps(p, v); }
VECF_FN vecf_t vecf_add(vecf_t a, vecf_t b) { return _mm256_add_ps(a, b); }
VECF_FN vecf_t vecf_fma(vecf_t a, vecf_t b, vecf_t c) { return _mm256_fmadd_ps(a, b, c); }
#endif

/* Bytes, for kernels_bytes_vec.h's board_scan (listed in vec.h): lanes of u8. */
#ifndef NNUE_SIMD_VEC_AVX2_U8_H
#define NNUE_SIMD_VEC_AVX2_U8_H
VEC_FN vec_t vec_set1_u8(uint8_t x) { return _mm256_set1_epi8((char)x); }
VEC_FN vec_t vec_and_u8(vec_t a, vec_t b) { return _mm256_and_si256(a, b); }
VEC_FN vec_t vec_or_u8(vec_t a, vec_t b) { return _mm256_or_si256(a, b); }
VEC_FN vec_t vec_sub_u8(vec_t a, vec_t b) { return _mm256_sub_epi8(a, b); }
VEC_FN vec_t vec_subs_u8(vec_t a, vec_t b) { return _mm256_subs_epu8(a, b); }
VEC_FN vec_t vec_cmpeq_u8(vec_t a, vec_t b) { return _mm256_cmpeq_epi8(a, b); }
VEC_FN unsigned vec_any_u8(vec_t v) { return !_mm256_testz_si256(v, v); }
VEC_FN int vec_sum_u8(vec_t v)
{
    __m256i s = _mm256_sad_epu8(v, _mm256_setzero_si256()); /* four 64-bit sums of 8 bytes */
    __m128i t = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    return (int)(_mm_cvtsi128_si64(t) + _mm_extract_epi64(t, 1));
}
#endif
