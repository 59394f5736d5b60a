/* layers/plan.c: nnue_plan_make(): decides once per net which layers the SIMD forward
 * pass runs (layers/plan.h) and permutes their weights into the kernels' layout. It reads
 * the graph, the layer types' range rules and the weights it is handed, never the net: any arch
 * it does not recognise gets no plan, and the scalar reference path runs. */
#include <stdlib.h>
#include <string.h>

#include "layers/common.h"
#include "layers/plan.h"
#include "layers/plan_pairs.h"
#include "simd/kernels.h" /* NNUE_KERNEL_OUT_BLOCK */

static const nnue_range unknown = {INT32_MIN, INT32_MAX};

static size_t round64(size_t n)
{
    return (n + 63) / 64 * 64;
}

/* Range of the u8 network input, or `unknown` when the activation has no u8 kernel. */
static nnue_range network_range(const nnue_ft_desc *ft)
{
    int64_t max = ft->clamp_max;
    if (ft->activation == NNUE_FT_CLAMP && max >= 0 && max <= 255)
        return (nnue_range){0, max};
    if (ft->activation == NNUE_FT_PAIRWISE && max >= 0 && max * max <= 65535 && ft->shift >= 0 &&
        ft->shift < 16 && (max * max) >> ft->shift <= 255 && ft->width % 2 == 0)
        return (nnue_range){0, (max * max) >> ft->shift};
    return unknown;
}

/* A layer's per-stack arrays (weights[stacks], each allocated) and the array itself. */
#define FREE_STACKS(w, stacks)                                                                                        \
    do {                                                                                                              \
        for (uint32_t s_ = 0; (w) && s_ < (stacks); s_++)                                                            \
            free((w)[s_]);                                                                                            \
        free(w);                                                                                                      \
    } while (0)

void nnue_plan_free(nnue_plan *plan)
{
    if (!plan)
        return;
    for (int i = 0; i < NNUE_MAX_LAYERS; i++) {
        nnue_plan_layer *pl = &plan->layers[i];
        free(pl->zero_biases);
        free(pl->span_at);
        free(pl->pairs);
        FREE_STACKS(pl->weights32, plan->stacks);
        FREE_STACKS(pl->weights16, plan->stacks);
        FREE_STACKS(pl->weights_f32, plan->stacks);
        FREE_STACKS(pl->weights, plan->stacks);
    }
    free(plan->wmax);
    free(plan->head_ptrs);
    free(plan);
}

/* [out][stride] i8 rows -> [groups][out_pad][4]. */
static int8_t *permute(const nnue_layer *l, const int8_t *rows, size_t stride, uint32_t groups, uint32_t out_pad)
{
    size_t bytes = round64((size_t)groups * out_pad * 4) + (out_pad < NNUE_KERNEL_OUT_BLOCK ? NNUE_NARROW_SLACK : 0);
    int8_t *w = aligned_alloc(64, bytes);
    if (!w)
        return NULL;
    memset(w, 0, bytes);
    for (uint32_t o = 0; o < l->out_size; o++)
        for (uint32_t j = 0; j < l->in_size; j++)
            w[((size_t)(j / 4) * out_pad + o) * 4 + j % 4] = rows[(size_t)o * stride + j];
    return w;
}

/* One stack's weights of a u8 layer in the kernels' layout: an affine layer's rows as stored, or
 * the dense rows a layer type with dense_i8 gives (dense, the scratch of out x in bytes). */
static int8_t *prepare_weights(const nnue_layer *l, const nnue_layer_weights *lw, int8_t *dense, uint32_t groups,
                               uint32_t out_pad)
{
    if (l->type->is_affine)
        return permute(l, lw->weights, l->p.affine.padded_in, groups, out_pad);
    l->type->dense_i8(l, lw, dense);
    return permute(l, dense, l->in_size, groups, out_pad);
}

/* pl->pairs of a u8 layer reading the network, its inputs at most in_hi: 0, or -1 when memory ran
 * out. */
static int prepare_pairs(uint32_t stacks, int64_t in_hi, nnue_plan_layer *pl)
{
    if (!(pl->pairs = calloc(stacks, sizeof *pl->pairs)))
        return -1;
    for (uint32_t s = 0; s < stacks; s++)
        pl->pairs[s] = nnue_plan_pair_blocks(pl->weights[s], pl->groups, pl->out_pad, in_hi);
    return 0;
}

/* A layer type with spans_i8 runs output-major where that takes at most half the products of the
 * dense rows (its outputs' spans against every input for the padded outputs): 1 when prepared
 * (pl->spans, span_at and weights set), 0 when not chosen, -1 when memory ran out. */
static int prepare_spans(const nnue_arch *a, const nnue_layer_weights *weights, int i, nnue_plan_layer *pl)
{
    const nnue_layer *l = &a->layers[i];
    if (!l->type->spans_i8)
        return 0;
    uint32_t n1 = 0, n2 = 0, *at = malloc(l->out_size * sizeof *at);
    if (!at)
        return -1;
    l->type->spans_i8(l, &weights[i], &n1, &n2, at, NULL);
    int fits = (uint64_t)l->out_size * (n1 + n2) * 2 <= (uint64_t)l->in_size * pl->out_pad && n1 <= l->in_size;
    for (uint32_t o = 0; fits && o < l->out_size; o++)
        fits = (uint64_t)at[o] + n2 <= l->in_size;
    if (!fits) {
        free(at);
        return 0;
    }
    pl->span_at = at;
    if (!(pl->weights = calloc(a->stacks, sizeof *pl->weights)))
        return -1;
    size_t row = (size_t)n1 + n2;
    for (uint32_t s = 0; s < a->stacks; s++) {
        if (!(pl->weights[s] = aligned_alloc(64, round64(l->out_size * row))))
            return -1;
        l->type->spans_i8(l, &weights[(size_t)s * a->n_layers + i], &n1, &n2, at, pl->weights[s]);
    }
    pl->spans = 1;
    pl->span1 = n1;
    pl->span2 = n2;
    return 1;
}

/* One stack's rows of an int32 affine layer ([out][padded_in] of i8, i16 or i32) as
 * [in][out_pad] int32, padding zero (kernels.h affine_i32). */
static int32_t *transpose_i32(const nnue_layer *l, const void *rows, uint32_t out_pad)
{
    size_t bytes = round64((size_t)l->in_size * out_pad * sizeof(int32_t));
    int32_t *w = aligned_alloc(64, bytes);
    if (!w)
        return NULL;
    memset(w, 0, bytes);
    for (uint32_t o = 0; o < l->out_size; o++)
        for (uint32_t j = 0; j < l->in_size; j++) {
            size_t at = (size_t)o * l->p.affine.padded_in + j;
            nnue_dtype t = l->p.affine.weight_type;
            w[(size_t)j * out_pad + o] = t == NNUE_I8    ? ((const int8_t *)rows)[at]
                                         : t == NNUE_I16 ? ((const int16_t *)rows)[at]
                                                         : ((const int32_t *)rows)[at];
        }
    return w;
}

/* The [in][out_pad] int32 weights of every stack as i16 pairs [(in + 1) / 2][out_pad][2] when
 * all fit i16 (kernels.h affine_i16p): 1 made, 0 some weight does not fit, -1 out of memory. */
static int prepare_i16p(const nnue_arch *a, int i, nnue_plan_layer *pl)
{
    const nnue_layer *l = &a->layers[i];
    size_t n = (size_t)l->in_size * pl->out_pad;
    for (uint32_t s = 0; s < a->stacks; s++)
        for (size_t k = 0; k < n; k++)
            if (pl->weights32[s][k] < INT16_MIN || pl->weights32[s][k] > INT16_MAX)
                return 0;
    if (!(pl->weights16 = calloc(a->stacks, sizeof *pl->weights16)))
        return -1;
    size_t bytes = round64((size_t)(l->in_size + 1) / 2 * pl->out_pad * 2 * sizeof(int16_t));
    for (uint32_t s = 0; s < a->stacks; s++) {
        int16_t *w = aligned_alloc(64, bytes);
        if (!(pl->weights16[s] = w))
            return -1;
        memset(w, 0, bytes);
        for (uint32_t j = 0; j < l->in_size; j++)
            for (uint32_t o = 0; o < pl->out_pad; o++)
                w[((size_t)(j / 2) * pl->out_pad + o) * 2 + j % 2] = (int16_t)pl->weights32[s][(size_t)j * pl->out_pad + o];
    }
    FREE_STACKS(pl->weights32, a->stacks);
    pl->weights32 = NULL;
    return 1;
}

/* An affine layer the u8 kernels cannot run, on int32 values (in: their range), whose value is
 * its sum modulo 2^32 plus the bias (no sum_divisor, no sum_shift): affine_i32, or affine_i16p
 * where inputs and weights fit i16. Returns -1 out of memory. */
static int prepare_i32(const nnue_arch *a, const nnue_layer_weights *weights, int i, nnue_range in,
                       nnue_plan_layer *pl)
{
    const nnue_layer *l = &a->layers[i];
    if (!l->type->is_affine || l->n_inputs != 1 || l->value_type != NNUE_I32 || l->p.affine.sum_divisor != 1 ||
        l->p.affine.sum_shift != 0)
        return 0;
    pl->out_pad = l->out_size == 1 ? 1 /* the row: a dot product */
                                   : (l->out_size + NNUE_KERNEL_OUT_BLOCK - 1) / NNUE_KERNEL_OUT_BLOCK * NNUE_KERNEL_OUT_BLOCK;
    if (!(pl->weights32 = calloc(a->stacks, sizeof *pl->weights32)))
        return -1;
    for (uint32_t s = 0; s < a->stacks; s++)
        if (!(pl->weights32[s] = transpose_i32(l, weights[(size_t)s * a->n_layers + i].weights, pl->out_pad)))
            return -1;
    if (pl->out_pad > 1 && in.lo >= INT16_MIN && in.hi <= INT16_MAX && prepare_i16p(a, i, pl) < 0)
        return -1;
    return 0;
}

/* A one-chain float affine layer (NNUE_OP_AFFINE_F32 without lanes: the float kernels' affine):
 * each stack's rows [out][in] as [in][out_pad] float32, padding zero. Returns -1 out of memory. */
static int prepare_f32(const nnue_arch *a, const nnue_layer_weights *weights, int i, nnue_plan_layer *pl)
{
    const nnue_layer *l = &a->layers[i];
    if (l->type->op != NNUE_OP_AFFINE_F32 || l->p.f32.lanes)
        return 0;
    pl->out_pad = (l->out_size + NNUE_KERNEL_OUT_BLOCK - 1) / NNUE_KERNEL_OUT_BLOCK * NNUE_KERNEL_OUT_BLOCK;
    if (!(pl->weights_f32 = calloc(a->stacks, sizeof *pl->weights_f32)))
        return -1;
    size_t bytes = round64((size_t)l->in_size * pl->out_pad * sizeof(float));
    for (uint32_t s = 0; s < a->stacks; s++) {
        const float *rows = weights[(size_t)s * a->n_layers + i].weights;
        float *w = aligned_alloc(64, bytes);
        if (!(pl->weights_f32[s] = w))
            return -1;
        memset(w, 0, bytes);
        for (uint32_t o = 0; o < l->out_size; o++)
            for (uint32_t j = 0; j < l->in_size; j++)
                w[(size_t)j * pl->out_pad + o] = rows[(size_t)o * l->in_size + j];
    }
    return 0;
}

/* Layer i reads exactly one input: layer i - 1. */
static int reads_previous(const nnue_layer *l, int i)
{
    return l->n_inputs == 1 && l->inputs[0] == i - 1;
}

/* The index of the first of the last four layers when they are crelu 32, u8 affine 32 -> 32,
 * crelu 32, u8 affine 32 -> 1 in a chain (kernels.h tail_32_32_1), else 0. */
static int find_tail(const nnue_arch *a, const nnue_plan *plan)
{
    int t = a->n_layers - 4;
    if (t < 1)
        return 0;
    const nnue_layer *l = &a->layers[t];
    const nnue_plan_layer *pl = &plan->layers[t];
    for (int j = 0; j < 4; j++) {
        if (l[j].n_inputs != 1 || (j > 0 && !reads_previous(&l[j], t + j)))
            return 0;
        if (j % 2 == 0 && (pl[j].kind != NNUE_OP_CRELU || l[j].in_size != 32 || l[j].out_size != 32 ||
                           l[j].p.relu.max < 0 || l[j].p.relu.max > 127 || l[j].p.relu.shift < 0 ||
                           l[j].p.relu.shift > 31))
            return 0;
        if (j % 2 == 1 && (!pl[j].u8 || pl[j].spans || pl[j].sparse || pl[j].from_network || pl[j].groups != 8 ||
                           l[j].out_size != (j == 1 ? 32u : 1u) || pl[j].out_pad != (j == 1 ? 32u : 16u)))
            return 0;
    }
    return t;
}

/* Layer 0, before a tail at layer 1, as kernels.h fc0_tail_32_32_1 takes it: a dense u8 affine
 * layer reading the u8 network input only, 32 outputs, no sum shift. */
static int fc0_for_tail(const nnue_arch *a, const nnue_plan *plan)
{
    const nnue_layer *l = &a->layers[0];
    const nnue_plan_layer *pl = &plan->layers[0];
    return plan->network_u8 && !plan->network_i32 && l->n_inputs == 1 && l->inputs[0] == NNUE_INPUT_NETWORK &&
           pl->u8 && pl->from_network && !pl->sparse && !pl->spans && !pl->n_pieces && !pl->zero_biases &&
           l->out_size == 32 && pl->out_pad == 32;
}

/* A u8 layer's weights in the input-major layout of affine_u8 / affine_u8_list, every stack
 * (and the zero biases of a sum_shift layer); -1 when memory ran out. */
static int prepare_dense(const nnue_arch *a, const nnue_layer_weights *weights, int i, nnue_plan_layer *pl)
{
    const nnue_layer *l = &a->layers[i];
    pl->weights = calloc(a->stacks, sizeof *pl->weights);
    if (!pl->weights)
        return -1;
    if (l->type->is_affine && l->p.affine.sum_shift &&
        !(pl->zero_biases = calloc(pl->out_pad, sizeof *pl->zero_biases)))
        return -1;
    int8_t *dense = l->type->is_affine ? NULL : malloc((size_t)l->out_size * l->in_size);
    if (!l->type->is_affine && !dense)
        return -1;
    for (uint32_t s = 0; s < a->stacks; s++) {
        const nnue_layer_weights *lw = &weights[(size_t)s * a->n_layers + i];
        if (!(pl->weights[s] = prepare_weights(l, lw, dense, pl->groups, pl->out_pad))) {
            free(dense);
            return -1;
        }
    }
    free(dense);
    return 0;
}

static int prepare_u8(const nnue_arch *a, const nnue_layer_weights *weights, nnue_plan *plan)
{
    nnue_range net_range = network_range(&a->ft), out[NNUE_MAX_LAYERS];
    int any = 0;
    for (int i = 0; i < a->n_layers; i++) {
        const nnue_layer *l = &a->layers[i];
        nnue_range ins[NNUE_MAX_LAYER_INPUTS], in;
        for (int k = 0; k < l->n_inputs; k++)
            ins[k] = l->inputs[k] == NNUE_INPUT_NETWORK ? net_range : out[l->inputs[k]];
        nnue_range_of_inputs(l, ins, &in);
        /* Known output ranges (the layer types' own rule) let a later affine read bytes; float
         * values and unmodelled types are `unknown`. Bounds beyond int32 mean wrapped sums. */
        out[i] = unknown;
        if (l->value_type == NNUE_I32 && !l->type->is_affine && l->type->range && l->type->range(l, ins, &out[i]) &&
            (out[i].lo < INT32_MIN || out[i].hi > INT32_MAX))
            out[i] = unknown;
        nnue_plan_layer *pl = &plan->layers[i];
        pl->kind = (uint8_t)l->type->op;
        if (pl->kind == NNUE_OP_SQR_CRELU && l->p.relu.sq_bound <= 0)
            pl->kind = NNUE_OP_PROPAGATE;
        /* i8 weights on inputs in 0..127: an affine layer's own rows, or a layer's dense_i8 rows. */
        int i8 = l->type->is_affine ? l->p.affine.weight_type == NNUE_I8 && l->p.affine.sum_divisor == 1
                                    : l->type->dense_i8 != NULL;
        int u8 = i8 && l->n_inputs == 1 && in.lo >= 0 && in.hi <= 127;
        if (!u8) {
            for (int k = 0; k < l->n_inputs; k++)
                if (l->inputs[k] == NNUE_INPUT_NETWORK)
                    plan->network_i32 = 1;
            if (prepare_i32(a, weights, i, in, pl) < 0 || prepare_f32(a, weights, i, pl) < 0)
                return -1;
            continue;
        }
        pl->u8 = 1;
        pl->from_network = l->inputs[0] == NNUE_INPUT_NETWORK;
        /* A dense_i8 layer reading the network input gathers its non-zero groups like
         * affine_sparse (the forward pass falls back to the dense kernel on dense inputs). */
        pl->sparse = (uint8_t)(l->type->is_affine ? l->p.affine.sparse : pl->from_network);
        plan->network_u8 |= pl->from_network;
        pl->groups = (l->in_size + 3) / 4;
        pl->out_pad = pl->from_network && l->out_size == NNUE_NARROW_OUT_PAD
                          ? NNUE_NARROW_OUT_PAD
                          : (l->out_size + NNUE_KERNEL_OUT_BLOCK - 1) / NNUE_KERNEL_OUT_BLOCK * NNUE_KERNEL_OUT_BLOCK;
        if (pl->groups > 65535)
            return -1;
        int spans = prepare_spans(a, weights, i, pl);
        if (spans < 0)
            return -1;
        if (spans)
            pl->sparse = 0; /* every output reads its spans whole */
        else if (prepare_dense(a, weights, i, pl) < 0 ||
                 (pl->from_network && prepare_pairs(a->stacks, in.hi, pl) < 0))
            return -1;
        if (!pl->from_network && round64((size_t)pl->groups * 4 + 16) > plan->u8_tmp_bytes)
            plan->u8_tmp_bytes = (uint32_t)round64((size_t)pl->groups * 4 + 16);
        if (pl->groups > plan->max_groups)
            plan->max_groups = pl->groups;
        any = 1;
    }
    if (!any)
        return 1;
    plan->kind = NNUE_PLAN_U8;
    plan->tail_at = find_tail(a, plan);
    nnue_plan_fuse_pieces(a, plan);
    if (nnue_plan_f32_head(a, weights, plan) < 0)
        return -1;
    nnue_plan_head(a, plan);
    plan->fc0_tail = plan->tail_at == 1 && fc0_for_tail(a, plan);
    int sparse = 0, sparse_net = 0;
    for (int i = 0; i < a->n_layers; i++) {
        sparse += plan->layers[i].sparse;
        sparse_net += plan->layers[i].sparse && plan->layers[i].from_network;
    }
    plan->nz_fused = a->ft.activation == NNUE_FT_PAIRWISE && a->ft.out_per_side % 4 == 0 &&
                     2 * a->ft.out_per_side == a->ft.width && sparse == 1 && sparse_net == 1;
    plan->scalar_values = 2 * (size_t)a->ft.out_per_side;
    for (int i = 0; i < a->n_layers; i++)
        plan->scalar_values += a->layers[i].out_size;
    plan->u8_net_bytes = (uint32_t)round64(2 * (size_t)a->ft.out_per_side);
    size_t bytes = plan->u8_net_bytes + plan->u8_tmp_bytes + round64((plan->max_groups + 16) * sizeof(uint16_t)) + 64;
    plan->scratch_extra_values = bytes / 4 + 16;
    return 0;
}

static int prepare_bullet(const nnue_arch *a, const nnue_layer_weights *weights, nnue_plan *plan)
{
    const nnue_layer *l = &a->layers[0];
    if ((a->ft.activation != NNUE_FT_SCRELU && a->ft.activation != NNUE_FT_SQRRELU) || a->n_layers != 1 ||
        !l->type->is_affine || l->n_inputs != 1 || l->inputs[0] != NNUE_INPUT_NETWORK ||
        l->p.affine.weight_type != NNUE_I16 || l->in_size != 2 * a->ft.width || a->ft.out_per_side != a->ft.width ||
        a->ft.clamp_max < 0)
        return 1;
    plan->clip = a->ft.activation == NNUE_FT_SQRRELU || a->ft.clamp_max > 32767 ? 32767 : a->ft.clamp_max;
    plan->wmax = calloc((size_t)a->stacks * l->out_size, sizeof *plan->wmax);
    if (!plan->wmax)
        return -1;
    for (uint32_t s = 0; s < a->stacks; s++) {
        const int16_t *w = weights[s].weights;
        for (uint32_t o = 0; o < l->out_size; o++) {
            int32_t m = 0;
            for (uint32_t j = 0; j < l->in_size; j++) {
                int32_t v = w[(size_t)o * l->p.affine.padded_in + j];
                v = v < 0 ? -v : v;
                m = v > m ? v : m;
            }
            plan->wmax[s * l->out_size + o] = m;
        }
    }
    plan->kind = NNUE_PLAN_BULLET;
    return 0;
}

nnue_plan *nnue_plan_make(const nnue_arch *arch, const nnue_layer_weights *weights)
{
    if (!arch || !weights || arch->n_layers < 1)
        return NULL;
    nnue_plan *plan = calloc(1, sizeof *plan);
    if (!plan)
        return NULL;
    plan->stacks = arch->stacks;
    int st = prepare_bullet(arch, weights, plan);
    if (st > 0)
        st = prepare_u8(arch, weights, plan);
    if (st != 0) { /* unsupported (st > 0) or out of memory: scalar path */
        nnue_plan_free(plan);
        return NULL;
    }
    return plan;
}
