/* layers/plan_head.c: the SFNN head after fc0 in one kernel call (issues 47/48). Stockfish's
 * fc1 and fc2 (Stockfish 15.1 to 19, YaneuraOu's SFNN shogi nets, Pikafish) are u8 layers whose
 * input bytes the fused pieces make (plan_pieces.c): fc1 reads sqr_crelu and crelu of the same
 * values (fc0's, or a slice of them), fc2 reads crelu of fc1 (and, in Stockfish 19's shape, its
 * sqr_crelu after fc1's own input). Where a net has that shape, kernels.h head_u8 runs both layers
 * and the activations between them in one call with the sizes known, instead of four kernel calls
 * and the forward pass's steps over the skipped layers; it computes the plain path's values. */
#include "core/arch/layer.h"
#include "layers/plan.h"

/* Piece p is the activation of `kind` on the first n values of layer src, at byte offset `off`. */
static int piece_is(const nnue_arch *a, const nnue_plan *plan, const nnue_plan_piece *p, int kind, int src, uint32_t n,
                    uint32_t off)
{
    const nnue_layer *l = &a->layers[p->act];
    return plan->layers[p->act].kind == kind && l->inputs[0] == src && l->out_size == n && p->offset == off;
}

/* The plain u8 layer after i1 with every layer between skipped (plan_pieces.c), or -1. */
static int next_u8(const nnue_arch *a, const nnue_plan *plan, int i1)
{
    for (int j = i1 + 1; j < a->n_layers; j++) {
        if (plan->layers[j].u8)
            return j;
        if (!plan->layers[j].skipped)
            return -1;
    }
    return -1;
}

/* fc2's pieces (layer i2) for fc1 = layer i1 with fc1's pieces p1 (m0 values each): fills h's
 * fc2_all and sq1; returns the byte count of fc2's input, or 0 when they are not the head's. */
static uint32_t fc2_pieces(const nnue_arch *a, const nnue_plan *plan, int i1, int i2, nnue_head_u8 *h)
{
    const nnue_plan_layer *p1 = &plan->layers[i1], *p2 = &plan->layers[i2];
    int k = 0;
    uint32_t at = 0;
    if (p2->n_pieces >= 3 && p2->pieces[0].act == p1->pieces[0].act && p2->pieces[0].offset == 0 &&
        p2->pieces[1].act == p1->pieces[1].act && p2->pieces[1].offset == h->m0) {
        h->fc2_all = 1;
        k = 2;
        at = 2 * h->m0;
    }
    if (k < p2->n_pieces && piece_is(a, plan, &p2->pieces[k], NNUE_OP_SQR_CRELU, i1, h->n1, at)) {
        const nnue_layer *s = &a->layers[p2->pieces[k].act];
        h->sq1[0] = s->p.relu.shift, h->sq1[1] = s->p.relu.max, h->sq1[2] = s->p.relu.sq_bound;
        k++;
        at += h->n1;
    }
    if (k >= p2->n_pieces || !piece_is(a, plan, &p2->pieces[k], NNUE_OP_CRELU, i1, h->n1, at))
        return 0;
    const nnue_layer *c = &a->layers[p2->pieces[k].act];
    h->cr1[0] = c->p.relu.shift, h->cr1[1] = c->p.relu.max;
    return k + 1 == p2->n_pieces ? at + h->n1 : 0;
}

/* Layer i1 as the head's fc1: fills h and returns its fc2's index, or -1. */
static int head_at(const nnue_arch *a, const nnue_plan *plan, int i1, nnue_head_u8 *h)
{
    const nnue_plan_layer *p1 = &plan->layers[i1];
    uint32_t n1 = a->layers[i1].out_size; /* 32, or 64 (YaneuraOu's generated L3 = 64 nets) */
    if (!p1->u8 || p1->spans || p1->n_pieces != 2 || p1->zero_biases || (n1 != 32 && n1 != 64) || p1->out_pad != n1)
        return -1;
    const nnue_layer *sq = &a->layers[p1->pieces[0].act], *cr = &a->layers[p1->pieces[1].act];
    int x = sq->inputs[0];
    uint32_t m0 = sq->out_size;
    if (m0 < 1 || m0 > 32 || !piece_is(a, plan, &p1->pieces[0], NNUE_OP_SQR_CRELU, x, m0, 0) ||
        !piece_is(a, plan, &p1->pieces[1], NNUE_OP_CRELU, x, m0, m0) || p1->groups != (2 * m0 + 3) / 4)
        return -1;
    *h = (nnue_head_u8){.m0 = m0, .n1 = n1};
    h->sq0[0] = sq->p.relu.shift, h->sq0[1] = sq->p.relu.max, h->sq0[2] = sq->p.relu.sq_bound;
    h->cr0[0] = cr->p.relu.shift, h->cr0[1] = cr->p.relu.max;
    int i2 = next_u8(a, plan, i1);
    if (i2 < 0 || plan->layers[i2].spans || a->layers[i2].out_size != 1 || plan->layers[i2].out_pad != 16 || plan->layers[i2].zero_biases)
        return -1;
    uint32_t bytes = fc2_pieces(a, plan, i1, i2, h);
    if (!bytes || plan->layers[i2].groups != (bytes + 3) / 4)
        return -1;
    for (int j = i1 + 1; j < a->n_layers; j++) /* fc1's values are never stored: only its activations read them */
        for (int m = 0; m < a->layers[j].n_inputs; m++)
            if (a->layers[j].inputs[m] == i1 && !plan->layers[j].skipped)
                return -1;
    return i2;
}

/* fc0 in the call too: x is the sparse u8 layer reading the network input (8, 16 or 32 outputs,
 * 8 laid out 8 wide), or a view of its first values; the layers up to fc1 are skipped or views of
 * it, whose addresses the forward pass sets. A spans layer reading the network input (YaneuraOu's
 * common + shard fc0) is taken as fc0 too, run by its own kernel before the head (u8head_spans):
 * with the layers after fc2 placed as well (head_rest below), no walk over the layers. */
static void head_fc0(const nnue_arch *a, nnue_plan *plan)
{
    int i0 = plan->u8head_x;
    if (i0 < 0)
        return;
    if (!plan->layers[i0].u8 && plan->layers[i0].kind == NNUE_OP_VIEW && a->layers[i0].p.slice.offset == 0)
        i0 = a->layers[i0].inputs[0];
    if (i0 < 0)
        return;
    const nnue_plan_layer *p0 = &plan->layers[i0];
    uint32_t n0 = a->layers[i0].out_size;
    const int spans = p0->u8 && p0->spans && p0->from_network && !p0->zero_biases && !p0->n_pieces &&
                      plan->u8head.m0 <= n0;
    if (!spans && (!p0->u8 || !p0->sparse || !p0->from_network || p0->zero_biases || p0->n_pieces ||
                   (n0 != 8 && n0 != 16 && n0 != 32) || p0->out_pad != NNUE_HEAD_FC0_PAD(n0) || plan->u8head.m0 > n0))
        return;
    int nv = 0;
    for (int j = i0 + 1; j < plan->u8head_at; j++) {
        const nnue_plan_layer *pj = &plan->layers[j];
        if (pj->skipped)
            continue;
        if (pj->u8 || pj->kind != NNUE_OP_VIEW || a->layers[j].inputs[0] != i0 || nv == 4)
            return;
        plan->u8head_view[nv] = (int16_t)j;
        plan->u8head_view_off[nv++] = (uint16_t)a->layers[j].p.slice.offset;
    }
    plan->u8head_n_views = nv;
    plan->u8head_fc0 = i0;
    plan->u8head_gap0 = plan->u8head_gap;
    for (int j = i0; j < plan->u8head_at; j++)
        plan->u8head_gap0 += a->layers[j].out_size;
    if (spans)
        plan->u8head_spans = 1;
    else
        plan->u8head.n0 = n0;
}

/* Where the layer walk of the forward pass (core/eval/forward_fast.c) would put each layer's values
 * when fc0 is layer 0 in the head call, and the layers after fc2 as steps: views and concat views
 * resolved to offsets, the others run by their propagate. Leaves rest_ok 0 for anything else. */
static void head_rest(const nnue_arch *a, nnue_plan *plan)
{
    if (plan->u8head_fc0 != 0 || (!plan->u8head.n0 && !plan->u8head_spans) || plan->network_i32 || plan->tail_at ||
        plan->head_at)
        return;
    uint32_t off[NNUE_MAX_LAYERS];
    uint32_t next = 2 * a->ft.out_per_side;
    off[0] = next;
    for (int v = 0; v < plan->u8head_n_views; v++)
        off[plan->u8head_view[v]] = next + plan->u8head_view_off[v];
    int end = plan->u8head_end;
    off[end] = next + plan->u8head_gap0;
    next = off[end] + a->layers[end].out_size;
    int n = 0;
    for (int i = end + 1; i < a->n_layers; i++) {
        const nnue_layer *l = &a->layers[i];
        const nnue_plan_layer *pl = &plan->layers[i];
        for (int k = 0; k < l->n_inputs; k++) { /* inputs: fc0, its views, fc2 or a rest layer */
            int x = l->inputs[k];
            int placed = x == 0 || x >= end;
            for (int v = 0; v < plan->u8head_n_views; v++)
                placed |= x == plan->u8head_view[v];
            if (x < 0 || !placed)
                return;
        }
        if (pl->u8 || pl->skipped || pl->weights32 || pl->weights16 || pl->weights_f32)
            return;
        if (pl->kind == NNUE_OP_VIEW || pl->concat_view) {
            off[i] = off[l->inputs[0]] + (pl->kind == NNUE_OP_VIEW ? l->p.slice.offset : 0);
        } else if (pl->kind == NNUE_OP_PROPAGATE) {
            nnue_plan_step *s = &plan->rest[n++];
            s->layer = (int16_t)i;
            s->out_off = off[i] = next;
            for (int k = 0; k < l->n_inputs; k++)
                s->in_off[k] = off[l->inputs[k]];
        } else {
            return;
        }
        next += l->out_size;
    }
    plan->rest_fc2_off = off[end];
    plan->rest_result_off = off[a->n_layers - 1];
    plan->n_rest = n;
    plan->rest_ok = 1;
}

void nnue_plan_head(const nnue_arch *a, nnue_plan *plan)
{
    for (int i1 = 1; i1 < a->n_layers; i1++) {
        nnue_head_u8 h;
        int i2 = head_at(a, plan, i1, &h);
        if (i2 < 0 || (plan->tail_at >= i1 && plan->tail_at <= i2) || (plan->head_at >= i1 && plan->head_at <= i2))
            continue;
        plan->u8head = h;
        plan->u8head_at = i1;
        plan->u8head_end = i2;
        plan->u8head_x = a->layers[plan->layers[i1].pieces[0].act].inputs[0];
        plan->u8head_gap = 0;
        for (int j = i1; j < i2; j++)
            plan->u8head_gap += a->layers[j].out_size;
        head_fc0(a, plan);
        head_rest(a, plan);
        return;
    }
}
