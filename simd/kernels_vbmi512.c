/* simd/kernels_vbmi512.c: the AVX-512 VNNI + VBMI2 kernel set, nnue_kernels_vbmi512:
 * kernels_vnni512.c's with the non-zero lists (ft_pairwise_nz, nonzero_groups) made by VBMI2's
 * compress, 16 positions an instruction (VEC_VBMI2 in vec_avx512.h, simd/vnz_vbmi2.h). Ice Lake,
 * Sapphire / Emerald Rapids and AMD's Zen 4 and later have it; Cascade Lake has VNNI without it
 * and keeps vnni512. */
#if defined(__x86_64__)
#define VEC_VNNI 1
#define VEC_VBMI2 1
#include "simd/vec_avx512.h"
#include "simd/tail_avx512.h"
#include "simd/board_scan_avx512.h"
#include "simd/list_bytes_avx512.h"

#define VEC_TABLE nnue_kernels_vbmi512
#define VEC_ISA NNUE_ISA_VBMI512
#include "simd/kernels_vec.h"
#endif
