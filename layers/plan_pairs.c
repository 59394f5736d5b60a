/* layers/plan_pairs.c: where a u8 layer's kernel may add two (four, eight) input groups' products
 * in one i16 lane before widening them (nnue_plan_layer.pairs, kernels.h's pairs word): the proof
 * from the prepared weights and the inputs' bound. On its own (only the kernels' block size),
 * so that the kernel tests, the WebAssembly build of them included, check it with the kernels. */
#include "layers/plan_pairs.h"
#include "simd/kernels.h" /* NNUE_KERNEL_OUT_BLOCK and the pairs word's fields */

/* The CHAIN largest values seen, top[0] >= top[1] >= ..., updated with x. */
static void keep_top(int64_t x, int64_t top[NNUE_CHAIN_MAX])
{
    for (int k = 0; k < NNUE_CHAIN_MAX; k++)
        if (x > top[k]) {
            for (int m = NNUE_CHAIN_MAX - 1; m > k; m--)
                top[m] = top[m - 1];
            top[k] = x;
            return;
        }
}

/* The 16-output blocks of a layer's prepared weights w ([groups][out_pad][4]) in which n = 2, 4
 * or 8 input groups' products may share one i16 lane (kernels.h head_u8_fc0's pairs): a lane
 * holds, for one output, the products of one half of a group (two inputs) of each of n different
 * groups, so with inputs in 0 .. in_hi the sum stays within i16 for any n groups when the n
 * largest halves' positive weights (over the groups), times in_hi, add up to at most 32767, and
 * the same for the negative ones and -32768. Padding outputs have zero weights. */
uint32_t nnue_plan_pair_blocks(const int8_t *w, uint32_t groups, uint32_t out_pad, int64_t in_hi)
{
    uint32_t bits = 0;
    for (uint32_t b = 0; b < NNUE_CHAIN_BLOCKS && b * NNUE_KERNEL_OUT_BLOCK < out_pad; b++) {
        int most = NNUE_CHAIN_MAX; /* the largest n every lane of the block allows */
        for (uint32_t o = b * NNUE_KERNEL_OUT_BLOCK; most > 1 && o < (b + 1) * NNUE_KERNEL_OUT_BLOCK && o < out_pad; o++)
            for (int h = 0; h < 2; h++) {
                int64_t pos[NNUE_CHAIN_MAX] = {0}, neg[NNUE_CHAIN_MAX] = {0}, ps = 0, ns = 0;
                for (uint32_t g = 0; g < groups; g++) {
                    const int8_t *x = w + ((size_t)g * out_pad + o) * 4 + 2 * h;
                    keep_top((x[0] > 0 ? x[0] : 0) + (x[1] > 0 ? x[1] : 0), pos);
                    keep_top((x[0] < 0 ? -x[0] : 0) + (x[1] < 0 ? -x[1] : 0), neg);
                }
                for (int n = 0; n < most; n++) {
                    ps += pos[n], ns += neg[n];
                    if (in_hi * ps > 32767 || in_hi * ns > 32768)
                        most = n; /* n + 1 halves overflow: n at most */
                }
            }
        bits |= (uint32_t)(most >= 2) << b | (uint32_t)(most >= 4) << (NNUE_QUADS_SHIFT + b) |
                (uint32_t)(most >= 8) << (NNUE_EIGHTS_SHIFT + b);
    }
    return bits;
}
