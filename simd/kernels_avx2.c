/* simd/kernels_avx2.c: the AVX2 kernel set, nnue_kernels_avx2: the kernels of kernels_vec.h
 * on the vector layer of vec_avx2.h, its own fused tail (tail_avx2.h) and byte lists
 * (list_bytes_avx2.h). Built on every x86-64 (per-function target attributes), called only when
 * the CPU has AVX2 (base/isa.c). */
#if defined(__x86_64__)
#include "simd/vec_avx2.h"
#include "simd/list_bytes_avx2.h"

/* The fused tail is defined after kernels_vec.h (simd/tail_avx2.h: it uses that file's crelu). */
VEC_TARGET static int32_t tail_32_32_1(const int32_t *in, int s1, int32_t m1, const int8_t *w1, const int32_t *b1,
                                       int s2, int32_t m2, const int8_t *w2, const int32_t *b2);
#define VEC_TAIL_32_32_1 tail_32_32_1

#define VEC_TABLE nnue_kernels_avx2
#define VEC_ISA NNUE_ISA_AVX2
#include "simd/kernels_vec.h"
#include "simd/tail_avx2.h"

#define VECF_TABLE nnue_kernels_f32_avx2
#include "simd/kernels_f32_vec.h"
#endif
