/* simd/kernels_f32_vec.h: the float32 kernels (simd/kernels_f32.h), written once against the
 * float part of the vector layer. Included by a kernels_<isa>.c after kernels_vec.h, with
 * VECF_TABLE naming the table. The float part of vec_<isa>.h (a block of its own there) defines
 *   vecf_t, VECF_LANES        one float32 vector and its lanes (4, 8 or 16: each divides 16)
 *   VECF_TARGET               the attribute every function of the set carries, or empty
 *   vecf_zero(), vecf_set1(x), vecf_load(p), vecf_store(p, v)   (memory unaligned)
 *   vecf_add(a, b)            a + b lane by lane, one float32 rounding
 *   vecf_fma(a, b, c)         a * b + c lane by lane, one rounding (fused, as fmaf)
 * Exactness: each lane computes one of the definition's sums with its terms in its order and
 * every operation of the definition, operands in the definition's order; lanes never mix except
 * where the definition adds two of its partial sums (the lane halving). */
#include <math.h>
#include <string.h>

#include "simd/kernels_f32.h"

#define VECF_KERNEL VECF_TARGET static
#define VECF_BLOCKS 4 /* output vectors per pass of the one-chain affine (4 sums + the inputs) */

/* Outputs o .. o + nb vectors (those below n_out) of the one-chain affine: nb independent chains
 * of vectors, each the bias then one fused multiply-add per input in order. A pass that reaches
 * past n_out starts its last lanes from 0 and stores only the lanes below n_out. */
VECF_TARGET static inline __attribute__((always_inline)) void
chains_f32(const float *in, uint32_t n_in, const float *w, uint32_t out_pad, const float *bias, float *out,
           uint32_t o, uint32_t n_out, const int nb)
{
    vecf_t s[VECF_BLOCKS];
    float t[VECF_BLOCKS * VECF_LANES];
    uint32_t m = n_out - o < (uint32_t)nb * VECF_LANES ? n_out - o : (uint32_t)nb * VECF_LANES;
    const float *b0 = bias + o;
    if (m < (uint32_t)nb * VECF_LANES) {
        memset(t, 0, sizeof t);
        memcpy(t, b0, m * sizeof(float));
        b0 = t;
    }
    for (int b = 0; b < nb; b++)
        s[b] = vecf_load(b0 + VECF_LANES * b);
    for (uint32_t j = 0; j < n_in; j++) {
        vecf_t x = vecf_set1(in[j]);
        const float *row = w + (size_t)j * out_pad + o;
        for (int b = 0; b < nb; b++)
            s[b] = vecf_fma(x, vecf_load(row + VECF_LANES * b), s[b]);
    }
    if (m == (uint32_t)nb * VECF_LANES) {
        for (int b = 0; b < nb; b++)
            vecf_store(out + o + VECF_LANES * b, s[b]);
        return;
    }
    for (int b = 0; b < nb; b++)
        vecf_store(t + VECF_LANES * b, s[b]);
    memcpy(out + o, t, m * sizeof(float));
}

/* kernels_f32.h affine: input-major weights, so each input is one broadcast times whole output
 * vectors; up to VECF_BLOCKS output vectors per pass (out_pad covers the last one's lanes). */
VECF_KERNEL void affine_f32(const float *in, uint32_t n_in, const float *w, const float *bias, float *out,
                            uint32_t n_out, uint32_t out_pad)
{
    for (uint32_t o = 0; o < n_out;) {
        uint32_t left = (n_out - o + VECF_LANES - 1) / VECF_LANES;
        int nb = left >= VECF_BLOCKS ? VECF_BLOCKS : (int)left;
        switch (nb) { /* constant block counts, so the sums stay in registers */
        case 4: chains_f32(in, n_in, w, out_pad, bias, out, o, n_out, 4); break;
        case 3: chains_f32(in, n_in, w, out_pad, bias, out, o, n_out, 3); break;
        case 2: chains_f32(in, n_in, w, out_pad, bias, out, o, n_out, 2); break;
        default: chains_f32(in, n_in, w, out_pad, bias, out, o, n_out, 1); break;
        }
        o += (uint32_t)nb * VECF_LANES;
    }
}

/* kernels_f32.h affine_lanes with fewer lanes than a vector: the definition's loops, each fmaf
 * one fused instruction of the level (VECF_TARGET). */
VECF_TARGET static void affine_lanes_narrow(const float *in, uint32_t n_in, const float *w, const float *bias,
                                            float *out, uint32_t n_out, uint32_t lanes)
{
    for (uint32_t o = 0; o < n_out; o++) {
        const float *row = w + (size_t)o * n_in;
        float c[VECF_LANES];
        for (uint32_t k = 0; k < lanes; k++) { /* each lane's chain on its own: the same order */
            float sum = 0.0f;
            for (uint32_t i = k; i < n_in; i += lanes)
                sum = fmaf(in[i], row[i], sum);
            c[k] = sum;
        }
        for (uint32_t half = lanes / 2; half; half /= 2)
            for (uint32_t k = 0; k < half; k++)
                c[k] = c[k] + c[k + half];
        out[o] = c[0] + bias[o];
    }
}

/* kernels_f32.h affine_lanes: the L lanes' sums as L / VECF_LANES vectors (lane l of the sum in
 * vector l / VECF_LANES, lane l % VECF_LANES). The halving steps of half >= VECF_LANES add whole
 * vectors (lane l + half is lane l of the vector half / VECF_LANES further on); the last ones
 * run on the stored lanes, the definition's additions in its order. */
VECF_TARGET static inline __attribute__((always_inline)) void
lanes_f32(const float *in, uint32_t n_in, const float *w, const float *bias, float *out, uint32_t n_out,
          uint32_t lanes, const uint32_t nv)
{
    for (uint32_t o = 0; o < n_out; o++) {
        const float *row = w + (size_t)o * n_in;
        vecf_t c[64 / VECF_LANES];
        for (uint32_t v = 0; v < nv; v++)
            c[v] = vecf_zero();
        for (uint32_t i = 0; i < n_in; i += lanes)
            for (uint32_t v = 0; v < nv; v++)
                c[v] = vecf_fma(vecf_load(in + i + VECF_LANES * v), vecf_load(row + i + VECF_LANES * v), c[v]);
        for (uint32_t h = nv / 2; h; h /= 2)
            for (uint32_t v = 0; v < h; v++)
                c[v] = vecf_add(c[v], c[v + h]);
        float t[VECF_LANES];
        vecf_store(t, c[0]);
        for (uint32_t half = VECF_LANES / 2; half; half /= 2)
            for (uint32_t k = 0; k < half; k++)
                t[k] = t[k] + t[k + half];
        out[o] = t[0] + bias[o];
    }
}

VECF_KERNEL void affine_lanes_f32(const float *in, uint32_t n_in, const float *w, const float *bias, float *out,
                                  uint32_t n_out, uint32_t lanes)
{
    if (lanes < VECF_LANES)
        affine_lanes_narrow(in, n_in, w, bias, out, n_out, lanes);
    else if (lanes == 16) /* the 2026 nets' (a constant vector count keeps the sums in registers) */
        lanes_f32(in, n_in, w, bias, out, n_out, 16, 16 / VECF_LANES);
    else
        lanes_f32(in, n_in, w, bias, out, n_out, lanes, lanes / VECF_LANES);
}

/* kernels_f32.h dequantize: the definition's loop (the compiler makes it vectors of the level:
 * one conversion and one fused multiply-add a value, whatever the width). */
VECF_KERNEL void dequantize_f32(const int32_t *in, uint32_t n, float scale, const float *bias, float *out)
{
#if defined(__clang__)
#pragma clang loop interleave_count(1) /* 16 or 32 values: whole vectors, not the scalar remainder */
#endif
    for (uint32_t o = 0; o < n; o++)
        out[o] = fmaf((float)in[o], scale, bias[o]);
}

#include "simd/kernels_f32_head.h"

const nnue_kernels_f32 VECF_TABLE = {affine_f32, affine_lanes_f32, dequantize_f32, head_f32};
