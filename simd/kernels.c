/* simd/kernels.c: the kernel table for an instruction-set level (base/isa.h). */
#include "simd/kernels.h"

const nnue_kernels *nnue_kernels_for(nnue_isa isa)
{
    switch (isa) {
#if defined(__x86_64__)
    case NNUE_ISA_AVX2:
        return &nnue_kernels_avx2;
    case NNUE_ISA_AVX512:
        return &nnue_kernels_avx512;
    case NNUE_ISA_VNNI512:
        return &nnue_kernels_vnni512;
    case NNUE_ISA_VBMI512:
        return &nnue_kernels_vbmi512;
#endif
#if defined(__aarch64__)
    case NNUE_ISA_NEON:
        return &nnue_kernels_neon;
#endif
#if defined(__wasm_simd128__)
    case NNUE_ISA_SIMD128:
        return &nnue_kernels_simd128;
#endif
    case NNUE_ISA_SCALAR:
        return &nnue_kernels_scalar;
    default:
        return NULL;
    }
}
