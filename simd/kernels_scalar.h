/* simd/kernels_scalar.h: the scalar definition of the kernels (kernels.h), one value at a time
 * over a range [from, n) of the values. kernels_scalar.c's table is these over the whole range;
 * the vector kernels (kernels_vec.h) run them on what is left after the last whole vector, so a
 * row's tail is computed by the definition itself. Internal to simd/. */
#ifndef NNUE_SIMD_KERNELS_SCALAR_H
#define NNUE_SIMD_KERNELS_SCALAR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "simd/kernels.h"

static inline int32_t nnue_ref_clamp(int32_t v, int32_t max)
{
    return v < 0 ? 0 : v > max ? max : v;
}

static inline void nnue_ref_acc_i16(int16_t *dst, const int16_t *src, const int16_t *const *sub, int n_sub,
                                    const int16_t *const *add, int n_add, uint32_t from, uint32_t n)
{
    for (uint32_t j = from; j < n; j++) {
        uint16_t v = (uint16_t)src[j];
        for (int k = 0; k < n_sub; k++)
            v = (uint16_t)(v - (uint16_t)sub[k][j]);
        for (int k = 0; k < n_add; k++)
            v = (uint16_t)(v + (uint16_t)add[k][j]);
        dst[j] = (int16_t)v;
    }
}

static inline void nnue_ref_acc_i8(int16_t *dst, const int16_t *src, const int8_t *const *sub, int n_sub,
                                   const int8_t *const *add, int n_add, uint32_t from, uint32_t n)
{
    for (uint32_t j = from; j < n; j++) {
        uint16_t v = (uint16_t)src[j];
        for (int k = 0; k < n_sub; k++)
            v = (uint16_t)(v - (uint16_t)(int16_t)sub[k][j]);
        for (int k = 0; k < n_add; k++)
            v = (uint16_t)(v + (uint16_t)(int16_t)add[k][j]);
        dst[j] = (int16_t)v;
    }
}

static inline void nnue_ref_acc_mixed(int16_t *dst, const int16_t *src, const nnue_mixed_rows *r, uint32_t from,
                                      uint32_t n)
{
    for (uint32_t j = from; j < n; j++) {
        uint16_t v = (uint16_t)src[j];
        for (int k = 0; k < r->n_sub16; k++)
            v = (uint16_t)(v - (uint16_t)r->sub16[k][j]);
        for (int k = 0; k < r->n_add16; k++)
            v = (uint16_t)(v + (uint16_t)r->add16[k][j]);
        for (int k = 0; k < r->n_sub8; k++)
            v = (uint16_t)(v - (uint16_t)(int16_t)r->sub8[k][j]);
        for (int k = 0; k < r->n_add8; k++)
            v = (uint16_t)(v + (uint16_t)(int16_t)r->add8[k][j]);
        dst[j] = (int16_t)v;
    }
}

static inline void nnue_ref_acc_i32(int32_t *dst, const int32_t *src, const int32_t *const *sub, int n_sub,
                                    const int32_t *const *add, int n_add, uint32_t from, uint32_t n)
{
    for (uint32_t j = from; j < n; j++) {
        uint32_t v = (uint32_t)src[j];
        for (int k = 0; k < n_sub; k++)
            v -= (uint32_t)sub[k][j];
        for (int k = 0; k < n_add; k++)
            v += (uint32_t)add[k][j];
        dst[j] = (int32_t)v;
    }
}

static inline void nnue_ref_ft_clamp_u8(const int16_t *acc, uint8_t *out, uint32_t from, uint32_t n, int32_t max)
{
    for (uint32_t j = from; j < n; j++)
        out[j] = (uint8_t)nnue_ref_clamp(acc[j], max);
}

static inline void nnue_ref_ft_pairwise_u8(const int16_t *acc, uint8_t *out, uint32_t from, uint32_t half,
                                           int32_t max, int shift)
{
    for (uint32_t j = from; j < half; j++)
        out[j] = (uint8_t)(nnue_ref_clamp(acc[j], max) * nnue_ref_clamp(acc[j + half], max) >> shift);
}

/* Appends the non-zero groups of [from, groups) to idx[count ...]; returns the new count. */
static inline int nnue_ref_nonzero_groups(const uint8_t *in, uint32_t from, uint32_t groups, uint16_t *idx,
                                          int count)
{
    for (uint32_t g = from; g < groups; g++)
        if (in[4 * g] | in[4 * g + 1] | in[4 * g + 2] | in[4 * g + 3])
            idx[count++] = (uint16_t)g;
    return count;
}

/* sum over j in [from, n) of clamp(acc[j], 0, clip)^2 * w[j], exactly. */
static inline int64_t nnue_ref_sq_dot_i16(const int16_t *acc, const int16_t *w, uint32_t from, uint32_t n,
                                          int32_t clip)
{
    int64_t sum = 0;
    for (uint32_t j = from; j < n; j++) {
        int64_t c = nnue_ref_clamp(acc[j], clip);
        sum += c * c * w[j];
    }
    return sum;
}

static inline void nnue_ref_crelu_i32(const int32_t *in, int32_t *out, uint32_t from, uint32_t n, int shift,
                                      int32_t max)
{
    for (uint32_t j = from; j < n; j++)
        out[j] = nnue_ref_clamp(in[j] >> shift, max);
}

static inline void nnue_ref_sqr_crelu_i32(const int32_t *in, int32_t *out, uint32_t from, uint32_t n, int shift,
                                          int32_t max)
{
    for (uint32_t j = from; j < n; j++) {
        int64_t v = (int64_t)in[j] * in[j] >> shift;
        out[j] = (int32_t)(v > max ? max : v);
    }
}

/* out[o] = bias[o] + sum over j < n_in of in[j] * w[j][o], o in [from, n_out), wrapping in 32 bits
 * (the low half of core/layers/affine.c's 64-bit sum: the same value modulo 2^32). */
static inline void nnue_ref_affine_i32(const int32_t *in, uint32_t n_in, const int32_t *w, const int32_t *bias,
                                       int32_t *out, uint32_t from, uint32_t n_out, uint32_t out_pad)
{
    for (uint32_t o = from; o < n_out; o++) {
        uint32_t sum = (uint32_t)bias[o];
        for (uint32_t j = 0; j < n_in; j++)
            sum += (uint32_t)in[j] * (uint32_t)w[(size_t)j * out_pad + o];
        out[o] = (int32_t)sum;
    }
}

static inline void nnue_ref_pack_u8(const int32_t *in, uint8_t *out, uint32_t from, uint32_t n, uint32_t n_pad)
{
    for (uint32_t j = from; j < n; j++)
        out[j] = (uint8_t)in[j];
    memset(out + n, 0, n_pad - n);
}

#endif
