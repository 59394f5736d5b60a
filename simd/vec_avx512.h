/* simd/vec_avx512.h: the vector layer (simd/vec.h) on AVX-512 F + BW (512-bit vectors), and on
 * AVX-512 VNNI when the including file defines VEC_VNNI first (the u8 x i8 dot is then one
 * vpdpbusd, exact for any u8 input; otherwise vpmaddubsw + vpmaddwd by ones, exact for inputs
 * <= 127). Target attributes from base/targets.h, as in vec_avx2.h.
 * The masked loads and stores (VEC_MASKED) let rows narrower than a vector (PSQT rows of 8 i32,
 * small layers of 15..32 outputs) run as one partial vector instead of falling to scalar code.
 * Used by kernels_avx512.c, kernels_vnni512.c and kernels_vbmi512.c (VEC_VBMI2: the non-zero lists
 * by compress, simd/vnz_vbmi2.h), with the fused tail (tail_avx512.h) and the
 * board scan (board_scan_avx512.h) of this set. */
#ifndef NNUE_SIMD_VEC_AVX512_H
#define NNUE_SIMD_VEC_AVX512_H

#include <immintrin.h>

#include "base/targets.h"
#include "simd/vec.h"

typedef __m512i vec_t;
typedef __m512i vdot_t;
#define VEC_BYTES 64
#if defined(VEC_VBMI2)
#define VEC_TARGET NNUE_TARGET(NNUE_TARGET_VBMI512)
#elif defined(VEC_VNNI)
#define VEC_TARGET NNUE_TARGET(NNUE_TARGET_VNNI512)
#else
#define VEC_TARGET NNUE_TARGET(NNUE_TARGET_AVX512)
#endif
#define VEC_ACC_TILE 8
#define VEC_AFFINE_BLOCKS 4 /* 32 registers: 4 x 4 sums */
#define VEC_AFFINE_UNROLL 4
#define VEC_FN VEC_TARGET static inline

VEC_FN vec_t vec_zero(void) { return _mm512_setzero_si512(); }
VEC_FN vec_t vec_set1_i16(int16_t x) { return _mm512_set1_epi16(x); }
VEC_FN vec_t vec_set1_i32(int32_t x) { return _mm512_set1_epi32(x); }
VEC_FN vec_t vec_load(const void *p) { return _mm512_loadu_si512(p); }
VEC_FN void vec_store(void *p, vec_t v) { _mm512_storeu_si512(p, v); }
VEC_FN vec_t vec_load_i8_i16(const int8_t *p) { return _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)p)); }
VEC_FN vec_t vec_load_i16_i32(const int16_t *p) { return _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)p)); }

/* Masks of the first k lanes; bzhi keeps k equal to the lane count defined (a shift would not). */
#define VEC_MASKED 1
VEC_FN __mmask32 vec_mask16(uint32_t k) { return (__mmask32)_bzhi_u32(~0u, k); }
VEC_FN __mmask16 vec_mask32(uint32_t k) { return (__mmask16)_bzhi_u32(0xFFFFu, k); }
VEC_FN vec_t vec_load_n_i16(const int16_t *p, uint32_t k) { return _mm512_maskz_loadu_epi16(vec_mask16(k), p); }
VEC_FN void vec_store_n_i16(int16_t *p, vec_t v, uint32_t k) { _mm512_mask_storeu_epi16(p, vec_mask16(k), v); }
VEC_FN vec_t vec_load_n_i32(const void *p, uint32_t k) { return _mm512_maskz_loadu_epi32(vec_mask32(k), p); }
VEC_FN void vec_store_n_i32(int32_t *p, vec_t v, uint32_t k) { _mm512_mask_storeu_epi32(p, vec_mask32(k), v); }
VEC_FN vec_t vec_load_n_i8_i16(const int8_t *p, uint32_t k)
{
    return _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(vec_mask16(k), p));
}
VEC_FN void vec_store_n_u8(uint8_t *p, vec_t v, uint32_t k) { _mm512_mask_storeu_epi8(p, _bzhi_u64(~0ull, k), v); }
/* Narrowed in a register (vpmovdb), then a masked byte store: the masked down-converting store
 * (vpmovdb m128{k}) made the several-set updates 6-14% slower on AMD's Zen 4 while their whole
 * added rows were being requested (docs/speed.md, "The masked narrowing store on Zen 4"). */
VEC_FN void vec_store_n_i32_u8(uint8_t *p, vec_t v, uint32_t k)
{
    _mm_mask_storeu_epi8(p, vec_mask32(k), _mm512_cvtepi32_epi8(v));
}

VEC_FN vec_t vec_add_i16(vec_t a, vec_t b) { return _mm512_add_epi16(a, b); }
VEC_FN vec_t vec_srai8_i16(vec_t v) { return _mm512_srai_epi16(v, 8); }
VEC_FN vec_t vec_slli8_i16(vec_t v) { return _mm512_slli_epi16(v, 8); }
VEC_FN vec_t vec_sub_i16(vec_t a, vec_t b) { return _mm512_sub_epi16(a, b); }
VEC_FN vec_t vec_add_i32(vec_t a, vec_t b) { return _mm512_add_epi32(a, b); }
VEC_FN vec_t vec_sub_i32(vec_t a, vec_t b) { return _mm512_sub_epi32(a, b); }
VEC_FN vec_t vec_mullo_i16(vec_t a, vec_t b) { return _mm512_mullo_epi16(a, b); }
VEC_FN vec_t vec_mullo_i32(vec_t a, vec_t b) { return _mm512_mullo_epi32(a, b); }
VEC_FN vec_t vec_max_i16(vec_t a, vec_t b) { return _mm512_max_epi16(a, b); }
VEC_FN vec_t vec_min_i16(vec_t a, vec_t b) { return _mm512_min_epi16(a, b); }
VEC_FN vec_t vec_max_i32(vec_t a, vec_t b) { return _mm512_max_epi32(a, b); }
VEC_FN vec_t vec_min_i32(vec_t a, vec_t b) { return _mm512_min_epi32(a, b); }
VEC_FN vec_t vec_min_u32(vec_t a, vec_t b) { return _mm512_min_epu32(a, b); }
VEC_FN vec_t vec_abs_i32(vec_t a) { return _mm512_abs_epi32(a); }
VEC_FN vec_t vec_srl_i16(vec_t v, int n) { return _mm512_srl_epi16(v, _mm_cvtsi32_si128(n)); }
/* VEC_MULHI_I16: the high halves of the i16 products, and a left shift (the pairwise product's
 * pre-shifted form, kernels_vec.h) */
#define VEC_MULHI_I16 1
VEC_FN vec_t vec_mulhi_i16(vec_t a, vec_t b) { return _mm512_mulhi_epi16(a, b); }
VEC_FN vec_t vec_sll_i16(vec_t v, int n) { return _mm512_sll_epi16(v, _mm_cvtsi32_si128(n)); }
VEC_FN vec_t vec_srl_i32(vec_t v, int n) { return _mm512_srl_epi32(v, _mm_cvtsi32_si128(n)); }
VEC_FN vec_t vec_sra_i32(vec_t v, int n) { return _mm512_sra_epi32(v, _mm_cvtsi32_si128(n)); }
VEC_FN vec_t vec_madd_i16(vec_t a, vec_t b) { return _mm512_madd_epi16(a, b); }

/* vpackus works within 128-bit lanes; a 64-bit permute puts the eight quarters back in order. */
VEC_FN vec_t vec_in_order(vec_t v) { return _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), v); }
VEC_FN vec_t vec_packus_i16(vec_t a, vec_t b) { return vec_in_order(_mm512_packus_epi16(a, b)); }
VEC_FN vec_t vec_min_u8(vec_t a, vec_t b) { return _mm512_min_epu8(a, b); }
VEC_FN vec_t vec_packus_i32(vec_t a, vec_t b) { return vec_in_order(_mm512_packus_epi32(a, b)); }

VEC_FN vec_t vec_widen_add_i64(vec_t s, vec_t v)
{
    s = _mm512_add_epi64(s, _mm512_cvtepi32_epi64(_mm512_castsi512_si256(v)));
    return _mm512_add_epi64(s, _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(v, 1)));
}

VEC_FN vec_t vec_dot_i32_i64(vec_t s, vec_t a, vec_t b)
{
    s = _mm512_add_epi64(s, _mm512_mul_epi32(a, b));
    return _mm512_add_epi64(s, _mm512_mul_epi32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(b, 32)));
}

VEC_FN unsigned vec_nz_mask_i32(vec_t v) { return _mm512_test_epi32_mask(v, v); }

VEC_FN void vec_nz_store8(uint16_t *dst, const uint8_t *pos, uint16_t base)
{
    __m128i p = _mm_cvtepu8_epi16(_mm_loadl_epi64((const __m128i *)pos));
    _mm_storeu_si128((__m128i *)dst, _mm_add_epi16(_mm_set1_epi16((int16_t)base), p));
}

#if defined(VEC_VBMI2)
#include "simd/vnz_vbmi2.h" /* the list made by compress (vec.h VEC_NZ_COMPRESS) */
#else
#include "simd/vnz_x86.h" /* the list's base kept in a vector (vec.h VEC_NZ_BASE) */
#endif

VEC_FN vdot_t vdot_zero(void) { return _mm512_setzero_si512(); }
VEC_FN vdot_t vdot_sum(vdot_t s) { return s; }

VEC_FN vec_t vdot_input(const uint8_t *p)
{
    int32_t x;
    memcpy(&x, p, 4);
    return _mm512_set1_epi32(x);
}

VEC_FN vdot_t vdot_add(vdot_t s, vec_t x, const int8_t *w)
{
#if defined(VEC_VNNI)
    return _mm512_dpbusd_epi32(s, x, _mm512_loadu_si512(w));
#else
    __m512i p = _mm512_maddubs_epi16(x, _mm512_loadu_si512(w));
    return _mm512_add_epi32(s, _mm512_madd_epi16(p, _mm512_set1_epi16(1)));
#endif
}

#if !defined(VEC_VNNI)
/* As vec_avx2.h's: chained groups widened once where the weights allow (VNNI's dot needs no
 * widening). */
#define VEC_DOT_PAIRS 1
VEC_FN vec_t vdot_prod16(vec_t x, const int8_t *w)
{
    return _mm512_maddubs_epi16(x, _mm512_loadu_si512(w));
}

VEC_FN vdot_t vdot_widen(vdot_t s, vec_t p)
{
    return _mm512_add_epi32(s, _mm512_madd_epi16(p, _mm512_set1_epi16(1)));
}
#endif

VEC_FN vdot_t vdot_add_bytes(vdot_t s, const uint8_t *p, const int8_t *w)
{
    return vdot_add(s, _mm512_loadu_si512(p), w);
}

VEC_FN int32_t vec_hsum_i32(vec_t v)
{
    return _mm512_reduce_add_epi32(v);
}

#endif

/* Float32 vectors for simd/kernels_f32_vec.h (listed there): 16 lanes. AVX-512 F has
 * the fused multiply-add (and implies FMA3 in the CPU check, base/cpu_x86.h). */
#ifndef NNUE_SIMD_VEC_AVX512_F32_H
#define NNUE_SIMD_VEC_AVX512_F32_H
typedef __m512 vecf_t;
#define VECF_LANES 16
#define VECF_TARGET VEC_TARGET
#define VECF_FN VECF_TARGET static inline
VECF_FN vecf_t vecf_zero(void) { return _mm512_setzero_ps(); }
VECF_FN vecf_t vecf_set1(float x) { return _mm512_set1_ps(x); }
VECF_FN vecf_t vecf_load(const float *p) { return _mm512_loadu_ps(p); }
VECF_FN void vecf_store(float *p, vecf_t v) { _mm512_storeu_ps(p, v); }
VECF_FN vecf_t vecf_add(vecf_t a, vecf_t b) { return _mm512_add_ps(a, b); }
VECF_FN vecf_t vecf_fma(vecf_t a, vecf_t b, vecf_t c) { return _mm512_fmadd_ps(a, b, c); }
#endif
