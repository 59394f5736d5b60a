/* simd/head_tail_simd128.h: the SFNN head after fc0 (kernels.h nnue_head_u8) with every byte in
 * registers, for the SIMD128 set (and its relaxed-SIMD build); head_rest (head_u8_vec.h) takes it
 * where the shape fits, as the AVX2 set takes simd/head_tail_avx2.h.
 *
 * Why: the plain head_rest makes each layer's input bytes in a stack buffer, a whole vector a
 * piece with the next piece overwriting past its end, and reads them back as 4-byte groups; on
 * an x86-64 host some of those loads span two stores, which the CPU cannot forward. In node 26
 * (V8 14.6) that head took 15.5% of an evaluation of Stockfish 18's small net, more than fc0
 * (9.7%). Here the activations are packed into registers (wasm's narrowing keeps lane order) and
 * each group is broadcast from them by a lane shuffle; fc2's weights for its one output are read
 * lane by lane in the bytes' order. The bytes, the byte pairs each dot adds and so every value are
 * the plain path's. Included by kernels_vec.h before head_u8_vec.h (it uses that file's crelu and
 * sqr_crelu, and vec_simd128.h's vdot_add). */
#ifndef NNUE_SIMD_HEAD_TAIL_SIMD128_H
#define NNUE_SIMD_HEAD_TAIL_SIMD128_H

/* The shapes done here, as head_tail_avx2.h: fc1's input in two vectors (m0 <= 16: sqr bytes,
 * crelu bytes right after them) with fc2 reading fc1's activations only, or in four (m0 == 32:
 * Stockfish 19, fc2 reading fc1's input too or not). */
static inline int head_tail_fits(const nnue_head_u8 *h)
{
    return (h->m0 <= 16 && !h->fc2_all) || h->m0 == 32;
}

/* act_bytes' activation (sqr_crelu when bound > 0, else crelu) of 16 values as 16 bytes in order:
 * the values are 0..127 (kernels.h), so neither narrowing saturates. */
VEC_TARGET static inline vec_t head_tail_bytes(const vec_t v[4], int shift, int32_t max, int32_t bound)
{
    const vec_t hi = vec_set1_i32(max), b = vec_set1_i32(bound);
    vec_t c[4];
    for (int k = 0; k < 4; k++)
        c[k] = bound > 0 ? sqr_crelu(v[k], shift, hi, b) : crelu(v[k], shift, hi);
    return wasm_u8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(c[0], c[1]), wasm_i16x8_narrow_i32x4(c[2], c[3]));
}

/* fc1's input for m0 <= 16 as act_bytes lays it out: sqr bytes 0 .. m0, crelu bytes m0 .. 2 m0,
 * zeros after, in two vectors. Each byte comes from the sqr or the crelu vector by one swizzle
 * each (a lane index past 15 gives zero). */
VEC_TARGET static inline void head_tail_input16(const nnue_head_u8 *h, const int32_t *x, vec_t in[2])
{
    const vec_t xv[4] = {vec_load(x), vec_load(x + 4), vec_load(x + 8), vec_load(x + 12)};
    const vec_t sqr = head_tail_bytes(xv, h->sq0[0], h->sq0[1], h->sq0[2]);
    const vec_t cr = head_tail_bytes(xv, h->cr0[0], h->cr0[1], 0);
    const int8_t m0 = (int8_t)h->m0;
    const vec_t iota = wasm_i8x16_make(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const vec_t m = wasm_i8x16_splat(m0), two_m = wasm_i8x16_splat((int8_t)(2 * m0)), none = wasm_i8x16_splat(-128);
    /* bytes 0..15: sqr byte k where k < m0, else crelu byte k - m0 where k < 2 m0 */
    const vec_t in_sqr = wasm_i8x16_lt(iota, m);
    const vec_t in_cr0 = wasm_v128_andnot(wasm_i8x16_lt(iota, two_m), in_sqr);
    in[0] = wasm_v128_or(wasm_i8x16_swizzle(sqr, wasm_v128_bitselect(iota, none, in_sqr)),
                         wasm_i8x16_swizzle(cr, wasm_v128_bitselect(wasm_i8x16_sub(iota, m), none, in_cr0)));
    /* bytes 16..31: crelu byte 16 + k - m0 where 16 + k < 2 m0 */
    const vec_t at16 = wasm_i8x16_add(iota, wasm_i8x16_splat(16));
    in[1] = wasm_i8x16_swizzle(cr, wasm_v128_bitselect(wasm_i8x16_sub(at16, m), none, wasm_i8x16_lt(at16, two_m)));
}

/* Lane l of `bytes` (a group of 4 input bytes) as vdot_add's input: broadcast, and widened to
 * i16 where the plain dot needs it (vec_simd128.h vdot_input). */
#define HEAD_TAIL_LANE(bytes, l) head_tail_widen(wasm_i32x4_shuffle((bytes), (bytes), (l), (l), (l), (l)))
VEC_TARGET static inline vec_t head_tail_widen(vec_t group)
{
#if defined(__wasm_relaxed_simd__)
    return group;
#else
    return wasm_u16x8_extend_low_u8x16(group);
#endif
}

/* The dot of 16 bytes x (0..127) with 16 weights w, summed by 4-byte group into i32 lanes. */
VEC_TARGET static inline vec_t head_tail_dot(vec_t x, vec_t w)
{
#if defined(__wasm_relaxed_simd__)
    return wasm_i32x4_extadd_pairwise_i16x8(wasm_i16x8_relaxed_dot_i8x16_i7x16(w, x));
#else
    vec_t lo = wasm_i32x4_dot_i16x8(wasm_u16x8_extend_low_u8x16(x), wasm_i16x8_extend_low_i8x16(w));
    vec_t hi = wasm_i32x4_dot_i16x8(wasm_u16x8_extend_high_u8x16(x), wasm_i16x8_extend_high_i8x16(w));
    /* Each group's sum is split over two lanes (lo: groups 0 and 1, hi: 2 and 3), so lo + hi
     * mixes groups lane by lane; the callers take only the four lanes' total, which is right. */
    return wasm_i32x4_add(lo, hi);
#endif
}

/* fc2's weights for its one output (the first 4 bytes of each group's 64: out_pad 16) of the 4
 * groups from `first`, in order. */
VEC_TARGET static inline vec_t head_tail_w2(const int8_t *w2, uint32_t first)
{
    const int8_t *w = w2 + 64 * (size_t)first;
    vec_t v = wasm_v128_load32_zero(w);
    v = wasm_v128_load32_lane(w + 64, v, 1);
    v = wasm_v128_load32_lane(w + 128, v, 2);
    return wasm_v128_load32_lane(w + 192, v, 3);
}

/* fc1's 32 outputs' sums += a group's input times its weights w (out_pad 32: 128 bytes a group). */
#define HEAD_TAIL_GROUP(s, in, g)                                                                                     \
    do {                                                                                                              \
        const vec_t xg_ = HEAD_TAIL_LANE((in)[(g) / 4], (g) % 4);                                                     \
        for (int b_ = 0; b_ < 8; b_++)                                                                                \
            (s)[b_] = vdot_add((s)[b_], xg_, w1 + 128 * (g) + 16 * b_);                                               \
    } while (0)

/* Groups first .. first + 3, those below limit. */
#define HEAD_TAIL_GROUPS4(s, in, first, limit)                                                                        \
    do {                                                                                                              \
        if ((first) < (limit))                                                                                        \
            HEAD_TAIL_GROUP(s, in, (first));                                                                          \
        if ((first) + 1 < (limit))                                                                                    \
            HEAD_TAIL_GROUP(s, in, (first) + 1);                                                                      \
        if ((first) + 2 < (limit))                                                                                    \
            HEAD_TAIL_GROUP(s, in, (first) + 2);                                                                      \
        if ((first) + 3 < (limit))                                                                                    \
            HEAD_TAIL_GROUP(s, in, (first) + 3);                                                                      \
    } while (0)

VEC_TARGET static inline int32_t head_tail(const nnue_head_u8 *h, const int32_t *x, const int8_t *w1,
                                           const int32_t *b1, const int8_t *w2, const int32_t *b2)
{
    vec_t in1[4]; /* fc1's input: two vectors (m0 <= 16) or four (m0 == 32), in order */
    int wide = h->m0 == 32;
    uint32_t groups1 = (2 * h->m0 + 3) / 4;
    vdot_t s[8];
    for (int b = 0; b < 8; b++)
        s[b] = vdot_zero();
    /* constant lanes and trip counts (the shuffles take constants; the sums stay in registers) */
    if (wide) {
        for (int half = 0; half < 2; half++) {
            const vec_t xv[4] = {vec_load(x + 16 * half), vec_load(x + 16 * half + 4), vec_load(x + 16 * half + 8),
                                 vec_load(x + 16 * half + 12)};
            in1[half] = head_tail_bytes(xv, h->sq0[0], h->sq0[1], h->sq0[2]);
            in1[2 + half] = head_tail_bytes(xv, h->cr0[0], h->cr0[1], 0);
        }
        HEAD_TAIL_GROUPS4(s, in1, 0, 16);
        HEAD_TAIL_GROUPS4(s, in1, 4, 16);
        HEAD_TAIL_GROUPS4(s, in1, 8, 16);
        HEAD_TAIL_GROUPS4(s, in1, 12, 16);
    } else {
        head_tail_input16(h, x, in1);
        /* past 2 m0 bytes fc1 has no weights */
        HEAD_TAIL_GROUPS4(s, in1, 0, groups1);
        HEAD_TAIL_GROUPS4(s, in1, 4, groups1);
    }
    vec_t o1[8];
    for (int b = 0; b < 8; b++)
        o1[b] = vec_add_i32(vdot_sum(s[b]), vec_load(b1 + 4 * b));
    /* fc2's input, 16 bytes a vector: fc1's input (fc2_all), sqr_crelu(fc1), crelu(fc1) */
    vec_t in2[8];
    int vectors2 = 0;
    if (h->fc2_all) /* m0 == 32 here: fc1's four input vectors */
        for (int k = 0; k < 4; k++)
            in2[vectors2++] = in1[k];
    if (h->sq1[2] > 0) {
        in2[vectors2++] = head_tail_bytes(o1, h->sq1[0], h->sq1[1], h->sq1[2]);
        in2[vectors2++] = head_tail_bytes(o1 + 4, h->sq1[0], h->sq1[1], h->sq1[2]);
    }
    in2[vectors2++] = head_tail_bytes(o1, h->cr1[0], h->cr1[1], 0);
    in2[vectors2++] = head_tail_bytes(o1 + 4, h->cr1[0], h->cr1[1], 0);
    vec_t d = vec_zero();
    for (int r = 0; r < vectors2; r++)
        d = vec_add_i32(d, head_tail_dot(in2[r], head_tail_w2(w2, 4 * (uint32_t)r)));
    return (int32_t)((uint32_t)b2[0] + (uint32_t)vec_hsum_i32(d));
}

#undef HEAD_TAIL_GROUPS4
#undef HEAD_TAIL_GROUP

#endif
