/* simd/kernels_vnni512.c: the AVX-512 VNNI kernel set: the AVX-512 set with the u8 x i8
 * dot products done by vpdpbusd (4 products and the add in one instruction, exact for any u8
 * input). Four independent accumulators per output block hide the instruction's latency. */
#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#include "simd/kernels_avx512.h"
#include "base/targets.h"

#define TGT NNUE_TARGET(NNUE_TARGET_VNNI512)


TGT static inline __m512i dot(__m512i acc, __m512i x, const int8_t *w)
{
    return _mm512_dpbusd_epi32(acc, x, _mm512_loadu_si512(w));
}

#include "simd/affine_u8_avx512.h"


const nnue_kernels nnue_kernels_vnni512 = {
    NNUE_ISA_VNNI512, nnue_avx512_acc_i16, nnue_avx512_acc_i32, nnue_avx512_ft_clamp_u8, nnue_avx512_ft_pairwise_u8,
    nnue_avx512_nonzero_groups, affine_u8, affine_u8_list, nnue_avx512_sq_dot_i16, nnue_avx512_crelu_i32,
    nnue_avx512_sqr_crelu_i32, nnue_avx512_pack_u8, nnue_avx512_acc_i8, tail_32_32_1, nnue_avx512_board_scan,
};
#endif
