/* simd/kernels_f32.c: the float32 kernel table for an instruction-set level (kernels_f32.h). */
#include "simd/kernels_f32.h"

#include <stddef.h>

#include "base/cpu_x86.h"
#include "base/targets.h"

#if defined(__x86_64__)
static int avx2_fma;

/* Once, before any thread (NNUE_CPU_MASK, read here, is set before the process starts). */
__attribute__((constructor)) static void detect_fma(void)
{
    avx2_fma = nnue_cpu_supports(NNUE_TARGET_AVX2_F32);
}
#endif

const nnue_kernels_f32 *nnue_kernels_f32_for(nnue_isa isa)
{
    switch (isa) {
#if defined(__x86_64__)
    case NNUE_ISA_AVX2:
        return avx2_fma ? &nnue_kernels_f32_avx2 : NULL;
    case NNUE_ISA_AVX512:
    case NNUE_ISA_VNNI512:
    case NNUE_ISA_VBMI512:
        return &nnue_kernels_f32_avx512;
#endif
#if defined(__aarch64__)
    case NNUE_ISA_NEON:
        return &nnue_kernels_f32_neon;
#endif
    default:
        return NULL;
    }
}
