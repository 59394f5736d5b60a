/* simd/tail_avx512.h: kernels.h's fused small tail (tail_32_32_1: HalfKP's 32-32-1 after the
 * feature transformer) for the AVX-512 sets. Included by each AVX-512 set (kernels_*512.c)
 * after vec_avx512.h, so its u8 x i8 dots are that set's vdot_add (vpmaddubsw + vpmaddwd, or
 * vpdpbusd); it names itself through VEC_TAIL_32_32_1 for kernels_vec.h's table. Set-specific
 * because it keeps every value in two registers: the 8 input groups of each small layer are
 * broadcast from a register (vpermd) instead of memory, and fc2's 8 weight groups (output 0 of
 * each 64-byte block) are gathered into one vector up front, off the dependency chain. */
#ifndef NNUE_SIMD_TAIL_AVX512_H
#define NNUE_SIMD_TAIL_AVX512_H

/* 32 int32 values (two vectors) -> clamp(v >> shift, 0, max) as 32 bytes in the low half. */
VEC_TARGET static inline vec_t tail_crelu_bytes(vec_t lo, vec_t hi, int shift, int32_t max)
{
    const vec_t top = vec_set1_i32(max);
    lo = vec_min_i32(vec_max_i32(vec_sra_i32(lo, shift), vec_zero()), top);
    hi = vec_min_i32(vec_max_i32(vec_sra_i32(hi, shift), vec_zero()), top);
    __m256i b = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm512_cvtepi32_epi8(lo)), _mm512_cvtepi32_epi8(hi), 1);
    return _mm512_zextsi256_si512(b);
}

VEC_TARGET static int32_t tail_32_32_1(const int32_t *in, int s1, int32_t m1, const int8_t *w1, const int32_t *b1,
                                       int s2, int32_t m2, const int8_t *w2, const int32_t *b2)
{
    const __m256i w2_index = _mm256_setr_epi32(0, 16, 32, 48, 64, 80, 96, 112);
    __m256i w2v = _mm256_i32gather_epi32((const int *)(const void *)w2, w2_index, 4);
    vec_t h = tail_crelu_bytes(vec_load(in), vec_load(in + 16), s1, m1);
    vdot_t s[2][2];
    for (int c = 0; c < 2; c++)
        s[c][0] = s[c][1] = vdot_zero();
    for (int g = 0; g < 8; g++) {
        vec_t x = _mm512_permutexvar_epi32(_mm512_set1_epi32(g), h);
        s[g & 1][0] = vdot_add(s[g & 1][0], x, w1 + 128 * g);
        s[g & 1][1] = vdot_add(s[g & 1][1], x, w1 + 128 * g + 64);
    }
    vec_t o0 = vec_add_i32(vec_add_i32(vdot_sum(s[0][0]), vdot_sum(s[1][0])), vec_load(b1));
    vec_t o1 = vec_add_i32(vec_add_i32(vdot_sum(s[0][1]), vdot_sum(s[1][1])), vec_load(b1 + 16));
    vec_t h2 = tail_crelu_bytes(o0, o1, s2, m2);
    /* One dot with fc2's weights in the low 256 bits (zeros above): lane g sums group g. */
    int8_t wc[64] __attribute__((aligned(64)));
    vec_store(wc, _mm512_zextsi256_si512(w2v));
    vdot_t d = vdot_add(vdot_zero(), h2, wc);
    return (int32_t)((uint32_t)b2[0] + (uint32_t)_mm512_reduce_add_epi32(vdot_sum(d)));
}
#define VEC_TAIL_32_32_1 tail_32_32_1

#endif
