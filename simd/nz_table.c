/* simd/nz_table.c: for each 8-bit mask, the positions of its set bits in ascending order.
 * Lets the vector nonzero_groups kernels write a whole batch of indices with one store and
 * advance by the popcount, instead of a branch per non-zero group. Filled once when the
 * library is loaded. */
#include "simd/nz_table.h"

uint8_t nnue_nz_table[256][8];

__attribute__((constructor)) static void fill(void)
{
    for (int m = 0; m < 256; m++) {
        int n = 0;
        for (int b = 0; b < 8; b++)
            if (m >> b & 1)
                nnue_nz_table[m][n++] = (uint8_t)b;
    }
}
