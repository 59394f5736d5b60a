/* base/isa.h: instruction-set levels of the kernels, ordered from least to most capable: scalar,
 * then x86-64 (avx2, avx512, vnni512, vbmi512), AArch64 (neon) or WebAssembly (simd128). */
#ifndef NNUE_BASE_ISA_H
#define NNUE_BASE_ISA_H

typedef enum nnue_isa {
    NNUE_ISA_SCALAR,
#if defined(__aarch64__)
    NNUE_ISA_NEON,     /* AArch64 Advanced SIMD (always present there) */
#elif defined(__wasm__)
    NNUE_ISA_SIMD128,  /* WebAssembly SIMD128 (relaxed-simd with -mrelaxed-simd): a wasm build's best level only */
#else
    NNUE_ISA_AVX2,
    NNUE_ISA_AVX512,   /* AVX-512 F + BW + VL (base/targets.h: every extension checked) */
    NNUE_ISA_VNNI512,  /* AVX-512 VNNI */
    NNUE_ISA_VBMI512,  /* AVX-512 VNNI + VBMI2 (Ice Lake and later, Zen 4 and later) */
#endif
    NNUE_ISA_COUNT
} nnue_isa;

/* Best level this CPU supports. */
nnue_isa nnue_isa_best(void);
/* Level in use: the best, or NNUE_ISA from the environment when the CPU supports it. */
nnue_isa nnue_isa_current(void);
const char *nnue_isa_label(nnue_isa isa);

#endif
