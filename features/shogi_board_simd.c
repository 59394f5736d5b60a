/* features/shogi_board_simd.c: see shogi_board_simd.h. Each step widens 16 squares' piece bytes
 * to 32-bit lanes, looks their BonaPiece base up in a 16-entry table held in one register
 * (vpermd; 0 = empty square or king), computes both perspectives' indices and packs the lanes
 * of real pieces to the front (vpcompressd), so the list keeps square order without branches.
 * Used when the library's kernels are AVX-512 (base/isa.h), so NNUE_ISA=scalar|avx2 runs the
 * plain loop of the callers (tests compare the lists with active()). */
#include "features/shogi_board_simd.h"

#include "base/isa.h"
#include "features/shogi_bonapiece.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include "base/targets.h"

/* Runs only with the AVX-512 kernel set or better (below), so compiled for that set exactly. */
#define TGT NNUE_TARGET(NNUE_TARGET_AVX512)

TGT static int board_features_avx512(const uint8_t *squares, int32_t kb0, int32_t kb1, uint32_t *o0, uint32_t *o1,
                                     int room)
{
    int32_t table[16] = {0};
    for (int t = 0; t < 15; t++)
        table[t] = shogi_board_base[t];
    const __m512i bases = _mm512_loadu_si512(table), fifteen = _mm512_set1_epi32(15), e81 = _mm512_set1_epi32(81);
    const __m512i k0 = _mm512_set1_epi32(kb0), k1 = _mm512_set1_epi32(kb1 + 81);
    __m512i sq = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    int n = 0;
    for (int first = 0; first < 81; first += 16) {
        if (n > room - 16)
            return -1;
        __mmask16 valid = 81 - first >= 16 ? 0xFFFF : (__mmask16)((1u << (81 - first)) - 1);
        __m512i p = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(valid, squares + first));
        __m512i base = _mm512_permutexvar_epi32(_mm512_and_si512(p, fifteen), bases);
        __m512i enemy = _mm512_mullo_epi32(_mm512_srli_epi32(p, 4), e81);
        __mmask16 m = _mm512_test_epi32_mask(base, base);
        __m512i i0 = _mm512_add_epi32(_mm512_add_epi32(k0, base), _mm512_add_epi32(enemy, sq));
        __m512i i1 = _mm512_sub_epi32(_mm512_add_epi32(k1, base), _mm512_add_epi32(enemy, sq));
        _mm512_storeu_si512(o0 + n, _mm512_maskz_compress_epi32(m, i0));
        _mm512_storeu_si512(o1 + n, _mm512_maskz_compress_epi32(m, i1));
        n += __builtin_popcount(m);
        sq = _mm512_add_epi32(sq, _mm512_set1_epi32(16));
    }
    return n;
}
#endif

int shogi_board_features_simd(const nnue_board *board, int32_t kb0, int32_t kb1, uint32_t *o0, uint32_t *o1, int room)
{
#if defined(__x86_64__)
    if (board->num_squares == 81 && nnue_isa_current() >= NNUE_ISA_AVX512)
        return board_features_avx512(board->piece_on, kb0, kb1, o0, o1, room);
#else
    (void)board, (void)kb0, (void)kb1, (void)o0, (void)o1, (void)room;
#endif
    return -1;
}
