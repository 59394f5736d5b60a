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
#include "simd/paired_i8.h"

static inline int32_t nnue_ref_clamp(int32_t v, int32_t max)
{
    return v < 0 ? 0 : v > max ? max : v;
}

/* sum over j < n of x[j] * w[j], wrapping (kernels.h affine_u8_spans' step). */
static inline uint32_t nnue_ref_dot_u8(const uint8_t *x, const int8_t *w, uint32_t n)
{
    uint32_t sum = 0;
    for (uint32_t j = 0; j < n; j++)
        sum += (uint32_t)((int32_t)x[j] * w[j]);
    return sum;
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
            v = (uint16_t)(v - (uint16_t)nnue_paired_value(sub[k], j));
        for (int k = 0; k < n_add; k++)
            v = (uint16_t)(v + (uint16_t)nnue_paired_value(add[k], j));
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
            v = (uint16_t)(v - (uint16_t)nnue_paired_value(r->sub8[k], j));
        for (int k = 0; k < r->n_add8; k++)
            v = (uint16_t)(v + (uint16_t)nnue_paired_value(r->add8[k], j));
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
 * (the low half of layers/affine.c's 64-bit sum: the same value modulo 2^32). */
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

/* --- fused heads (issue 47 item 3) --- */
/* kernels.h affine_i16p: the same sum as nnue_ref_affine_i32 over i16 pair weights
 * w[j / 2][out_pad][j % 2]; each input taken as its low 16 bits, signed (the contract's inputs fit
 * i16, so that is the input itself). */
static inline void nnue_ref_affine_i16p(const int32_t *in, uint32_t n_in, const int16_t *w, const int32_t *bias,
                                        int32_t *out, uint32_t from, uint32_t n_out, uint32_t out_pad)
{
    for (uint32_t o = from; o < n_out; o++) {
        uint32_t sum = (uint32_t)bias[o];
        for (uint32_t j = 0; j < n_in; j++)
            sum += (uint32_t)(int32_t)(int16_t)in[j] * (uint32_t)w[((size_t)(j / 2) * out_pad + o) * 2 + j % 2];
        out[o] = (int32_t)sum;
    }
}

/* kernels.h act_u8: crelu_i32 (bound 0) or sqr_crelu_i32 (bound > 0) of each value as a byte. */
static inline void nnue_ref_act_u8(const int32_t *in, uint8_t *out, uint32_t from, uint32_t n, int shift,
                                   int32_t max, int32_t bound)
{
    for (uint32_t j = from; j < n; j++) {
        int32_t v;
        if (bound > 0)
            nnue_ref_sqr_crelu_i32(in + j, &v, 0, 1, shift, max);
        else
            nnue_ref_crelu_i32(in + j, &v, 0, 1, shift, max);
        out[j] = (uint8_t)v;
    }
}

static inline void nnue_ref_pack_u8(const int32_t *in, uint8_t *out, uint32_t from, uint32_t n, uint32_t n_pad)
{
    for (uint32_t j = from; j < n; j++)
        out[j] = (uint8_t)in[j];
    memset(out + n, 0, n_pad - n);
}

/* --- Byte lists and bit counts for the feature sets (kernels.h list_bytes,
 * board_scan). --- */

/* Bit j set when p[j] != 0, j < 8: the high bit of each nonzero byte, gathered by a multiply. */
static inline uint64_t nnue_ref_nonzero8(const uint8_t *p)
{
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
    uint64_t w;
    memcpy(&w, p, 8);
    uint64_t high = (((w & low7) + low7) | w) & ~low7;
    return ((high >> 7) * 0x0102040810204080ull) >> 56;
}

/* Bit i - first set for each nonzero byte b[i], first <= i < min(n, first + 64) (eight at a time). */
static inline uint64_t nnue_ref_nonzero64(const uint8_t *b, uint32_t first, uint32_t n)
{
    uint32_t end = n - first < 64 ? n : first + 64, j = first;
    uint64_t nz = 0;
    for (; j + 8 <= end; j += 8)
        nz |= nnue_ref_nonzero8(b + j) << (j - first);
    for (; j < end; j++)
        nz |= (uint64_t)(b[j] != 0) << (j - first);
    return nz;
}

/* One entry of list_bytes for byte i (written whether or not it counts; k advances when it does). */
#define NNUE_REF_LIST_ONE                                                                                             \
    do {                                                                                                              \
        int32_t i = (int32_t)first + __builtin_ctzll(nz), t = table[b[i] & 15], c = stride * (b[i] >> 4);          \
        o0[k] = (uint32_t)(a0 + t + c + i);                                                                           \
        o1[k] = (uint32_t)(a1 + t - c - i);                                                                           \
        k += t != 0;                                                                                                  \
    } while (0)

/* list_bytes from byte `from` on, k entries already listed: 64 bytes at a time, their nonzero
 * bytes as a mask (eight at a time), then each one's candidate entries written and k advanced
 * only when its table entry is not 0 (no branch on the byte's kind); the room checked once a
 * block unless the block could reach it. */
static inline int nnue_ref_list_bytes(const uint8_t *b, uint32_t from, uint32_t n, const int32_t *table,
                                      int32_t stride, int32_t a0, int32_t a1, uint32_t *o0, uint32_t *o1, int k,
                                      int room)
{
    for (uint32_t first = from; first < n; first += 64) {
        uint64_t nz = nnue_ref_nonzero64(b, first, n);
        if (k + __builtin_popcountll(nz) <= room)
            for (; nz; nz &= nz - 1)
                NNUE_REF_LIST_ONE;
        else
            for (; nz; nz &= nz - 1) {
                if (k >= room)
                    return k;
                NNUE_REF_LIST_ONE;
            }
    }
    return k;
}

/* list_bytes_map from byte `from` on, k entries already listed: the nonzero bytes of 64 at a time
 * as a mask (eight at a time), then per set bit both entries written and k advanced when the
 * table entry is not 0 (no branch on it). */
static inline int nnue_ref_list_bytes_map(const uint8_t *b, uint32_t from, uint32_t n, const int32_t *table,
                                          const uint8_t *map0, const uint8_t *map1, int32_t a0, int32_t a1,
                                          uint32_t *o0, uint32_t *o1, int k, int room)
{
    for (uint32_t first = from; first < n; first += 64) {
        uint64_t nz = nnue_ref_nonzero64(b, first, n);
        for (; nz; nz &= nz - 1) {
            if (k >= room)
                return k;
            uint32_t i = first + (uint32_t)__builtin_ctzll(nz);
            int32_t t = table[b[i] & 31];
            o0[k] = (uint32_t)(a0 + t + map0[i]);
            o1[k] = (uint32_t)(a1 + table[(b[i] ^ 16) & 31] + map1[i]);
            k += t != 0;
        }
    }
    return k;
}

/* pick_flagged: each entry written, the count advanced by its bit (no branch on it). */
static inline int nnue_ref_pick_flagged(const uint32_t *idx, int n, const uint64_t *bits, uint32_t *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        const uint32_t r = idx[i];
        out[k] = r;
        k += (int)(bits[r / 64] >> (r % 64) & 1);
    }
    return k;
}

/* board_scan over squares[from .. n): the bad-code bits (0 = none) ORed into *bad and the
 * occupied squares added to *count. */
static inline void nnue_ref_board_scan(const uint8_t *sq, uint32_t from, uint32_t n, int max_type, unsigned *bad,
                                       int *count)
{
    unsigned any = 0;
    int c = 0;
    for (uint32_t i = from; i < n; i++) {
        unsigned p = sq[i];
        any |= (p & 0xE0u) | ((p & 15u) > (unsigned)max_type) | (p == 16u);
        c += p != 0;
    }
    *bad |= any;
    *count += c;
}

#endif
