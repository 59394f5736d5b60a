/* core/net/net_ranges.c: see net_ranges.h. Facts used: accumulators are int16 and PSQT int32
 * (FORMATS.md section 4), the FT activations of core/eval/ft_activation.c, and each layer type's
 * arithmetic as its file in core/layers/ defines it. */
#include "core/net/net_ranges.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/layer.h"
#include "core/layers/common.h" /* nnue_range_of_inputs */
#include "features/feature_set.h"
#include "nnue.h"

typedef long long ll;

/* Reorders v[0..n) so that v[0..k) hold its k largest values (0 < k <= n), and returns the
 * k-th largest (the least of them): a quickselect, O(n) on average. */
static int64_t keep_largest(int64_t *v, uint32_t n, uint32_t k)
{
    uint32_t lo = 0, hi = n - 1, target = k - 1;
    while (lo < hi) {
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
    static void NAME(const T *m, uint32_t rows, uint32_t cols, STATE *big, STATE *small, T *enter_above,      \
                     T *enter_below)                                                                           \
    {                                                                                                           \
        for (uint32_t r = 0; r < rows; r++) {                                                                   \
            const T *row = m + (size_t)r * cols;                                                                \
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
static int i8_column_sums(const void *m, uint32_t rows, uint32_t cols, uint32_t k, int64_t *hi, int64_t *lo)
{
    binned big = {calloc((size_t)cols * I8_BINS, sizeof(uint16_t)), calloc(cols, sizeof(uint32_t)), k};
    binned small = {calloc((size_t)cols * I8_BINS, sizeof(uint16_t)), calloc(cols, sizeof(uint32_t)), k};
    int8_t *above = calloc(cols, 1), *below = calloc(cols, 1);
    int st = big.bins && big.above && small.bins && small.above && above && below ? 0 : -1;
    if (st == 0)
        extreme_columns_i8(m, rows, cols, &big, &small, above, below);
    for (uint32_t c = 0; c < cols && st == 0; c++) {
        hi[c] += sum_binned(&big, c, above[c]);
        lo[c] -= sum_binned(&small, c, -(int64_t)below[c]);
    }
    free(big.bins), free(big.above), free(small.bins), free(small.above), free(above), free(below);
    return st;
}

int nnue_extreme_column_sums(const void *m, nnue_dtype t, uint32_t rows, uint32_t cols, int k, int64_t *hi,
                             int64_t *lo)
{
    if (k <= 0 || cols == 0)
        return 0;
    if (t == NNUE_I8 && k <= UINT16_MAX)
        return i8_column_sums(m, rows, cols, (uint32_t)k, hi, lo);
    size_t slots = (size_t)cols * 2 * (size_t)k, width = t == NNUE_I8 ? 1 : t == NNUE_I16 ? 2 : 4;
    candidates big = {malloc(slots * sizeof(int64_t)), calloc(cols, sizeof(uint32_t)), (uint32_t)k};
    candidates small = {malloc(slots * sizeof(int64_t)), calloc(cols, sizeof(uint32_t)), (uint32_t)k};
    void *above = calloc(cols, width), *below = calloc(cols, width);
    int st = big.kept && big.count && small.kept && small.count && above && below ? 0 : -1;
    if (st == 0 && t == NNUE_I8)
        extreme_columns_i8_candidates(m, rows, cols, &big, &small, above, below);
    else if (st == 0 && t == NNUE_I16)
        extreme_columns_i16(m, rows, cols, &big, &small, above, below);
    else if (st == 0)
        extreme_columns_i32(m, rows, cols, &big, &small, above, below);
    for (uint32_t c = 0; c < cols && st == 0; c++) {
        hi[c] += sum_largest(&big, c);
        lo[c] -= sum_largest(&small, c);
    }
    free(big.kept), free(big.count), free(small.kept), free(small.count), free(above), free(below);
    return st;
}

static int set_max_active(const nnue_ft_set *set)
{
    return set->features->max_active ? set->features->max_active : NNUE_MAX_ACTIVE;
}

static int ft_ranges(const nnue_net *net, nnue_net_ranges *r)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    uint32_t w = ft->width, b = ft->psqt_buckets;
    int64_t *hi = calloc(w, sizeof *hi), *lo = calloc(w, sizeof *lo);
    int64_t *phi = calloc(b ? b : 1, sizeof *phi), *plo = calloc(b ? b : 1, sizeof *plo);
    int st = hi && lo && phi && plo ? 0 : -1;
    for (uint32_t j = 0; j < w && st == 0; j++)
        hi[j] = lo[j] = net->ft_biases[j];
    for (int s = 0; s < ft->n_sets && st == 0; s++) {
        const nnue_ft_set *set = &ft->sets[s];
        int k = set_max_active(set);
        r->max_active += k;
        st = nnue_extreme_column_sums(net->set_weights[s], set->weight_type, set->inputs, w, k, hi, lo);
        if (st == 0 && b)
            st = nnue_extreme_column_sums(net->set_psqt[s], NNUE_I32, set->inputs, b, k, phi, plo);
    }
    if (st == 0) {
        r->acc_lo = INT64_MAX, r->acc_hi = INT64_MIN;
        for (uint32_t j = 0; j < w; j++) {
            if (lo[j] < r->acc_lo)
                r->acc_lo = lo[j], r->acc_lo_neuron = j;
            if (hi[j] > r->acc_hi)
                r->acc_hi = hi[j], r->acc_hi_neuron = j;
            if ((lo[j] < INT16_MIN || hi[j] > INT16_MAX) && r->acc_overflows++ == 0)
                r->first_overflow = j, r->first_lo = lo[j], r->first_hi = hi[j];
        }
        for (uint32_t i = 0; i < b; i++) {
            r->psqt_lo = i == 0 || plo[i] < r->psqt_lo ? plo[i] : r->psqt_lo;
            r->psqt_hi = i == 0 || phi[i] > r->psqt_hi ? phi[i] : r->psqt_hi;
        }
    }
    free(hi), free(lo), free(phi), free(plo);
    return st;
}

/* Range of the FT activation's output for accumulators in [lo, hi] (int16 after wrapping). */
static void ft_output_range(const nnue_ft_desc *ft, int64_t *lo, int64_t *hi)
{
    int64_t m = ft->clamp_max;
    switch (ft->activation) {
    case NNUE_FT_CLAMP: *lo = 0, *hi = m; break;
    case NNUE_FT_PAIRWISE: *lo = 0, *hi = (m * m) >> ft->shift; break;
    case NNUE_FT_SCRELU: *lo = 0, *hi = m * m; break;
    default: *lo = 0, *hi = (int64_t)INT16_MAX * INT16_MAX; break;
    }
}

/* a + b, saturated to the int64 range: a crafted net's worst case may pass it (then it is
 * reported as an overflow like any sum past int32), never wrap. */
static int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? (b > 0 ? INT64_MAX : INT64_MIN) : r;
}

static void affine_range(const nnue_net *net, int i, nnue_layer_range *lr)
{
    const nnue_arch *a = net->arch;
    const nnue_layer *l = &a->layers[i];
    lr->lo = INT64_MAX, lr->hi = INT64_MIN;
    for (uint32_t s = 0; s < a->stacks; s++) {
        const nnue_layer_weights *lw = &net->layer_weights[(size_t)s * a->n_layers + i];
        for (uint32_t o = 0; o < l->out_size; o++) {
            int64_t up = 0, down = 0;
            for (uint32_t j = 0; j < l->in_size; j++) {
                size_t at = (size_t)o * l->p.affine.padded_in + j;
                int64_t wv = l->p.affine.weight_type == NNUE_I8    ? ((const int8_t *)lw->weights)[at]
                             : l->p.affine.weight_type == NNUE_I16 ? ((const int16_t *)lw->weights)[at]
                                                                   : ((const int32_t *)lw->weights)[at];
                int64_t x = wv * lr->in_lo, y = wv * lr->in_hi;
                up = sat_add(up, x > y ? x : y);
                down = sat_add(down, x < y ? x : y);
            }
            int sh = l->p.affine.sum_shift; /* a floor shift is monotone like the division */
            up = sat_add(sh ? up >> sh : up / l->p.affine.sum_divisor, ((const int32_t *)lw->biases)[o]);
            down = sat_add(sh ? down >> sh : down / l->p.affine.sum_divisor, ((const int32_t *)lw->biases)[o]);
            if (down < lr->lo)
                lr->lo = down, lr->lo_stack = s, lr->lo_neuron = o;
            if (up > lr->hi)
                lr->hi = up, lr->hi_stack = s, lr->hi_neuron = o;
        }
    }
}

int nnue_net_compute_ranges(const nnue_net *net, nnue_net_ranges *r)
{
    memset(r, 0, sizeof *r);
    if (ft_ranges(net, r) != 0) {
        memset(r, 0, sizeof *r);
        return -1;
    }
    const nnue_arch *a = net->arch;
    int64_t net_lo, net_hi, out_lo[NNUE_MAX_LAYERS], out_hi[NNUE_MAX_LAYERS];
    int known[NNUE_MAX_LAYERS];
    ft_output_range(&a->ft, &net_lo, &net_hi);
    for (int i = 0; i < a->n_layers; i++) {
        const nnue_layer *l = &a->layers[i];
        nnue_layer_range *lr = &r->layers[i];
        nnue_range ins[NNUE_MAX_LAYER_INPUTS], out;
        lr->known = 1;
        for (int k = 0; k < l->n_inputs; k++) {
            int src = l->inputs[k];
            int ok = src == NNUE_INPUT_NETWORK || known[src];
            ins[k].lo = src == NNUE_INPUT_NETWORK ? net_lo : ok ? out_lo[src] : 0;
            ins[k].hi = src == NNUE_INPUT_NETWORK ? net_hi : ok ? out_hi[src] : 0;
            lr->known &= ok;
        }
        nnue_range_of_inputs(l, ins, &out);
        lr->in_lo = out.lo, lr->in_hi = out.hi;
        known[i] = 0;
        if (!lr->known || l->value_type != NNUE_I32)
            continue;
        if (l->type->is_affine) {
            affine_range(net, i, lr);
            r->layer_overflows += lr->lo < INT32_MIN || lr->hi > INT32_MAX;
            out.lo = lr->lo, out.hi = lr->hi;
            known[i] = 1;
        } else if (l->type->range) {
            known[i] = l->type->range(l, ins, &out); /* the type's own rule (core/arch/layer.h) */
        }
        /* Layer outputs are int32 values (wrapped when a sum overflowed, which is reported), so
         * later products of ranges stay far inside int64. */
        out_lo[i] = out.lo < INT32_MIN ? INT32_MIN : out.lo > INT32_MAX ? INT32_MAX : out.lo;
        out_hi[i] = out.hi > INT32_MAX ? INT32_MAX : out.hi < INT32_MIN ? INT32_MIN : out.hi;
    }
    return 0;
}

size_t nnue_net_ranges_format(const nnue_net *net, const nnue_net_ranges *r, char *buf, size_t size)
{
    size_t n = 0;
    char none[1];
    if (!buf) /* measuring only */
        buf = none, size = 0;
#define OUT(...) (n += (size_t)snprintf(buf + (n < size ? n : size), n < size ? size - n : 0, __VA_ARGS__))
    OUT("accumulator   %lld..%lld worst case with %d active features (neurons %u and %u); int16: %s\n",
        (ll)r->acc_lo, (ll)r->acc_hi, r->max_active, r->acc_lo_neuron, r->acc_hi_neuron,
        r->acc_overflows ? "CAN OVERFLOW" : "fits");
    if (r->acc_overflows)
        OUT("overflow      %u neurons can leave int16, first neuron %u (%lld..%lld)\n", r->acc_overflows,
            r->first_overflow, (ll)r->first_lo, (ll)r->first_hi);
    if (net->arch->ft.psqt_buckets)
        OUT("psqt          %lld..%lld; int32: %s\n", (ll)r->psqt_lo, (ll)r->psqt_hi,
            r->psqt_lo < INT32_MIN || r->psqt_hi > INT32_MAX ? "CAN OVERFLOW" : "fits");
    if (net->padding_nonzero)
        OUT("padding       %llu weights in padding columns are non-zero in the file (never read by the engine: "
            "ignored)\n",
            (unsigned long long)net->padding_nonzero);
    for (int i = 0; i < net->arch->n_layers; i++) {
        const nnue_layer *l = &net->arch->layers[i];
        const nnue_layer_range *lr = &r->layers[i];
        if (!l->type->is_affine)
            continue;
        if (!lr->known)
            OUT("layer %-7s input range unknown (a layer type before it is not modelled)\n", l->name);
        else
            OUT("layer %-7s inputs %lld..%lld, sums %lld..%lld (stack %u output %u .. stack %u output %u); int32: %s\n",
                l->name, (ll)lr->in_lo, (ll)lr->in_hi, (ll)lr->lo, (ll)lr->hi, lr->lo_stack, lr->lo_neuron,
                lr->hi_stack, lr->hi_neuron, lr->lo < INT32_MIN || lr->hi > INT32_MAX ? "CAN OVERFLOW" : "fits");
    }
#undef OUT
    return n;
}

int nnue_net_ranges_warning(const nnue_net *net, const nnue_net_ranges *r, char *buf, size_t size)
{
    if (size)
        buf[0] = 0;
    if (r->acc_overflows) {
        snprintf(buf, size,
                 "%s: int16 accumulator can overflow: neuron %u reaches %lld..%lld with %d active features (%u "
                 "neurons can)",
                 net->path, r->first_overflow, (ll)r->first_lo, (ll)r->first_hi, r->max_active, r->acc_overflows);
        return 1;
    }
    if (net->arch->ft.psqt_buckets && (r->psqt_lo < INT32_MIN || r->psqt_hi > INT32_MAX)) {
        snprintf(buf, size, "%s: int32 PSQT sum can overflow: %lld..%lld with %d active features", net->path,
                 (ll)r->psqt_lo, (ll)r->psqt_hi, r->max_active);
        return 1;
    }
    for (int i = 0; i < net->arch->n_layers; i++) {
        const nnue_layer_range *lr = &r->layers[i];
        if (net->arch->layers[i].type->is_affine && lr->known && (lr->lo < INT32_MIN || lr->hi > INT32_MAX)) {
            int high = lr->hi > INT32_MAX;
            snprintf(buf, size, "%s: int32 sum of layer '%s' can overflow: stack %u output %u reaches %lld",
                     net->path, net->arch->layers[i].name, high ? lr->hi_stack : lr->lo_stack,
                     high ? lr->hi_neuron : lr->lo_neuron, (ll)(high ? lr->hi : lr->lo));
            return 1;
        }
    }
    return 0;
}

size_t nnue_net_range_report(const nnue_net *net, char *buf, size_t size)
{
    nnue_net_ranges r;
    if (!net) {
        if (buf && size)
            buf[0] = 0;
        return 0;
    }
    if (net->ranges)
        return nnue_net_ranges_format(net, net->ranges, buf, size);
    if (nnue_net_compute_ranges(net, &r) != 0)
        return (size_t)snprintf(buf, size, "ranges        (out of memory)\n");
    return nnue_net_ranges_format(net, &r, buf, size);
}
