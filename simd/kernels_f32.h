/* simd/kernels_f32.h: the float32 kernel sets, one const table per instruction-set level, beside
 * the integer tables of simd/kernels.h and chosen by the same level (a state's kernel table's
 * isa). They run the float layers that fuse multiply-adds (layers/affine_f32.c and
 * layers/dequantize.c are the definitions: their propagate) bit for bit: each output's sum has
 * the definition's terms in its order, every multiply-add fused (one rounding, as fmaf), so the
 * result does not depend on the vector width. The propagates are plain C (libm's fmaf on x86-64);
 * these tables are where the hardware's fused multiply-add runs, so NNUE_ISA chooses it too.
 * A level has no float table (NULL) where it cannot fuse in vectors: scalar, SIMD128 (no fused
 * multiply-add in WebAssembly SIMD) and AVX2 on a CPU without FMA3; the layers' propagate runs
 * there. tests/simd/test_simd_f32.c compares every table the CPU runs with the propagate. */
#ifndef NNUE_SIMD_KERNELS_F32_H
#define NNUE_SIMD_KERNELS_F32_H

#include <stdint.h>

#include "base/isa.h"

typedef struct nnue_kernels_f32 {
    /* One chain per output from its bias, inputs in order, o < n_out:
     *   s = bias[o]; for i = 0 .. n_in - 1: s = fma(in[i], w[i][o], s); out[o] = s
     * w input-major, [n_in][out_pad] (out_pad a multiple of 16 and >= n_out; what the padding
     * columns hold is never read into an output). */
    void (*affine)(const float *in, uint32_t n_in, const float *w, const float *bias, float *out, uint32_t n_out,
                   uint32_t out_pad);
    /* The L-lane sum (lanes = L: a power of two 2..64 dividing n_in; where L is a multiple of the
     * level's vector width each vector holds whole lanes' sums, below it the lanes run one by
     * one), rows w[n_out][n_in] as stored:
     *   c[l] = 0; for i = l, l + L, ...: c[l] = fma(in[i], w[o][i], c[l])
     *   for half = L/2 .. 1 (halving): c[l] = c[l] + c[l + half], l < half;  out[o] = c[0] + bias[o] */
    void (*affine_lanes)(const float *in, uint32_t n_in, const float *w, const float *bias, float *out,
                         uint32_t n_out, uint32_t lanes);
    /* --- issue 47 item 4: the float layers' fused multiply-adds moved here from layers/ --- */
    /* out[o] = fma((float) in[o], scale, bias[o]), o < n (the conversion rounds to nearest). */
    void (*dequantize)(const int32_t *in, uint32_t n, float scale, const float *bias, float *out);
} nnue_kernels_f32;

/* The float table of a level, or NULL (above). Levels above nnue_isa_best() must not be asked. */
const nnue_kernels_f32 *nnue_kernels_f32_for(nnue_isa isa);

#if defined(__x86_64__)
extern const nnue_kernels_f32 nnue_kernels_f32_avx2;
extern const nnue_kernels_f32 nnue_kernels_f32_avx512; /* also VNNI's: it adds nothing to floats */
#endif
#if defined(__aarch64__)
extern const nnue_kernels_f32 nnue_kernels_f32_neon;
#endif

#endif
