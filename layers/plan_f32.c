/* layers/plan_f32.c: the float head of a plan (issue 47 item 3). PlentyChess, Viridithas and
 * Reckless turn their int8 first layer's sums into floats (dequantize) and run a few small float
 * layers: affine_f32 32 -> 32 or 64, element-wise activations, slices, a concat, a 16-lane affine
 * to one output, to_i32. Layer by layer, each is a pass of the forward loop over a few dozen
 * values; here the run from the dequantize on is one call of the float kernels' head
 * (simd/kernels_f32.h), its steps made once: each layer's values get a slot in one buffer (a
 * slice is an offset into its input's slot, a concat's inputs are written straight into its
 * slot where they can be, copied there otherwise), so no layer's values are copied or re-read
 * by the plan. The steps are the layers' own definitions; the head ends at the first layer that
 * is not one of them, or after a to_i32. */
#include <stdlib.h>

#include "core/arch/layer.h"
#include "layers/plan.h"

extern const nnue_layer_type nnue_layer_crelu_f32, nnue_layer_sqr_crelu_f32, nnue_layer_dual_f32,
    nnue_layer_hardswish_f32, nnue_layer_mul_f32, nnue_layer_add_f32, nnue_layer_to_i32;

enum { VIEW = 100, CONCAT = 101 };

/* Layer l's step kind in a head (NNUE_F32_*, VIEW, CONCAT), or -1. */
static int kind_of(const nnue_layer *l)
{
    const nnue_layer_type *t = l->type;
    return t->op == NNUE_OP_DEQUANTIZE ? NNUE_F32_DEQUANTIZE
           : t->op == NNUE_OP_AFFINE_F32 ? (l->p.f32.lanes ? NNUE_F32_AFFINE_LANES : NNUE_F32_AFFINE)
           : t->op == NNUE_OP_VIEW      ? VIEW
           : t->op == NNUE_OP_CONCAT    ? CONCAT
           : t == &nnue_layer_crelu_f32 ? NNUE_F32_CRELU
           : t == &nnue_layer_sqr_crelu_f32 ? NNUE_F32_SQR_CRELU
           : t == &nnue_layer_dual_f32  ? NNUE_F32_DUAL
           : t == &nnue_layer_hardswish_f32 ? NNUE_F32_HARDSWISH
           : t == &nnue_layer_mul_f32   ? NNUE_F32_MUL
           : t == &nnue_layer_add_f32   ? NNUE_F32_ADD
           : t == &nnue_layer_to_i32    ? NNUE_F32_TO_I32
                                        : -1;
}

/* Layer j (after the head's dequantize at `at`) belongs to the head: a kind it runs, reading
 * only head layers (float values: a to_i32 ends the head). */
static int in_head(const nnue_arch *a, const nnue_plan *plan, int at, int j)
{
    const nnue_layer *l = &a->layers[j];
    int k = kind_of(l);
    if (k < 0 || k == NNUE_F32_DEQUANTIZE || l->value_type != (k == NNUE_F32_TO_I32 ? NNUE_I32 : NNUE_F32))
        return 0;
    if (k == NNUE_F32_AFFINE && !plan->layers[j].weights_f32)
        return 0;
    for (int m = 0; m < l->n_inputs; m++)
        if (l->inputs[m] < at || l->inputs[m] >= j)
            return 0;
    return 1;
}

/* The buffer slots of layers at .. end - 1 (head_offset, head_floats): each concat's slot first,
 * the layers it reads whole placed inside it, then the other layers' slots, then the views. */
static void place(const nnue_arch *a, nnue_plan *plan, int at, int end)
{
    uint8_t placed[NNUE_MAX_LAYERS] = {0};
    uint32_t *off = plan->head_offset, next = 0;
    for (int j = at; j < end; j++) {
        const nnue_layer *c = &a->layers[j];
        if (kind_of(c) != CONCAT)
            continue;
        uint32_t pos = next;
        off[j - at] = next;
        placed[j - at] = 1;
        next += c->out_size;
        for (int m = 0; m < c->n_inputs; m++) {
            int k = c->inputs[m], kk = kind_of(&a->layers[k]);
            if (!placed[k - at] && kk != VIEW && kk != CONCAT && c->input_sizes[m] == a->layers[k].out_size) {
                off[k - at] = pos;
                placed[k - at] = 1;
            }
            pos += c->input_sizes[m];
        }
    }
    for (int j = at; j < end; j++)
        if (!placed[j - at] && kind_of(&a->layers[j]) != VIEW) {
            off[j - at] = next;
            next += a->layers[j].out_size;
        }
    for (int j = at; j < end; j++)
        if (kind_of(&a->layers[j]) == VIEW)
            off[j - at] = off[a->layers[j].inputs[0] - at] + a->layers[j].p.slice.offset;
    plan->head_floats = next;
}

/* Appends a step; 0 when the head has no room for it. */
static int add(nnue_f32_head *h, nnue_f32_step st)
{
    if (h->n_steps >= (int)(sizeof h->steps / sizeof h->steps[0]))
        return 0;
    h->steps[h->n_steps++] = st;
    return 1;
}

/* The steps of layers at .. end - 1 in order, with their per-stack weight and bias pointers
 * (head_ptrs: two arrays of `stacks` a layer); 0 when there are too many. */
static int make_steps(const nnue_arch *a, const nnue_layer_weights *weights, nnue_plan *plan, int at, int end)
{
    nnue_f32_head *h = &plan->head;
    const uint32_t *off = plan->head_offset;
    size_t stacks = a->stacks;
    for (int j = at; j < end; j++) {
        const nnue_layer *l = &a->layers[j];
        int kind = kind_of(l);
        if (kind == VIEW)
            continue;
        if (kind == CONCAT) {
            uint32_t pos = off[j - at];
            for (int m = 0; m < l->n_inputs; m++) {
                uint32_t from = off[l->inputs[m] - at];
                if (from != pos && !add(h, (nnue_f32_step){.op = NNUE_F32_COPY, .in = from, .out = pos,
                                                           .n_out = l->input_sizes[m]}))
                    return 0;
                pos += l->input_sizes[m];
            }
            continue;
        }
        const float **w = plan->head_ptrs + (size_t)(j - at) * 2 * stacks, **b = w + stacks;
        for (size_t k = 0; k < stacks; k++) {
            const nnue_layer_weights *lw = &weights[k * a->n_layers + j];
            w[k] = kind == NNUE_F32_AFFINE ? plan->layers[j].weights_f32[k] : lw->weights;
            b[k] = lw->biases;
        }
        nnue_f32_step st = {.op = (uint8_t)kind, .out = off[j - at], .n_in = l->in_size, .n_out = l->out_size,
                            .w = w, .b = b};
        if (kind != NNUE_F32_DEQUANTIZE)
            st.in = off[l->inputs[0] - at];
        if (l->n_inputs > 1)
            st.in2 = off[l->inputs[1] - at];
        st.param = kind == NNUE_F32_DEQUANTIZE || kind == NNUE_F32_TO_I32 ? l->p.f32.scale : l->p.f32.max;
        st.pad = kind == NNUE_F32_AFFINE ? plan->layers[j].out_pad : l->p.f32.lanes;
        if (!add(h, st))
            return 0;
    }
    return 1;
}

int nnue_plan_f32_head(const nnue_arch *a, const nnue_layer_weights *weights, nnue_plan *plan)
{
    int at = 0, end;
    for (int i = 1; i < a->n_layers && !at; i++)
        if (a->layers[i].type->op == NNUE_OP_DEQUANTIZE && a->layers[i].n_inputs == 1)
            at = i;
    if (!at)
        return 0;
    for (end = at + 1; end < a->n_layers && in_head(a, plan, at, end); end++)
        if (kind_of(&a->layers[end]) == NNUE_F32_TO_I32) {
            end++;
            break;
        }
    if (end - at < 2)
        return 0;
    place(a, plan, at, end);
    if (!(plan->head_ptrs = calloc((size_t)(end - at) * 2 * a->stacks, sizeof *plan->head_ptrs)))
        return -1;
    if (!make_steps(a, weights, plan, at, end)) {
        plan->head.n_steps = 0;
        return 0;
    }
    plan->head_at = at;
    plan->head_end = end;
    return 0;
}
