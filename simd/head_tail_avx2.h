/* simd/head_tail_avx2.h: the SFNN head after fc0 (kernels.h nnue_head_u8) with every byte in
 * registers, for the AVX2 set; head_rest (head_u8_vec.h) takes it where the shape fits.
 *
 * Why: the plain head_rest makes each layer's input bytes in a stack buffer, one whole vector a
 * piece with the next piece overwriting past its end, and then reads them back as 4-byte groups.
 * With Stockfish 15.1 to 18's m0 = 15 three of fc1's eight group loads span two of those stores,
 * which the CPU cannot forward, and the chain fc1 -> fc2 waits on each (perf: the layers after
 * fc0 took 39% of head_u8_fc0 on Stockfish 15.1's net at under two instructions a cycle). Here
 * the bytes are packed into registers and each group is broadcast from them by vpermd; fc2's
 * weights for its one output are gathered in the order the packs leave the groups (tail_avx2.h,
 * HalfKP's tail, is built from these same pieces). The byte layouts, the pairs each vpmaddubsw
 * adds and so every value are the plain path's. The same change for the AVX-512 sets gained
 * nothing on an Intel Xeon (docs/speed.md, "AVX-512 on an Intel Xeon"): AVX-512 keeps the plain
 * path. Included by kernels_vec.h before head_u8_vec.h (it uses that file's crelu and sqr_crelu,
 * and vec_avx2.h's vdot_add). */
#ifndef NNUE_SIMD_HEAD_TAIL_AVX2_H
#define NNUE_SIMD_HEAD_TAIL_AVX2_H

/* The shapes done here: fc1's input in one vector (m0 <= 16: sqr bytes, crelu bytes right after
 * them) with fc2 reading fc1's activations only, or in two (m0 == 32: Stockfish 19, fc2 reading
 * fc1's input too or not). */
static inline int head_tail_fits(const nnue_head_u8 *h)
{
    return (h->m0 <= 16 && !h->fc2_all) || h->m0 == 32;
}

/* The dword of head_tail_bytes' vector that holds input group g of a 32-byte piece (AVX2's packs
 * work within 128-bit lanes: dwords 0..7 hold groups 0, 2, 4, 6, 1, 3, 5, 7). */
#define HEAD_TAIL_DWORD(g) ((g) % 2 * 4 + (g) / 2)

/* act_bytes' activation (sqr_crelu when bound > 0, else crelu) of 32 values as 32 bytes in the
 * HEAD_TAIL_DWORD order; the values are 0..max (<= 127 by kernels.h, which also keeps every
 * vpmaddubsw pair sum inside i16), so neither pack saturates. */
VEC_TARGET static inline vec_t head_tail_bytes(const vec_t v[4], int shift, int32_t max, int32_t bound)
{
    const vec_t hi = vec_set1_i32(max), b = vec_set1_i32(bound);
    vec_t c[4];
    for (int k = 0; k < 4; k++)
        c[k] = bound > 0 ? sqr_crelu(v[k], shift, hi, b) : crelu(v[k], shift, hi);
    return _mm256_packus_epi16(_mm256_packs_epi32(c[0], c[1]), _mm256_packs_epi32(c[2], c[3]));
}

/* fc1's input for m0 <= 16 as act_bytes lays it out: sqr bytes 0 .. m0, crelu bytes m0 .. 2 m0,
 * zeros after, in natural order (group g in dword g). The two activations of x[0 .. 16) are
 * packed side by side (sqr in the low lane, crelu in the high one, bytes past m0 cleared), then
 * the crelu bytes are moved down to m0 by one vpshufb of the high lane copied into both. */
VEC_TARGET static inline vec_t head_tail_input16(const nnue_head_u8 *h, const int32_t *x)
{
    const vec_t x0 = vec_load(x), x1 = vec_load(x + 8);
    const vec_t sh = vec_set1_i32(h->sq0[1]), sb = vec_set1_i32(h->sq0[2]), ch = vec_set1_i32(h->cr0[1]);
    int sqr = h->sq0[2] > 0;
    vec_t s0 = sqr ? sqr_crelu(x0, h->sq0[0], sh, sb) : crelu(x0, h->sq0[0], sh);
    vec_t s1 = sqr ? sqr_crelu(x1, h->sq0[0], sh, sb) : crelu(x1, h->sq0[0], sh);
    vec_t c0 = crelu(x0, h->cr0[0], ch), c1 = crelu(x1, h->cr0[0], ch);
    /* dwords: sqr 0-3, 8-11, crelu 0-3, 8-11 | sqr 4-7, 12-15, crelu 4-7, 12-15 */
    vec_t p = _mm256_packus_epi16(_mm256_packs_epi32(s0, s1), _mm256_packs_epi32(c0, c1));
    p = _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    /* lane byte k kept where k < m0 */
    const __m256i iota = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
                                          8, 9, 10, 11, 12, 13, 14, 15);
    const __m256i m0v = _mm256_set1_epi8((char)h->m0);
    const __m256i keep = _mm256_cmpgt_epi8(m0v, iota);
    p = _mm256_and_si256(p, keep);
    /* crelu byte j goes to byte m0 + j: low lane k >= m0 takes j = k - m0, high lane k takes
     * j = 16 + k - m0 while that is below 16 (a set top bit makes vpshufb write zero) */
    const __m256i low_lane = _mm256_setr_epi64x(-1, -1, 0, 0);
    const __m256i from = _mm256_sub_epi8(iota, m0v);
    const __m256i ctrl_lo = _mm256_or_si256(from, keep);
    const __m256i ctrl_hi = _mm256_or_si256(_mm256_add_epi8(from, _mm256_set1_epi8(16)),
                                            _mm256_andnot_si256(keep, _mm256_set1_epi8((char)0x80)));
    const __m256i ctrl = _mm256_blendv_epi8(ctrl_hi, ctrl_lo, low_lane);
    const __m256i crelu_both = _mm256_permute2x128_si256(p, p, 0x11);
    return _mm256_or_si256(_mm256_and_si256(p, low_lane), _mm256_shuffle_epi8(crelu_both, ctrl));
}

/* fc2's weights for its one output (the first 4 bytes of each group's 64: out_pad 16) of the 8
 * groups from `first`, in the HEAD_TAIL_DWORD order. */
VEC_TARGET static inline vec_t head_tail_w2(const int8_t *w2, uint32_t first)
{
    /* in dwords, 16 a group: groups 0, 2, 4, 6, 1, 3, 5, 7 */
    const __m256i index = _mm256_setr_epi32(0, 32, 64, 96, 16, 48, 80, 112);
    return _mm256_i32gather_epi32((const int *)(const void *)(w2 + 64 * (size_t)first), index, 4);
}

/* fc1's 32 outputs' sums += group x times its weights w (out_pad 32: 128 bytes a group). */
VEC_TARGET static inline __attribute__((always_inline)) void head_tail_group(vdot_t s[4], vec_t x, const int8_t *w)
{
    for (int b = 0; b < 4; b++)
        s[b] = vdot_add(s[b], x, w + 32 * b);
}

VEC_TARGET static inline int32_t head_tail(const nnue_head_u8 *h, const int32_t *x, const int8_t *w1,
                                           const int32_t *b1, const int8_t *w2, const int32_t *b2)
{
    vec_t in1[2]; /* fc1's input: one vector in natural order, or two in the HEAD_TAIL_DWORD order */
    int wide = h->m0 == 32;
    uint32_t groups1 = (2 * h->m0 + 3) / 4;
    if (wide) {
        const vec_t xv[4] = {vec_load(x), vec_load(x + 8), vec_load(x + 16), vec_load(x + 24)};
        in1[0] = head_tail_bytes(xv, h->sq0[0], h->sq0[1], h->sq0[2]);
        in1[1] = head_tail_bytes(xv, h->cr0[0], h->cr0[1], 0);
    } else {
        in1[0] = head_tail_input16(h, x);
    }
    vdot_t s[2][4]; /* even and odd groups apart: two chains per output vector */
    for (int c = 0; c < 2; c++)
        for (int b = 0; b < 4; b++)
            s[c][b] = vdot_zero();
    /* constant trip counts, so that the sums stay in registers (a run-time count spilled them) */
    if (wide)
        for (int g = 0; g < 16; g++) {
            const vec_t xg = _mm256_permutevar8x32_epi32(in1[g / 8], _mm256_set1_epi32(HEAD_TAIL_DWORD(g % 8)));
            head_tail_group(s[g & 1], xg, w1 + 128 * g);
        }
    else
        for (int g = 0; g < 8; g++)
            if ((uint32_t)g < groups1) /* past 2 m0 bytes fc1 has no weights */
                head_tail_group(s[g & 1], _mm256_permutevar8x32_epi32(in1[0], _mm256_set1_epi32(g)), w1 + 128 * g);
    vec_t o1[4];
    for (int b = 0; b < 4; b++)
        o1[b] = vec_add_i32(vec_add_i32(vdot_sum(s[0][b]), vdot_sum(s[1][b])), vec_load(b1 + 8 * b));
    /* fc2's input, 32 bytes a vector: fc1's input (fc2_all), sqr_crelu(fc1), crelu(fc1) */
    vec_t in2[4];
    int vectors2 = 0;
    if (h->fc2_all) { /* m0 == 32 here: fc1's two input vectors */
        in2[vectors2++] = in1[0];
        in2[vectors2++] = in1[1];
    }
    if (h->sq1[2] > 0)
        in2[vectors2++] = head_tail_bytes(o1, h->sq1[0], h->sq1[1], h->sq1[2]);
    in2[vectors2++] = head_tail_bytes(o1, h->cr1[0], h->cr1[1], 0);
    vec_t d = vec_zero();
    for (int r = 0; r < vectors2; r++)
        d = vec_add_i32(d, _mm256_madd_epi16(_mm256_maddubs_epi16(in2[r], head_tail_w2(w2, 8 * (uint32_t)r)),
                                             _mm256_set1_epi16(1)));
    return (int32_t)((uint32_t)b2[0] + (uint32_t)vec_hsum_i32(d));
}

#endif
