/* simd/list_bytes_avx512.h: kernels.h list_bytes and list_bytes_map for the AVX-512 sets,
 * included by each AVX-512 set (kernels_*512.c) after vec_avx512.h and named by
 * VEC_LIST_BYTES and VEC_LIST_BYTES_MAP. Each step of list_bytes widens 16 bytes to 32-bit lanes
 * (a masked load past n), looks their table entries up in one register (vpermd on the low 4
 * bits), computes both outputs and packs the lanes whose entry is not 0 to the front
 * (vpcompressd), so the list keeps byte order without branches. Once fewer than 16 entries of
 * room are left, the scalar definition (kernels_scalar.h) lists the rest. */
#ifndef NNUE_SIMD_LIST_BYTES_AVX512_H
#define NNUE_SIMD_LIST_BYTES_AVX512_H

#include "simd/kernels_scalar.h"

VEC_TARGET static int list_bytes(const uint8_t *b, uint32_t n, const int32_t *table, int32_t stride, int32_t a0,
                                 int32_t a1, uint32_t *o0, uint32_t *o1, int room)
{
    const __m512i bases = _mm512_loadu_si512(table), fifteen = _mm512_set1_epi32(15);
    const __m512i colour = _mm512_set1_epi32(stride), k0 = _mm512_set1_epi32(a0), k1 = _mm512_set1_epi32(a1);
    __m512i at = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    int k = 0;
    for (uint32_t first = 0; first < n; first += 16) {
        if (k > room - 16)
            return nnue_ref_list_bytes(b, first, n, table, stride, a0, a1, o0, o1, k, room);
        __mmask16 live = n - first >= 16 ? 0xFFFF : (__mmask16)((1u << (n - first)) - 1);
        __m512i p = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(live, b + first));
        __m512i t = _mm512_permutexvar_epi32(_mm512_and_si512(p, fifteen), bases);
        __m512i c = _mm512_add_epi32(_mm512_mullo_epi32(_mm512_srli_epi32(p, 4), colour), at);
        __mmask16 m = _mm512_test_epi32_mask(t, t);
        _mm512_storeu_si512(o0 + k, _mm512_maskz_compress_epi32(m, _mm512_add_epi32(_mm512_add_epi32(k0, t), c)));
        _mm512_storeu_si512(o1 + k, _mm512_maskz_compress_epi32(m, _mm512_sub_epi32(_mm512_add_epi32(k1, t), c)));
        k += __builtin_popcount(m);
        at = _mm512_add_epi32(at, _mm512_set1_epi32(16));
    }
    return k;
}
#define VEC_LIST_BYTES list_bytes

/* list_bytes_map the same way: the 32-entry table in two registers (vpermt2d on the low 5 bits,
 * the second perspective's entry at the code with its colour bit flipped), each map's 16 bytes
 * widened beside the codes; the packed lanes stored under a mask of their count, so that a list
 * sized exactly for its entries (HalfKA's 40) takes whole steps to its end. */
VEC_TARGET static int list_bytes_map(const uint8_t *b, uint32_t n, const int32_t *table, const uint8_t *map0,
                                     const uint8_t *map1, int32_t a0, int32_t a1, uint32_t *o0, uint32_t *o1,
                                     int room)
{
    const __m512i lo = _mm512_loadu_si512(table), hi = _mm512_loadu_si512(table + 16);
    const __m512i colour = _mm512_set1_epi32(16), k0 = _mm512_set1_epi32(a0), k1 = _mm512_set1_epi32(a1);
    int k = 0;
    for (uint32_t first = 0; first < n; first += 16) {
        __mmask16 live = n - first >= 16 ? 0xFFFF : (__mmask16)((1u << (n - first)) - 1);
        __m512i p = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(live, b + first));
        __m512i t0 = _mm512_permutex2var_epi32(lo, p, hi); /* vpermt2d reads the low 5 bits */
        __mmask16 m = _mm512_test_epi32_mask(t0, t0); /* a zero byte's entry is table[0] = 0 */
        int count = __builtin_popcount(m);
        if (count > room - k)
            return nnue_ref_list_bytes_map(b, first, n, table, map0, map1, a0, a1, o0, o1, k, room);
        __m512i t1 = _mm512_permutex2var_epi32(lo, _mm512_xor_si512(p, colour), hi);
        __m512i s0 = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(live, map0 + first));
        __m512i s1 = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(live, map1 + first));
        __mmask16 fill = (__mmask16)((1u << count) - 1);
        _mm512_mask_storeu_epi32(o0 + k, fill,
                                 _mm512_maskz_compress_epi32(m, _mm512_add_epi32(_mm512_add_epi32(k0, t0), s0)));
        _mm512_mask_storeu_epi32(o1 + k, fill,
                                 _mm512_maskz_compress_epi32(m, _mm512_add_epi32(_mm512_add_epi32(k1, t1), s1)));
        k += count;
    }
    return k;
}
#define VEC_LIST_BYTES_MAP list_bytes_map

#endif
