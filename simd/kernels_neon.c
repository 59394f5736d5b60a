/* simd/kernels_neon.c: the Arm NEON kernel set, nnue_kernels_neon: the kernels of
 * kernels_vec.h on the vector layer of vec_neon.h. Built only for AArch64, where NEON is always
 * present; no fused tail_32_32_1 (the layers run one by one). */
#if defined(__aarch64__)
#include "simd/vec_neon.h"

#define VEC_TABLE nnue_kernels_neon
#define VEC_ISA NNUE_ISA_NEON
#include "simd/kernels_vec.h"

#define VECF_TABLE nnue_kernels_f32_neon
#include "simd/kernels_f32_vec.h"
#endif
