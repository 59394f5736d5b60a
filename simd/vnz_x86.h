/* simd/vnz_x86.h: the non-zero list's base kept in a 128-bit vector across the steps (vec.h
 * VEC_NZ_BASE), the same SSE code for the AVX2 and AVX-512 sets; included by vec_avx2.h and
 * vec_avx512.h after they define VEC_FN. */
#ifndef NNUE_SIMD_VNZ_X86_H
#define NNUE_SIMD_VNZ_X86_H

#define VEC_NZ_BASE 1
typedef __m128i vnz_t;
VEC_FN vnz_t vnz_base(uint16_t g) { return _mm_set1_epi16((int16_t)g); }
VEC_FN vnz_t vnz_next(vnz_t b) { return _mm_add_epi16(b, _mm_set1_epi16(8)); }
VEC_FN void vec_nz_store8v(uint16_t *dst, const uint8_t *pos, vnz_t base)
{
    _mm_storeu_si128((__m128i *)dst, _mm_add_epi16(base, _mm_cvtepu8_epi16(_mm_loadl_epi64((const __m128i *)pos))));
}

#endif
