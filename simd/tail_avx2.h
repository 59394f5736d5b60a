/* simd/tail_avx2.h: kernels.h's fused small tail (tail_32_32_1: HalfKP's 32-32-1 after the
 * feature transformer) for the AVX2 set, as tail_avx512.h is for the AVX-512 sets. Included by
 * kernels_avx2.c after kernels_vec.h (and head_tail_avx2.h), which declared tail_32_32_1 for the
 * table. Every value stays in registers: the 32 activation bytes of each small layer in one
 * vector (packed by AVX2's per-lane packs, so its dwords hold the input groups in the order
 * 0, 2, 4, 6, 1, 3, 5, 7), each group broadcast from it by vpermd, and fc2's eight weight groups
 * (output 0 of each 64-byte block) gathered into one vector in that same order. Without it the
 * layers ran one by one: four kernel calls and the forward pass's steps between them (shogi HalfKP
 * on AVX2: nnue_forward_fast and act_u8 took a tenth of the evaluation). */
#ifndef NNUE_SIMD_TAIL_AVX2_H
#define NNUE_SIMD_TAIL_AVX2_H

/* The packing of 32 values into one vector of bytes, the order of its groups (HEAD_TAIL_DWORD),
 * fc2's gathered weights and fc1's sums per group are simd/head_tail_avx2.h's, the SFNN head's
 * same steps (kernels_vec.h includes it for the AVX2 set before this file). */
VEC_TARGET static int32_t tail_32_32_1(const int32_t *in, int s1, int32_t m1, const int8_t *w1, const int32_t *b1,
                                       int s2, int32_t m2, const int8_t *w2, const int32_t *b2)
{
    const vec_t w2v = head_tail_w2(w2, 0); /* fc2's weights for output 0, in the bytes' order */
    const vec_t x0[4] = {vec_load(in), vec_load(in + 8), vec_load(in + 16), vec_load(in + 24)};
    const vec_t h = head_tail_bytes(x0, s1, m1, 0);
    vdot_t s[2][4]; /* even and odd groups apart: two chains per output vector */
    for (int c = 0; c < 2; c++)
        for (int b = 0; b < 4; b++)
            s[c][b] = vdot_zero();
    for (int g = 0; g < 8; g++)
        head_tail_group(s[g & 1], _mm256_permutevar8x32_epi32(h, _mm256_set1_epi32(HEAD_TAIL_DWORD(g))), w1 + 128 * g);
    vec_t o[4];
    for (int b = 0; b < 4; b++)
        o[b] = vec_add_i32(vec_add_i32(vdot_sum(s[0][b]), vdot_sum(s[1][b])), vec_load(b1 + 8 * b));
    const vec_t h2 = head_tail_bytes(o, s2, m2, 0);
    /* One dot: dword k of h2 times dword k of w2v is the same group's share. */
    const vec_t d = _mm256_madd_epi16(_mm256_maddubs_epi16(h2, w2v), _mm256_set1_epi16(1));
    return (int32_t)((uint32_t)b2[0] + (uint32_t)vec_hsum_i32(d));
}

#endif
