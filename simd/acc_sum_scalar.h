/* simd/acc_sum_scalar.h: the scalar definition of kernels.h acc_sum (a refresh: biases plus every
 * active row, and the PSQT rows' sum), over a range [from, n) of the values like the other
 * definitions (kernels_scalar.h): the scalar table runs it over whole rows, the vector kernel
 * (acc_sum_vec.h) on what is left after its last vector. i16 and i32 sums wrap (computed
 * unsigned), so the order of the rows does not matter. Internal to simd/. */
#ifndef NNUE_SIMD_ACC_SUM_SCALAR_H
#define NNUE_SIMD_ACC_SUM_SCALAR_H

#include <stddef.h>
#include <stdint.h>

#include "simd/kernels.h"
#include "simd/paired_i8.h"

static inline void nnue_ref_acc_sum(int16_t *dst, const int16_t *bias, const nnue_sum_part *parts, int n_parts,
                                    uint32_t width, uint32_t from, uint32_t n)
{
    for (uint32_t j = from; j < n; j++) {
        uint16_t v = (uint16_t)bias[j];
        for (int q = 0; q < n_parts; q++) {
            const nnue_sum_part *p = &parts[q];
            for (int k = 0; k < p->n; k++) {
                size_t at = (size_t)p->idx[k] * width + j;
                v = (uint16_t)(v + (uint16_t)(p->i8 ? nnue_paired_value((const int8_t *)p->rows + at - j, j)
                                                    : ((const int16_t *)p->rows)[at]));
            }
        }
        dst[j] = (int16_t)v;
    }
}

/* Row r of part p checked against its flags (nnue_sum_part.flags): written at flagged[nf], counted
 * when flagged (no branch on the bit). Returns the new count. */
static inline int nnue_ref_sum_flag(const nnue_sum_part *p, uint32_t r, int nf)
{
    p->flagged[nf] = r;
    return nf + (int)(p->flags[r / 64] >> (r % 64) & 1);
}

/* The flagged rows of every part that has flags, as acc_sum lists them. */
static inline void nnue_ref_sum_flags(const nnue_sum_part *parts, int n_parts)
{
    for (int q = 0; q < n_parts; q++)
        if (parts[q].flags) {
            int nf = 0;
            for (int k = 0; k < parts[q].n; k++)
                nf = nnue_ref_sum_flag(&parts[q], parts[q].idx[k], nf);
            *parts[q].n_flagged = nf;
        }
}

static inline void nnue_ref_psqt_sum(int32_t *dst, const nnue_sum_part *parts, int n_parts, uint32_t buckets,
                                     uint32_t from, uint32_t n)
{
    for (uint32_t b = from; b < n; b++) {
        uint32_t v = 0;
        for (int q = 0; q < n_parts; q++)
            if (parts[q].psqt)
                for (int k = 0; k < parts[q].n; k++)
                    v += (uint32_t)parts[q].psqt[(size_t)parts[q].idx[k] * buckets + b];
        dst[b] = (int32_t)v;
    }
}

#endif
