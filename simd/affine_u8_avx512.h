/* simd/affine_u8_avx512.h: the AVX-512 u8 x i8 affine kernel body, shared by the AVX-512
 * and the VNNI kernel sets. Included (not compiled alone) by a file that first defines TGT (its
 * target attribute) and `dot(acc, x, w)`: acc + the 4-byte dot products of x and the 64 weight
 * bytes at w, per 32-bit lane. Everything else, the layout walk and the 4-way unrolled sums,
 * is identical for both instruction sets. Weights: [input group of 4][outputs padded to 16][4].
 * pass() and run() are forced inline: with a constant block count and the dense/list choice
 * known, the 4 x nb sums stay in registers (as separate functions clang spilled them to the
 * stack inside the loop, about a third slower on the dense 512->32 layer). Also the fused small
 * tail of kernels.h (tail_32_32_1). */
#ifndef NNUE_SIMD_AFFINE_U8_AVX512_H
#define NNUE_SIMD_AFFINE_U8_AVX512_H

TGT static inline __m512i bcast(const uint8_t *p)
{
    int32_t x;
    memcpy(&x, p, 4);
    return _mm512_set1_epi32(x);
}

TGT static inline void finish(__m512i sum, const int32_t *bias, int32_t *out, uint32_t o, uint32_t n_out)
{
    __mmask16 m = n_out - o >= 16 ? 0xFFFF : (__mmask16)((1u << (n_out - o)) - 1);
    sum = _mm512_add_epi32(sum, _mm512_maskz_loadu_epi32(m, bias + o));
    _mm512_mask_storeu_epi32(out + o, m, sum);
}

/* One pass over the input groups (all of them, or the listed ones) for nb blocks of
 * 16 outputs: 4 groups in flight, so 4 * nb independent sums hide the latency. */
TGT static inline __attribute__((always_inline)) void pass(const uint8_t *in, const uint16_t *idx, uint32_t count,
                                                           const int8_t *wb, size_t stride, const int nb, __m512i *res)
{
    __m512i s[4][4];
    for (int u = 0; u < 4; u++)
        for (int b = 0; b < nb; b++)
            s[u][b] = _mm512_setzero_si512();
    uint32_t i = 0;
    for (; i + 4 <= count; i += 4)
        for (int u = 0; u < 4; u++) {
            uint32_t g = idx ? idx[i + u] : i + u;
            __m512i x = bcast(in + 4 * g);
            for (int b = 0; b < nb; b++)
                s[u][b] = dot(s[u][b], x, wb + g * stride + 64 * b);
        }
    for (; i < count; i++) {
        uint32_t g = idx ? idx[i] : i;
        __m512i x = bcast(in + 4 * g);
        for (int b = 0; b < nb; b++)
            s[0][b] = dot(s[0][b], x, wb + g * stride + 64 * b);
    }
    for (int b = 0; b < nb; b++)
        res[b] = _mm512_add_epi32(_mm512_add_epi32(s[0][b], s[1][b]), _mm512_add_epi32(s[2][b], s[3][b]));
}

TGT static inline __attribute__((always_inline)) void run(const uint8_t *in, const uint16_t *idx, uint32_t count, const int8_t *w, const int32_t *bias,
                    int32_t *out, uint32_t n_out, uint32_t out_pad)
{
    size_t stride = (size_t)out_pad * 4;
    __m512i res[4];
    for (uint32_t o = 0; o < n_out;) {
        uint32_t left = (n_out - o + 15) / 16;
        int nb = left >= 4 ? 4 : (int)left;
        const int8_t *wb = w + (size_t)o * 4;
        switch (nb) { /* constant block counts, so the sums stay in registers */
        case 4: pass(in, idx, count, wb, stride, 4, res); break;
        case 3: pass(in, idx, count, wb, stride, 3, res); break;
        case 2: pass(in, idx, count, wb, stride, 2, res); break;
        default: pass(in, idx, count, wb, stride, 1, res); break;
        }
        for (int b = 0; b < nb; b++, o += 16)
            finish(res[b], bias, out, o, n_out);
    }
}

TGT static void affine_u8(const uint8_t *in, uint32_t groups, const int8_t *w, const int32_t *bias, int32_t *out,
                          uint32_t n_out, uint32_t out_pad)
{
    run(in, NULL, groups, w, bias, out, n_out, out_pad);
}

TGT static void affine_u8_list(const uint8_t *in, const uint16_t *idx, int count, const int8_t *w,
                               const int32_t *bias, int32_t *out, uint32_t n_out, uint32_t out_pad)
{
    run(in, idx, (uint32_t)count, w, bias, out, n_out, out_pad);
}

/* 32 int32 values (two vectors) -> clamp(v >> shift, 0, max) as 32 bytes in the low half. */
TGT static inline __m512i crelu_bytes(__m512i lo, __m512i hi, int shift, int32_t max)
{
    const __m128i sh = _mm_cvtsi32_si128(shift);
    const __m512i zero = _mm512_setzero_si512(), top = _mm512_set1_epi32(max);
    lo = _mm512_min_epi32(_mm512_max_epi32(_mm512_sra_epi32(lo, sh), zero), top);
    hi = _mm512_min_epi32(_mm512_max_epi32(_mm512_sra_epi32(hi, sh), zero), top);
    __m256i b = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm512_cvtepi32_epi8(lo)), _mm512_cvtepi32_epi8(hi), 1);
    return _mm512_zextsi256_si512(b);
}

/* kernels.h tail_32_32_1: the 8 input groups of each small layer are broadcast from a register
 * (vpermd) instead of memory, and fc2's 8 weight groups (output 0 of each 64-byte block) are
 * gathered into one vector up front, off the dependency chain. */
TGT static int32_t tail_32_32_1(const int32_t *in, int s1, int32_t m1, const int8_t *w1, const int32_t *b1, int s2,
                                int32_t m2, const int8_t *w2, const int32_t *b2)
{
    const __m256i w2_index = _mm256_setr_epi32(0, 16, 32, 48, 64, 80, 96, 112);
    __m256i w2v = _mm256_i32gather_epi32((const int *)(const void *)w2, w2_index, 4);
    __m512i h = crelu_bytes(_mm512_loadu_si512(in), _mm512_loadu_si512(in + 16), s1, m1);
    __m512i s[2][2];
    for (int c = 0; c < 2; c++)
        s[c][0] = s[c][1] = _mm512_setzero_si512();
    for (int g = 0; g < 8; g++) {
        __m512i x = _mm512_permutexvar_epi32(_mm512_set1_epi32(g), h);
        s[g & 1][0] = dot(s[g & 1][0], x, w1 + 128 * g);
        s[g & 1][1] = dot(s[g & 1][1], x, w1 + 128 * g + 64);
    }
    __m512i o0 = _mm512_add_epi32(_mm512_add_epi32(s[0][0], s[1][0]), _mm512_loadu_si512(b1));
    __m512i o1 = _mm512_add_epi32(_mm512_add_epi32(s[0][1], s[1][1]), _mm512_loadu_si512(b1 + 16));
    __m512i h2 = crelu_bytes(o0, o1, s2, m2);
    /* One dot with fc2's weights in the low 256 bits (zeros above): lane g sums group g. */
    int8_t wc[64] __attribute__((aligned(64)));
    _mm512_store_si512(wc, _mm512_zextsi256_si512(w2v));
    __m512i d = dot(_mm512_setzero_si512(), h2, wc);
    return (int32_t)((uint32_t)b2[0] + (uint32_t)_mm512_reduce_add_epi32(d));
}

#endif
