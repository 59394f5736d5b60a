/* simd/affine_spans_vec.h: kernels.h affine_u8_spans on the vector layer, included by
 * kernels_vec.h before its table. Output-major: each output's dot products over whole vectors of
 * its two spans (vdot_add_bytes), summed across lanes once; a span's rest after its last whole
 * vector by the definition (kernels_scalar.h). For layers with few outputs reading part of a wide
 * input (YaneuraOu's common + shard fc0: 8 outputs of 256 + 192 bytes), where the input-major
 * kernel would broadcast every input group for a vector of mostly padding outputs. */
#ifndef NNUE_SIMD_AFFINE_SPANS_VEC_H
#define NNUE_SIMD_AFFINE_SPANS_VEC_H

/* sum over j < n of x[j] * w[j] in s's lanes, whole vectors only; returns the bytes done. */
VEC_TARGET static inline __attribute__((always_inline)) uint32_t span_dot(vdot_t *s, const uint8_t *x,
                                                                          const int8_t *w, uint32_t n)
{
    uint32_t j = 0;
    for (; j + VEC_BYTES <= n; j += VEC_BYTES)
        *s = vdot_add_bytes(*s, x + j, w + j);
    return j;
}

VEC_KERNEL void affine_u8_spans(const uint8_t *in, uint32_t n1, const uint32_t *at, uint32_t n2, const int8_t *w,
                                uint32_t row, const int32_t *bias, int32_t *out, uint32_t n_out)
{
    for (uint32_t o = 0; o < n_out; o++) {
        const int8_t *wo = w + (size_t)o * row;
        const uint8_t *x2 = in + at[o];
        vdot_t s1 = vdot_zero(), s2 = vdot_zero(); /* two chains: the spans' sums run side by side */
        uint32_t d1 = span_dot(&s1, in, wo, n1), d2 = span_dot(&s2, x2, wo + n1, n2);
        uint32_t sum = (uint32_t)vec_hsum_i32(vec_add_i32(vdot_sum(s1), vdot_sum(s2)));
        sum += nnue_ref_dot_u8(in + d1, wo + d1, n1 - d1) + nnue_ref_dot_u8(x2 + d2, wo + n1 + d2, n2 - d2);
        out[o] = (int32_t)(sum + (uint32_t)bias[o]);
    }
}

#endif
