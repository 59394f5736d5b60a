/* core/eval/forward_fast.c: the forward pass on the SIMD kernels, following the plan made at
 * load time (layers/plan.h). u8 layers read bytes: the network input comes straight from the
 * accumulators through the clamp/pairwise kernel; an inner layer's int32 input (already known
 * to lie in 0..127) is packed to bytes first; an int32 affine layer runs affine_i32; a float
 * affine layer and a dequantize the float kernels of the level (simd/kernels_f32.h) where it has
 * them, and a float head (a dequantize and the small float layers after it) their head kernel in
 * one call. Every other layer runs its scalar propagate on the same int32 buffers as the
 * reference path, so results are identical by construction. */
#include <string.h>

#include "core/arch/layer.h"
#include "core/eval/forward_fast.h"
#include "core/eval/ft_activation.h"
#include "simd/kernels_f32.h"

static int32_t bullet(const nnue_net *net, const nnue_kernels *k, const nnue_plan *plan, const int16_t *us,
                      const int16_t *them, int bucket, int32_t *out)
{
    const nnue_arch *a = net->arch;
    const nnue_layer *l = &a->layers[0];
    const nnue_layer_weights *lw = &net->layer_weights[bucket];
    uint32_t width = a->ft.width;
    for (uint32_t o = 0; o < l->out_size; o++) {
        const int16_t *row = (const int16_t *)lw->weights + (size_t)o * l->p.affine.padded_in;
        int32_t wmax = plan->wmax[(size_t)bucket * l->out_size + o];
        int64_t sum = k->sq_dot_i16(us, row, width, plan->clip, wmax) +
                      k->sq_dot_i16(them, row + width, width, plan->clip, wmax);
        if (l->p.affine.sum_divisor != 1)
            sum /= l->p.affine.sum_divisor;
        out[o] = (int32_t)(sum + ((const int32_t *)lw->biases)[o]);
    }
    return out[0];
}

static void network_u8(const nnue_ft_desc *ft, const nnue_kernels *k, const int16_t *acc, uint8_t *out)
{
    if (ft->activation == NNUE_FT_PAIRWISE)
        k->ft_pairwise_u8(acc, out, ft->width / 2, ft->clamp_max, ft->shift);
    else
        k->ft_clamp_u8(acc, out, ft->width, ft->clamp_max);
}

/* A fused u8 layer's input bytes (layers/plan_pieces.c): each piece's activation straight
 * from the values it reads, in order (each overwrites what the one before wrote past its end),
 * then zeros up to the whole groups (groups * 4 - end < 4). */
static void make_input(const nnue_arch *a, const nnue_plan_layer *pl, const int32_t *const *outputs,
                       const nnue_kernels *k, uint8_t *out)
{
    uint32_t end = 0;
    for (int p = 0; p < pl->n_pieces; p++) {
        const nnue_layer *act = &a->layers[pl->pieces[p].act];
        int32_t bound = act->type->op == NNUE_OP_SQR_CRELU ? act->p.relu.sq_bound : 0;
        k->act_u8(outputs[act->inputs[0]], out + pl->pieces[p].offset, act->out_size, act->p.relu.shift,
                  act->p.relu.max, bound);
        end = pl->pieces[p].offset + act->out_size;
    }
    uint32_t zero = 0; /* the at most 3 bytes up to the whole groups, in one store (the buffer has room) */
    memcpy(out + end, &zero, sizeof zero);
}

/* A spans layer (YaneuraOu's common + shard fc0, plan.h spans) on input bytes x, out_size values. */
static void run_spans(const nnue_kernels *k, const nnue_plan_layer *pl, const uint8_t *x, int bucket,
                      const int32_t *biases, int32_t *out, uint32_t out_size)
{
    k->affine_u8_spans(x, pl->span1, pl->span_at, pl->span2, pl->weights[bucket], pl->span1 + pl->span2, biases, out,
                       out_size);
}

/* fc0 to fc2 in the head call (or fc0's spans kernel, then the head call), then the layers after it
 * at their places (plan.h rest_ok): no walk. */
static int32_t head_and_rest(const nnue_net *net, const nnue_kernels *k, const nnue_plan *plan, int32_t *values,
                             const uint8_t *u8_net, uint16_t *idx, int nz, int bucket)
{
    const nnue_arch *a = net->arch;
    const nnue_plan_layer *pl = &plan->layers[0];
    const nnue_layer_weights *stack = net->layer_weights + (size_t)bucket * a->n_layers;
    int at = plan->u8head_at, end = plan->u8head_end;
    int32_t *o0 = values + 2 * a->ft.out_per_side;
    if (plan->u8head_spans) {
        run_spans(k, pl, u8_net, bucket, stack[0].biases, o0, a->layers[0].out_size);
        values[plan->rest_fc2_off] = k->head_u8(&plan->u8head, o0, plan->layers[at].weights[bucket], stack[at].biases,
                                                plan->layers[end].weights[bucket], stack[end].biases);
    } else {
        int count = nz >= 0 ? nz : k->nonzero_groups(u8_net, pl->groups, idx);
        int dense = (uint64_t)count * 10 >= (uint64_t)pl->groups * 9; /* as the walk's choice */
        values[plan->rest_fc2_off] =
            k->head_u8_fc0(&plan->u8head, u8_net, dense ? NULL : idx, dense ? pl->groups : (uint32_t)count,
                           pl->pairs ? pl->pairs[bucket] : 0, pl->weights[bucket], stack[0].biases, o0,
                           plan->layers[at].weights[bucket], stack[at].biases, plan->layers[end].weights[bucket],
                           stack[end].biases);
    }
    for (int r = 0; r < plan->n_rest; r++) {
        const nnue_plan_step *s = &plan->rest[r];
        const nnue_layer *l = &a->layers[s->layer];
        const int32_t *in[NNUE_MAX_LAYER_INPUTS];
        for (int j = 0; j < l->n_inputs; j++)
            in[j] = values + s->in_off[j];
        l->type->propagate(l, &stack[s->layer], in, values + s->out_off);
    }
    return values[plan->rest_result_off];
}

int32_t nnue_forward_fast(const nnue_net *net, const nnue_kernels *k, const int16_t *us, const int16_t *them,
                          int bucket, int32_t *scratch)
{
    const nnue_plan *plan = net->kernel_data;
    const nnue_arch *a = net->arch;
    if (plan->kind == NNUE_PLAN_BULLET)
        return bullet(net, k, plan, us, them, bucket, scratch);

    uint32_t ops = a->ft.out_per_side;
    int32_t *input = scratch;
    uint8_t *u8_net = (uint8_t *)(scratch + (plan->scalar_values + 15) / 16 * 16);
    uint8_t *u8_tmp = u8_net + plan->u8_net_bytes;
    uint16_t *idx = (uint16_t *)(u8_tmp + plan->u8_tmp_bytes);
    int nz = -1; /* the sparse layer's non-zero list, when made with the bytes (plan.h nz_fused) */
    if (plan->network_u8) {
        if (plan->nz_fused && k->ft_pairwise_nz) {
            const nnue_ft_desc *ft = &a->ft;
            nz = k->ft_pairwise_nz(us, u8_net, 0, ops, ft->clamp_max, ft->shift, idx, 0);
            nz = k->ft_pairwise_nz(them, u8_net, ops, ops, ft->clamp_max, ft->shift, idx, nz);
        } else {
            network_u8(&a->ft, k, us, u8_net);
            network_u8(&a->ft, k, them, u8_net + ops);
        }
        if (plan->u8_net_bytes > 2 * ops) /* whole lines of bytes already on most nets: no call */
            memset(u8_net + 2 * ops, 0, plan->u8_net_bytes - 2 * ops);
    }
    if (plan->rest_ok && (plan->u8head_spans ? k->head_u8 && k->affine_u8_spans : k->head_u8_fc0 != NULL))
        return head_and_rest(net, k, plan, input, u8_net, idx, nz, bucket);
    if (plan->fc0_tail && k->fc0_tail_32_32_1) { /* HalfKP's fc0 and tail (plan.h) */
        const nnue_layer *l = a->layers;
        const nnue_layer_weights *stack = net->layer_weights + (size_t)bucket * a->n_layers;
        const nnue_plan_layer *pl = &plan->layers[0];
        return k->fc0_tail_32_32_1(u8_net, pl->groups, pl->pairs ? pl->pairs[bucket] : 0, pl->weights[bucket],
                                   stack[0].biases, l[1].p.relu.shift, l[1].p.relu.max, plan->layers[2].weights[bucket],
                                   stack[2].biases, l[3].p.relu.shift, l[3].p.relu.max, plan->layers[4].weights[bucket],
                                   stack[4].biases);
    }
    const nnue_kernels_f32 *kf = nnue_kernels_f32_for(k->isa); /* the float layers' (the paths above have none) */
    if (plan->network_i32) {
        nnue_ft_transform(&a->ft, us, input);
        nnue_ft_transform(&a->ft, them, input + ops);
    }

    const int32_t *outputs[NNUE_MAX_LAYERS];
    int32_t *next = input + 2 * ops;
    const nnue_layer_weights *stack = net->layer_weights + (size_t)bucket * a->n_layers;
    for (int i = 0; i < a->n_layers; i++) {
        const nnue_layer *l = &a->layers[i];
        const nnue_plan_layer *pl = &plan->layers[i];
        const int32_t *x0 = l->inputs[0] == NNUE_INPUT_NETWORK ? input : outputs[l->inputs[0]];
        if (i > 0 && i == plan->tail_at && k->tail_32_32_1) /* the last four layers in one call (plan.h) */
            return k->tail_32_32_1(x0, l[0].p.relu.shift, l[0].p.relu.max, plan->layers[i + 1].weights[bucket],
                                   stack[i + 1].biases, l[2].p.relu.shift, l[2].p.relu.max,
                                   plan->layers[i + 3].weights[bucket], stack[i + 3].biases);
        if (i > 0 && i == plan->head_at && kf) { /* the float head in one call (plan.h, layers/plan_f32.c) */
            float *buf = (float *)(void *)next;
            kf->head(&plan->head, x0, (uint32_t)bucket, buf);
            for (int j = i; j < plan->head_end; j++)
                outputs[j] = (const int32_t *)(const void *)(buf + plan->head_offset[j - i]);
            next += plan->head_floats;
            i = plan->head_end - 1;
            continue;
        }
        if (pl->skipped) { /* read only by fused u8 layers (plan.h): never run, its values never read */
            next += l->out_size;
            continue;
        }
        if (pl->concat_view) { /* its inputs already side by side (plan.h): the first one's values */
            outputs[i] = x0;
            next += l->out_size;
            continue;
        }
        if (plan->u8head.n0 && i == plan->u8head_fc0 && k->head_u8_fc0) { /* fc0 to fc2 (layers/plan_head.c) */
            int count = nz >= 0 ? nz : k->nonzero_groups(u8_net, pl->groups, idx);
            int dense = (uint64_t)count * 10 >= (uint64_t)pl->groups * 9; /* as the plain path's choice below */
            int at = plan->u8head_at, end = plan->u8head_end;
            int32_t *o2 = next + plan->u8head_gap0;
            *o2 = k->head_u8_fc0(&plan->u8head, u8_net, dense ? NULL : idx, dense ? pl->groups : (uint32_t)count,
                                 pl->pairs ? pl->pairs[bucket] : 0, pl->weights[bucket], stack[i].biases, next, plan->layers[at].weights[bucket],
                                 stack[at].biases, plan->layers[end].weights[bucket], stack[end].biases);
            outputs[i] = next;
            for (int v = 0; v < plan->u8head_n_views; v++)
                outputs[plan->u8head_view[v]] = next + plan->u8head_view_off[v];
            outputs[end] = o2;
            next = o2 + a->layers[end].out_size;
            i = end;
            continue;
        }
        if (pl->u8 && i > 0 && i == plan->u8head_at && k->head_u8) { /* fc1 and fc2 in one call (layers/plan_head.c) */
            int end = plan->u8head_end;
            int32_t *o2 = next + plan->u8head_gap;
            *o2 = k->head_u8(&plan->u8head, outputs[plan->u8head_x], pl->weights[bucket], stack[i].biases,
                             plan->layers[end].weights[bucket], stack[end].biases);
            outputs[end] = o2;
            next = o2 + a->layers[end].out_size;
            i = end;
            continue;
        }
        if (pl->u8) {
            const uint8_t *x = u8_net;
            const int32_t *biases = pl->zero_biases ? pl->zero_biases : stack[i].biases;
            uint32_t pairs = pl->pairs ? pl->pairs[bucket] : 0; /* proven for a layer reading the network */
            if (pl->n_pieces) {
                make_input(a, pl, outputs, k, u8_tmp);
                x = u8_tmp;
            } else if (!pl->from_network) {
                k->pack_u8(x0, u8_tmp, l->in_size, pl->groups * 4);
                x = u8_tmp;
            }
            if (pl->spans) {
                run_spans(k, pl, x, bucket, biases, next, l->out_size);
            } else if (pl->sparse) {
                int count = nz >= 0 && pl->from_network ? nz : k->nonzero_groups(x, pl->groups, idx);
                /* Nearly dense input (random nets: 98-100% of fc0's groups): the dense kernel, with
                 * no index to follow, is faster (SFNNv9 bench -4%); the zero groups add nothing. */
                if ((uint64_t)count * 10 >= (uint64_t)pl->groups * 9)
                    k->affine_u8(x, pl->groups, pl->weights[bucket], biases, next, l->out_size, pl->out_pad, pairs);
                else
                    k->affine_u8_list(x, idx, count, pl->weights[bucket], biases, next, l->out_size, pl->out_pad,
                                      pairs);
            } else {
                k->affine_u8(x, pl->groups, pl->weights[bucket], biases, next, l->out_size, pl->out_pad, pairs);
            }
            if (pl->zero_biases) { /* (sum >> sum_shift) + bias, as the layer's propagate */
                const int32_t *b = stack[i].biases;
                int sh = l->p.affine.sum_shift;
                for (uint32_t o = 0, n = l->out_size; o < n; o++) /* locals: clang vectorises it */
                    next[o] = (int32_t)((uint32_t)(next[o] >> sh) + (uint32_t)b[o]);
            }
        } else if (pl->kind == NNUE_OP_VIEW) { /* a view, no copy: outputs are never written twice */
            outputs[i] = x0 + l->p.slice.offset;
            next += l->out_size;
            continue;
        } else if (pl->kind == NNUE_OP_CONCAT) {
            int32_t *o = next;
            for (int j = 0; j < l->n_inputs; j++) {
                const int32_t *xj = l->inputs[j] == NNUE_INPUT_NETWORK ? input : outputs[l->inputs[j]];
                memcpy(o, xj, l->input_sizes[j] * sizeof(int32_t));
                o += l->input_sizes[j];
            }
        } else if (pl->kind == NNUE_OP_CRELU) {
            k->crelu_i32(x0, next, l->out_size, l->p.relu.shift, l->p.relu.max);
        } else if (pl->kind == NNUE_OP_SQR_CRELU) {
            k->sqr_crelu_i32(x0, next, l->out_size, l->p.relu.shift, l->p.relu.max, l->p.relu.sq_bound);
        } else if (pl->kind == NNUE_OP_DEQUANTIZE && kf) {
            kf->dequantize(x0, l->out_size, l->p.f32.scale, stack[i].biases, (float *)(void *)next);
        } else if (pl->kind == NNUE_OP_AFFINE_F32 && kf && (pl->weights_f32 || l->p.f32.lanes)) {
            const float *x = (const float *)(const void *)x0;
            float *y = (float *)(void *)next;
            if (pl->weights_f32)
                kf->affine(x, l->in_size, pl->weights_f32[bucket], stack[i].biases, y, l->out_size, pl->out_pad);
            else
                kf->affine_lanes(x, l->in_size, stack[i].weights, stack[i].biases, y, l->out_size, l->p.f32.lanes);
        } else if (pl->weights16) {
            k->affine_i16p(x0, l->in_size, pl->weights16[bucket], stack[i].biases, next, l->out_size, pl->out_pad);
        } else if (pl->weights32) {
            k->affine_i32(x0, l->in_size, pl->weights32[bucket], stack[i].biases, next, l->out_size, pl->out_pad);
        } else {
            const int32_t *in[NNUE_MAX_LAYER_INPUTS];
            for (int j = 0; j < l->n_inputs; j++)
                in[j] = l->inputs[j] == NNUE_INPUT_NETWORK ? input : outputs[l->inputs[j]];
            l->type->propagate(l, &stack[i], in, next);
        }
        outputs[i] = next;
        next += l->out_size;
    }
    return outputs[a->n_layers - 1][0];
}
