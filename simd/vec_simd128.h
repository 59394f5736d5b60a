/* simd/vec_simd128.h: the vector layer (simd/vec.h) on WebAssembly SIMD128 (wasm_simd128.h),
 * 128-bit vectors. Only in a build with -msimd128 (__wasm_simd128__): a wasm module either
 * validates with its SIMD instructions or does not load, so there is no run-time check; the web
 * package picks the SIMD build where the engine validates it. The u8 x i8 dot: the 4 input bytes
 * widened to i16 once (vdot_input), each weight vector's halves sign-extended to i16 and
 * multiplied by i32x4.dot_i16x8 (pmaddwd): lane pairs hold half of an output's sum each, kept in
 * two running vectors (vdot_t) and folded together once in vdot_sum. With -mrelaxed-simd
 * (__wasm_relaxed_simd__, web/build.sh's relaxed-simd module) the dot is relaxed SIMD's
 * i16x8.relaxed_dot_i8x16_i7x16_s instead (pmaddubsw on x86-64), and chained groups add in i16. */
#ifndef NNUE_SIMD_VEC_SIMD128_H
#define NNUE_SIMD_VEC_SIMD128_H

#include <wasm_simd128.h>

#include "simd/vec.h"

typedef v128_t vec_t;
#if defined(__wasm_relaxed_simd__)
typedef v128_t vdot_t; /* outputs 0-3, one i32 lane each */
#else
typedef struct { v128_t lo, hi; } vdot_t; /* outputs 0-1 and 2-3, two lanes each */
#endif
#define VEC_BYTES 16
#define VEC_TARGET
#define VEC_ACC_TILE 8
#define VEC_AFFINE_BLOCKS 4 /* 4 blocks x 2 vectors: 8 sums, within a host's 16 registers */
#define VEC_AFFINE_UNROLL 1
#define VEC_FN static inline

VEC_FN vec_t vec_zero(void) { return wasm_i32x4_splat(0); }
VEC_FN vec_t vec_set1_i16(int16_t x) { return wasm_i16x8_splat(x); }
VEC_FN vec_t vec_set1_i32(int32_t x) { return wasm_i32x4_splat(x); }
VEC_FN vec_t vec_load(const void *p) { return wasm_v128_load(p); }
VEC_FN void vec_store(void *p, vec_t v) { wasm_v128_store(p, v); }
VEC_FN vec_t vec_load_i8_i16(const int8_t *p) { return wasm_i16x8_load8x8(p); }
VEC_FN vec_t vec_load_i16_i32(const int16_t *p) { return wasm_i32x4_load16x4(p); }

VEC_FN vec_t vec_add_i16(vec_t a, vec_t b) { return wasm_i16x8_add(a, b); }
VEC_FN vec_t vec_srai8_i16(vec_t v) { return wasm_i16x8_shr(v, 8); }
VEC_FN vec_t vec_slli8_i16(vec_t v) { return wasm_i16x8_shl(v, 8); }
VEC_FN vec_t vec_sub_i16(vec_t a, vec_t b) { return wasm_i16x8_sub(a, b); }
VEC_FN vec_t vec_add_i32(vec_t a, vec_t b) { return wasm_i32x4_add(a, b); }
VEC_FN vec_t vec_sub_i32(vec_t a, vec_t b) { return wasm_i32x4_sub(a, b); }
VEC_FN vec_t vec_mullo_i16(vec_t a, vec_t b) { return wasm_i16x8_mul(a, b); }
VEC_FN vec_t vec_mullo_i32(vec_t a, vec_t b) { return wasm_i32x4_mul(a, b); }
VEC_FN vec_t vec_max_i16(vec_t a, vec_t b) { return wasm_i16x8_max(a, b); }
VEC_FN vec_t vec_min_i16(vec_t a, vec_t b) { return wasm_i16x8_min(a, b); }
VEC_FN vec_t vec_max_i32(vec_t a, vec_t b) { return wasm_i32x4_max(a, b); }
VEC_FN vec_t vec_min_i32(vec_t a, vec_t b) { return wasm_i32x4_min(a, b); }
VEC_FN vec_t vec_min_u32(vec_t a, vec_t b) { return wasm_u32x4_min(a, b); }
VEC_FN vec_t vec_abs_i32(vec_t a) { return wasm_i32x4_abs(a); }
/* Shifts by a run-time count: clang (emscripten 3.1.6's LLVM) hoists the count's splat out of a
 * kernel's loop, then no longer sees a uniform shift there and scalarizes it (16 lane extracts and
 * inserts per vector: ft_pairwise_u8 was a fifth of SFNNv5's time). The empty volatile asm makes
 * the count new at each use, so the splat stays beside the shift and one i16x8.shr_u remains. */
VEC_FN uint32_t vec_count(int n)
{
    __asm__ volatile("" : "+r"(n));
    return (uint32_t)n;
}
VEC_FN vec_t vec_srl_i16(vec_t v, int n) { return wasm_u16x8_shr(v, vec_count(n)); }
VEC_FN vec_t vec_srl_i32(vec_t v, int n) { return wasm_u32x4_shr(v, vec_count(n)); }
VEC_FN vec_t vec_sra_i32(vec_t v, int n) { return wasm_i32x4_shr(v, vec_count(n)); }
VEC_FN vec_t vec_madd_i16(vec_t a, vec_t b) { return wasm_i32x4_dot_i16x8(a, b); }
VEC_FN vec_t vec_packus_i16(vec_t a, vec_t b) { return wasm_u8x16_narrow_i16x8(a, b); }
VEC_FN vec_t vec_min_u8(vec_t a, vec_t b) { return wasm_u8x16_min(a, b); }
VEC_FN vec_t vec_packus_i32(vec_t a, vec_t b) { return wasm_u16x8_narrow_i32x4(a, b); }

VEC_FN vec_t vec_widen_add_i64(vec_t s, vec_t v)
{
    return wasm_i64x2_add(wasm_i64x2_add(s, wasm_i64x2_extend_low_i32x4(v)), wasm_i64x2_extend_high_i32x4(v));
}

VEC_FN vec_t vec_dot_i32_i64(vec_t s, vec_t a, vec_t b)
{
    return wasm_i64x2_add(wasm_i64x2_add(s, wasm_i64x2_extmul_low_i32x4(a, b)), wasm_i64x2_extmul_high_i32x4(a, b));
}

VEC_FN unsigned vec_nz_mask_i32(vec_t v) { return wasm_i32x4_bitmask(wasm_i32x4_ne(v, wasm_i32x4_splat(0))); }

VEC_FN void vec_nz_store8(uint16_t *dst, const uint8_t *pos, uint16_t base)
{
    wasm_v128_store(dst, wasm_i16x8_add(wasm_u16x8_load8x8(pos), wasm_i16x8_splat((int16_t)base)));
}

#define VEC_HEAD_TAIL "simd/head_tail_simd128.h" /* kernels_vec.h includes it */

#if defined(__wasm_relaxed_simd__)
/* The dot of relaxed SIMD: i16x8.relaxed_dot_i8x16_i7x16_s(a, b) sums two products a byte pair of
 * the i8 a and the b in 0..127 (the "i7" operand); its result is implementation-defined only for
 * b above 127, and vec.h promises the dot inputs of at most 127, so every engine gives the scalar
 * sums. Two products fit i16 (2 x 127 x 128), the chains' sums where layers/plan_pairs.c proves
 * them. The widening (i32x4.extadd_pairwise_i16x8_s) is one pmaddwd by ones on x86-64: a group
 * costs a load, a pmaddubsw and an add where the plain dot above takes two widening loads, two
 * pmaddwd and two adds (i32x4.relaxed_dot_i8x16_i7x16_add_s would be one instruction in wasm,
 * but V8 builds its ones for it each time: a few percent at most, docs/web.md). */
#define VEC_DOT_PAIRS 1
VEC_FN vdot_t vdot_zero(void) { return wasm_i32x4_splat(0); }
VEC_FN vec_t vdot_sum(vdot_t s) { return s; }
VEC_FN vec_t vdot_input(const uint8_t *p) { return wasm_v128_load32_splat(p); }
VEC_FN vec_t vdot_prod16(vec_t x, const int8_t *w)
{
    return wasm_i16x8_relaxed_dot_i8x16_i7x16(wasm_v128_load(w), x);
}
VEC_FN vdot_t vdot_widen(vdot_t s, vec_t p) { return wasm_i32x4_add(s, wasm_i32x4_extadd_pairwise_i16x8(p)); }
VEC_FN vdot_t vdot_add(vdot_t s, vec_t x, const int8_t *w) { return vdot_widen(s, vdot_prod16(x, w)); }
VEC_FN vdot_t vdot_add_bytes(vdot_t s, const uint8_t *p, const int8_t *w)
{
    return vdot_add(s, wasm_v128_load(p), w);
}
#else
VEC_FN vdot_t vdot_zero(void) { return (vdot_t){wasm_i32x4_splat(0), wasm_i32x4_splat(0)}; }

/* Lanes 2k and 2k + 1 of lo (then hi) are output k's two halves. */
VEC_FN vec_t vdot_sum(vdot_t s)
{
    return wasm_i32x4_add(wasm_i32x4_shuffle(s.lo, s.hi, 0, 2, 4, 6), wasm_i32x4_shuffle(s.lo, s.hi, 1, 3, 5, 7));
}

/* The bytes x0..x3 as i16 lanes x0 x1 x2 x3 x0 x1 x2 x3 (the same for both halves of a weight
 * vector, since the 4 bytes repeat every 4 lanes). */
VEC_FN vec_t vdot_input(const uint8_t *p)
{
    return wasm_u16x8_extend_low_u8x16(wasm_v128_load32_splat(p));
}

/* Each half of the weight vector is one i16x8.load8x8_s (a pmovsxbw from memory on x86-64):
 * a whole-vector load then extend_low and extend_high took four instructions for the two. */
VEC_FN vdot_t vdot_add(vdot_t s, vec_t x, const int8_t *w)
{
    s.lo = wasm_i32x4_add(s.lo, wasm_i32x4_dot_i16x8(x, wasm_i16x8_load8x8(w)));
    s.hi = wasm_i32x4_add(s.hi, wasm_i32x4_dot_i16x8(x, wasm_i16x8_load8x8(w + 8)));
    return s;
}

/* Bytes 0-7 of p against w's into lo, 8-15 into hi (each input byte widened where it is read). */
VEC_FN vdot_t vdot_add_bytes(vdot_t s, const uint8_t *p, const int8_t *w)
{
    s.lo = wasm_i32x4_add(s.lo, wasm_i32x4_dot_i16x8(wasm_u16x8_load8x8(p), wasm_i16x8_load8x8(w)));
    s.hi = wasm_i32x4_add(s.hi, wasm_i32x4_dot_i16x8(wasm_u16x8_load8x8(p + 8), wasm_i16x8_load8x8(w + 8)));
    return s;
}
#endif

VEC_FN int32_t vec_hsum_i32(vec_t v)
{
    v = wasm_i32x4_add(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
    v = wasm_i32x4_add(v, wasm_i32x4_shuffle(v, v, 1, 0, 3, 2));
    return wasm_i32x4_extract_lane(v, 0);
}

#endif

/* Bytes, for kernels_bytes_vec.h's board_scan (listed in vec.h): lanes of u8. */
#ifndef NNUE_SIMD_VEC_SIMD128_U8_H
#define NNUE_SIMD_VEC_SIMD128_U8_H
VEC_FN vec_t vec_set1_u8(uint8_t x) { return wasm_u8x16_splat(x); }
VEC_FN vec_t vec_and_u8(vec_t a, vec_t b) { return wasm_v128_and(a, b); }
VEC_FN vec_t vec_or_u8(vec_t a, vec_t b) { return wasm_v128_or(a, b); }
VEC_FN vec_t vec_sub_u8(vec_t a, vec_t b) { return wasm_i8x16_sub(a, b); }
VEC_FN vec_t vec_subs_u8(vec_t a, vec_t b) { return wasm_u8x16_sub_sat(a, b); }
VEC_FN vec_t vec_cmpeq_u8(vec_t a, vec_t b) { return wasm_i8x16_eq(a, b); }
VEC_FN unsigned vec_any_u8(vec_t v) { return wasm_v128_any_true(v); }
VEC_FN int vec_sum_u8(vec_t v)
{
    v128_t s = wasm_u32x4_extadd_pairwise_u16x8(wasm_u16x8_extadd_pairwise_u8x16(v));
    return (int)(wasm_u32x4_extract_lane(s, 0) + wasm_u32x4_extract_lane(s, 1) + wasm_u32x4_extract_lane(s, 2) +
                 wasm_u32x4_extract_lane(s, 3));
}
#endif
