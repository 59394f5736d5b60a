/* simd/kernels_avx2.c: the AVX2 kernel set, nnue_kernels_avx2: the kernels of kernels_vec.h
 * on the vector layer of vec_avx2.h, and its own fused tail (tail_avx2.h). Built on every
 * x86-64 (per-function target attributes), called only when the CPU has AVX2 (base/isa.c). */
#if defined(__x86_64__)
#include "simd/vec_avx2.h"
#include "simd/tail_avx2.h"

#define VEC_TABLE nnue_kernels_avx2
#define VEC_ISA NNUE_ISA_AVX2
#include "simd/kernels_vec.h"

#define VECF_TABLE nnue_kernels_f32_avx2
#include "simd/kernels_f32_vec.h"
#endif
