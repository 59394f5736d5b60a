/* simd/acc_rows_vec.h: the accumulator row kernels of kernels.h (acc_i16, acc_i8, acc_i32,
 * acc_mixed: an accumulator plus and minus weight rows), written once against the vector layer;
 * included by kernels_vec.h, where VEC_I16, VEC_KERNEL and the set's vec_<isa>.h are defined. */
#ifndef NNUE_SIMD_ACC_ROWS_VEC_H
#define NNUE_SIMD_ACC_ROWS_VEC_H

#include "simd/paired_i8.h"

/* Vectors per tile when every row is i16 (acc_i16): each row's vector is an add's memory
 * operand there, so a set may keep more of the accumulator in registers than where i8 rows must be
 * widened into a register first (VEC_ACC_TILE). */
#ifndef VEC_ACC_TILE_I16
#define VEC_ACC_TILE_I16 VEC_ACC_TILE
#endif

/* Loops over a move's few rows stay loops: unrolled copies cost more to enter than they save, and
 * the smaller kernels keep the hot code within the L1i (callgrind's cache simulation, sf19
 * incremental: 124 L1i misses an evaluation with clang's unrolling, 110 without). */
#if defined(__clang__)
#define ROWS_NO_UNROLL _Pragma("clang loop unroll(disable)")
#else
#define ROWS_NO_UNROLL
#endif

#if defined(VEC_MASKED)
/* A row's last partial vector, masked (after ROWS_PASS); j moves to n. */
#define ROWS_TAIL(LOAD_N)                                                                                             \
    if (j < n) {                                                                                                      \
        uint32_t m = n - j;                                                                                           \
        vec_t v = vec_load_n_i16(src + j, m);                                                                         \
        for (int k = 0; k < n_sub; k++)                                                                               \
            v = vec_sub_i16(v, LOAD_N(sub[k] + j, m));                                                                \
        for (int k = 0; k < n_add; k++)                                                                               \
            v = vec_add_i16(v, LOAD_N(add[k] + j, m));                                                                \
        vec_store_n_i16(dst + j, v, m);                                                                               \
        j = n;                                                                                                        \
    }
#else
#define ROWS_TAIL(LOAD_N)
#endif

/* Tiles of T vectors of L lanes from value j on while they fit, held in registers across all the
 * rows; SUB and ADD the lane type's vector ops. ROWS_TILES: i16 values, I32_TILES: i32 (acc_i32). */
#define LANE_TILES(L, SUB, ADD, LOAD_ROW, T)                                                                          \
    for (; j + (L) * (T) <= n; j += (L) * (T)) {                                                                      \
        vec_t v[(T)];                                                                                                 \
        for (int t = 0; t < (T); t++)                                                                                 \
            v[t] = vec_load(src + j + (L) * t);                                                                       \
        ROWS_NO_UNROLL for (int k = 0; k < n_sub; k++)                                                                \
            for (int t = 0; t < (T); t++)                                                                             \
                v[t] = SUB(v[t], LOAD_ROW(sub[k] + j + (L) * t));                                                     \
        ROWS_NO_UNROLL for (int k = 0; k < n_add; k++)                                                                \
            for (int t = 0; t < (T); t++)                                                                             \
                v[t] = ADD(v[t], LOAD_ROW(add[k] + j + (L) * t));                                                     \
        for (int t = 0; t < (T); t++)                                                                                 \
            vec_store(dst + j + (L) * t, v[t]);                                                                       \
    }
#define ROWS_TILES(LOAD_ROW, T) LANE_TILES(VEC_I16, vec_sub_i16, vec_add_i16, LOAD_ROW, T)
#define I32_TILES(T) LANE_TILES(VEC_I32, vec_sub_i32, vec_add_i32, vec_load, T)

/* dst = src - sub rows + add rows on i16 (acc_i16): tiles of T vectors, then of T / 2 (what is
 * left of a row), then single vectors, then the scalar tail. */
#define ROWS_PASS(LOAD_ROW, T)                                                                                        \
    uint32_t j = 0;                                                                                                   \
    ROWS_TILES(LOAD_ROW, T)                                                                                           \
    ROWS_TILES(LOAD_ROW, (T) / 2)                                                                                     \
    for (; j + VEC_I16 <= n; j += VEC_I16) {                                                                          \
        vec_t v = vec_load(src + j);                                                                                  \
        for (int k = 0; k < n_sub; k++)                                                                               \
            v = vec_sub_i16(v, LOAD_ROW(sub[k] + j));                                                                 \
        for (int k = 0; k < n_add; k++)                                                                               \
            v = vec_add_i16(v, LOAD_ROW(add[k] + j));                                                                 \
        vec_store(dst + j, v);                                                                                        \
    }

VEC_KERNEL void acc_i16(int16_t *dst, const int16_t *src, const int16_t *const *sub, int n_sub,
                        const int16_t *const *add, int n_add, uint32_t n)
{
    ROWS_PASS(vec_load, VEC_ACC_TILE_I16)
    ROWS_TAIL(vec_load_n_i16)
    nnue_ref_acc_i16(dst, src, sub, n_sub, add, n_add, j, n);
}

/* Paired i8 rows (simd/paired_i8.h): vectors of one 64-value block, and from its first values'
 * vectors to its second values'. */
#define PAIR_VECS (NNUE_PAIRED_BLOCK / VEC_I16)
#define PAIR_HALF (PAIR_VECS / 2)
_Static_assert(VEC_ACC_TILE % PAIR_VECS == 0, "accumulator tiles of whole 64-value blocks");

/* The paired i8 row at `row` (value j of it) into the T vectors v (T a multiple of PAIR_VECS), OP
 * vec_add_i16 or vec_sub_i16: each load gives a block's first values as the bytes stand
 * (PAIRED_FIX corrects them) and its second values (>> 8); PAIRED_INTO: the rows list[0 .. count). */
#define PAIRED_ROW(T, row, OP)                                                                                        \
    for (int t = 0; t < (T); t += PAIR_VECS)                                                                          \
        for (int h = 0; h < PAIR_HALF; h++) {                                                                         \
            vec_t w = vec_load((row) + VEC_I16 * t + VEC_BYTES * h);                                                  \
            v[t + h] = OP(v[t + h], w);                                                                               \
            v[t + h + PAIR_HALF] = OP(v[t + h + PAIR_HALF], vec_srai8_i16(w));                                        \
        }
#define PAIRED_INTO(T, list, count, OP)                                                                               \
    ROWS_NO_UNROLL for (int k = 0; k < (count); k++)                                                                  \
        PAIRED_ROW(T, (list)[k] + j, OP)

/* After the paired rows, before any other row: each first-values vector less 256 times what its
 * block's second values gained since `base` (the tile's values before the rows) and 128 for each
 * row added less each row subtracted (paired_i8.h's sum). */
#define PAIRED_FIX(T, base, net_rows)                                                                                 \
    {                                                                                                                 \
        const vec_t bias_ = vec_set1_i16((int16_t)(uint16_t)(128u * (unsigned)(net_rows)));                           \
        for (int t = 0; t < (T); t += PAIR_VECS)                                                                      \
            for (int h = 0; h < PAIR_HALF; h++) {                                                                     \
                int hi = t + h + PAIR_HALF;                                                                           \
                vec_t gained = vec_sub_i16(v[hi], vec_load((base) + j + VEC_I16 * hi));                               \
                v[t + h] = vec_sub_i16(v[t + h], vec_add_i16(vec_slli8_i16(gained), bias_));                          \
            }                                                                                                         \
    }

/* acc_i8: tiles of T vectors (a multiple of PAIR_VECS) from value j on while they fit. */
#define PAIRED_TILES(T)                                                                                               \
    for (; j + VEC_I16 * (T) <= n; j += VEC_I16 * (T)) {                                                              \
        vec_t v[(T)];                                                                                                 \
        for (int t = 0; t < (T); t++)                                                                                 \
            v[t] = vec_load(src + j + VEC_I16 * t);                                                                   \
        PAIRED_INTO(T, sub, n_sub, vec_sub_i16)                                                                       \
        PAIRED_INTO(T, add, n_add, vec_add_i16)                                                                       \
        PAIRED_FIX(T, src, n_add - n_sub)                                                                             \
        for (int t = 0; t < (T); t++)                                                                                 \
            vec_store(dst + j + VEC_I16 * t, v[t]);                                                                   \
    }

VEC_KERNEL void acc_i8(int16_t *dst, const int16_t *src, const int8_t *const *sub, int n_sub,
                       const int8_t *const *add, int n_add, uint32_t n)
{
    uint32_t j = 0;
    PAIRED_TILES(VEC_ACC_TILE)
    PAIRED_TILES(PAIR_VECS)
    nnue_ref_acc_i8(dst, src, sub, n_sub, add, n_add, j, n);
}

/* Not inlined into acc_mixed, which calls it for its PSQT rows: one copy of the code (the L1i). */
VEC_KERNEL __attribute__((noinline)) void acc_i32(int32_t *dst, const int32_t *src, const int32_t *const *sub, int n_sub,
                        const int32_t *const *add, int n_add, uint32_t n)
{
    uint32_t j = 0;
    I32_TILES(2) /* 8 PSQT values on 128-bit vectors (SIMD128, NEON): one pass over the rows, not two */
    I32_TILES(1)
#if defined(VEC_MASKED)
    if (j < n) { /* PSQT rows of 8 values on 16-lane vectors take only this */
        uint32_t m = n - j;
        vec_t v = vec_load_n_i32(src + j, m);
        ROWS_NO_UNROLL for (int k = 0; k < n_sub; k++)
            v = vec_sub_i32(v, vec_load_n_i32(sub[k] + j, m));
        ROWS_NO_UNROLL for (int k = 0; k < n_add; k++)
            v = vec_add_i32(v, vec_load_n_i32(add[k] + j, m));
        vec_store_n_i32(dst + j, v, m);
        j = n;
    }
#endif
    nnue_ref_acc_i32(dst, src, sub, n_sub, add, n_add, j, n);
}

/* Every row of list[0 .. count) into the T vectors v at values j .. j + T * VEC_I16 (T a
 * constant where this is expanded): v[t] = OP(v[t], LOAD(row + j + VEC_I16 * t)). The loop over
 * rows is not unrolled (ROWS_NO_UNROLL): the tile is unrolled already. */
#define MIXED_INTO(T, list, count, LOAD, OP)                                                                          \
    ROWS_NO_UNROLL for (int k = 0; k < (count); k++)                                                                  \
        for (int t = 0; t < (T); t++)                                                                                 \
            v[t] = OP(v[t], LOAD((list)[k] + j + VEC_I16 * t));
#define MIXED_I16(T, LOAD16)                                                                                          \
    MIXED_INTO(T, sub16, n_sub16, LOAD16, vec_sub_i16)                                                                \
    MIXED_INTO(T, add16, n_add16, LOAD16, vec_add_i16)
#define LOAD_M16(p) vec_load_n_i16(p, m) /* the first m lanes (VEC_MASKED) */

/* A tile of T vectors (a multiple of PAIR_VECS) at value j: the paired i8 rows first (their
 * correction reads src's values under the tile), then the i16 rows. */
#define MIXED_TILE(T)                                                                                                 \
    {                                                                                                                 \
        vec_t v[(T)];                                                                                                 \
        for (int t = 0; t < (T); t++)                                                                                 \
            v[t] = vec_load(src + j + VEC_I16 * t);                                                                   \
        if (n_sub8 + n_add8) {                                                                                        \
            PAIRED_INTO(T, sub8, n_sub8, vec_sub_i16)                                                                 \
            PAIRED_INTO(T, add8, n_add8, vec_add_i16)                                                                 \
            PAIRED_FIX(T, src, n_add8 - n_sub8)                                                                       \
        }                                                                                                             \
        MIXED_I16(T, vec_load)                                                                                        \
        for (int t = 0; t < (T); t++)                                                                                 \
            vec_store(dst + j + VEC_I16 * t, v[t]);                                                                   \
    }

/* kernels.h acc_mixed: ROWS_PASS's tiles with the i16 and the i8 rows in the same tile, so the
 * accumulator is read and stored once for both kinds (a piece-square set and a threat set). The
 * lists and counts are read into locals first: the stores to dst cannot alias them then. */
VEC_KERNEL void acc_mixed(int16_t *dst, const int16_t *src, const nnue_mixed_rows *r, uint32_t n)
{
    const int16_t *const *sub16 = r->sub16, *const *add16 = r->add16;
    const int8_t *const *sub8 = r->sub8, *const *add8 = r->add8;
    const int n_sub16 = r->n_sub16, n_add16 = r->n_add16, n_sub8 = r->n_sub8, n_add8 = r->n_add8;
    uint32_t j = 0;
    for (; j + VEC_I16 * VEC_ACC_TILE <= n; j += VEC_I16 * VEC_ACC_TILE)
        MIXED_TILE(VEC_ACC_TILE)
    for (; j + VEC_I16 * PAIR_VECS <= n; j += VEC_I16 * PAIR_VECS)
        MIXED_TILE(PAIR_VECS)
    /* the rest (under 64 values) only when there are no i8 rows: theirs is a multiple of 64 */
    for (; j + VEC_I16 <= n && !(n_sub8 + n_add8); j += VEC_I16) {
        vec_t v[1] = {vec_load(src + j)};
        MIXED_I16(1, vec_load)
        vec_store(dst + j, v[0]);
    }
#if defined(VEC_MASKED)
    if (j < n && !(n_sub8 + n_add8)) {
        uint32_t m = n - j;
        vec_t v[1] = {vec_load_n_i16(src + j, m)};
        MIXED_I16(1, LOAD_M16)
        vec_store_n_i16(dst + j, v[0], m);
        j = n;
    }
#endif
    nnue_ref_acc_mixed(dst, src, r, j, n);
    if (r->buckets) /* the PSQT rows in the same call */
        acc_i32(r->psqt_dst, r->psqt_src, r->psub, n_sub16 + n_sub8, r->padd, n_add16 + n_add8, r->buckets);
}

#endif
