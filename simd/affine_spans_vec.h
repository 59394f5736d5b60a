/* simd/affine_spans_vec.h: kernels.h affine_u8_spans on the vector layer, included by
 * kernels_vec.h before its table. Output-major: each output's dot products over whole vectors of
 * its two spans (vdot_add_bytes), summed across lanes once; a span's rest after its last whole
 * vector by the definition (kernels_scalar.h). For layers with few outputs reading part of a wide
 * input (YaneuraOu's common + shard fc0: 8 outputs of 256 + 192 bytes), where the input-major
 * kernel would broadcast every input group for a vector of mostly padding outputs. */
#ifndef NNUE_SIMD_AFFINE_SPANS_VEC_H
#define NNUE_SIMD_AFFINE_SPANS_VEC_H

/* Outputs o < nb (a constant: the sums stay in registers) of the block at w: the common span's
 * input vectors loaded once for the block, each output's own span after; a span's rest after its
 * last whole vector by the definition. */
VEC_TARGET static inline __attribute__((always_inline)) void
spans_block(const uint8_t *in, uint32_t n1, const uint32_t *at, uint32_t n2, const int8_t *w, uint32_t row,
            const int32_t *bias, int32_t *out, const int nb)
{
    vdot_t s[4];
    for (int b = 0; b < nb; b++)
        s[b] = vdot_zero();
    uint32_t j = 0, k = 0;
    for (; j + VEC_BYTES <= n1; j += VEC_BYTES)
        for (int b = 0; b < nb; b++)
            s[b] = vdot_add_bytes(s[b], in + j, w + (size_t)b * row + j);
    for (; k + VEC_BYTES <= n2; k += VEC_BYTES)
        for (int b = 0; b < nb; b++)
            s[b] = vdot_add_bytes(s[b], in + at[b] + k, w + (size_t)b * row + n1 + k);
    for (int b = 0; b < nb; b++) {
        const int8_t *wb = w + (size_t)b * row;
        uint32_t sum = (uint32_t)vec_hsum_i32(vdot_sum(s[b])) + nnue_ref_dot_u8(in + j, wb + j, n1 - j) +
                       nnue_ref_dot_u8(in + at[b] + k, wb + n1 + k, n2 - k);
        out[b] = (int32_t)(sum + (uint32_t)bias[b]);
    }
}

VEC_KERNEL void affine_u8_spans(const uint8_t *in, uint32_t n1, const uint32_t *at, uint32_t n2, const int8_t *w,
                                uint32_t row, const int32_t *bias, int32_t *out, uint32_t n_out)
{
    uint32_t o = 0;
    for (; o + 4 <= n_out; o += 4)
        spans_block(in, n1, at + o, n2, w + (size_t)o * row, row, bias + o, out + o, 4);
    for (; o < n_out; o++)
        spans_block(in, n1, at + o, n2, w + (size_t)o * row, row, bias + o, out + o, 1);
}

#endif
