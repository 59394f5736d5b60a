/* core/net/column_extremes.c: see column_extremes.h. */
#include "core/net/column_extremes.h"

#include "base/helper_threads.h"

#include <pthread.h>
#include <stdlib.h>

static int descending(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x < y) - (x > y);
}

/* Reorders v[0..n) so that v[0..k) hold its k largest values (0 < k <= n), and returns the
 * k-th largest (the least of them): a quickselect, O(n) on average. A crafted order could make
 * the middle pivot pick badly again and again (O(n^2) per selection, a net that takes hours to
 * inspect): past 64 rounds the part still undecided is sorted instead (O(n log n)). Everything
 * left of it is at least as large as all of it, so its sorted order finishes the job. */
static int64_t keep_largest(int64_t *v, uint32_t n, uint32_t k)
{
    uint32_t lo = 0, hi = n - 1, target = k - 1;
    for (int rounds = 0; lo < hi; rounds++) {
        if (rounds == 64) {
            qsort(v + lo, (size_t)(hi - lo) + 1, sizeof *v, descending);
            break;
        }
        int64_t pivot = v[lo + (hi - lo) / 2];
        uint32_t i = lo, j = hi;
        while (i <= j) { /* descending: larger values to the left */
            while (v[i] > pivot)
                i++;
            while (v[j] < pivot)
                j--;
            if (i <= j) {
                int64_t t = v[i];
                v[i] = v[j], v[j] = t;
                i++;
                if (j-- == 0)
                    break;
            }
        }
        if (target <= j && j < hi)
            hi = j;
        else if (target >= i)
            lo = i;
        else
            break; /* target sits between the parts: equal to the pivot */
    }
    return v[target];
}

/* Per column and per sign: the candidates for the k largest magnitudes, up to 2k of them; when
 * full, the k largest are kept (keep_largest) and the least of those becomes the threshold a
 * magnitude must pass to enter. Before k candidates the threshold is 0 (an inactive feature adds
 * nothing: k virtual zeros). Entering costs O(1) amortized (a selection per k entries). */
typedef struct candidates {
    int64_t *kept;   /* [column][2k] */
    uint32_t *count; /* [column] */
    uint32_t k;
} candidates;

/* Adds magnitude v (above the column's threshold) to column c; returns the new threshold. */
static int64_t enter(candidates *cs, size_t c, int64_t v, int64_t threshold)
{
    int64_t *kept = cs->kept + c * 2 * cs->k;
    kept[cs->count[c]++] = v;
    if (cs->count[c] < 2 * cs->k)
        return threshold;
    cs->count[c] = cs->k;
    return keep_largest(kept, 2 * cs->k, cs->k);
}

/* The sum of column c's k largest magnitudes (fewer candidates: the rest are zeros). */
static int64_t sum_largest(candidates *cs, size_t c)
{
    int64_t *kept = cs->kept + c * 2 * cs->k, sum = 0;
    uint32_t n = cs->count[c] < cs->k ? cs->count[c] : cs->k;
    if (cs->count[c] > cs->k)
        keep_largest(kept, cs->count[c], cs->k);
    for (uint32_t i = 0; i < n; i++)
        sum += kept[i];
    return sum;
}

/* For i8 matrices, per column and per sign: a count per magnitude (0..128) of the values that
 * entered, and how many of them lie above the threshold; the threshold moves up to the next
 * counted magnitude while k or more lie above it. Entering is O(1), with no selection. No count
 * passes k (a magnitude counted k times is at or below the threshold, so it enters no more):
 * 16 bits hold them for k <= 65535, halving what stays in cache. */
enum { I8_BINS = 129 };

typedef struct binned {
    uint16_t *bins;  /* [column][I8_BINS] */
    uint32_t *above; /* [column]: counted magnitudes above the threshold */
    uint32_t k;
} binned;

static int64_t enter_bin(binned *b, size_t c, int64_t v, int64_t threshold)
{
    uint16_t *bins = b->bins + c * I8_BINS;
    bins[v]++;
    b->above[c]++;
    while (b->above[c] >= b->k) { /* some counted magnitude lies above: move to the least */
        while (bins[++threshold] == 0)
            ;
        b->above[c] -= bins[threshold];
    }
    return threshold;
}

/* The sum of the k largest: those above the threshold, then copies of the threshold (at least
 * k - above were counted at it, or it is 0). */
static int64_t sum_binned(const binned *b, size_t c, int64_t threshold)
{
    const uint16_t *bins = b->bins + c * I8_BINS;
    int64_t sum = (int64_t)(b->k - b->above[c]) * threshold;
    for (int64_t m = threshold + 1; m < I8_BINS; m++)
        sum += m * (int64_t)bins[m];
    return sum;
}

/* For each column of a rows x cols matrix (i8, i16 or i32): adds the sum of its k largest values
 * (never below 0) into hi[col] and of its k smallest (never above 0) into lo[col], in one pass
 * over the rows. Each column keeps, in the matrix's own type, the two thresholds a value must
 * pass to become a candidate (above for the largest, below for the smallest). A chunk of a row is
 * first tested against its thresholds as a whole (a comparison loop the compiler vectorizes);
 * only a chunk where some value enters goes value by value. Past the first rows few values
 * enter, so the pass runs near the speed of reading the matrix (the counting version it
 * replaced, 512 bins per column, took half of `nnue info`'s time on Stockfish 18's net, and
 * per-column heaps missed the cache on Stockfish 19's threat rows). A hostile matrix whose every
 * value enters costs O(1) amortized per value. */
enum { CHUNK = 16 };

#define DEFINE_EXTREME_COLUMNS(T, NAME, STATE, ENTER)                                                            \
    static void NAME(const T *m, uint32_t rows, size_t stride, uint32_t cols, STATE *big, STATE *small,       \
                     T *enter_above, T *enter_below)                                                           \
    {                                                                                                           \
        for (uint32_t r = 0; r < rows; r++) {                                                                   \
            const T *row = m + (size_t)r * stride;                                                              \
            for (uint32_t c0 = 0; c0 < cols; c0 += CHUNK) {                                                     \
                uint32_t end = cols - c0 < CHUNK ? cols : c0 + CHUNK;                                           \
                int enters = 0;                                                                                 \
                for (uint32_t c = c0; c < end; c++)                                                             \
                    enters |= (row[c] > enter_above[c]) | (row[c] < enter_below[c]);                            \
                for (uint32_t c = c0; enters && c < end; c++) {                                                 \
                    int64_t v = row[c];                                                                         \
                    if (v > enter_above[c]) /* thresholds are values of T: the casts are exact */               \
                        enter_above[c] = (T)ENTER(big, c, v, enter_above[c]);                                   \
                    else if (v < enter_below[c]) /* magnitudes: -INT32_MIN fits in int64 */                     \
                        enter_below[c] = (T)-ENTER(small, c, -v, -(int64_t)enter_below[c]);                     \
                }                                                                                               \
            }                                                                                                   \
        }                                                                                                       \
    }

DEFINE_EXTREME_COLUMNS(int8_t, extreme_columns_i8, binned, enter_bin)
DEFINE_EXTREME_COLUMNS(int8_t, extreme_columns_i8_candidates, candidates, enter)
DEFINE_EXTREME_COLUMNS(int16_t, extreme_columns_i16, candidates, enter)
DEFINE_EXTREME_COLUMNS(int32_t, extreme_columns_i32, candidates, enter)

/* The i8 case: every magnitude fits a bin. */
static int i8_column_sums(const void *m, uint32_t rows, size_t stride, uint32_t cols, uint32_t k, int64_t *hi,
                          int64_t *lo)
{
    binned big = {calloc((size_t)cols * I8_BINS, sizeof(uint16_t)), calloc(cols, sizeof(uint32_t)), k};
    binned small = {calloc((size_t)cols * I8_BINS, sizeof(uint16_t)), calloc(cols, sizeof(uint32_t)), k};
    int8_t *above = calloc(cols, 1), *below = calloc(cols, 1);
    int st = big.bins && big.above && small.bins && small.above && above && below ? 0 : -1;
    if (st == 0)
        extreme_columns_i8(m, rows, stride, cols, &big, &small, above, below);
    for (uint32_t c = 0; c < cols && st == 0; c++) {
        hi[c] += sum_binned(&big, c, above[c]);
        lo[c] -= sum_binned(&small, c, -(int64_t)below[c]);
    }
    free(big.bins), free(big.above), free(small.bins), free(small.above), free(above), free(below);
    return st;
}

/* Columns [0, cols) of a matrix whose rows are stride values apart (m: the first column). */
static int column_sums(const void *m, nnue_dtype t, uint32_t rows, size_t stride, uint32_t cols, int k, int64_t *hi,
                       int64_t *lo)
{
    if (t == NNUE_I8 && k <= UINT16_MAX)
        return i8_column_sums(m, rows, stride, cols, (uint32_t)k, hi, lo);
    size_t slots = (size_t)cols * 2 * (size_t)k, width = nnue_dtype_size(t);
    candidates big = {malloc(slots * sizeof(int64_t)), calloc(cols, sizeof(uint32_t)), (uint32_t)k};
    candidates small = {malloc(slots * sizeof(int64_t)), calloc(cols, sizeof(uint32_t)), (uint32_t)k};
    void *above = calloc(cols, width), *below = calloc(cols, width);
    int st = big.kept && big.count && small.kept && small.count && above && below ? 0 : -1;
    if (st == 0 && t == NNUE_I8)
        extreme_columns_i8_candidates(m, rows, stride, cols, &big, &small, above, below);
    else if (st == 0 && t == NNUE_I16)
        extreme_columns_i16(m, rows, stride, cols, &big, &small, above, below);
    else if (st == 0)
        extreme_columns_i32(m, rows, stride, cols, &big, &small, above, below);
    for (uint32_t c = 0; c < cols && st == 0; c++) {
        hi[c] += sum_largest(&big, c);
        lo[c] -= sum_largest(&small, c);
    }
    free(big.kept), free(big.count), free(small.kept), free(small.count), free(above), free(below);
    return st;
}

/* One half of the columns, for a second thread. */
typedef struct column_job {
    const void *m;
    nnue_dtype t;
    uint32_t rows, cols;
    size_t stride;
    int k, st;
    int64_t *hi, *lo;
} column_job;

static void *run_column_job(void *arg)
{
    column_job *job = arg;
    job->st = column_sums(job->m, job->t, job->rows, job->stride, job->cols, job->k, job->hi, job->lo);
    return NULL;
}

/* Matrices of this many values or more split their columns over two threads (the feature weights
 * of a release net: tens of millions; each half streams its part of every row). */
#define TWO_THREADS_FROM (4u << 20)

int nnue_extreme_column_sums(const void *m, nnue_dtype t, uint32_t rows, uint32_t cols, int k, int64_t *hi,
                             int64_t *lo)
{
    if (k <= 0 || cols == 0)
        return 0;
    if ((uint64_t)rows * cols < TWO_THREADS_FROM || cols < 2 * CHUNK || !nnue_helper_threads_allowed())
        return column_sums(m, t, rows, cols, cols, k, hi, lo);
    uint32_t left = cols / 2 / CHUNK * CHUNK;
    column_job right = {(const char *)m + (size_t)left * nnue_dtype_size(t), t, rows, cols - left, cols, k, 0,
                        hi + left, lo + left};
    pthread_t thread;
    int threaded = pthread_create(&thread, NULL, run_column_job, &right) == 0;
    int st = column_sums(m, t, rows, cols, left, k, hi, lo);
    if (threaded)
        pthread_join(thread, NULL);
    else
        run_column_job(&right);
    return st != 0 ? st : right.st;
}
