/* simd/board_scan_avx512.h: the board check's square scan (kernels.h board_scan) for the
 * AVX-512 sets, included by each AVX-512 set (kernels_*512.c) after vec_avx512.h and named
 * by VEC_BOARD_SCAN: 64 squares per masked load (lanes past n read as empty), the three bad-code
 * tests as byte masks, the occupied squares as a popcount. Same answer as the portable scan in
 * core/eval/board_check.c. */
#ifndef NNUE_SIMD_BOARD_SCAN_AVX512_H
#define NNUE_SIMD_BOARD_SCAN_AVX512_H

VEC_TARGET static unsigned board_scan(const uint8_t *squares, int n, int max_type, int *count)
{
    const __m512i high = _mm512_set1_epi8((char)0xE0), type = _mm512_set1_epi8(15);
    const __m512i most = _mm512_set1_epi8((char)max_type), no_type = _mm512_set1_epi8(16);
    __mmask64 bad = 0;
    int occupied = 0;
    for (int i = 0; i < n; i += 64) {
        __mmask64 live = n - i >= 64 ? ~0ull : _bzhi_u64(~0ull, (unsigned)(n - i));
        __m512i p = _mm512_maskz_loadu_epi8(live, squares + i);
        bad |= _mm512_test_epi8_mask(p, high) | _mm512_cmpgt_epu8_mask(_mm512_and_si512(p, type), most) |
               _mm512_cmpeq_epi8_mask(p, no_type);
        occupied += (int)_mm_popcnt_u64(_mm512_test_epi8_mask(p, p));
    }
    *count = occupied;
    return bad != 0;
}
#define VEC_BOARD_SCAN board_scan

#endif
