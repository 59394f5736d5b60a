/* core/net/net_ranges.h: worst-case value ranges of a loaded net, from its weights (`nnue info`,
 * and the load-time warning of include/nnue.h nnue_net_warning()).
 *
 * Accumulator value j (int16 in every kernel) = bias[j] + the rows of the active features. With
 * at most K active features per set (the set's max_active), its largest value is bias[j] plus
 * the K largest positive weights of column j in each set, its smallest likewise with the K most
 * negative: a bound over every feature list of that length, reachable or not. PSQT sums (int32)
 * the same way. Each affine layer's int32 sum, per output: bias + sum_i max(w_i * lo, w_i * hi)
 * over its input range [lo, hi], which follows from the FT activation and the layers before it
 * (crelu, pooling, pairwise ... each map a range to a range); unknown layer types leave the
 * layers after them unanalysed. */
#ifndef NNUE_CORE_NET_NET_RANGES_H
#define NNUE_CORE_NET_NET_RANGES_H

#include <stddef.h>
#include <stdint.h>

#include "core/net/column_extremes.h"
#include "core/net/net.h"

typedef struct nnue_layer_range {
    int known;                  /* 0: input range unknown (layer type not modelled) */
    int64_t in_lo, in_hi;       /* range of every input value */
    int64_t lo, hi;             /* affine: worst int32 sum (with bias) over outputs and stacks */
    uint32_t lo_stack, lo_neuron, hi_stack, hi_neuron;
} nnue_layer_range;

typedef struct nnue_net_ranges {
    int max_active;             /* features summed into an accumulator at most (all sets) */
    int64_t acc_lo, acc_hi;     /* over all neurons */
    uint32_t acc_lo_neuron, acc_hi_neuron;
    uint32_t acc_overflows;     /* neurons whose range leaves int16 */
    uint32_t first_overflow;    /* the first of them (valid when acc_overflows > 0) */
    int64_t first_lo, first_hi; /* its range */
    int64_t psqt_lo, psqt_hi;   /* over buckets (0, 0 without PSQT) */
    nnue_layer_range layers[NNUE_MAX_LAYERS];
    int layer_overflows;        /* affine layers whose sum can leave int32 */
} nnue_net_ranges;


/* Computes the ranges; -1 when out of memory (r is then zeroed). */
int nnue_net_compute_ranges(const nnue_net *net, nnue_net_ranges *r);
/* Multi-line report (one line per item, "name  value" like `nnue info`); returns its length. */
size_t nnue_net_ranges_format(const nnue_net *net, const nnue_net_ranges *r, char *buf, size_t size);
/* The warning text when an int16 accumulator or an int32 sum can overflow (naming the neuron or
 * the layer); 0 and "" when nothing can. */
int nnue_net_ranges_warning(const nnue_net *net, const nnue_net_ranges *r, char *buf, size_t size);

#endif
