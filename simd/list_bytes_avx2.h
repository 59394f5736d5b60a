/* simd/list_bytes_avx2.h: kernels.h list_bytes and list_bytes_map for the AVX2 set, included by
 * kernels_avx2.c after vec_avx2.h and named by VEC_LIST_BYTES and VEC_LIST_BYTES_MAP: the
 * AVX-512 kernels' steps (list_bytes_avx512.h) 8 bytes at a time. Each step widens 8 bytes to
 * 32-bit lanes, looks their table entries up in registers (vpermd on the low 3 bits, blends on the
 * higher ones), computes both outputs and packs the lanes whose entry is not 0 to the front by
 * vpermd with the positions of nz_table.h, so the list keeps byte order without a branch per
 * byte. The bytes past the last whole step, and the steps once fewer than 8 entries of room are
 * left (a step stores 8 lanes), go to the scalar definition (kernels_scalar.h).
 * Why: the scalar loop takes 17-26 instructions a piece (a chess or shogi refresh lists 30-40 per
 * perspective pair); a step here takes about 25 for 8 squares. */
#ifndef NNUE_SIMD_LIST_BYTES_AVX2_H
#define NNUE_SIMD_LIST_BYTES_AVX2_H

#include "simd/kernels_scalar.h"
#include "simd/nz_table.h"

/* Lanes of v whose bit `bit` of the code p is set, from hi, else from lo. */
VEC_TARGET static inline __m256i lb_pick(__m256i lo, __m256i hi, __m256i p, int bit)
{
    __m256i sel = _mm256_slli_epi32(p, 31 - bit); /* that bit to each lane's sign */
    return _mm256_castps_si256(
        _mm256_blendv_ps(_mm256_castsi256_ps(lo), _mm256_castsi256_ps(hi), _mm256_castsi256_ps(sel)));
}

/* The 8 bytes at b widened to 32-bit lanes. */
VEC_TARGET static inline __m256i lb_bytes(const uint8_t *b)
{
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)b));
}

/* The lanes of the 8-bit mask m packed to the front (their order kept), as vpermd indices. */
VEC_TARGET static inline __m256i lb_pack(unsigned m)
{
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)nnue_nz_table[m]));
}

VEC_TARGET static int list_bytes(const uint8_t *b, uint32_t n, const int32_t *table, int32_t stride, int32_t a0,
                                 int32_t a1, uint32_t *o0, uint32_t *o1, int room)
{
    const __m256i lo = _mm256_loadu_si256((const __m256i *)table);
    const __m256i hi = _mm256_loadu_si256((const __m256i *)(table + 8));
    const __m256i colour = _mm256_set1_epi32(stride), k0 = _mm256_set1_epi32(a0), k1 = _mm256_set1_epi32(a1);
    __m256i at = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    int k = 0;
    uint32_t first = 0;
    for (; first + 8 <= n && k <= room - 8; first += 8) {
        __m256i p = lb_bytes(b + first);
        __m256i t = lb_pick(_mm256_permutevar8x32_epi32(lo, p), _mm256_permutevar8x32_epi32(hi, p), p, 3);
        /* stride * (p >> 4): p >> 4 is 0 .. 15 */
        __m256i c = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srli_epi32(p, 4), colour), at);
        unsigned m = vec_nz_mask_i32(t);
        __m256i pack = lb_pack(m);
        __m256i e0 = _mm256_add_epi32(_mm256_add_epi32(k0, t), c), e1 = _mm256_sub_epi32(_mm256_add_epi32(k1, t), c);
        _mm256_storeu_si256((__m256i *)(o0 + k), _mm256_permutevar8x32_epi32(e0, pack));
        _mm256_storeu_si256((__m256i *)(o1 + k), _mm256_permutevar8x32_epi32(e1, pack));
        k += __builtin_popcount(m);
        at = _mm256_add_epi32(at, _mm256_set1_epi32(8));
    }
    return nnue_ref_list_bytes(b, first, n, table, stride, a0, a1, o0, o1, k, room);
}
#define VEC_LIST_BYTES list_bytes

/* list_bytes_map the same way: the 32-entry table in four registers, each looked up by vpermd on
 * the code's low 3 bits, bit 3 choosing within each half and bit 4 between the halves (the other
 * way round for the second perspective's entry, whose code has bit 4 flipped); each map's 8 bytes
 * widened beside the codes. */
VEC_TARGET static int list_bytes_map(const uint8_t *b, uint32_t n, const int32_t *table, const uint8_t *map0,
                                     const uint8_t *map1, int32_t a0, int32_t a1, uint32_t *o0, uint32_t *o1,
                                     int room)
{
    const __m256i q0 = _mm256_loadu_si256((const __m256i *)table);
    const __m256i q1 = _mm256_loadu_si256((const __m256i *)(table + 8));
    const __m256i q2 = _mm256_loadu_si256((const __m256i *)(table + 16));
    const __m256i q3 = _mm256_loadu_si256((const __m256i *)(table + 24));
    const __m256i k0 = _mm256_set1_epi32(a0), k1 = _mm256_set1_epi32(a1);
    int k = 0;
    uint32_t first = 0;
    for (; first + 8 <= n && k <= room - 8; first += 8) {
        __m256i p = lb_bytes(b + first);
        __m256i low = lb_pick(_mm256_permutevar8x32_epi32(q0, p), _mm256_permutevar8x32_epi32(q1, p), p, 3);
        __m256i high = lb_pick(_mm256_permutevar8x32_epi32(q2, p), _mm256_permutevar8x32_epi32(q3, p), p, 3);
        __m256i t0 = lb_pick(low, high, p, 4), t1 = lb_pick(high, low, p, 4);
        unsigned m = vec_nz_mask_i32(t0); /* a zero byte's entry is table[0] = 0 */
        __m256i pack = lb_pack(m);
        __m256i e0 = _mm256_add_epi32(_mm256_add_epi32(k0, t0), lb_bytes(map0 + first));
        __m256i e1 = _mm256_add_epi32(_mm256_add_epi32(k1, t1), lb_bytes(map1 + first));
        _mm256_storeu_si256((__m256i *)(o0 + k), _mm256_permutevar8x32_epi32(e0, pack));
        _mm256_storeu_si256((__m256i *)(o1 + k), _mm256_permutevar8x32_epi32(e1, pack));
        k += __builtin_popcount(m);
    }
    return nnue_ref_list_bytes_map(b, first, n, table, map0, map1, a0, a1, o0, o1, k, room);
}
#define VEC_LIST_BYTES_MAP list_bytes_map

#endif
