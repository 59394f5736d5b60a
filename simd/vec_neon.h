/* simd/vec_neon.h: the vector layer (simd/vec.h) on Arm NEON (AArch64 Advanced SIMD), 128-bit
 * vectors, baseline Armv8-A only (no dot-product extension), so no run-time check beyond "this
 * is AArch64". vec_t is int32x4_t, reinterpreted per operation. The u8 x i8 dot: vmull_s8
 * products (<= 16256 for inputs <= 127), adjacent pairs summed in i16 (<= 32512, exact), then
 * pairs of those into the i32 sums. Shifts right are vshl by a negative count. */
#ifndef NNUE_SIMD_VEC_NEON_H
#define NNUE_SIMD_VEC_NEON_H

#include <arm_neon.h>

#include "simd/vec.h"

typedef int32x4_t vec_t;
typedef int32x4_t vdot_t;
#define VEC_BYTES 16
#define VEC_TARGET
#define VEC_ACC_TILE 8
#define VEC_AFFINE_BLOCKS 4 /* 32 registers: 4 x 4 sums */
#define VEC_AFFINE_UNROLL 4
#define VEC_FN static inline
#define S16(v) vreinterpretq_s16_s32(v)
#define U16(v) vreinterpretq_u16_s32(v)
#define U32(v) vreinterpretq_u32_s32(v)
#define FROM16(v) vreinterpretq_s32_s16(v)
#define FROMU16(v) vreinterpretq_s32_u16(v)
#define FROMU32(v) vreinterpretq_s32_u32(v)

VEC_FN vec_t vec_zero(void) { return vdupq_n_s32(0); }
VEC_FN vec_t vec_set1_i16(int16_t x) { return FROM16(vdupq_n_s16(x)); }
VEC_FN vec_t vec_set1_i32(int32_t x) { return vdupq_n_s32(x); }
VEC_FN vec_t vec_load(const void *p) { return vreinterpretq_s32_u8(vld1q_u8((const uint8_t *)p)); }
VEC_FN void vec_store(void *p, vec_t v) { vst1q_u8((uint8_t *)p, vreinterpretq_u8_s32(v)); }
VEC_FN vec_t vec_load_i8_i16(const int8_t *p) { return FROM16(vmovl_s8(vld1_s8(p))); }
VEC_FN vec_t vec_load_i16_i32(const int16_t *p) { return vmovl_s16(vld1_s16(p)); }

VEC_FN vec_t vec_add_i16(vec_t a, vec_t b) { return FROM16(vaddq_s16(S16(a), S16(b))); }
VEC_FN vec_t vec_srai8_i16(vec_t v) { return FROM16(vshrq_n_s16(S16(v), 8)); }
VEC_FN vec_t vec_slli8_i16(vec_t v) { return FROM16(vshlq_n_s16(S16(v), 8)); }
VEC_FN vec_t vec_sub_i16(vec_t a, vec_t b) { return FROM16(vsubq_s16(S16(a), S16(b))); }
VEC_FN vec_t vec_add_i32(vec_t a, vec_t b) { return vaddq_s32(a, b); }
VEC_FN vec_t vec_sub_i32(vec_t a, vec_t b) { return vsubq_s32(a, b); }
VEC_FN vec_t vec_mullo_i16(vec_t a, vec_t b) { return FROM16(vmulq_s16(S16(a), S16(b))); }
VEC_FN vec_t vec_mullo_i32(vec_t a, vec_t b) { return vmulq_s32(a, b); }
VEC_FN vec_t vec_max_i16(vec_t a, vec_t b) { return FROM16(vmaxq_s16(S16(a), S16(b))); }
VEC_FN vec_t vec_min_i16(vec_t a, vec_t b) { return FROM16(vminq_s16(S16(a), S16(b))); }
VEC_FN vec_t vec_max_i32(vec_t a, vec_t b) { return vmaxq_s32(a, b); }
VEC_FN vec_t vec_min_i32(vec_t a, vec_t b) { return vminq_s32(a, b); }
VEC_FN vec_t vec_min_u32(vec_t a, vec_t b) { return FROMU32(vminq_u32(U32(a), U32(b))); }
VEC_FN vec_t vec_abs_i32(vec_t a) { return vabsq_s32(a); }
VEC_FN vec_t vec_srl_i16(vec_t v, int n) { return FROMU16(vshlq_u16(U16(v), vdupq_n_s16((int16_t)-n))); }
VEC_FN vec_t vec_srl_i32(vec_t v, int n) { return FROMU32(vshlq_u32(U32(v), vdupq_n_s32(-n))); }
VEC_FN vec_t vec_sra_i32(vec_t v, int n) { return vshlq_s32(v, vdupq_n_s32(-n)); }

VEC_FN vec_t vec_madd_i16(vec_t a, vec_t b)
{
    return vpaddq_s32(vmull_s16(vget_low_s16(S16(a)), vget_low_s16(S16(b))), vmull_high_s16(S16(a), S16(b)));
}

VEC_FN vec_t vec_packus_i16(vec_t a, vec_t b)
{
    return vreinterpretq_s32_u8(vcombine_u8(vqmovun_s16(S16(a)), vqmovun_s16(S16(b))));
}
VEC_FN vec_t vec_min_u8(vec_t a, vec_t b)
{
    return vreinterpretq_s32_u8(vminq_u8(vreinterpretq_u8_s32(a), vreinterpretq_u8_s32(b)));
}

VEC_FN vec_t vec_packus_i32(vec_t a, vec_t b) { return FROMU16(vcombine_u16(vqmovun_s32(a), vqmovun_s32(b))); }

/* i64 lanes live in the same 128 bits, read as int64x2_t. */
VEC_FN vec_t vec_widen_add_i64(vec_t s, vec_t v) { return vreinterpretq_s32_s64(vpadalq_s32(vreinterpretq_s64_s32(s), v)); }

VEC_FN vec_t vec_dot_i32_i64(vec_t s, vec_t a, vec_t b)
{
    int64x2_t t = vmlal_s32(vreinterpretq_s64_s32(s), vget_low_s32(a), vget_low_s32(b));
    return vreinterpretq_s32_s64(vmlal_high_s32(t, a, b));
}

VEC_FN unsigned vec_nz_mask_i32(vec_t v)
{
    static const uint32_t bits[4] = {1, 2, 4, 8};
    return vaddvq_u32(vandq_u32(vtstq_u32(U32(v), U32(v)), vld1q_u32(bits)));
}

VEC_FN void vec_nz_store8(uint16_t *dst, const uint8_t *pos, uint16_t base)
{
    vst1q_u16(dst, vaddq_u16(vmovl_u8(vld1_u8(pos)), vdupq_n_u16(base)));
}

VEC_FN vdot_t vdot_zero(void) { return vdupq_n_s32(0); }
VEC_FN vdot_t vdot_sum(vdot_t s) { return s; }

VEC_FN vec_t vdot_input(const uint8_t *p)
{
    int32_t x;
    memcpy(&x, p, 4);
    return vdupq_n_s32(x);
}

VEC_FN vdot_t vdot_add(vdot_t s, vec_t x, const int8_t *w)
{
    int8x16_t xb = vreinterpretq_s8_s32(x), wv = vld1q_s8(w);
    int16x8_t lo = vmull_s8(vget_low_s8(xb), vget_low_s8(wv)), hi = vmull_high_s8(xb, wv);
    return vpadalq_s16(s, vpaddq_s16(lo, hi));
}

/* The input bytes (<= 127) read as i8 by vdot_add's signed products: the same values. */
VEC_FN vdot_t vdot_add_bytes(vdot_t s, const uint8_t *p, const int8_t *w)
{
    return vdot_add(s, vreinterpretq_s32_u8(vld1q_u8(p)), w);
}

VEC_FN int32_t vec_hsum_i32(vec_t v)
{
    return vaddvq_s32(v);
}

#endif

/* Float32 vectors for simd/kernels_f32_vec.h (listed there): 4 lanes; vfmaq_f32 is
 * fused (one rounding), as every AArch64 core has it. */
#ifndef NNUE_SIMD_VEC_NEON_F32_H
#define NNUE_SIMD_VEC_NEON_F32_H
typedef float32x4_t vecf_t;
#define VECF_LANES 4
#define VECF_TARGET VEC_TARGET
#define VECF_FN VECF_TARGET static inline
VECF_FN vecf_t vecf_zero(void) { return vdupq_n_f32(0.0f); }
VECF_FN vecf_t vecf_set1(float x) { return vdupq_n_f32(x); }
VECF_FN vecf_t vecf_load(const float *p) { return vld1q_f32(p); }
VECF_FN void vecf_store(float *p, vecf_t v) { vst1q_f32(p, v); }
VECF_FN vecf_t vecf_add(vecf_t a, vecf_t b) { return vaddq_f32(a, b); }
VECF_FN vecf_t vecf_fma(vecf_t a, vecf_t b, vecf_t c) { return vfmaq_f32(c, a, b); }
#endif

/* Bytes, for kernels_bytes_vec.h's board_scan (listed in vec.h): lanes of u8. */
#ifndef NNUE_SIMD_VEC_NEON_U8_H
#define NNUE_SIMD_VEC_NEON_U8_H
#define U8(v) vreinterpretq_u8_s32(v)
#define FROMU8(v) vreinterpretq_s32_u8(v)
VEC_FN vec_t vec_set1_u8(uint8_t x) { return FROMU8(vdupq_n_u8(x)); }
VEC_FN vec_t vec_and_u8(vec_t a, vec_t b) { return FROMU8(vandq_u8(U8(a), U8(b))); }
VEC_FN vec_t vec_or_u8(vec_t a, vec_t b) { return FROMU8(vorrq_u8(U8(a), U8(b))); }
VEC_FN vec_t vec_sub_u8(vec_t a, vec_t b) { return FROMU8(vsubq_u8(U8(a), U8(b))); }
VEC_FN vec_t vec_subs_u8(vec_t a, vec_t b) { return FROMU8(vqsubq_u8(U8(a), U8(b))); }
VEC_FN vec_t vec_cmpeq_u8(vec_t a, vec_t b) { return FROMU8(vceqq_u8(U8(a), U8(b))); }
VEC_FN unsigned vec_any_u8(vec_t v) { return vmaxvq_u8(U8(v)) != 0; }
VEC_FN int vec_sum_u8(vec_t v) { return (int)vaddlvq_u8(U8(v)); }
#endif
