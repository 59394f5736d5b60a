/* simd/kernels_avx512.c: the AVX-512 (F + BW) kernel set, nnue_kernels_avx512: the kernels of
 * kernels_vec.h on the vector layer of vec_avx512.h, with this set's fused tail and board scan.
 * Built on every x86-64 (per-function target attributes), called only when the CPU has AVX-512
 * (base/isa.c). */
#if defined(__x86_64__)
#include "simd/vec_avx512.h"
#include "simd/tail_avx512.h"
#include "simd/board_scan_avx512.h"
#include "simd/list_bytes_avx512.h"

#define VEC_TABLE nnue_kernels_avx512
#define VEC_ISA NNUE_ISA_AVX512
#include "simd/kernels_vec.h"

#define VECF_TABLE nnue_kernels_f32_avx512
#include "simd/kernels_f32_vec.h"
#endif
