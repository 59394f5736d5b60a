/* layers/plan_pieces.c: fused small heads (issue 47 item 3). A u8 layer after the first
 * (Stockfish's fc1 and fc2) reads int32 activations through a concat: the plain path runs each
 * activation, copies them into the concat and packs the concat into bytes, a kernel call and a
 * pass over memory per layer on a few dozen values. Here the u8 layer makes its input bytes
 * itself, one act_u8 call per activation (its "piece") straight from the values the activation
 * reads, and the activations and concats no other layer reads are not run at all. The bytes are
 * the plain path's: act_u8 is crelu_i32 or sqr_crelu_i32 then pack_u8 (simd/kernels.h).
 * And a concat whose inputs are consecutive layers, already side by side in the scratch
 * (Stormphrax's x and d), is their first one's values: no copy. */
#include "core/arch/layer.h"
#include "layers/plan.h"

/* Layer x is an activation act_u8 can run: crelu or sqr_crelu (with its square bound) on one
 * int32 layer's values, max 0..127, shift 0..31. */
static int piece_ok(const nnue_arch *a, const nnue_plan *plan, int x)
{
    if (x < 0)
        return 0;
    const nnue_layer *l = &a->layers[x];
    int kind = plan->layers[x].kind;
    return (kind == NNUE_OP_CRELU || kind == NNUE_OP_SQR_CRELU) && l->n_inputs == 1 && l->inputs[0] >= 0 &&
           l->value_type == NNUE_I32 && l->p.relu.max >= 0 && l->p.relu.max <= 127 && l->p.relu.shift >= 0 &&
           l->p.relu.shift <= 31 && l->in_size == l->out_size;
}

/* The pieces of u8 layer i: its input is one activation, or a concat of activations. */
static void find_pieces(const nnue_arch *a, nnue_plan *plan, int i)
{
    const nnue_layer *l = &a->layers[i];
    nnue_plan_layer *pl = &plan->layers[i];
    int x = l->inputs[0];
    if (piece_ok(a, plan, x)) {
        pl->pieces[0] = (nnue_plan_piece){(int16_t)x, 0};
        pl->n_pieces = 1;
        return;
    }
    if (x < 0 || plan->layers[x].kind != NNUE_OP_CONCAT)
        return;
    const nnue_layer *c = &a->layers[x];
    uint32_t offset = 0;
    for (int j = 0; j < c->n_inputs; j++) {
        if (!piece_ok(a, plan, c->inputs[j]) || c->input_sizes[j] != a->layers[c->inputs[j]].out_size)
            return;
        pl->pieces[j] = (nnue_plan_piece){(int16_t)c->inputs[j], (uint16_t)offset};
        offset += c->input_sizes[j];
    }
    if (offset == l->in_size)
        pl->n_pieces = (uint8_t)c->n_inputs;
}

/* Every layer reading layer j is a fused u8 layer or a skipped concat (later layers first, so
 * a concat's own mark is known). */
static int read_only_by_fused(const nnue_arch *a, const nnue_plan *plan, int j)
{
    for (int k = j + 1; k < a->n_layers; k++)
        for (int m = 0; m < a->layers[k].n_inputs; m++)
            if (a->layers[k].inputs[m] == j && !(plan->layers[k].u8 && plan->layers[k].n_pieces) &&
                !(plan->layers[k].kind == NNUE_OP_CONCAT && plan->layers[k].skipped))
                return 0;
    return 1;
}

/* Layer k's values lie in its own slot of the scratch (each layer's slot follows the one
 * before: core/eval/forward_fast.c): it is run and is not a view of another's. */
static int in_own_slot(const nnue_plan *plan, int k)
{
    const nnue_plan_layer *pl = &plan->layers[k];
    return k >= 0 && !pl->skipped && !pl->concat_view && (pl->u8 || pl->kind != NNUE_OP_VIEW);
}

/* A concat of layers k, k + 1, ... (whole outputs, each in its own slot) is already in place. */
static int adjacent(const nnue_arch *a, const nnue_plan *plan, int i)
{
    const nnue_layer *c = &a->layers[i];
    for (int j = 0; j < c->n_inputs; j++) {
        int k = c->inputs[j];
        if (!in_own_slot(plan, k) || k != c->inputs[0] + j || c->input_sizes[j] != a->layers[k].out_size)
            return 0;
    }
    return c->n_inputs > 0;
}

void nnue_plan_fuse_pieces(const nnue_arch *a, nnue_plan *plan)
{
    for (int i = 1; i < a->n_layers; i++) {
        nnue_plan_layer *pl = &plan->layers[i];
        if (!pl->u8 || pl->from_network || a->layers[i].n_inputs != 1 || a->layers[i].inputs[0] < 0)
            continue;
        find_pieces(a, plan, i);
        /* act_u8 may write 64 bytes past a piece's end */
        if (pl->n_pieces && (size_t)pl->groups * 4 + 128 > plan->u8_tmp_bytes)
            plan->u8_tmp_bytes = (uint32_t)(((size_t)pl->groups * 4 + 128 + 63) / 64 * 64);
    }
    for (int j = a->n_layers - 2; j >= 0; j--) {
        int kind = plan->layers[j].kind;
        if (!plan->layers[j].u8 && (kind == NNUE_OP_CONCAT || kind == NNUE_OP_CRELU || kind == NNUE_OP_SQR_CRELU) &&
            read_only_by_fused(a, plan, j))
            plan->layers[j].skipped = 1;
    }
    for (int i = 0; i < a->n_layers; i++)
        if (!plan->layers[i].u8 && !plan->layers[i].skipped && plan->layers[i].kind == NNUE_OP_CONCAT &&
            adjacent(a, plan, i))
            plan->layers[i].concat_view = 1;
}
