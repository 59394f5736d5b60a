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

#include "base/arch_limits.h"
#include "base/isa.h"

/* The float layers' clips, one definition for their propagates (layers/) and these kernels:
 * x > lo ? x : lo and x < hi ? x : hi, every case fixed by C: a NaN gives the bound and -0
 * against 0 gives +0 (as the engines' _mm_max_ps(x, 0)), where fmaxf/fminf leave the sign of a
 * zero to the compiler (clang's scalar and vector code differed on it). */
static inline float nnue_f32_max(float x, float lo)
{
    return x > lo ? x : lo;
}
static inline float nnue_f32_min(float x, float hi)
{
    return x < hi ? x : hi;
}

/* A float head (issue 47 item 3): a run of small float layers as steps over one buffer of
 * floats, made once per net by layers/plan_f32.c and run in one kernels_f32.h head call. Each
 * step is its layer's definition (the layer file's propagate) on buffer slots: in, in2 and out
 * are offsets into the buffer (floats), every layer's values a slot of their own (a slice is an
 * offset into its input's slot; a concat's inputs are written straight into its slot, or copied
 * there), so nothing is copied between layers. */
enum {
    NNUE_F32_DEQUANTIZE,   /* out[o] = fma((float) in_i32[o], param, b[o]), o < n_out (the head's int32 input) */
    NNUE_F32_AFFINE,       /* affine: w input-major [n_in][pad] */
    NNUE_F32_AFFINE_LANES, /* affine_lanes: rows w[n_out][n_in], pad = lanes */
    NNUE_F32_CRELU,        /* min(max(x, 0), param) (nnue_f32_min/max; layers/relu_f32.c) */
    NNUE_F32_SQR_CRELU,    /* c * c of the above */
    NNUE_F32_DUAL,         /* out[o] = min(max(x, 0), param), out[n + o] = min(x * x, param), o < n_in
                              (layers/dual_f32.c; n_out = 2 n_in) */
    NNUE_F32_HARDSWISH,    /* (x * min(max(x + 3, 0), 6)) * (1.0f / 6) (layers/hardswish_f32.c) */
    NNUE_F32_MUL,          /* x * x2 (layers/elementwise_f32.c) */
    NNUE_F32_ADD,          /* x + x2 */
    NNUE_F32_COPY,         /* out = x (a concat's input that could not be written in place) */
    NNUE_F32_TO_I32,       /* int32 out = trunc(x * param): NaN 0, saturated (layers/to_i32.c) */
};

typedef struct nnue_f32_step {
    uint8_t op;
    uint32_t in, in2, out;     /* buffer offsets (floats) */
    uint32_t n_in, n_out;      /* an affine's inputs; the values written */
    uint32_t pad;              /* NNUE_F32_AFFINE: out_pad; NNUE_F32_AFFINE_LANES: lanes */
    float param;               /* scale or clip bound */
    const float *const *w;     /* [stacks] weights of an affine step */
    const float *const *b;     /* [stacks] biases of an affine or dequantize step */
} nnue_f32_step;

typedef struct nnue_f32_head {
    int n_steps;
    nnue_f32_step steps[NNUE_MAX_LAYERS * 2];
} nnue_f32_head;

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
    /* Every step of h in order on buf, the weights and biases of stack `stack`; in: the int32
     * values the head's dequantize steps read. */
    void (*head)(const nnue_f32_head *h, const int32_t *in, uint32_t stack, float *buf);
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
