/* core/simd/affine_u8_avx512.h: the AVX-512 u8 x i8 affine kernel body, shared by the AVX-512
 * and the VNNI kernel sets. Included (not compiled alone) by a file that first defines TGT (its
 * target attribute) and `dot(acc, x, w)`: acc + the 4-byte dot products of x and the 64 weight
 * bytes at w, per 32-bit lane. Everything else, the layout walk and the 4-way unrolled sums,
 * is identical for both instruction sets. Weights: [input group of 4][outputs padded to 16][4].
 * pass() and run() are forced inline: with a constant block count and the dense/list choice
 * known, the 4 x nb sums stay in registers (as separate functions clang spilled them to the
 * stack inside the loop, about a third slower on the dense 512->32 layer). */
#ifndef NNUE_CORE_SIMD_AFFINE_U8_AVX512_H
#define NNUE_CORE_SIMD_AFFINE_U8_AVX512_H

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

#endif
