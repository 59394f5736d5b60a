/* core/net/net_ranges.c: see net_ranges.h. Facts used: accumulators are int16 and PSQT int32
 * (FORMATS.md section 4), the FT activations of core/eval/ft_activation.c, and each layer type's
 * arithmetic as its file in layers/ defines it. */
#include "core/net/net_ranges.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/layer.h"
#include "layers/common.h" /* nnue_range_of_inputs */
#include "features/feature_set.h"
#include "nnue.h"
#include "simd/paired_i8.h"

typedef long long ll;

static int set_max_active(const nnue_ft_set *set)
{
    return set->features->max_active ? set->features->max_active : NNUE_MAX_ACTIVE;
}

/* nnue_extreme_column_sums of set s's rows; where they are paired in place (nnue_net.i8_paired),
 * 64 columns at a time through a plain copy of those columns (a 16th of the rows for a width of
 * 1024: a whole copy raised the tool's peak memory by 60 MB on Stockfish 18's net). */
static int set_column_sums(const nnue_net *net, int s, int k, int64_t *hi, int64_t *lo)
{
    const nnue_ft_set *set = &net->arch->ft.sets[s];
    uint32_t w = net->arch->ft.width;
    if (!net->i8_paired[s])
        return nnue_extreme_column_sums(net->set_weights[s], set->weight_type, set->inputs, w, k, hi, lo);
    int8_t *plain = malloc((size_t)set->inputs * NNUE_PAIRED_BLOCK);
    if (!plain)
        return -1;
    const int8_t *rows = net->set_weights[s];
    int st = 0;
    for (uint32_t b = 0; b < w && st == 0; b += NNUE_PAIRED_BLOCK) {
        for (size_t r = 0; r < set->inputs; r++)
            nnue_paired_row_plain(rows + r * w + b, plain + r * NNUE_PAIRED_BLOCK, NNUE_PAIRED_BLOCK);
        st = nnue_extreme_column_sums(plain, NNUE_I8, set->inputs, NNUE_PAIRED_BLOCK, k, hi + b, lo + b);
    }
    free(plain);
    return st;
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
        st = set_column_sums(net, s, k, hi, lo);
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

/* Computes the ranges and the warning on first use: a pass over every weight (about a tenth of a
 * second on a release net), which a load no longer pays when nobody asks (an engine that only
 * evaluates). Once per net, by whichever thread asks first; the fields are a cache of the
 * weights, so a const net may fill them. */
static void ensure_ranges(const nnue_net *cnet)
{
    nnue_net *net = (nnue_net *)cnet;
    if (atomic_load_explicit(&net->ranges_done, memory_order_acquire))
        return;
    pthread_mutex_lock(&net->ranges_lock);
    if (!atomic_load_explicit(&net->ranges_done, memory_order_relaxed)) {
        char warning[1024];
        net->ranges = malloc(sizeof *net->ranges);
        if (net->ranges && nnue_net_compute_ranges(net, net->ranges) != 0) {
            free(net->ranges);
            net->ranges = NULL;
        }
        if (net->ranges && nnue_net_ranges_warning(net, net->ranges, warning, sizeof warning))
            net->warning = strdup(warning); /* NULL when out of memory: the warning is lost, not the net */
        atomic_store_explicit(&net->ranges_done, 1, memory_order_release);
    }
    pthread_mutex_unlock(&net->ranges_lock);
}

const char *nnue_net_warning(const nnue_net *net)
{
    if (!net)
        return NULL;
    ensure_ranges(net);
    return net->warning;
}

size_t nnue_net_range_report(const nnue_net *net, char *buf, size_t size)
{
    nnue_net_ranges r;
    if (!net) {
        if (buf && size)
            buf[0] = 0;
        return 0;
    }
    ensure_ranges(net);
    if (net->ranges)
        return nnue_net_ranges_format(net, net->ranges, buf, size);
    if (nnue_net_compute_ranges(net, &r) != 0)
        return (size_t)snprintf(buf, size, "ranges        (out of memory)\n");
    return nnue_net_ranges_format(net, &r, buf, size);
}
