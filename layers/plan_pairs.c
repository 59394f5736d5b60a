/* layers/plan_pairs.c: where a u8 layer's kernel may add two input groups' products in one i16
 * lane before widening them (nnue_plan_layer.pairs, kernels.h head_u8_fc0's pairs): the proof
 * from the prepared weights and the inputs' bound. On its own (only the kernels' block size), so
 * that the kernel tests, the WebAssembly build of them included, check it with the kernels. */
#include "layers/plan_pairs.h"
#include "simd/kernels.h" /* NNUE_KERNEL_OUT_BLOCK */

/* The larger of two running maxima *m1 >= *m2 updated with x. */
static void keep_top2(int64_t x, int64_t *m1, int64_t *m2)
{
    if (x > *m1)
        *m2 = *m1, *m1 = x;
    else if (x > *m2)
        *m2 = x;
}

/* The 16-output blocks of a layer's prepared weights w ([groups][out_pad][4]) in which two input
 * groups' products may share one i16 lane (kernels.h head_u8_fc0's pairs): a lane holds, for one
 * output, the products of one half of a group (two inputs) of each of two different groups, so
 * with inputs in 0 .. in_hi the sum stays within i16 for any two groups when the two largest
 * halves' positive weights (over the groups), times in_hi, add up to at most 32767, and the same
 * for the negative ones and -32768. Bit k for outputs 16k .. 16k + 15 below out_pad (padding
 * outputs have zero weights). */
uint32_t nnue_plan_pair_blocks(const int8_t *w, uint32_t groups, uint32_t out_pad, int64_t in_hi)
{
    uint32_t bits = 0;
    for (uint32_t b = 0; b < 32 && b * NNUE_KERNEL_OUT_BLOCK < out_pad; b++) {
        int ok = 1;
        for (uint32_t o = b * NNUE_KERNEL_OUT_BLOCK; ok && o < (b + 1) * NNUE_KERNEL_OUT_BLOCK && o < out_pad; o++)
            for (int h = 0; ok && h < 2; h++) {
                int64_t pos1 = 0, pos2 = 0, neg1 = 0, neg2 = 0;
                for (uint32_t g = 0; g < groups; g++) {
                    const int8_t *x = w + ((size_t)g * out_pad + o) * 4 + 2 * h;
                    keep_top2((x[0] > 0 ? x[0] : 0) + (x[1] > 0 ? x[1] : 0), &pos1, &pos2);
                    keep_top2((x[0] < 0 ? -x[0] : 0) + (x[1] < 0 ? -x[1] : 0), &neg1, &neg2);
                }
                ok = in_hi * (pos1 + pos2) <= 32767 && in_hi * (neg1 + neg2) <= 32768;
            }
        bits |= (uint32_t)ok << b;
    }
    return bits;
}
