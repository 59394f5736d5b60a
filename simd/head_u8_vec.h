/* simd/head_u8_vec.h: the SFNN head's own kernels on the vector layer, included by kernels_vec.h
 * before its table (it uses that file's pairwise, nz_positions, act_bytes and run()):
 * ft_pairwise_nz, the network input bytes with their non-zero list made in the same pass (each
 * vector of bytes tested while it is in a register), head_u8 (fc1 and fc2 in one call) and
 * head_u8_fc0 (fc0 too, from the non-zero list).
 * head_u8's bytes are act_u8's, made in a buffer on the stack (each piece a whole vector at a
 * time, the next one overwriting past its end), and the sums run()'s with the sizes known here
 * (fc1: 32 or 64 outputs, out_pad the same; fc2: 1 output, out_pad 16): what the plain path does
 * with four kernel calls and seven steps of the forward pass. A set with its own head in registers
 * (VEC_HEAD_TAIL: simd/head_tail_avx2.h) takes that instead where the shape fits. */
#ifndef NNUE_SIMD_HEAD_U8_VEC_H
#define NNUE_SIMD_HEAD_U8_VEC_H

/* Four zero bytes at p: the rest of a group after a piece that ends inside it. */
VEC_TARGET static inline void head_zero4(uint8_t *p)
{
    uint32_t zero = 0;
    memcpy(p, &zero, sizeof zero);
}

/* The pairwise bytes of one step: (clamp(a) * clamp(b)) >> shift, or, pre-shifted (hs > 0),
 * the high half of (clamp(a) << hs) * min(b, max) with hs = 16 - shift: the same value where
 * max << hs fits i16 (Stockfish 18/19's 255, 9), and <= 0 for a negative b, which the unsigned
 * pack makes 0 as the clamp did. */
VEC_TARGET static inline __attribute__((always_inline)) vec_t pair_step(const int16_t *a, const int16_t *b, vec_t hi,
                                                                         int shift, int hs)
{
#if defined(VEC_MULHI_I16)
    if (hs) {
        vec_t p0 = vec_mulhi_i16(vec_sll_i16(clamp_i16(vec_load(a), hi), hs), vec_min_i16(vec_load(b), hi));
        vec_t p1 = vec_mulhi_i16(vec_sll_i16(clamp_i16(vec_load(a + VEC_I16), hi), hs),
                                 vec_min_i16(vec_load(b + VEC_I16), hi));
        return vec_packus_i16(p0, p1);
    }
#endif
    (void)hs;
    return vec_packus_i16(pairwise(vec_load(a), vec_load(b), hi, shift),
                          pairwise(vec_load(a + VEC_I16), vec_load(b + VEC_I16), hi, shift));
}

VEC_TARGET static inline __attribute__((always_inline)) int pair_nz(const int16_t *acc, uint8_t *out, uint32_t at,
                                                                     uint32_t half, vec_t hi, int shift, int hs,
                                                                     uint16_t *idx, int count, uint32_t *jp)
{
    uint8_t *o = out + at;
    uint32_t j = 0;
    vnz_t base = vnz_base((uint16_t)(at / 4));
    if (VEC_I32 % 8 == 0) /* four steps a turn: the loop's own instructions once for all */
        for (; j + 8 * VEC_I16 <= half; j += 8 * VEC_I16) {
            vec_t v[4];
            for (int u = 0; u < 4; u++) {
                v[u] = pair_step(acc + j + 2 * VEC_I16 * u, acc + half + j + 2 * VEC_I16 * u, hi, shift, hs);
                vec_store(o + j + 2 * VEC_I16 * u, v[u]);
            }
            for (int u = 0; u < 4; u++)
                count = nz_positions(vec_nz_mask_i32(v[u]), (VEC_I32 + 7) / 8, &base, idx, count);
        }
    for (; j + 2 * VEC_I16 <= half; j += 2 * VEC_I16) {
        if (VEC_I32 % 8) /* a step of fewer than 8 groups: the base from the position */
            base = vnz_base((uint16_t)((at + j) / 4));
        vec_t v = pair_step(acc + j, acc + half + j, hi, shift, hs);
        vec_store(o + j, v);
        count = nz_positions(vec_nz_mask_i32(v), (VEC_I32 + 7) / 8, &base, idx, count);
    }
    *jp = j;
    return count;
}

VEC_KERNEL int ft_pairwise_nz(const int16_t *acc, uint8_t *out, uint32_t at, uint32_t half, int32_t max, int shift,
                              uint16_t *idx, int count)
{
    const vec_t hi = vec_set1_i16((int16_t)max);
    uint32_t j;
    if (shift >= 1 && shift <= 15 && max >= 0 && max << (16 - shift) <= 32767)
        count = pair_nz(acc, out, at, half, hi, shift, 16 - shift, idx, count, &j);
    else
        count = pair_nz(acc, out, at, half, hi, shift, 0, idx, count, &j);
    nnue_ref_ft_pairwise_u8(acc, out + at, j, half, max, shift); /* a rest shorter than a vector of bytes */
    return nnue_ref_nonzero_groups(out, (at + j) / 4, (at + half) / 4, idx, count);
}

/* fc1 of N1 outputs (a constant where it is inlined) and fc2. */
VEC_TARGET static inline __attribute__((always_inline)) int32_t
head_fc1_fc2(const nnue_head_u8 *h, const int32_t *x, const int8_t *w1, const int32_t *b1, const int8_t *w2,
             const int32_t *b2, const uint32_t N1)
{
    /* fc2's input: at most 64 + 2 * 64 bytes, then act_bytes' overrun (a vector) */
    uint8_t in[256] __attribute__((aligned(64)));
    int32_t o1[64] __attribute__((aligned(64))), o2;
    uint32_t m0 = h->m0, at = h->fc2_all ? 2 * m0 : 0;
    act_bytes(x, in, m0, h->sq0[0], h->sq0[1], h->sq0[2]);
    act_bytes(x, in + m0, m0, h->cr0[0], h->cr0[1], 0);
    head_zero4(in + 2 * m0);
    run(in, NULL, (2 * m0 + 3) / 4, w1, b1, o1, N1, N1, 0, 0);
    if (h->sq1[2] > 0) {
        act_bytes(o1, in + at, N1, h->sq1[0], h->sq1[1], h->sq1[2]);
        at += N1;
    }
    act_bytes(o1, in + at, N1, h->cr1[0], h->cr1[1], 0);
    head_zero4(in + at + N1);
    run(in, NULL, (at + N1 + 3) / 4, w2, b2, &o2, 1, 16, 0, 0);
    return o2;
}

/* fc1 of 64 outputs out of line: the 32-output head, inlined below, keeps its code as it was. */
VEC_TARGET static __attribute__((noinline)) int32_t head_fc1_64(const nnue_head_u8 *h, const int32_t *x,
                                                                const int8_t *w1, const int32_t *b1, const int8_t *w2,
                                                                const int32_t *b2)
{
    return head_fc1_fc2(h, x, w1, b1, w2, b2, 64);
}

VEC_TARGET static inline __attribute__((always_inline)) int32_t
head_rest(const nnue_head_u8 *h, const int32_t *x, const int8_t *w1, const int32_t *b1, const int8_t *w2,
          const int32_t *b2)
{
    if (__builtin_expect(h->n1 == 64, 0)) /* YaneuraOu's generated L3 = 64 nets */
        return head_fc1_64(h, x, w1, b1, w2, b2);
#if defined(VEC_HEAD_TAIL)
    if (head_tail_fits(h))
        return head_tail(h, x, w1, b1, w2, b2);
#endif
    return head_fc1_fc2(h, x, w1, b1, w2, b2, 32);
}

VEC_KERNEL int32_t head_u8(const nnue_head_u8 *h, const int32_t *x, const int8_t *w1, const int32_t *b1,
                           const int8_t *w2, const int32_t *b2)
{
    return head_rest(h, x, w1, b1, w2, b2);
}

/* The chains head_u8_fc0 compiles (callgrind, AVX2, instructions an evaluation; docs/speed.md,
 * tenth AVX2 session): eights dense only (the 1536-wide shogi net -281; every chain on a list:
 * Stockfish 15.1's net +23, Stockfish 19's +65 though its weights allow no chain at all), no fours
 * dense (+104 on the 1536-wide net). */
#define HEAD_CHAINS_LIST CHAIN_2
#define HEAD_CHAINS_DENSE (CHAIN_2 | CHAIN_8)

/* fc0 with its output count constant (8, 16 or 32) and the list or dense form known, so run()'s
 * sums stay in registers; the activations then read fc0's values where they were just stored. */
VEC_KERNEL int32_t head_u8_fc0(const nnue_head_u8 *h, const uint8_t *in, const uint16_t *idx, uint32_t count,
                               uint32_t pairs, const int8_t *w0, const int32_t *b0, int32_t *o0, const int8_t *w1,
                               const int32_t *b1, const int8_t *w2, const int32_t *b2)
{
    if (h->n0 == 32) {
        if (idx)
            run(in, idx, count, w0, b0, o0, 32, 32, pairs, HEAD_CHAINS_LIST);
        else
            run(in, NULL, count, w0, b0, o0, 32, 32, pairs, HEAD_CHAINS_DENSE);
    } else if (h->n0 == 16) {
        if (idx)
            run(in, idx, count, w0, b0, o0, 16, 16, pairs, HEAD_CHAINS_LIST);
        else
            run(in, NULL, count, w0, b0, o0, 16, 16, pairs, HEAD_CHAINS_DENSE);
    } else { /* 8, laid out 8 wide (NNUE_NARROW_OUT_PAD) */
        if (idx)
            run(in, idx, count, w0, b0, o0, 8, NNUE_NARROW_OUT_PAD, pairs, HEAD_CHAINS_LIST);
        else
            run(in, NULL, count, w0, b0, o0, 8, NNUE_NARROW_OUT_PAD, pairs, HEAD_CHAINS_DENSE);
    }
    return head_rest(h, o0, w1, b1, w2, b2);
}

#endif
