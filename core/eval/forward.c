/* core/eval/forward.c: from the two accumulators to the score (scalar reference path).
 *
 * Network input = [activation(acc[stm]), activation(acc[other])] (FORMATS.md section 4), then
 * the selected stack's layers in declaration order, each reading earlier outputs. With a
 * vector kernel set and a prepared net (layers/plan.h), the layers after the FT run in
 * core/eval/forward_fast.c instead; the scalar set always takes the reference path below.
 * Both use the reference FT activation of core/eval/ft_activation.c; neither calls back here. */
#include "core/arch/expr_prog.h"
#include "core/arch/layer.h"
#include "core/eval/forward_fast.h"
#include "core/eval/ft_activation.h"
#include "core/eval/state.h"

size_t nnue_forward_scratch_values(const nnue_net *net)
{
    const nnue_arch *a = net->arch;
    size_t n = 2 * (size_t)a->ft.out_per_side;
    for (int i = 0; i < a->n_layers; i++)
        n += a->layers[i].out_size;
    const nnue_plan *plan = net->kernel_data;
    if (plan) /* the fast path's byte buffers follow, 64-byte aligned */
        n = (n + 15) / 16 * 16 + plan->scratch_extra_values;
    return n;
}

/* The reference layers of the selected stack; returns the output layer's value. */
static int32_t forward_scalar(const nnue_net *net, const nnue_acc_entry *e, int stm, int bucket, int32_t *scratch)
{
    const nnue_arch *a = net->arch;
    int32_t *input = scratch;
    nnue_ft_transform(&a->ft, e->acc[stm], input);
    nnue_ft_transform(&a->ft, e->acc[!stm], input + a->ft.out_per_side);

    /* outputs[i] points at layer i's values inside scratch. */
    const int32_t *outputs[NNUE_MAX_LAYERS];
    int32_t *next = input + 2 * a->ft.out_per_side;
    const nnue_layer_weights *stack = net->layer_weights + (size_t)bucket * a->n_layers;
    for (int i = 0; i < a->n_layers; i++) {
        const nnue_layer *l = &a->layers[i];
        const int32_t *in[NNUE_MAX_LAYER_INPUTS];
        for (int k = 0; k < l->n_inputs; k++)
            in[k] = l->inputs[k] == NNUE_INPUT_NETWORK ? input : outputs[l->inputs[k]];
        l->type->propagate(l, &stack[i], in, next);
        outputs[i] = next;
        next += l->out_size;
    }
    return outputs[a->n_layers - 1][0];
}

/* The stack; a table variable from the entry's shares (core/eval/table_parts.c) when e has them up
 * to date for its slot, else from its table from scratch (its lo when the net has no table). */
static int32_t bucket_of(const nnue_net *net, const nnue_kernels *k, const nnue_acc_entry *e, const nnue_board *board,
                         int32_t *table_values, int64_t *measures)
{
    const nnue_expr *sel = &net->arch->selector;
    int32_t values[NNUE_EXPR_MAX_VARS], *vals = table_values ? table_values : values;
    int tables = 0;
    for (uint32_t slots = sel->table_slots; slots; slots &= slots - 1) {
        int v = __builtin_ctz(slots);
        const nnue_table_var *tv = sel->table_vars[v];
        int64_t *measure = measures ? &measures[v] : NULL;
        if (!net->tables[v])
            vals[v] = tv->lo;
        else if (e && e->tpart_ok[0] && e->tpart_ok[1] && e->tpart_slot == v)
            vals[v] = tv->value_of(net->tables[v], e->tpart, measure);
        else
            vals[v] = tv->value(k, net->tables[v], board, measure);
        tables = 1;
    }
    return nnue_expr_run(sel, board, tables ? vals : NULL); /* the compiled program (core/arch/expr_prog.h) */
}

int32_t nnue_forward_bucket(const nnue_net *net, const nnue_board *board, int32_t *table_values, int64_t *measures)
{
    return bucket_of(net, &nnue_kernels_scalar, NULL, board, table_values, measures);
}

int32_t nnue_forward(const nnue_net *net, const nnue_kernels *k, const nnue_acc_entry *e, const nnue_board *board,
                     int32_t *scratch, nnue_eval_detail *detail)
{
    const nnue_arch *a = net->arch;
    int stm = board->side_to_move;
    int32_t bucket = a->stacks > 1 ? bucket_of(net, k, e, board, NULL, NULL) : 0; /* one stack: nothing to choose */
    if (bucket < 0 || bucket >= (int32_t)a->stacks)
        bucket = bucket < 0 ? 0 : (int32_t)a->stacks - 1; /* selector ranges are checked on load */

    int32_t positional = net->kernel_data && k->isa != NNUE_ISA_SCALAR
                             ? nnue_forward_fast(net, k, e->acc[stm], e->acc[!stm], bucket, scratch)
                             : forward_scalar(net, e, stm, bucket, scratch);
    /* Sums wrap modulo 2^32 like the accumulators (kernels) and the engines' x86 code: equal to
     * plain int arithmetic whenever that does not overflow, and never UB on a hostile net. */
    int32_t psqt = 0;
    if (a->ft.psqt_buckets)
        psqt = (int32_t)((uint32_t)e->psqt[stm][bucket] - (uint32_t)e->psqt[!stm][bucket]) / 2;
    int32_t total = (int32_t)((uint32_t)psqt + (uint32_t)positional) / a->output.divisor;
    if (a->output.clamp) /* YaneuraOu's evaluate(): +-VALUE_MAX_EVAL */
        total = total > a->output.clamp ? a->output.clamp : total < -a->output.clamp ? -a->output.clamp : total;
    if (detail) {
        detail->bucket = bucket;
        detail->psqt = psqt;
        detail->positional = positional;
        detail->total = total;
        detail->scaled = a->output.scale_den ? (int32_t)((int64_t)total * a->output.scale_num / a->output.scale_den)
                                             : total;
    }
    return total;
}
