/* core/net/column_extremes.h: the sums of the k largest and k smallest values of each column of a
 * weight matrix, behind the worst-case accumulator ranges (core/net/net_ranges.c). */
#ifndef NNUE_CORE_NET_COLUMN_EXTREMES_H
#define NNUE_CORE_NET_COLUMN_EXTREMES_H

#include <stdint.h>

#include "core/arch/layer.h" /* nnue_dtype */

/* For each column of a rows x cols matrix of t (i8, i16, i32): adds the sum of its k largest
 * values, never below 0 (those of k active features at most), into hi[col], and of its k
 * smallest, never above 0, into lo[col]. One pass over the matrix (column_extremes.c says how; large
 * matrices split their columns over two threads). 0, or
 * -1 when out of memory. */
int nnue_extreme_column_sums(const void *m, nnue_dtype t, uint32_t rows, uint32_t cols, int k, int64_t *hi,
                             int64_t *lo);

#endif
