/* simd/kernels_vec.h: the vector kernels, written once against the vector layer (simd/vec.h
 * describes it; simd/vec_<isa>.h defines it per instruction set). Included, not compiled alone,
 * by a file kernels_<isa>.c that first includes its vec_<isa>.h and defines VEC_TABLE (the
 * table's name) and VEC_ISA (its level); the file then holds that set's table. Each kernel walks
 * its rows a whole vector at a time and leaves the rest to the scalar definition
 * (kernels_scalar.h), so it is bit for bit the scalar set for every width; a set with partial
 * vectors (VEC_MASKED, vec.h) does that rest as one masked vector of the same arithmetic, so the
 * short rows of wide vectors do not fall to scalar code. Exactness arguments:
 * i16/i32 adds wrap in both; the pairwise product is at most 65535 and shifted logically; the
 * u8 x i8 dot's contract is vec.h's (inputs <= 127); sq_dot_i16 keeps the scalar sum's every
 * product (see there). */
#include "simd/kernels.h"
#include "simd/kernels_scalar.h"
#include "simd/nz_table.h"

#define VEC_I16 (VEC_BYTES / 2)
#define VEC_I32 (VEC_BYTES / 4)
#define VEC_KERNEL VEC_TARGET static

/* Lanes of a partial vector t (of `width` lanes) that lie within the first m values. */
static inline uint32_t part(uint32_t m, uint32_t t, uint32_t width)
{
    return m <= t * width ? 0 : m - t * width >= width ? width : m - t * width;
}

#include "simd/acc_rows_vec.h"

VEC_TARGET static inline vec_t clamp_i16(vec_t v, vec_t max)
{
    return vec_min_i16(vec_max_i16(v, vec_zero()), max);
}

/* Two vectors of i16 make one vector of bytes: the saturating pack is the clamp at 0 (and at
 * 255), so a max that fits a byte takes one min on the bytes (HalfKP's 127), not two a half. */
VEC_KERNEL void ft_clamp_u8(const int16_t *acc, uint8_t *out, uint32_t n, int32_t max)
{
    const vec_t hi = vec_set1_i16((int16_t)max);
    uint32_t j = 0;
    if (max >= 0 && max <= 255) {
        const vec_t hi8 = vec_set1_i16((int16_t)(uint16_t)(max | max << 8)); /* max in every byte */
        for (; j + 2 * VEC_I16 <= n; j += 2 * VEC_I16)
            vec_store(out + j, vec_min_u8(vec_packus_i16(vec_load(acc + j), vec_load(acc + j + VEC_I16)), hi8));
    }
    for (; j + 2 * VEC_I16 <= n; j += 2 * VEC_I16)
        vec_store(out + j, vec_packus_i16(clamp_i16(vec_load(acc + j), hi), clamp_i16(vec_load(acc + j + VEC_I16), hi)));
#if defined(VEC_MASKED)
    if (j < n) {
        uint32_t m = n - j;
        vec_t a = clamp_i16(vec_load_n_i16(acc + j, part(m, 0, VEC_I16)), hi);
        vec_t b = clamp_i16(vec_load_n_i16(acc + j + VEC_I16, part(m, 1, VEC_I16)), hi);
        vec_store_n_u8(out + j, vec_packus_i16(a, b), m);
        j = n;
    }
#endif
    nnue_ref_ft_clamp_u8(acc, out, j, n, max);
}

VEC_TARGET static inline vec_t pairwise(vec_t a, vec_t b, vec_t hi, int shift)
{
    return vec_srl_i16(vec_mullo_i16(clamp_i16(a, hi), clamp_i16(b, hi)), shift);
}

VEC_KERNEL void ft_pairwise_u8(const int16_t *acc, uint8_t *out, uint32_t half, int32_t max, int shift)
{
    const vec_t hi = vec_set1_i16((int16_t)max);
    uint32_t j = 0;
    for (; j + 2 * VEC_I16 <= half; j += 2 * VEC_I16) {
        vec_t p[2];
        for (int h = 0; h < 2; h++)
            p[h] = pairwise(vec_load(acc + j + VEC_I16 * h), vec_load(acc + half + j + VEC_I16 * h), hi, shift);
        vec_store(out + j, vec_packus_i16(p[0], p[1]));
    }
#if defined(VEC_MASKED)
    if (j < half) {
        uint32_t m = half - j;
        vec_t p[2];
        for (uint32_t h = 0; h < 2; h++) {
            uint32_t k = part(m, h, VEC_I16);
            p[h] = pairwise(vec_load_n_i16(acc + j + VEC_I16 * h, k), vec_load_n_i16(acc + half + j + VEC_I16 * h, k),
                            hi, shift);
        }
        vec_store_n_u8(out + j, vec_packus_i16(p[0], p[1]), m);
        j = half;
    }
#endif
    nnue_ref_ft_pairwise_u8(acc, out, j, half, max, shift);
}

/* A bit per non-zero 4-byte group, 8 groups a step at least (NZ_STEP, a whole number of
 * vectors), then each byte of bits turned into positions by nnue_nz_table and stored as a whole
 * batch of 8 (idx has room for groups + 16 entries), advancing by its popcount. */
#define NZ_STEP (VEC_I32 > 8 ? VEC_I32 : 8)
#ifndef VEC_NZ_BASE /* the base as a number, broadcast by each store */
typedef uint16_t vnz_t;
VEC_TARGET static inline vnz_t vnz_base(uint16_t g) { return g; }
VEC_TARGET static inline vnz_t vnz_next(vnz_t b) { return (vnz_t)(b + 8); }
VEC_TARGET static inline void vec_nz_store8v(uint16_t *dst, const uint8_t *pos, vnz_t b) { vec_nz_store8(dst, pos, b); }
#endif
#if defined(VEC_NZ_COMPRESS)
/* *base: the group numbers of the next 16 bits (advanced by 16 each 16 bits: only the last call
 * of a list may take fewer than 16, bytes 1). */
VEC_TARGET static inline int nz_positions(unsigned nz, uint32_t bytes, vnz_t *base, uint16_t *idx, int count)
{
    for (uint32_t b = 0; b < bytes; b += 2) {
        unsigned bits = nz >> (8 * b) & 0xFFFF;
        vec_nz_compress16(idx + count, bits, *base);
        *base = vnz_next16(*base);
        count += __builtin_popcount(bits);
    }
    return count;
}
#else
/* *base: the group number of the first of the next 8 (advanced by 8 a byte of bits). */
VEC_TARGET static inline int nz_positions(unsigned nz, uint32_t bytes, vnz_t *base, uint16_t *idx, int count)
{
    for (uint32_t b = 0; b < bytes; b++) {
        unsigned byte = nz >> (8 * b) & 0xFF;
        vec_nz_store8v(idx + count, nnue_nz_table[byte], *base);
        *base = vnz_next(*base);
        count += __builtin_popcount(byte);
    }
    return count;
}
#endif

VEC_KERNEL int nonzero_groups(const uint8_t *in, uint32_t groups, uint16_t *idx)
{
    int count = 0;
    uint32_t g = 0;
    vnz_t base = vnz_base(0);
    for (; g + NZ_STEP <= groups; g += NZ_STEP) {
        unsigned nz = 0;
        for (int v = 0; v < NZ_STEP / VEC_I32; v++)
            nz |= vec_nz_mask_i32(vec_load(in + 4 * g + VEC_BYTES * v)) << (VEC_I32 * v);
        count = nz_positions(nz, NZ_STEP / 8, &base, idx, count);
    }
#if defined(VEC_MASKED)
    if (g < groups) { /* the masked lanes read as zero groups */
        uint32_t m = groups - g;
        unsigned nz = 0;
        for (uint32_t v = 0; v < NZ_STEP / VEC_I32; v++)
            nz |= vec_nz_mask_i32(vec_load_n_i32(in + 4 * g + VEC_BYTES * v, part(m, v, VEC_I32))) << (VEC_I32 * v);
        count = nz_positions(nz, (m + 7) / 8, &base, idx, count);
        g = groups;
    }
#endif
    return nnue_ref_nonzero_groups(in, g, groups, idx, count);
}

/* One pass over the input groups (all of them, idx NULL, or the listed ones) for nb blocks of
 * VEC_I32 outputs (up to 4): un groups in flight (VEC_AFFINE_UNROLL, fewer where nb * un would
 * pass the set's VEC_AFFINE_SUMS), so un * nb independent sums hide the latency, and every
 * group's input is broadcast once for all nb blocks (AVX2 ran Stockfish 19's 32 outputs in two
 * passes). Forced inline: with a constant nb and the dense/list choice known, the sums stay in
 * registers (as a separate function clang spilled them, about a third slower). */
#ifndef VEC_DOT_PAIRS
#define VEC_DOT_PAIRS 0 /* vdot_prod16 and vdot_widen (vec.h): the set widens chained groups at once */
#endif
#ifndef VEC_AFFINE_SUMS
#define VEC_AFFINE_SUMS (VEC_AFFINE_BLOCKS * VEC_AFFINE_UNROLL)
#endif
#if VEC_DOT_PAIRS
/* Groups i, i + 1, ... n at a time (n = 2, 4 or 8), un such runs in flight: each output's
 * products of the n groups added in its i16 lanes, then widened into the sums once (run() below:
 * where the weights allow it; 1 + 1/n multiplies a group and output vector where vdot_add takes
 * 2). Returns where it stopped. */
VEC_TARGET static inline __attribute__((always_inline)) size_t chained(const uint8_t *in, const uint16_t *idx, size_t i,
                                                                       uint32_t count, const int8_t *wb, size_t stride,
                                                                       const int nb, vdot_t s[][4], const int n,
                                                                       const int un)
{
    for (; i + (size_t)n * (size_t)un <= count; i += (size_t)n * (size_t)un)
        for (int u = 0; u < un; u++) {
            vec_t x[NNUE_CHAIN_MAX];
            const int8_t *w[NNUE_CHAIN_MAX];
            for (int c = 0; c < n; c++) {
                size_t g = idx ? idx[i + (size_t)(n * u + c)] : i + (size_t)(n * u + c);
                x[c] = vdot_input(in + 4 * g);
                w[c] = wb + g * stride;
            }
            for (int b = 0; b < nb; b++) {
                vec_t p = vdot_prod16(x[0], w[0] + VEC_BYTES * b);
                for (int c = 1; c < n; c++)
                    p = vec_add_i16(p, vdot_prod16(x[c], w[c] + VEC_BYTES * b));
                s[u][b] = vdot_widen(s[u][b], p);
            }
        }
    return i;
}
#endif

/* chain: how many groups the weights let share an i16 lane (1, 2, 4 or 8); chains: a constant,
 * the chain lengths this call compiles (CHAIN_* bits: the loops cost code and, where the list is
 * short, instructions). */
enum { CHAIN_2 = 2, CHAIN_4 = 4, CHAIN_8 = 8 };
VEC_TARGET static inline __attribute__((always_inline)) void
pass(const uint8_t *in, const uint16_t *idx, uint32_t count, const int8_t *wb, size_t stride, const int nb, vec_t *res,
     int chain, const int chains)
{
    const int un = VEC_AFFINE_SUMS / nb >= VEC_AFFINE_UNROLL ? VEC_AFFINE_UNROLL
                   : VEC_AFFINE_SUMS / nb >= 1               ? VEC_AFFINE_SUMS / nb
                                                             : 1;
    vdot_t s[VEC_AFFINE_UNROLL][4];
    for (int u = 0; u < un; u++)
        for (int b = 0; b < nb; b++)
            s[u][b] = vdot_zero();
    size_t i = 0;
#if VEC_DOT_PAIRS
    /* eight or four groups a sum into the first sums (each add waits on n multiplies), then two */
    if ((chains & CHAIN_8) && chain >= 8)
        i = chained(in, idx, i, count, wb, stride, nb, s, 8, 1);
    if ((chains & CHAIN_4) && chain >= 4)
        i = chained(in, idx, i, count, wb, stride, nb, s, 4, 1);
    if ((chains & CHAIN_2) && chain >= 2)
        i = chained(in, idx, i, count, wb, stride, nb, s, 2, un);
#else
    (void)chain;
    (void)chains;
#endif
    for (; i + (uint32_t)un <= count; i += (uint32_t)un)
        for (int u = 0; u < un; u++) {
            size_t g = idx ? idx[i + u] : i + u;
            vec_t x = vdot_input(in + 4 * g);
            for (int b = 0; b < nb; b++)
                s[u][b] = vdot_add(s[u][b], x, wb + g * stride + VEC_BYTES * b);
        }
    for (; i < count; i++) {
        size_t g = idx ? idx[i] : i;
        vec_t x = vdot_input(in + 4 * g);
        for (int b = 0; b < nb; b++)
            s[0][b] = vdot_add(s[0][b], x, wb + g * stride + VEC_BYTES * b);
    }
    for (int b = 0; b < nb; b++) {
        res[b] = vdot_sum(s[0][b]);
        for (int u = 1; u < un; u++)
            res[b] = vec_add_i32(res[b], vdot_sum(s[u][b]));
    }
}

/* out[o .. o + VEC_I32) = sum + bias, the outputs past n_out left alone. */
VEC_TARGET static inline void finish(vec_t sum, const int32_t *bias, int32_t *out, uint32_t o, uint32_t n_out)
{
    if (o + VEC_I32 <= n_out) {
        vec_store(out + o, vec_add_i32(sum, vec_load(bias + o)));
    } else {
#if defined(VEC_MASKED)
        uint32_t m = n_out - o;
        vec_store_n_i32(out + o, vec_add_i32(sum, vec_load_n_i32(bias + o, m)), m);
#else
        int32_t tmp[VEC_I32];
        vec_store(tmp, sum);
        for (uint32_t k = 0; o + k < n_out; k++)
            out[o + k] = (int32_t)((uint32_t)tmp[k] + (uint32_t)bias[o + k]);
#endif
    }
}

#define PASS(k) pass(in, idx, count, wb, stride, (k), res, chain, chains)
/* pairs: the pairs word of kernels.h (read by affine_u8, affine_u8_list, head_u8_fc0 and
 * fc0_tail_32_32_1; bit k: outputs 16k .. 16k + 15 may sum two groups in an i16 lane, bit
 * NNUE_QUADS_SHIFT + k four, NNUE_EIGHTS_SHIFT + k eight); a pass sums as many as every one of its
 * outputs may, of the chains (CHAIN_* bits, a constant) the call site compiles. */
VEC_TARGET static inline __attribute__((always_inline)) void run(const uint8_t *in, const uint16_t *idx, uint32_t count,
                                                                 const int8_t *w, const int32_t *bias, int32_t *out,
                                                                 uint32_t n_out, uint32_t out_pad, uint32_t pairs,
                                                                 const int chains)
{
    size_t stride = (size_t)out_pad * 4;
    vec_t res[4];
    for (uint32_t o = 0; o < n_out;) {
        uint32_t left = (n_out - o + VEC_I32 - 1) / VEC_I32;
        int nb = left >= 4 ? 4 : (int)left;
        const int8_t *wb = w + (size_t)o * 4;
        uint32_t first = o / NNUE_KERNEL_OUT_BLOCK, last = (o + (uint32_t)nb * VEC_I32 - 1) / NNUE_KERNEL_OUT_BLOCK;
        /* the blocks' bits (last < NNUE_CHAIN_BLOCKS: no shift past the word) */
        uint32_t need = last < NNUE_CHAIN_BLOCKS ? ((2u << last) - 1) & ~((1u << first) - 1) : 0;
        int chain = !pairs || !need || (pairs & need) != need                          ? 1
                    : (chains & CHAIN_8) && (pairs >> NNUE_EIGHTS_SHIFT & need) == need ? 8
                    : (chains & CHAIN_4) && (pairs >> NNUE_QUADS_SHIFT & need) == need  ? 4
                                                                                        : 2;
        switch (nb) { /* constant block counts, so the sums stay in registers */
        case 4: PASS(4); break;
        case 3: PASS(3); break;
        case 2: PASS(2); break;
        default: PASS(1); break;
        }
        for (int b = 0; b < nb; b++, o += VEC_I32)
            finish(res[b], bias, out, o, n_out);
    }
}

/* The chains the plain affine kernels compile, dense and listed alike (callgrind, AVX2):
 * PlentyChess's and Reckless's 16-output fc0 prove eights, Stormphrax's 32-output one fours,
 * Viridithas's pairs. */
#define AFFINE_CHAINS (CHAIN_2 | CHAIN_4 | CHAIN_8)

VEC_KERNEL void affine_u8(const uint8_t *in, uint32_t groups, const int8_t *w, const int32_t *bias, int32_t *out,
                          uint32_t n_out, uint32_t out_pad, uint32_t pairs)
{
    run(in, NULL, groups, w, bias, out, n_out, out_pad, pairs, AFFINE_CHAINS);
}

VEC_KERNEL void affine_u8_list(const uint8_t *in, const uint16_t *idx, int count, const int8_t *w,
                               const int32_t *bias, int32_t *out, uint32_t n_out, uint32_t out_pad, uint32_t pairs)
{
    run(in, idx, (uint32_t)count, w, bias, out, n_out, out_pad, pairs, AFFINE_CHAINS);
}

/* kernels.h affine_i32: input-major weights, so each input is one broadcast times whole output
 * vectors (no horizontal sums); up to VEC_AFFINE_BLOCKS output vectors per pass. vec_mullo_i32
 * keeps the low 32 bits of each product, which is all the wrapping sum needs. */
VEC_TARGET static inline __attribute__((always_inline)) void
pass_bcast(const int32_t *in, uint32_t n_in, const int8_t *w, uint32_t out_pad, const int nb, const int madd, vec_t *res)
{
    /* w: rows of out_pad * 4 bytes (out_pad int32 weights, or out_pad pairs of i16: affine_i16p) */
    for (int b = 0; b < nb; b++)
        res[b] = vec_zero();
    for (uint32_t j = 0; j < n_in; j++) {
        vec_t x = vec_set1_i32(in[j]);
        for (int b = 0; b < nb; b++) {
            vec_t wv = vec_load(w + ((size_t)j * out_pad + VEC_I32 * b) * 4);
            res[b] = vec_add_i32(res[b], madd ? vec_madd_i16(x, wv) : vec_mullo_i32(x, wv));
        }
    }
}

VEC_KERNEL void affine_i32(const int32_t *in, uint32_t n_in, const int32_t *w, const int32_t *bias, int32_t *out,
                           uint32_t n_out, uint32_t out_pad)
{
    if (out_pad == 1) { /* one output, its row as stored: a dot product, summed across lanes once */
        vec_t s = vec_zero();
        uint32_t j = 0;
        for (; j + VEC_I32 <= n_in; j += VEC_I32)
            s = vec_add_i32(s, vec_mullo_i32(vec_load(in + j), vec_load(w + j)));
        int32_t t[VEC_I32];
        vec_store(t, s);
        uint32_t sum = 0;
        for (int k = 0; k < VEC_I32; k++)
            sum += (uint32_t)t[k];
        nnue_ref_affine_i32(in + j, n_in - j, w + j, bias, out, 0, 1, 1);
        out[0] = (int32_t)((uint32_t)out[0] + sum);
        return;
    }
    vec_t res[VEC_AFFINE_BLOCKS];
    for (uint32_t o = 0; o < n_out;) { /* out_pad is a whole number of vectors: no partial loads */
        uint32_t left = (n_out - o + VEC_I32 - 1) / VEC_I32;
        int nb = left >= VEC_AFFINE_BLOCKS ? VEC_AFFINE_BLOCKS : (int)left;
        switch (nb) { /* constant block counts, so the sums stay in registers */
        case 4: pass_bcast(in, n_in, (const int8_t *)(w + o), out_pad, 4 <= VEC_AFFINE_BLOCKS ? 4 : 1, 0, res); break;
        case 3: pass_bcast(in, n_in, (const int8_t *)(w + o), out_pad, 3 <= VEC_AFFINE_BLOCKS ? 3 : 1, 0, res); break;
        case 2: pass_bcast(in, n_in, (const int8_t *)(w + o), out_pad, 2, 0, res); break;
        default: pass_bcast(in, n_in, (const int8_t *)(w + o), out_pad, 1, 0, res); break;
        }
        for (int b = 0; b < nb; b++, o += VEC_I32)
            finish(res[b], bias, out, o, n_out);
    }
}

/* See kernels.h. Fast form: t = c * w in i16 and t * c pairs summed in i32 (vec_madd_i16),
 * exact when max(c) * wmax <= 32767; the i32 lanes are widened into i64 ones before they could
 * overflow (a lane takes 2 products a vector). Otherwise every c * c (<= 2^30) times w in i64. */
VEC_KERNEL int64_t sq_dot_i16(const int16_t *acc, const int16_t *w, uint32_t n, int32_t clip, int32_t wmax)
{
    const vec_t hi = vec_set1_i16((int16_t)clip);
    uint32_t vec_n = n / VEC_I16 * VEC_I16;
    int64_t cmax = clip;
    if (cmax * wmax > 32767) { /* the actual largest activation may still allow the fast form */
        vec_t m = vec_zero();
        for (uint32_t j = 0; j < vec_n; j += VEC_I16)
            m = vec_max_i16(m, vec_load(acc + j));
        int16_t t[VEC_I16];
        vec_store(t, vec_min_i16(m, hi));
        cmax = 0;
        for (int k = 0; k < VEC_I16; k++)
            cmax = t[k] > cmax ? t[k] : cmax;
    }
    vec_t s64 = vec_zero();
    if (cmax * wmax <= 32767) {
        int64_t pair = 2 * cmax * cmax * wmax;
        uint32_t block = pair ? (uint32_t)(INT32_MAX / pair) : 1u << 30; /* >= 1 here */
        for (uint32_t j = 0; j < vec_n;) {
            vec_t s32 = vec_zero();
            for (uint32_t b = 0; b < block && j < vec_n; b++, j += VEC_I16) {
                vec_t c = clamp_i16(vec_load(acc + j), hi);
                s32 = vec_add_i32(s32, vec_madd_i16(vec_mullo_i16(c, vec_load(w + j)), c));
            }
            s64 = vec_widen_add_i64(s64, s32);
        }
    } else {
        const vec_t hi32 = vec_set1_i32(clip);
        for (uint32_t j = 0; j < vec_n; j += VEC_I32) {
            vec_t c = vec_min_i32(vec_max_i32(vec_load_i16_i32(acc + j), vec_zero()), hi32);
            s64 = vec_dot_i32_i64(s64, vec_mullo_i32(c, c), vec_load_i16_i32(w + j));
        }
    }
    int64_t t[VEC_BYTES / 8], sum = 0;
    vec_store(t, s64);
    for (int k = 0; k < VEC_BYTES / 8; k++)
        sum += t[k];
    return sum + nnue_ref_sq_dot_i16(acc, w, vec_n, n, clip);
}

VEC_TARGET static inline vec_t crelu(vec_t v, int shift, vec_t hi)
{
    return vec_min_i32(vec_max_i32(vec_sra_i32(v, shift), vec_zero()), hi);
}

VEC_KERNEL void crelu_i32(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max)
{
    const vec_t hi = vec_set1_i32(max);
    uint32_t j = 0;
    for (; j + VEC_I32 <= n; j += VEC_I32)
        vec_store(out + j, crelu(vec_load(in + j), shift, hi));
#if defined(VEC_MASKED)
    if (j < n) {
        vec_store_n_i32(out + j, crelu(vec_load_n_i32(in + j, n - j), shift, hi), n - j);
        j = n;
    }
#endif
    nnue_ref_crelu_i32(in, out, j, n, shift, max);
}

/* |in| capped at bound (INT32_MIN's wrapped absolute value, read unsigned, is capped too), so
 * the square fits 32 unsigned bits and is shifted logically. */
VEC_TARGET static inline vec_t sqr_crelu(vec_t v, int shift, vec_t hi, vec_t bound)
{
    vec_t a = vec_min_u32(vec_abs_i32(v), bound);
    return vec_min_i32(vec_srl_i32(vec_mullo_i32(a, a), shift), hi);
}

VEC_KERNEL void sqr_crelu_i32(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max, int32_t bound)
{
    const vec_t b = vec_set1_i32(bound), hi = vec_set1_i32(max);
    uint32_t j = 0;
    for (; j + VEC_I32 <= n; j += VEC_I32)
        vec_store(out + j, sqr_crelu(vec_load(in + j), shift, hi, b));
#if defined(VEC_MASKED)
    if (j < n) {
        vec_store_n_i32(out + j, sqr_crelu(vec_load_n_i32(in + j, n - j), shift, hi, b), n - j);
        j = n;
    }
#endif
    nnue_ref_sqr_crelu_i32(in, out, j, n, shift, max);
}

/* Four vectors of i32 (values 0..255) narrowed to one of bytes. */
VEC_KERNEL void pack_u8(const int32_t *in, uint8_t *out, uint32_t n, uint32_t n_pad)
{
    uint32_t j = 0;
    for (; j + VEC_BYTES <= n; j += VEC_BYTES) {
        vec_t lo = vec_packus_i32(vec_load(in + j), vec_load(in + j + VEC_I32));
        vec_t hi = vec_packus_i32(vec_load(in + j + 2 * VEC_I32), vec_load(in + j + 3 * VEC_I32));
        vec_store(out + j, vec_packus_i16(lo, hi));
    }
#if defined(VEC_MASKED)
    /* Small layers (15..32 outputs) on 64-byte vectors take only this: a vector of i32 at a time
     * narrowed by truncation, the same bytes as the saturating packs for values 0..255. */
    for (uint32_t m = n - j, t = 0; VEC_I32 * t < m; t++) {
        uint32_t k = part(m, t, VEC_I32);
        vec_store_n_i32_u8(out + j + VEC_I32 * t, vec_load_n_i32(in + j + VEC_I32 * t, k), k);
    }
    j = n;
#endif
    nnue_ref_pack_u8(in, out, j, n, n_pad);
}

/* --- fused heads (issue 47 item 3) --- */
/* kernels.h affine_i16p: the inputs packed once as i16 pairs (one i32 each, the low halves: the
 * contract's inputs fit i16), then pass_bcast with vec_madd_i16: per pair one broadcast times
 * whole output vectors of pair weights, both products a lane. */
VEC_KERNEL void affine_i16p(const int32_t *in, uint32_t n_in, const int16_t *w, const int32_t *bias, int32_t *out,
                            uint32_t n_out, uint32_t out_pad)
{
    enum { MAX_PAIRS = 512 };
    int32_t pairs[MAX_PAIRS];
    uint32_t n_pairs = (n_in + 1) / 2;
    if (n_pairs > MAX_PAIRS) { /* beyond the small layers this is for: the definition */
        nnue_ref_affine_i16p(in, n_in, w, bias, out, 0, n_out, out_pad);
        return;
    }
    for (uint32_t p = 0; p < n_in / 2; p++)
        pairs[p] = (int32_t)((uint32_t)(uint16_t)in[2 * p] | (uint32_t)(uint16_t)in[2 * p + 1] << 16);
    if (n_in % 2)
        pairs[n_in / 2] = (int32_t)(uint32_t)(uint16_t)in[n_in - 1];
    /* Up to 8 output vectors a pass (one sum each, no unrolled copies: 8 sums and the broadcast
     * fit 16 registers), so AVX2 reads the pairs once for Stormphrax's 64 outputs. */
    vec_t res[8];
    for (uint32_t o = 0; o < n_out;) { /* out_pad is a whole number of vectors: no partial loads */
        uint32_t left = (n_out - o + VEC_I32 - 1) / VEC_I32;
        int nb = left >= 8 ? 8 : left >= 4 ? 4 : left >= 2 ? 2 : 1;
        const int8_t *wo = (const int8_t *)(w + (size_t)o * 2);
        if (nb == 8) /* constant block counts, so the sums stay in registers */
            pass_bcast(pairs, n_pairs, wo, out_pad, 8, 1, res);
        else if (nb == 4)
            pass_bcast(pairs, n_pairs, wo, out_pad, 4, 1, res);
        else if (nb == 2)
            pass_bcast(pairs, n_pairs, wo, out_pad, 2, 1, res);
        else
            pass_bcast(pairs, n_pairs, wo, out_pad, 1, 1, res);
        for (int b = 0; b < nb; b++, o += VEC_I32)
            finish(res[b], bias, out, o, n_out);
    }
}

/* kernels.h act_u8: a vector of i32 at a time through crelu or sqr_crelu (the kernels' own
 * helpers above), narrowed to its bytes in order by the saturating packs (values 0..127: the same
 * bytes) and stored as a whole vector, the next step overwriting the bytes past its lanes; with
 * partial vectors the last one masked on both sides, else whole (the contract lets it read past n). */
VEC_TARGET static inline vec_t act_vec(vec_t v, int shift, vec_t hi, vec_t bound, int sqr)
{
    return sqr ? sqr_crelu(v, shift, hi, bound) : crelu(v, shift, hi);
}

VEC_TARGET static inline __attribute__((always_inline)) void act_bytes(const int32_t *in, uint8_t *out, uint32_t n,
                                                                       int shift, int32_t max, int32_t bound)
{
    const vec_t hi = vec_set1_i32(max), b = vec_set1_i32(bound);
    int sqr = bound > 0;
    uint32_t j = 0;
#if defined(VEC_MASKED)
    for (; j + VEC_I32 <= n; j += VEC_I32)
        vec_store_n_i32_u8(out + j, act_vec(vec_load(in + j), shift, hi, b, sqr), VEC_I32);
    if (j < n)
        vec_store_n_i32_u8(out + j, act_vec(vec_load_n_i32(in + j, n - j), shift, hi, b, sqr), n - j);
#else
    for (; j < n; j += VEC_I32) {
        vec_t v = act_vec(vec_load(in + j), shift, hi, b, sqr);
        vec_t w = vec_packus_i32(v, v);
        vec_store(out + j, vec_packus_i16(w, w));
    }
#endif
}

VEC_KERNEL void act_u8(const int32_t *in, uint8_t *out, uint32_t n, int shift, int32_t max, int32_t bound)
{
    act_bytes(in, out, n, shift, max, bound);
}

#ifndef VEC_TAIL_32_32_1
#define VEC_TAIL_32_32_1 NULL /* the layers one by one */
#define VEC_FC0_TAIL_32_32_1 NULL
#else
/* fc0's 32 sums stay in this frame: the tail reads them as they were just stored (HalfKP's
 * forward pass: the walk between the layers and a call were ~7% of an incremental evaluation). */
VEC_KERNEL int32_t fc0_tail_32_32_1(const uint8_t *in, uint32_t groups, uint32_t pairs, const int8_t *w0,
                                    const int32_t *b0, int s1, int32_t m1, const int8_t *w1, const int32_t *b1, int s2,
                                    int32_t m2, const int8_t *w2, const int32_t *b2)
{
    int32_t o0[32] __attribute__((aligned(64)));
    run(in, NULL, groups, w0, b0, o0, 32, 32, pairs, CHAIN_2 | CHAIN_4 | CHAIN_8);
    return VEC_TAIL_32_32_1(o0, s1, m1, w1, b1, s2, m2, w2, b2);
}
#define VEC_FC0_TAIL_32_32_1 fc0_tail_32_32_1
#endif

#include "simd/kernels_bytes_vec.h"
#include "simd/acc_sum_vec.h"
#if defined(VEC_HEAD_TAIL) /* the set's own head after fc0, all in registers (head_u8_vec.h takes it) */
#include VEC_HEAD_TAIL
#endif
#include "simd/head_u8_vec.h"
#include "simd/affine_spans_vec.h"

const nnue_kernels VEC_TABLE = {
    VEC_ISA, acc_i16, acc_i32, ft_clamp_u8, ft_pairwise_u8, nonzero_groups, affine_u8, affine_u8_list,
    sq_dot_i16, crelu_i32, sqr_crelu_i32, pack_u8, acc_i8, VEC_TAIL_32_32_1, VEC_FC0_TAIL_32_32_1, VEC_BOARD_SCAN,
    affine_i32,
    affine_i16p, act_u8, /* fused heads (issue 47 item 3) */
    VEC_LIST_BYTES,
    acc_mixed, /* one pass per perspective update (issue 46 item 2) */
    acc_sum,   /* refresh in one pass (issue 46 item 5) */
    head_u8,   /* the SFNN head after fc0 in one call (issues 47/48) */
    ft_pairwise_nz,
    affine_u8_spans, /* output-major layers with few outputs */
    head_u8_fc0, /* fc0 in the head too (issue 46) */
    VEC_LIST_BYTES_MAP,
};
