/* simd/tail_avx2.h: kernels.h's fused small tail (tail_32_32_1: HalfKP's 32-32-1 after the
 * feature transformer) for the AVX2 set, as tail_avx512.h is for the AVX-512 sets. Included by
 * kernels_avx2.c after kernels_vec.h (its crelu), which declared tail_32_32_1 for the table.
 * Every value stays in registers: the 32 activation bytes of each small layer in one
 * vector (packed by AVX2's per-lane packs, so its dwords hold the input groups in the order
 * 0, 2, 4, 6, 1, 3, 5, 7), each group broadcast from it by vpermd, and fc2's eight weight groups
 * (output 0 of each 64-byte block) gathered into one vector in that same order. Without it the
 * layers ran one by one: four kernel calls and the forward pass's steps between them (shogi HalfKP
 * on AVX2: nnue_forward_fast and act_u8 took a tenth of the evaluation). */
#ifndef NNUE_SIMD_TAIL_AVX2_H
#define NNUE_SIMD_TAIL_AVX2_H

/* Where input group g sits among the dwords of tail_crelu_bytes' vector. */
#define TAIL_GROUP_DWORD(g) ((g) % 2 * 4 + (g) / 2)

/* 32 int32 values (four vectors) -> clamp(v >> shift, 0, max) as 32 bytes, groups of four
 * values per dword in the order TAIL_GROUP_DWORD gives (the packs work within 128-bit lanes). */
VEC_TARGET static inline vec_t tail_crelu_bytes(const vec_t v[4], int shift, int32_t max)
{
    const vec_t top = vec_set1_i32(max);
    vec_t c[4];
    for (int k = 0; k < 4; k++)
        c[k] = crelu(v[k], shift, top);
    /* values 0..127: neither pack saturates */
    return _mm256_packus_epi16(_mm256_packs_epi32(c[0], c[1]), _mm256_packs_epi32(c[2], c[3]));
}

VEC_TARGET static int32_t tail_32_32_1(const int32_t *in, int s1, int32_t m1, const int8_t *w1, const int32_t *b1,
                                       int s2, int32_t m2, const int8_t *w2, const int32_t *b2)
{
    /* fc2's weights for output 0 (the first 4 bytes of each group's 64), in the bytes' order */
    const __m256i w2_index = _mm256_setr_epi32(0, 32, 64, 96, 16, 48, 80, 112);
    const __m256i w2v = _mm256_i32gather_epi32((const int *)(const void *)w2, w2_index, 4);
    const vec_t x0[4] = {vec_load(in), vec_load(in + 8), vec_load(in + 16), vec_load(in + 24)};
    const vec_t h = tail_crelu_bytes(x0, s1, m1);
    vdot_t s[2][4]; /* even and odd groups apart: two chains per output vector */
    for (int c = 0; c < 2; c++)
        for (int b = 0; b < 4; b++)
            s[c][b] = vdot_zero();
    for (int g = 0; g < 8; g++) {
        const vec_t x = _mm256_permutevar8x32_epi32(h, _mm256_set1_epi32(TAIL_GROUP_DWORD(g)));
        for (int b = 0; b < 4; b++)
            s[g & 1][b] = vdot_add(s[g & 1][b], x, w1 + 128 * g + 32 * b);
    }
    vec_t o[4];
    for (int b = 0; b < 4; b++)
        o[b] = vec_add_i32(vec_add_i32(vdot_sum(s[0][b]), vdot_sum(s[1][b])), vec_load(b1 + 8 * b));
    const vec_t h2 = tail_crelu_bytes(o, s2, m2);
    /* One dot: dword k of h2 times dword k of w2v is group TAIL_GROUP_DWORD^-1(k)'s share. */
    const vec_t d = _mm256_madd_epi16(_mm256_maddubs_epi16(h2, w2v), _mm256_set1_epi16(1));
    return (int32_t)((uint32_t)b2[0] + (uint32_t)vec_hsum_i32(d));
}

#endif
