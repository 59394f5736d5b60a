/* simd/kernels_neon.c: the Arm NEON (AArch64 Advanced SIMD) kernel set: every entry of the
 * table but the optional fused tail_32_32_1 (NULL, as on AVX2: the layers run one by one). Bit for
 * bit what kernels_scalar.c computes (tests/simd): i16/i32 wrapping adds, clamps, the pairwise
 * product (at most 65535, so a 16-bit multiply is exact), and the u8 x i8 affine layers with
 * inputs <= 127: vmull_s8 products (<= 16256), pairs summed in i16 (<= 32512, exact), then pairs
 * into the i32 sums (wrapping like the scalar uint32 sums). Prepared layout as in kernels.h: one
 * 16-byte weight vector holds 4 outputs x 4 inputs. Only baseline Armv8-A instructions (no
 * dot-product extension), so no run-time check beyond "this is AArch64". Built only for AArch64,
 * where NEON is always present. */
#include "simd/kernels.h"
#include "simd/nz_table.h"

#if defined(__aarch64__)
#include <arm_neon.h>
#include <string.h>

/* Vector loads and stores of the first m lanes (m = lanes: the plain instruction; fewer, at the
 * end of a row: through a zero-padded 16-byte copy), so every kernel has one loop and no scalar
 * tail. */
static inline uint8x16_t load_bytes(const void *p, size_t bytes)
{
    uint8_t t[16] = {0};
    memcpy(t, p, bytes);
    return vld1q_u8(t);
}

static inline void store_bytes(void *p, uint8x16_t v, size_t bytes)
{
    uint8_t t[16];
    vst1q_u8(t, v);
    memcpy(p, t, bytes);
}

static inline int16x8_t load_s16(const int16_t *p, uint32_t m)
{
    return m == 8 ? vld1q_s16(p) : vreinterpretq_s16_u8(load_bytes(p, m * sizeof *p));
}

static inline int16x8_t load_s8_wide(const int8_t *p, uint32_t m)
{
    return vmovl_s8(m == 8 ? vld1_s8(p) : vget_low_s8(vreinterpretq_s8_u8(load_bytes(p, m))));
}

static inline int32x4_t load_s32(const int32_t *p, uint32_t m)
{
    return m == 4 ? vld1q_s32(p) : vreinterpretq_s32_u8(load_bytes(p, m * sizeof *p));
}

static inline void store_s16(int16_t *p, int16x8_t v, uint32_t m)
{
    m == 8 ? vst1q_s16(p, v) : store_bytes(p, vreinterpretq_u8_s16(v), m * sizeof *p);
}

static inline void store_s32(int32_t *p, int32x4_t v, uint32_t m)
{
    m == 4 ? vst1q_s32(p, v) : store_bytes(p, vreinterpretq_u8_s32(v), m * sizeof *p);
}

static inline void store_u8(uint8_t *p, uint8x8_t v, uint32_t m)
{
    m == 8 ? vst1_u8(p, v) : store_bytes(p, vcombine_u8(v, v), m);
}

static inline uint32_t lanes(uint32_t left, uint32_t width)
{
    return left < width ? left : width;
}

static void acc_i16(int16_t *dst, const int16_t *src, const int16_t *const *sub, int n_sub,
                    const int16_t *const *add, int n_add, uint32_t n)
{
    for (uint32_t j = 0, m; j < n; j += m) {
        m = lanes(n - j, 8);
        int16x8_t v = load_s16(src + j, m);
        for (int k = 0; k < n_sub; k++)
            v = vsubq_s16(v, load_s16(sub[k] + j, m));
        for (int k = 0; k < n_add; k++)
            v = vaddq_s16(v, load_s16(add[k] + j, m));
        store_s16(dst + j, v, m);
    }
}

static void acc_i8(int16_t *dst, const int16_t *src, const int8_t *const *sub, int n_sub, const int8_t *const *add,
                   int n_add, uint32_t n)
{
    for (uint32_t j = 0, m; j < n; j += m) {
        m = lanes(n - j, 8);
        int16x8_t v = load_s16(src + j, m);
        for (int k = 0; k < n_sub; k++)
            v = vsubq_s16(v, load_s8_wide(sub[k] + j, m));
        for (int k = 0; k < n_add; k++)
            v = vaddq_s16(v, load_s8_wide(add[k] + j, m));
        store_s16(dst + j, v, m);
    }
}

static void acc_i32(int32_t *dst, const int32_t *src, const int32_t *const *sub, int n_sub,
                    const int32_t *const *add, int n_add, uint32_t n)
{
    for (uint32_t j = 0, m; j < n; j += m) {
        m = lanes(n - j, 4);
        int32x4_t v = load_s32(src + j, m);
        for (int k = 0; k < n_sub; k++)
            v = vsubq_s32(v, load_s32(sub[k] + j, m));
        for (int k = 0; k < n_add; k++)
            v = vaddq_s32(v, load_s32(add[k] + j, m));
        store_s32(dst + j, v, m);
    }
}

static inline uint16x8_t clamp8(int16x8_t v, int16x8_t max)
{
    return vreinterpretq_u16_s16(vminq_s16(vmaxq_s16(v, vdupq_n_s16(0)), max));
}

static void ft_clamp_u8(const int16_t *acc, uint8_t *out, uint32_t n, int32_t max)
{
    int16x8_t vmax = vdupq_n_s16((int16_t)max);
    for (uint32_t j = 0, m; j < n; j += m) {
        m = lanes(n - j, 8);
        store_u8(out + j, vmovn_u16(clamp8(load_s16(acc + j, m), vmax)), m);
    }
}

static void ft_pairwise_u8(const int16_t *acc, uint8_t *out, uint32_t half, int32_t max, int shift)
{
    int16x8_t vmax = vdupq_n_s16((int16_t)max), right = vdupq_n_s16((int16_t)-shift);
    for (uint32_t j = 0, m; j < half; j += m) {
        m = lanes(half - j, 8);
        uint16x8_t p = vmulq_u16(clamp8(load_s16(acc + j, m), vmax), clamp8(load_s16(acc + j + half, m), vmax));
        store_u8(out + j, vmovn_u16(vshlq_u16(p, right)), m);
    }
}

/* Adds the 4 inputs of group g times the 16 outputs of the block at w (64 bytes) to s[0..3]. */
static inline void group_block(int32x4_t s[4], uint32_t in4, const int8_t *w)
{
    int8x16_t x = vreinterpretq_s8_u32(vdupq_n_u32(in4));
    for (int q = 0; q < 4; q++) {
        int8x16_t wv = vld1q_s8(w + 16 * q);
        int16x8_t lo = vmull_s8(vget_low_s8(x), vget_low_s8(wv));
        int16x8_t hi = vmull_high_s8(x, wv);
        s[q] = vpadalq_s16(s[q], vpaddq_s16(lo, hi));
    }
}

static void block_start(int32x4_t s[4], const int32_t *bias, uint32_t o, uint32_t n_out)
{
    int32_t b[16] = {0};
    memcpy(b, bias + o, (n_out - o < 16 ? n_out - o : 16) * sizeof *b);
    for (int q = 0; q < 4; q++)
        s[q] = vld1q_s32(b + 4 * q);
}

static void block_store(const int32x4_t s[4], int32_t *out, uint32_t o, uint32_t n_out)
{
    int32_t r[16];
    for (int q = 0; q < 4; q++)
        vst1q_s32(r + 4 * q, s[q]);
    memcpy(out + o, r, (n_out - o < 16 ? n_out - o : 16) * sizeof *r);
}

static void affine_u8(const uint8_t *in, uint32_t groups, const int8_t *w, const int32_t *bias, int32_t *out,
                      uint32_t n_out, uint32_t out_pad)
{
    for (uint32_t o = 0; o < n_out; o += NNUE_KERNEL_OUT_BLOCK) {
        int32x4_t s[4];
        block_start(s, bias, o, n_out);
        for (uint32_t g = 0; g < groups; g++) {
            uint32_t in4;
            memcpy(&in4, in + 4 * g, 4);
            if (in4)
                group_block(s, in4, w + ((size_t)g * out_pad + o) * 4);
        }
        block_store(s, out, o, n_out);
    }
}

static void affine_u8_list(const uint8_t *in, const uint16_t *idx, int count, const int8_t *w, const int32_t *bias,
                           int32_t *out, uint32_t n_out, uint32_t out_pad)
{
    for (uint32_t o = 0; o < n_out; o += NNUE_KERNEL_OUT_BLOCK) {
        int32x4_t s[4];
        block_start(s, bias, o, n_out);
        for (int i = 0; i < count; i++) {
            uint32_t in4;
            memcpy(&in4, in + 4 * (uint32_t)idx[i], 4);
            group_block(s, in4, w + ((size_t)idx[i] * out_pad + o) * 4);
        }
        block_store(s, out, o, n_out);
    }
}

/* 8 groups (32 bytes) at a time: a bit per non-zero group, then the positions of the set bits
 * from nnue_nz_table, stored as a whole batch (idx has room for groups + 16 entries). */
static int nonzero_groups(const uint8_t *in, uint32_t groups, uint16_t *idx)
{
    static const uint32_t bits_lo[4] = {1, 2, 4, 8}, bits_hi[4] = {16, 32, 64, 128};
    const uint32x4_t lo_bits = vld1q_u32(bits_lo), hi_bits = vld1q_u32(bits_hi);
    int count = 0;
    uint32_t g = 0;
    for (; g + 8 <= groups; g += 8) {
        uint32x4_t a = vtstq_u32(vld1q_u32((const uint32_t *)(const void *)(in + 4 * g)), vdupq_n_u32(~0u));
        uint32x4_t b = vtstq_u32(vld1q_u32((const uint32_t *)(const void *)(in + 4 * g + 16)), vdupq_n_u32(~0u));
        unsigned nz = vaddvq_u32(vorrq_u32(vandq_u32(a, lo_bits), vandq_u32(b, hi_bits)));
        uint16x8_t pos = vmovl_u8(vld1_u8(nnue_nz_table[nz]));
        vst1q_u16(idx + count, vaddq_u16(pos, vdupq_n_u16((uint16_t)g)));
        count += __builtin_popcount(nz);
    }
    for (; g < groups; g++)
        if (in[4 * g] | in[4 * g + 1] | in[4 * g + 2] | in[4 * g + 3])
            idx[count++] = (uint16_t)g;
    return count;
}

/* See kernels.h. Fast form: t = c * w in i16 (exact when max(c) * wmax <= 32767), t * c summed
 * into i32 lanes (two products per lane per 8 values), widened to i64 before a lane could
 * overflow. Otherwise c * c in i32 (<= 2^30) times w into i64 lanes. A row's last partial
 * vector is zero-padded (c = 0 adds nothing). */
static int64_t sq_dot_i16(const int16_t *acc, const int16_t *w, uint32_t n, int32_t clip, int32_t wmax)
{
    const int16x8_t zero = vdupq_n_s16(0), hi = vdupq_n_s16((int16_t)clip);
    int64_t cmax = clip;
    if (cmax * wmax > 32767) { /* the actual largest activation may still allow the fast form */
        int16x8_t top = zero;
        for (uint32_t j = 0, m; j < n; j += m) {
            m = lanes(n - j, 8);
            top = vmaxq_s16(top, load_s16(acc + j, m));
        }
        cmax = vmaxvq_s16(vminq_s16(top, hi));
    }
    int64x2_t s64 = vdupq_n_s64(0);
    if (cmax * wmax <= 32767) {
        int64_t pair = 2 * cmax * cmax * wmax;
        uint32_t block = pair ? (uint32_t)(INT32_MAX / pair) : 1u << 30; /* >= 1 here */
        for (uint32_t j = 0, m = 0; j < n;) {
            int32x4_t s32 = vdupq_n_s32(0);
            for (uint32_t b = 0; b < block && j < n; b++, j += m) {
                m = lanes(n - j, 8);
                int16x8_t c = vminq_s16(vmaxq_s16(load_s16(acc + j, m), zero), hi);
                int16x8_t t = vmulq_s16(c, load_s16(w + j, m));
                s32 = vmlal_s16(s32, vget_low_s16(t), vget_low_s16(c));
                s32 = vmlal_high_s16(s32, t, c);
            }
            s64 = vpadalq_s32(s64, s32);
        }
    } else {
        for (uint32_t j = 0, m; j < n; j += m) {
            m = lanes(n - j, 8);
            int16x8_t c = vminq_s16(vmaxq_s16(load_s16(acc + j, m), zero), hi);
            int32x4_t wlo = vmovl_s16(vget_low_s16(load_s16(w + j, m))), whi = vmovl_high_s16(load_s16(w + j, m));
            int32x4_t c2lo = vmull_s16(vget_low_s16(c), vget_low_s16(c)), c2hi = vmull_high_s16(c, c);
            s64 = vmlal_s32(s64, vget_low_s32(c2lo), vget_low_s32(wlo));
            s64 = vmlal_high_s32(s64, c2lo, wlo);
            s64 = vmlal_s32(s64, vget_low_s32(c2hi), vget_low_s32(whi));
            s64 = vmlal_high_s32(s64, c2hi, whi);
        }
    }
    return vaddvq_s64(s64);
}

static void crelu_i32(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max)
{
    const int32x4_t right = vdupq_n_s32(-shift), zero = vdupq_n_s32(0), hi = vdupq_n_s32(max);
    for (uint32_t j = 0, m; j < n; j += m) {
        m = lanes(n - j, 4);
        store_s32(out + j, vminq_s32(vmaxq_s32(vshlq_s32(load_s32(in + j, m), right), zero), hi), m);
    }
}

/* |in| capped at bound (INT32_MIN's wrapped absolute value, read unsigned, is capped too), so the
 * square fits 32 unsigned bits and is shifted logically. */
static void sqr_crelu_i32(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max, int32_t bound)
{
    const uint32x4_t b = vdupq_n_u32((uint32_t)bound), hi = vdupq_n_u32((uint32_t)max);
    const int32x4_t right = vdupq_n_s32(-shift);
    for (uint32_t j = 0, m; j < n; j += m) {
        m = lanes(n - j, 4);
        uint32x4_t a = vminq_u32(vreinterpretq_u32_s32(vabsq_s32(load_s32(in + j, m))), b);
        uint32x4_t v = vshlq_u32(vmulq_u32(a, a), right);
        store_s32(out + j, vreinterpretq_s32_u32(vminq_u32(v, hi)), m);
    }
}

/* 16 values at a time narrowed 32 -> 16 -> 8 bits (values are 0..255), then the tail and the
 * zero padding. */
static void pack_u8(const int32_t *in, uint8_t *out, uint32_t n, uint32_t n_pad)
{
    uint32_t j = 0;
    for (; j + 16 <= n; j += 16) {
        const uint32_t *p = (const uint32_t *)(const void *)(in + j);
        uint16x8_t a = vcombine_u16(vmovn_u32(vld1q_u32(p)), vmovn_u32(vld1q_u32(p + 4)));
        uint16x8_t b = vcombine_u16(vmovn_u32(vld1q_u32(p + 8)), vmovn_u32(vld1q_u32(p + 12)));
        vst1q_u8(out + j, vcombine_u8(vmovn_u16(a), vmovn_u16(b)));
    }
    nnue_kernels_scalar.pack_u8(in + j, out + j, n - j, n_pad - j);
}

const nnue_kernels nnue_kernels_neon = {
    NNUE_ISA_NEON, acc_i16, acc_i32, ft_clamp_u8, ft_pairwise_u8, nonzero_groups, affine_u8, affine_u8_list,
    sq_dot_i16, crelu_i32, sqr_crelu_i32, pack_u8, acc_i8, NULL, /* tail_32_32_1: the layers one by one */
    NULL,       /* board_scan: the portable one (NEON, 16 bytes a step) */
};
#endif
