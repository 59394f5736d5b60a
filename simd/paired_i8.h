/* simd/paired_i8.h: the byte order of the i8 weight rows the accumulator kernels read (kernels.h
 * acc_i8, acc_mixed's i8 rows, acc_sum's i8 parts), and its scalar reading and writing.
 *
 * A row of `width` values (a multiple of 64) goes in blocks of 64 values; in block b, bytes 2k and
 * 2k + 1 (k < 32) hold value 64b + k plus 128 (as an unsigned byte: the i8 value with its top bit
 * flipped) and value 64b + 32 + k (as an i8). Read as i16 lanes, a vector of such bytes w gives the
 * second values at once (w >> 8, arithmetic), and a sum of n such vectors the first values as
 * sum(w) - 256 * sum(w >> 8) - 128 * n, in wrapping i16: every step is exact modulo 2^16, which is
 * the accumulator's own arithmetic. A row costs then one shift and two adds per 64 bytes where
 * sign-extending the plain bytes took two widenings and two adds: on Intel the widenings all go
 * to one port (p5), which bounded the refreshes of narrowed nets (docs/speed.md, "Threat pairs
 * through the net's filter; paired i8 rows").
 * Any vector width reads it: 64 bytes a block on AVX-512, two halves on AVX2, four quarters on
 * 16-byte sets, each half or quarter giving one vector of first values and one of second values. */
#ifndef NNUE_SIMD_PAIRED_I8_H
#define NNUE_SIMD_PAIRED_I8_H

#include <stdint.h>

#define NNUE_PAIRED_BLOCK 64 /* values a block; an i8 row's width is a multiple of it */

/* Byte offset of value j in its row. */
static inline uint32_t nnue_paired_offset(uint32_t j)
{
    uint32_t k = j % NNUE_PAIRED_BLOCK;
    return j - k + (k < 32 ? 2 * k : 2 * (k - 32) + 1);
}

/* Value j of a paired row. */
static inline int16_t nnue_paired_value(const int8_t *row, uint32_t j)
{
    uint8_t b = (uint8_t)row[nnue_paired_offset(j)];
    return (int16_t)(int8_t)(j % NNUE_PAIRED_BLOCK < 32 ? b ^ 0x80 : b);
}

/* Writes value v (-128..127) as value j of a paired row. */
static inline void nnue_paired_put(int8_t *row, uint32_t j, int8_t v)
{
    row[nnue_paired_offset(j)] = (int8_t)(uint8_t)(j % NNUE_PAIRED_BLOCK < 32 ? (uint8_t)v ^ 0x80 : (uint8_t)v);
}

/* Plain i8 values (width a multiple of 64) as a paired row, into row (not plain). */
static inline void nnue_paired_row_from_plain(const int8_t *plain, int8_t *row, uint32_t width)
{
    for (uint32_t b = 0; b < width; b += NNUE_PAIRED_BLOCK)
        for (uint32_t k = 0; k < 32; k++) {
            row[b + 2 * k] = (int8_t)((uint8_t)plain[b + k] ^ 0x80);
            row[b + 2 * k + 1] = plain[b + 32 + k];
        }
}

/* A paired row of `width` values (a multiple of 64) as plain i8 values, into out. */
static inline void nnue_paired_row_plain(const int8_t *row, int8_t *out, uint32_t width)
{
    for (uint32_t b = 0; b < width; b += NNUE_PAIRED_BLOCK)
        for (uint32_t k = 0; k < 32; k++) {
            out[b + k] = (int8_t)((uint8_t)row[b + 2 * k] ^ 0x80);
            out[b + 32 + k] = row[b + 2 * k + 1];
        }
}

#endif
