/* simd/kernels_vnni512.c: the AVX-512 VNNI kernel set, nnue_kernels_vnni512: kernels_avx512.c's
 * with the u8 x i8 dot done by vpdpbusd (VEC_VNNI in vec_avx512.h: 4 products and the add in one
 * instruction, exact for any u8 input). */
#if defined(__x86_64__)
#define VEC_VNNI 1
#include "simd/vec_avx512.h"
#include "simd/tail_avx512.h"
#include "simd/board_scan_avx512.h"
#include "simd/list_bytes_avx512.h"

#define VEC_TABLE nnue_kernels_vnni512
#define VEC_ISA NNUE_ISA_VNNI512
#include "simd/kernels_vec.h"
#endif
