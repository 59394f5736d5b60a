/* simd/acc_sum_vec.h: kernels.h acc_sum (a refresh of one perspective: biases plus every active
 * row, and the PSQT rows' sum) written once like kernels_vec.h, which includes this file before
 * its table, after the set's vec_<isa>.h; the scalar definition is acc_sum_scalar.h.
 *
 * The accumulator goes in tiles held in registers: a tile's biases are loaded once, every row of
 * every part is added to it (a wide row's address listed once per call, inside the kernel; a
 * narrow row's computed from its index in the tile's loop: VEC_SUM_LIST_TILES below), and it is
 * stored once; then the PSQT rows the same way, in the same call. i16 rows are added from memory;
 * paired i8 rows (simd/paired_i8.h) are added first, their first values corrected (PAIRED_FIX,
 * acc_rows_vec.h) before the i16 rows. Tiles of 512 bytes of a row on
 * AVX-512 (8 vectors of i16 rows, 16 of i8 rows): whole-row tiles (32 registers, a 1024-wide
 * HalfKAv2_hm row at once, as Stockfish 15.1 does) ran no faster on the chess refresh workload
 * (user time, fastest of 6 runs of 5 iterations, AVX-512 Xeon: 0.89 s against 0.86 s for 8
 * vectors and 0.90 s for 16): a refresh is bound by the rows' transfer, not by the adds.
 * AVX2 takes 512 bytes of an i16 row too (16 vectors: all its registers, the rows being the adds'
 * memory operands; simd/vec_avx2.h).
 * Narrower tiles then take what is left of a row, then single vectors, then one partial vector
 * (VEC_MASKED), then the scalar definition. */
#ifndef NNUE_SIMD_ACC_SUM_VEC_H
#define NNUE_SIMD_ACC_SUM_VEC_H

#include "simd/acc_sum_scalar.h"

/* Vectors per tile: of i16 rows only (VEC_SUM_TILE16), and when i8 rows are among them
 * (VEC_SUM_TILE8). A set may define its own before including kernels_vec.h. */
#ifndef VEC_SUM_TILE16
#define VEC_SUM_TILE16 8
#if VEC_BYTES == 64
#define VEC_SUM_TILE8 16 /* the same 512 bytes of an i8 row */
#else
#define VEC_SUM_TILE8 8
#endif
#endif
_Static_assert(VEC_SUM_TILE8 % PAIR_VECS == 0, "refresh tiles of whole 64-value blocks");
/* Half a tile where that is still whole blocks (a 256-wide HalfKP row in one tile on AVX-512; in
 * tiles of one block it ran 12% slower), else one block. */
#if VEC_SUM_TILE8 / 2 % PAIR_VECS == 0
#define SUM_TILE8_HALF (VEC_SUM_TILE8 / 2)
#else
#define SUM_TILE8_HALF PAIR_VECS
#endif

/* Each row's part in the tile is requested SUM_AHEAD rows before it is added, every line of it:
 * the rows come from the LL or memory in random order, and the loads of the row being added keep
 * few requests in flight (the line-fill buffers), so the next rows' lines were requested only as
 * their loads issued. ab on the Xeon (Emerald Rapids, AVX-512), fastest of 9, refresh: yo-progress
 * 0.916, shogi-sfnn 0.883, yo-shard 0.894, chess 0.980, sf19 0.962; 2, 3, 6 or 8 rows ahead, or
 * only the first line of each, gained less (docs/speed.md). */
#define SUM_AHEAD 4
#define SUM_PREFETCH(p, bytes)                                                                                        \
    do {                                                                                                              \
        const char *ahead_ = (const char *)(p);                                                                       \
        for (size_t line_ = 0; line_ < (bytes); line_ += 64)                                                          \
            __builtin_prefetch(ahead_ + line_);                                                                       \
    } while (0)

/* Row addresses listed once per call (a chunk of up to VEC_SUM_LIST rows of each kind at a time)
 * when a row spans at least VEC_SUM_LIST_TILES whole tiles, so a tile's loop over the rows reads a
 * pointer instead of computing the address again for each tile (8 tiles of a 1024-wide row on
 * AVX2: yo-shard refresh -2.1% instructions, SF 15.1's -2.3%); rows of one or two tiles (HalfKP's
 * 256 i8 values on AVX2: +1.5% listed) compute each address in the tile's loop, as listing one
 * costs about what it saves on a tile. */
#define VEC_SUM_LIST 128
#define VEC_SUM_LIST_TILES 4

/* Part q's rows of element type TYPE, read by LOAD, into the T vectors v at value j (the address
 * from the index). */
#define SUM_ROWS(T, TYPE, LOAD)                                                                                       \
    {                                                                                                                 \
        const TYPE *rows = (const TYPE *)parts[q].rows + j;                                                           \
        const uint32_t *idx = parts[q].idx;                                                                           \
        ROWS_NO_UNROLL for (int k = 0; k < parts[q].n; k++) {                                                         \
            const TYPE *r = rows + (size_t)idx[k] * width;                                                            \
            if (k + SUM_AHEAD < parts[q].n)                                                                           \
                SUM_PREFETCH(rows + (size_t)idx[k + SUM_AHEAD] * width, T * VEC_I16 * sizeof(TYPE));                  \
            for (int t = 0; t < (T); t++)                                                                             \
                v[t] = vec_add_i16(v[t], LOAD(r + VEC_I16 * t));                                                      \
        }                                                                                                             \
    }
#define IDX_I16(T)                                                                                                    \
    for (int q = 0; q < n_parts; q++)                                                                                 \
        SUM_ROWS(T, int16_t, vec_load)
/* (The first tile also picks the flagged rows: nnue_sum_part.flags.) */
#define SUM_ROWS8(T)                                                                                                  \
    {                                                                                                                 \
        const int8_t *rows = (const int8_t *)parts[q].rows + j;                                                       \
        const uint32_t *idx = parts[q].idx;                                                                           \
        const int flag = j == 0 && parts[q].flags;                                                                    \
        int nf = 0;                                                                                                   \
        ROWS_NO_UNROLL for (int k = 0; k < parts[q].n; k++) {                                                         \
            const int8_t *r = rows + (size_t)idx[k] * width;                                                          \
            if (k + SUM_AHEAD < parts[q].n)                                                                           \
                SUM_PREFETCH(rows + (size_t)idx[k + SUM_AHEAD] * width, T * VEC_I16);                                 \
            if (flag)                                                                                                 \
                nf = nnue_ref_sum_flag(&parts[q], idx[k], nf);                                                        \
            PAIRED_ROW(T, r, vec_add_i16)                                                                             \
        }                                                                                                             \
        if (flag)                                                                                                     \
            *parts[q].n_flagged = nf;                                                                                 \
    }
#define IDX_ANY(T)                                                                                                    \
    for (int q = 0; q < n_parts; q++)                                                                                 \
        if (parts[q].i8)                                                                                              \
            SUM_ROWS8(T)                                                                                              \
    PAIRED_FIX(T, start, rows8)                                                                                       \
    for (int q = 0; q < n_parts; q++)                                                                                 \
        if (!parts[q].i8)                                                                                             \
            SUM_ROWS(T, int16_t, vec_load)

/* The listed rows of element type TYPE, read by LOAD, into the T vectors v at value j. */
#define SUM_LISTED(T, TYPE, list, count, LOAD)                                                                        \
    ROWS_NO_UNROLL for (int k = 0; k < (count); k++) {                                                                \
        const TYPE *r = (list)[k] + j;                                                                                \
        if (k + SUM_AHEAD < (count))                                                                                  \
            SUM_PREFETCH((list)[k + SUM_AHEAD] + j, T * VEC_I16 * sizeof(TYPE));                                      \
        for (int t = 0; t < (T); t++)                                                                                 \
            v[t] = vec_add_i16(v[t], LOAD(r + VEC_I16 * t));                                                          \
    }
#define ROWS_I16(T) SUM_LISTED(T, int16_t, r16, n16, vec_load)
#define SUM_LISTED8(T)                                                                                                \
    ROWS_NO_UNROLL for (int k = 0; k < n8; k++) {                                                                     \
        if (k + SUM_AHEAD < n8)                                                                                       \
            SUM_PREFETCH(r8[k + SUM_AHEAD] + j, T * VEC_I16);                                                         \
        PAIRED_ROW(T, r8[k] + j, vec_add_i16)                                                                         \
    }
#define ROWS_ANY(T)                                                                                                   \
    SUM_LISTED8(T)                                                                                                    \
    PAIRED_FIX(T, start, n8)                                                                                          \
    SUM_LISTED(T, int16_t, r16, n16, vec_load)

/* Tiles of T vectors from value j on while they fit: start (the biases, or what an earlier chunk
 * stored), the rows (ROWS: listed, or from the indices), stored. */
#define SUM_TILES(T, ROWS)                                                                                            \
    for (; j + VEC_I16 * (T) <= width; j += VEC_I16 * (T)) {                                                          \
        vec_t v[T];                                                                                                   \
        for (int t = 0; t < (T); t++)                                                                                 \
            v[t] = vec_load(start + j + VEC_I16 * t);                                                                 \
        ROWS(T)                                                                                                       \
        for (int t = 0; t < (T); t++)                                                                                 \
            vec_store(dst + j + VEC_I16 * t, v[t]);                                                                   \
    }

/* Every whole tile of the row: the widest tiles first, rows of only i16 (R16) or with i8 (RANY). */
#define SUM_ALL(R16, RANY)                                                                                            \
    if (!any8) {                                                                                                      \
        SUM_TILES(VEC_SUM_TILE16, R16)                                                                                \
        SUM_TILES(VEC_SUM_TILE16 / 2, R16)                                                                            \
        SUM_TILES(VEC_SUM_TILE16 / 4, R16)                                                                            \
        SUM_TILES(1, R16)                                                                                             \
    } else { /* paired i8 rows: whole 64-value blocks (the width is a multiple of 64) */                            \
        SUM_TILES(VEC_SUM_TILE8, RANY)                                                                                \
        SUM_TILES(SUM_TILE8_HALF, RANY)                                                                               \
        SUM_TILES(PAIR_VECS, RANY)                                                                                    \
    }

/* The PSQT rows' sum in tiles of T vectors from bucket b on while they fit. */
#define PSQT_TILES(T)                                                                                                 \
    for (; b + (T) * VEC_I32 <= buckets; b += (T) * VEC_I32) {                                                        \
        vec_t v[(T)];                                                                                                 \
        for (int t = 0; t < (T); t++)                                                                                 \
            v[t] = vec_zero();                                                                                        \
        for (int q = 0; q < n_parts; q++)                                                                             \
            if (parts[q].psqt)                                                                                        \
                for (int k = 0; k < parts[q].n; k++) {                                                                \
                    const int32_t *row = parts[q].psqt + (size_t)parts[q].idx[k] * buckets + b;                       \
                    for (int t = 0; t < (T); t++)                                                                     \
                        v[t] = vec_add_i32(v[t], vec_load(row + VEC_I32 * t));                                        \
                }                                                                                                     \
        for (int t = 0; t < (T); t++)                                                                                 \
            vec_store(psqt_dst + b + VEC_I32 * t, v[t]);                                                              \
    }

VEC_KERNEL void acc_sum(int16_t *dst, const int16_t *bias, int32_t *psqt_dst, const nnue_sum_part *parts, int n_parts,
                        uint32_t width, uint32_t buckets)
{
    int any8 = 0, rows8 = 0;
    for (int q = 0; q < n_parts; q++) {
        any8 |= parts[q].i8;
        rows8 += parts[q].i8 ? parts[q].n : 0;
    }
    const int16_t *start = bias;
    uint32_t j = 0;
    if (width < VEC_SUM_LIST_TILES * VEC_I16 * (any8 ? VEC_SUM_TILE8 : VEC_SUM_TILE16)) {
        SUM_ALL(IDX_I16, IDX_ANY)
    } else {
        const int16_t *r16[VEC_SUM_LIST];
        const int8_t *r8[VEC_SUM_LIST];
        int q = 0, k = 0; /* the next row to list: parts[q].idx[k] */
        do {
            int n16 = 0, n8 = 0;
            for (; q < n_parts; q++, k = 0) {
                const nnue_sum_part *p = &parts[q];
                if (p->i8) {
                    const int8_t *rows = (const int8_t *)p->rows;
                    int nf = p->flags && k ? *p->n_flagged : 0;
                    ROWS_NO_UNROLL for (; k < p->n && n8 < VEC_SUM_LIST; k++) {
                        r8[n8++] = rows + (size_t)p->idx[k] * width;
                        if (p->flags)
                            nf = nnue_ref_sum_flag(p, p->idx[k], nf);
                    }
                    if (p->flags)
                        *p->n_flagged = nf;
                } else {
                    const int16_t *rows = (const int16_t *)p->rows;
                    ROWS_NO_UNROLL for (; k < p->n && n16 < VEC_SUM_LIST; k++)
                        r16[n16++] = rows + (size_t)p->idx[k] * width;
                }
                if (k < p->n)
                    break; /* a list is full: this chunk first */
            }
            j = 0;
            SUM_ALL(ROWS_I16, ROWS_ANY)
            start = dst;
        } while (q < n_parts);
    }
#if defined(VEC_MASKED)
    if (j < width && !any8) {
        uint32_t m = width - j;
        vec_t v = vec_load_n_i16(bias + j, m);
        for (int q = 0; q < n_parts; q++)
            for (int k = 0; k < parts[q].n; k++) {
                size_t at = (size_t)parts[q].idx[k] * width + j;
                v = vec_add_i16(v, vec_load_n_i16((const int16_t *)parts[q].rows + at, m));
            }
        vec_store_n_i16(dst + j, v, m);
        j = width;
    }
#endif
    nnue_ref_acc_sum(dst, bias, parts, n_parts, width, j, width);
    if (!buckets)
        return;
    uint32_t b = 0;
    PSQT_TILES(2) /* as acc_i32: 8 buckets on 128-bit vectors in one pass */
    PSQT_TILES(1)
#if defined(VEC_MASKED)
    if (b < buckets) { /* PSQT rows of 8 values on 16-lane vectors take only this */
        uint32_t m = buckets - b;
        vec_t v = vec_zero();
        for (int q = 0; q < n_parts; q++)
            if (parts[q].psqt)
                for (int k = 0; k < parts[q].n; k++)
                    v = vec_add_i32(v, vec_load_n_i32(parts[q].psqt + (size_t)parts[q].idx[k] * buckets + b, m));
        vec_store_n_i32(psqt_dst + b, v, m);
        b = buckets;
    }
#endif
    nnue_ref_psqt_sum(psqt_dst, parts, n_parts, buckets, b, buckets);
}

#endif
