/* simd/kernels.h: the SIMD kernel sets, one const table per instruction-set level.
 *
 * Every table computes exactly what the scalar table computes (kernels_scalar.c), bit for
 * bit, for every input the contract below allows; tests/simd checks this for each level the
 * CPU has. Each ISA file is compiled with per-function target attributes, so the library
 * still runs on any x86-64 and only the table for nnue_isa_current() (or a test's choice) is
 * ever called.
 *
 * Prepared affine layout ("u8 x i8" layers, built once per net by layers/plan.c):
 *   weights [groups][out_pad][4] i8, where group g holds inputs 4g..4g+3 and out_pad is the
 *   output count rounded up to NNUE_KERNEL_OUT_BLOCK (NNUE_NARROW_OUT_PAD for a layer of 8
 *   outputs reading the network input: 8); padding inputs and outputs are zero.
 *   One broadcast 4-byte input chunk then multiplies a whole block of outputs at once. */
#ifndef NNUE_SIMD_KERNELS_H
#define NNUE_SIMD_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "base/isa.h"

#define NNUE_KERNEL_OUT_BLOCK 16   /* outputs per prepared block (one 512-bit i32 vector) */
/* The pairs word of the u8 x i8 kernels (affine_u8, affine_u8_list, head_u8_fc0, fc0_tail_32_32_1;
 * layers/plan_pairs.h): bit k (k < NNUE_CHAIN_BLOCKS) when outputs 16k .. 16k + 15 may add two
 * different input groups' products in one i16 lane before widening them, bit NNUE_QUADS_SHIFT + k
 * when they may add four, bit NNUE_EIGHTS_SHIFT + k eight (NNUE_CHAIN_MAX); 0 = never. The fields
 * nest (eight implies four implies two): a kernel that chains eight runs its rest by fours
 * without reading the quads' bits. */
#define NNUE_CHAIN_BLOCKS 10
#define NNUE_QUADS_SHIFT 10
#define NNUE_EIGHTS_SHIFT 20
#define NNUE_CHAIN_MAX 8
/* out_pad of a layer of 8 outputs reading the network input (YaneuraOu's fc0): 8, not a block of
 * 16, so that a group's weights are 32 bytes where half of 64 were zeros (AVX2 reads one vector a
 * group; the fc0 weights of a net of 4,608 stacks halve). A kernel reading 16 outputs a vector
 * (AVX-512) reads the next group's weights into the lanes it drops; layers/plan.c leaves
 * NNUE_NARROW_SLACK bytes after the last group for it. */
#define NNUE_NARROW_OUT_PAD 8
#define NNUE_NARROW_SLACK 64
/* fc0's out_pad in head_u8_fc0: its n0 outputs (8, 16 or 32). */
#define NNUE_HEAD_FC0_PAD(n0) (n0)

/* The weight rows of one accumulator update that spans feature sets of both kinds (acc_mixed):
 * i16 rows and i8 rows (sign-extended), each subtracted or added. When buckets > 0, also their
 * PSQT rows: psub[0 .. n_sub16 + n_sub8) subtracted, padd[0 .. n_add16 + n_add8) added, from
 * psqt_src into psqt_dst (buckets i32 values; any order of rows, the sums wrap). */
typedef struct nnue_mixed_rows {
    const int16_t *const *sub16, *const *add16;
    const int8_t *const *sub8, *const *add8;
    int n_sub16, n_add16, n_sub8, n_add8;
    const int32_t *const *psub, *const *padd;
    int32_t *psqt_dst;
    const int32_t *psqt_src;
    uint32_t buckets;
} nnue_mixed_rows;

/* One feature set's share of a refresh (acc_sum): the rows idx[0 .. n) of a table of rows `width`
 * values long (row r at rows + r * width values: i16, or i8 paired as for acc_i8 when i8 is set) and
 * their PSQT rows (row r at psqt + r * buckets i32 values; psqt NULL: the set adds none).
 * flags (i8 parts only; NULL: none): the rows whose bit r is set (word r / 64) are also listed, in
 * order, into flagged (room for n) and counted in *n_flagged: the rows the caller follows up (a
 * narrowed row's patches) picked while the rows are added, where a pass of its own before the sum
 * waited on the bits (docs/speed.md). */
typedef struct nnue_sum_part {
    const void *rows;
    const int32_t *psqt;
    const uint32_t *idx;
    int n;
    int i8;
    const uint64_t *flags;
    uint32_t *flagged;
    int *n_flagged;
} nnue_sum_part;

/* The two small u8 layers of an SFNN head after fc0 (kernels.h head_u8, layers/plan_head.c):
 * fc1's input is sqr_crelu(x[0 .. m0)) bytes then crelu(x[0 .. m0)) bytes (zeros to the whole
 * group), fc1 has n1 outputs (32, or 64 as YaneuraOu's generated L3 = 64 nets); fc2's input is
 * fc1's input bytes (fc2_all) or nothing, then sqr_crelu(fc1) bytes when sq1[2] (its bound) > 0,
 * then crelu(fc1) bytes; fc2 has 1 output.
 * Activation parameters as act_u8's: {shift, max, bound} and {shift, max}. */
typedef struct nnue_head_u8 {
    uint32_t m0;        /* 1..32 */
    uint32_t fc2_all;
    uint32_t n0;        /* head_u8_fc0: fc0's outputs (8, 16 or 32; out_pad NNUE_HEAD_FC0_PAD(n0)); x is fc0's first m0 */
    uint32_t n1;        /* fc1's outputs and out_pad: 32 or 64 */
    int32_t sq0[3], cr0[2], sq1[3], cr1[2];
} nnue_head_u8;

typedef struct nnue_kernels {
    nnue_isa isa;
    /* dst[j] = src[j] - sum(sub[k][j]) + sum(add[k][j]), j < n, i16 wrapping. dst may be src. */
    void (*acc_i16)(int16_t *dst, const int16_t *src, const int16_t *const *sub, int n_sub,
                    const int16_t *const *add, int n_add, uint32_t n);
    /* The same on i32 values (PSQT), wrapping. */
    void (*acc_i32)(int32_t *dst, const int32_t *src, const int32_t *const *sub, int n_sub,
                    const int32_t *const *add, int n_add, uint32_t n);
    /* out[j] = clamp(acc[j], 0, max), j < n; max <= 255. */
    void (*ft_clamp_u8)(const int16_t *acc, uint8_t *out, uint32_t n, int32_t max);
    /* out[j] = clamp(acc[j], 0, max) * clamp(acc[j + half], 0, max) >> shift, j < half;
     * max * max <= 65535 (the product's low 16 bits, shifted logically) and (max * max) >> shift
     * <= 255 (SFNNv10: max 255, shift 9). */
    void (*ft_pairwise_u8)(const int16_t *acc, uint8_t *out, uint32_t half, int32_t max, int shift);
    /* Indices of the 4-byte groups of in[0 .. 4 * groups) that are not all zero, ascending.
     * Returns their count. idx must have room for groups + 16 entries (batches are stored
     * whole; entries past the count are scratch). */
    int (*nonzero_groups)(const uint8_t *in, uint32_t groups, uint16_t *idx);
    /* out[o] = bias[o] + sum over groups g < groups, k < 4 of in[4g + k] * w[g][o][k], o < n_out;
     * in values <= 127 (so that pairwise i16 sums cannot saturate), out_pad as above. pairs: the
     * pairs word (NNUE_QUADS_SHIFT above) proven for w and the inputs' bound, or 0. */
    void (*affine_u8)(const uint8_t *in, uint32_t groups, const int8_t *w, const int32_t *bias, int32_t *out,
                      uint32_t n_out, uint32_t out_pad, uint32_t pairs);
    /* The same over the listed groups only (the others must be zero). */
    void (*affine_u8_list)(const uint8_t *in, const uint16_t *idx, int count, const int8_t *w,
                           const int32_t *bias, int32_t *out, uint32_t n_out, uint32_t out_pad, uint32_t pairs);
    /* sum over j < n of c[j] * c[j] * w[j] where c[j] = clamp(acc[j], 0, clip), exactly (int64).
     * wmax: an upper bound of |w[j]| (lets kernels use i16/i32 products when they are exact). */
    int64_t (*sq_dot_i16)(const int16_t *acc, const int16_t *w, uint32_t n, int32_t clip, int32_t wmax);
    /* Small inner layers on int32 values, n values (see layers/crelu.c, sqr_crelu.c):
     * out = clamp(in >> shift, 0, max); out = min(max, in * in >> shift) where `bound` is any
     * a <= 46340 with (a * a) >> shift >= max (lets |in| be capped so squares fit 32 bits). */
    void (*crelu_i32)(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max);
    void (*sqr_crelu_i32)(const int32_t *in, int32_t *out, uint32_t n, int shift, int32_t max, int32_t bound);
    /* out[j] = in[j] for j < n (values 0..255), then zeros up to n_pad >= n; out has room for
     * n_pad bytes and for n rounded up to a multiple of 16. */
    void (*pack_u8)(const int32_t *in, uint8_t *out, uint32_t n, uint32_t n_pad);
    /* acc_i16 with i8 rows (Full_Threats, narrowed sets): each row's values read as i16, i16
     * wrapping. Every i8 row the kernels take (here, acc_mixed's sub8/add8, acc_sum's i8 parts)
     * is in the paired byte order of simd/paired_i8.h, and its width (n) a multiple of 64. */
    void (*acc_i8)(int16_t *dst, const int16_t *src, const int8_t *const *sub, int n_sub,
                   const int8_t *const *add, int n_add, uint32_t n);
    /* Optional (NULL: the layers one by one). The classic small tail (HalfKP 256x2-32-32) in
     * one call, every value kept in registers: h = crelu(in[0..32), s1, m1) as bytes,
     * o = b1 + W1 h (32 outputs, prepared layout with out_pad 32), h2 = crelu(o, s2, m2);
     * returns b2[0] + W2 h2 (1 output, prepared layout with out_pad 16). m1, m2 <= 127. Equal
     * to crelu_i32, pack_u8, affine_u8, crelu_i32, pack_u8, affine_u8 in a row. */
    int32_t (*tail_32_32_1)(const int32_t *in, int s1, int32_t m1, const int8_t *w1, const int32_t *b1, int s2,
                            int32_t m2, const int8_t *w2, const int32_t *b2);
    /* Optional (NULL where tail_32_32_1 is). fc0 and the tail in one call: o0 = b0 + W0 in
     * (affine_u8 over `groups` input groups, 32 outputs, out_pad 32), then tail_32_32_1 on o0
     * (HalfKP's whole network after the transform: no pass between the layers). pairs as
     * head_u8_fc0's (blocks 0 and 1 of each field: the two 16-output blocks; proven from w0 and
     * in's bound). */
    int32_t (*fc0_tail_32_32_1)(const uint8_t *in, uint32_t groups, uint32_t pairs, const int8_t *w0,
                                const int32_t *b0, int s1, int32_t m1, const int8_t *w1, const int32_t *b1, int s2,
                                int32_t m2, const int8_t *w2, const int32_t *b2);
    /* The board check's pass over the squares (core/eval/board_check.c): nonzero when some of
     * squares[0 .. n) holds a code that is not a piece of a game with piece types 1..max_type
     * (a bit of 0xE0 set, a type past max_type, colour 1 with type 0); *count = the occupied
     * squares (nonzero bytes). 0 <= n <= 65535, 0 <= max_type <= 15. */
    unsigned (*board_scan)(const uint8_t *squares, int n, int max_type, int *count);
    /* out[o] = bias[o] + sum over j < n_in of in[j] * w[j][o], o < n_out, every product and sum
     * wrapping in 32 bits (an affine layer on int32 values with i32 weights, Stormphrax's L2/L3;
     * layers/plan.c transposes the rows to w[n_in][out_pad], out_pad a multiple of
     * NNUE_KERNEL_OUT_BLOCK, padding zero; or out_pad 1 for a single output: its row). */
    void (*affine_i32)(const int32_t *in, uint32_t n_in, const int32_t *w, const int32_t *bias, int32_t *out,
                       uint32_t n_out, uint32_t out_pad);
    /* --- fused heads (issue 47 item 3) --- */
    /* affine_i32's value when every input and every weight fits i16 (Stormphrax's L2: inputs
     * 0..4096): weights as i16 pairs w[(n_in + 1) / 2][out_pad][2] (inputs 2p and 2p + 1 of output
     * o side by side, padding zero), out_pad a multiple of NNUE_KERNEL_OUT_BLOCK, so one pmaddwd-style
     * vec_madd_i16 takes two products a lane. Each pair sum of two i16 products is exact modulo
     * 2^32, so the result is the wrapping sum of affine_i32. */
    void (*affine_i16p)(const int32_t *in, uint32_t n_in, const int16_t *w, const int32_t *bias, int32_t *out,
                        uint32_t n_out, uint32_t out_pad);
    /* A u8 layer's input bytes made straight from the int32 values an activation reads (the
     * activation, concat and pack_u8 of the plain path in one step): out[j] = crelu_i32's value
     * (bound 0) or sqr_crelu_i32's (bound > 0, as there) of in[j], j < n; max <= 127 and shift
     * 0..31. in[n .. n rounded up to 16) may be read (ignored); out[n .. n + 64) may be written
     * (the caller writes the next piece there, or zeros). */
    void (*act_u8)(const int32_t *in, uint8_t *out, uint32_t n, int shift, int32_t max, int32_t bound);

    /* --- Byte lists and bit counts for the feature sets (issue 47 item 4: the SIMD that lived in
     * features/ moved here; callers pass plain arrays and take results). --- */
    /* For each i < n in ascending order whose t = table[b[i] & 15] is not 0 (16 entries, table[0] = 0,
     * so a zero byte is never listed), with c = b[i] >> 4:
     *   o0[k] = a0 + t + stride * c + i,  o1[k] = a1 + t - stride * c - i,  k = 0, 1, ...
     * (int32 arithmetic, no overflow for the callers' values), stopping once room entries are
     * listed. Returns k (<= room); o0 and o1 have room for room entries. (Shogi HalfKP's
     * board part: both perspectives' BonaPiece indices in square order, features/shogi_halfkp.c.) */
    int (*list_bytes)(const uint8_t *b, uint32_t n, const int32_t *table, int32_t stride, int32_t a0, int32_t a1,
                      uint32_t *o0, uint32_t *o1, int room);
    /* --- One pass per perspective update (issue 46 item 2) --- */
    /* acc_i16 and acc_i8 in one: dst[j] = src[j] - sub16 rows + add16 rows - sub8 rows + add8
     * rows, j < n, i16 wrapping (i8 rows paired as for acc_i8, n then a multiple of 64); one pass
     * over dst, each tile held in registers while every row is applied, then stored once. dst may
     * be src. Then the PSQT rows when r->buckets > 0 (acc_i32's sum; psqt_dst may be psqt_src). */
    void (*acc_mixed)(int16_t *dst, const int16_t *src, const nnue_mixed_rows *r, uint32_t n);
    /* --- Refresh in one pass (issue 46 item 5) --- */
    /* dst[j] = bias[j] + every part's rows (j < width), i16 wrapping; psqt_dst[b] = the sum of
     * every part's PSQT rows (b < buckets, i32 wrapping; psqt_dst untouched when buckets is 0).
     * dst in tiles held in registers: each tile's biases loaded once, every row of every part
     * added, stored once (Stockfish's refresh); the rows' addresses computed from the indices. */
    void (*acc_sum)(int16_t *dst, const int16_t *bias, int32_t *psqt_dst, const nnue_sum_part *parts, int n_parts,
                    uint32_t width, uint32_t buckets);
    /* --- The SFNN head after fc0 in one call (issues 47/48) --- */
    /* fc1 and fc2 of an nnue_head_u8 from fc0's values x (as act_u8, x[m0 .. m0 rounded up to 16)
     * may be read): fc1's input
     * bytes made as act_u8 does, o1 = b1 + W1 h (prepared layout, out_pad n1, ceil(2 m0 / 4)
     * groups), fc2's input bytes from those and o1, returns b2[0] + W2 h2 (prepared layout,
     * out_pad 16). Equal to act_u8, affine_u8, act_u8, affine_u8 in a row (the plain path). */
    int32_t (*head_u8)(const nnue_head_u8 *h, const int32_t *x, const int8_t *w1, const int32_t *b1, const int8_t *w2,
                       const int32_t *b2);
    /* ft_pairwise_u8 into out + at, then nonzero_groups' list of those half bytes appended to
     * idx[count ..] (groups numbered from out, ascending): one pass where the two kernels made
     * two. at and half multiples of 4; idx has room for (at + half) / 4 + 16 entries. Returns the
     * new count. */
    int (*ft_pairwise_nz)(const int16_t *acc, uint8_t *out, uint32_t at, uint32_t half, int32_t max, int shift,
                          uint16_t *idx, int count);
    /* --- Output-major layers with few outputs (YaneuraOu's common + shard fc0) --- */
    /* out[o] = bias[o] + sum over j < n1 of in[j] * w[o][j] + sum over j < n2 of in[at[o] + j] *
     * w[o][n1 + j], o < n_out, wrapping in 32 bits; w[o] = w + o * row (row >= n1 + n2 bytes of
     * i8), in values <= 127. Each output one dot product along its inputs, no padding outputs. */
    void (*affine_u8_spans)(const uint8_t *in, uint32_t n1, const uint32_t *at, uint32_t n2, const int8_t *w,
                            uint32_t row, const int32_t *bias, int32_t *out, uint32_t n_out);
    /* fc0 too (issue 46): o0[0 .. h->n0) = affine_u8_list(in, idx, count, w0, b0) (affine_u8 over
     * count groups when idx is NULL; out_pad NNUE_HEAD_FC0_PAD(n0)), then head_u8(h, o0, w1, b1, w2, b2) on those
     * values as they come out of fc0. o0 is written for the layers that read fc0 besides the head.
     * pairs: the blocks of outputs whose u8 x i8 products of two (four, eight) different groups may
     * be added in one i16 lane before widening them (NNUE_QUADS_SHIFT; nnue_plan_layer.pairs: proven
     * from w0 and the inputs' bound), the step a set without VNNI saves widenings with
     * (VEC_DOT_PAIRS); 0 = never. */
    int32_t (*head_u8_fc0)(const nnue_head_u8 *h, const uint8_t *in, const uint16_t *idx, uint32_t count,
                           uint32_t pairs, const int8_t *w0, const int32_t *b0, int32_t *o0, const int8_t *w1,
                           const int32_t *b1, const int8_t *w2, const int32_t *b2);
    /* list_bytes with the square as a table entry too: for each i < n in ascending order whose
     * t = table[b[i] & 31] is not 0 (table has 32 entries, table[0] = 0 so that a zero byte is never
     * listed; map0 and map1 n entries each):
     *   o0[k] = a0 + t + map0[i],  o1[k] = a1 + table[(b[i] ^ 16) & 31] + map1[i]
     * (int32 arithmetic), stopping once room entries are listed; returns k (<= room). (The board
     * part of the HalfKA sets: each piece's plane by its code, the second perspective's with the
     * colour bit flipped, its square through each perspective's rotation or flip and mirror:
     * features/shogi_halfka.c, features/halfka_v2_hm.c, features/chess768.c.) */
    int (*list_bytes_map)(const uint8_t *b, uint32_t n, const int32_t *table, const uint8_t *map0,
                          const uint8_t *map1, int32_t a0, int32_t a1, uint32_t *o0, uint32_t *o1, int room);
} nnue_kernels;

/* Table for a level (levels above nnue_isa_best() must not be called; NULL when not built). */
const nnue_kernels *nnue_kernels_for(nnue_isa isa);

extern const nnue_kernels nnue_kernels_scalar;
#if defined(__x86_64__)
extern const nnue_kernels nnue_kernels_avx2;
extern const nnue_kernels nnue_kernels_avx512;
extern const nnue_kernels nnue_kernels_vnni512;
extern const nnue_kernels nnue_kernels_vbmi512;
#endif
#if defined(__aarch64__)
extern const nnue_kernels nnue_kernels_neon;   /* simd/kernels_neon.c */
#endif
#if defined(__wasm_simd128__)
extern const nnue_kernels nnue_kernels_simd128; /* simd/kernels_simd128.c */
#endif

#endif
