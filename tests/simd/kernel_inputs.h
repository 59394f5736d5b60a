/* tests/simd/kernel_inputs.h: the random inputs of the kernel tests (test_simd_kernels.c and
 * test_simd_kernels_features.c, one program): a xorshift stream, values with the bounds drawn often,
 * the sizes every kernel is tried at, and the kernel set of each level the CPU runs. */
#ifndef NNUE_TESTS_KERNEL_INPUTS_H
#define NNUE_TESTS_KERNEL_INPUTS_H

#include <stdint.h>

#include "base/isa.h"
#include "simd/kernels.h"

extern uint64_t rng; /* one stream for the program (test_simd_kernels.c) */
static inline uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* Random value in [lo, hi], the bounds themselves drawn often. */
static inline int32_t pick(int32_t lo, int32_t hi)
{
    uint32_t r = rnd() % 16;
    if (r == 0)
        return lo;
    if (r == 1)
        return hi;
    int64_t span = (int64_t)hi - lo + 1;
    if (span > (int64_t)UINT32_MAX) /* the whole int32 range: any 32 random bits */
        return (int32_t)rnd();
    return (int32_t)((int64_t)lo + (int64_t)(rnd() % (uint32_t)span));
}

static const uint32_t sizes[] = {1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129,
                                 255, 256, 257, 511, 512, 1023, 1024, 1536, 2560};
#define N_SIZES (int)(sizeof sizes / sizeof sizes[0])
#define MAXN 2600

/* Widths of i8 rows (kernels.h acc_i8: whole 64-value blocks), and value j of such a row read by
 * the layout's own words (simd/paired_i8.h: in each block of 64, bytes 2k and 2k + 1 hold value k
 * with its top bit flipped and value 32 + k), for the tests' definitions by hand. */
static const uint32_t sizes8[] = {64, 128, 192, 256, 512, 768, 1024, 1536, 2560};
#define N_SIZES8 (int)(sizeof sizes8 / sizeof sizes8[0])
static inline int16_t paired_by_hand(const int8_t *row, uint32_t j)
{
    uint32_t block = j / 64 * 64, k = j % 64;
    uint8_t byte = (uint8_t)row[block + (k < 32 ? 2 * k : 2 * (k - 32) + 1)];
    return (int8_t)(k < 32 ? byte ^ 0x80 : byte);
}

static inline int vnni(int isa)
{
#if defined(__x86_64__)
    return isa == NNUE_ISA_VNNI512 || isa == NNUE_ISA_VBMI512;
#else
    (void)isa;
    return 0;
#endif
}

static inline const nnue_kernels *isa_set(int i)
{
    return i <= (int)nnue_isa_best() ? nnue_kernels_for((nnue_isa)i) : NULL;
}

#endif
