/* simd/vnz_vbmi2.h: the non-zero list made with AVX-512 VBMI2's compress (vec.h VEC_NZ_COMPRESS):
 * the positions of up to 16 set bits at once, one vpcompressw of the next 16 group numbers kept in
 * a vector, stored whole (idx has room for 16 entries past the count), where the byte-table path
 * (vnz_x86.h) takes two table loads, widenings and adds. The compress goes to a register and then
 * to memory: a compress straight to memory is microcoded on AMD's Zen 4. Included by vec_avx512.h
 * for the set that defines VEC_VBMI2. */
#ifndef NNUE_SIMD_VNZ_VBMI2_H
#define NNUE_SIMD_VNZ_VBMI2_H

#define VEC_NZ_BASE 1
#define VEC_NZ_COMPRESS 1
typedef __m256i vnz_t; /* lane k: the group number of bit k of the next 16 bits */
VEC_FN vnz_t vnz_base(uint16_t g)
{
    return _mm256_add_epi16(_mm256_set1_epi16((int16_t)g),
                            _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}
VEC_FN vnz_t vnz_next16(vnz_t b) { return _mm256_add_epi16(b, _mm256_set1_epi16(16)); }
/* dst[0 .. popcount(bits)) = the lanes of b whose bit is set, in order; 16 entries written. */
VEC_FN void vec_nz_compress16(uint16_t *dst, unsigned bits, vnz_t b)
{
    _mm256_storeu_si256((__m256i *)dst, _mm256_maskz_compress_epi16((__mmask16)bits, b));
}

#endif
