/* core/arch/expr_run.c: runs a selector's compiled steps (core/arch/expr_prog.h), what an
 * evaluation calls to choose its layer stack; core/arch/expr_prog.c builds them. */
#include "core/arch/expr.h"
#include "core/arch/expr_ops.h"
#include "core/arch/expr_prog.h"

/* The steps of a program of more than one table (nnue_expr_run below): out of line, so that the
 * common one-table selector pays for none of this function's registers and stack. Written for
 * few instructions a step, since a selector of YaneuraOu's (17 variables, hands, kings, progress)
 * ran here on every evaluation (105 ns of ~680 on the AMD EPYC, AVX2): the game's variables in one
 * call where it offers them together (nnue_game.var_values: prog->batch), their domain checks
 * folded into one test after the loop, and sums and tables in one loop (a table is a sum, its
 * offset first, that then indexes the pool). */
static __attribute__((noinline)) int32_t run_steps(const nnue_expr *e, const nnue_board *b,
                                                   const int32_t *table_values)
{
    const nnue_expr_prog *p = &e->prog;
    int64_t v[NNUE_PROG_MAX_STEPS];
    int32_t batch[NNUE_PROG_GAME_VARS];
    uint32_t outside = 0;
    const int n_vars = p->n_vars, n_steps = p->n_steps; /* locals: the variables' calls could write memory */
    if (p->batch)
        p->batch->var_values(b, batch);
    for (int i = 0; i < n_vars; i++) { /* each variable once, checked against its domain */
        const nnue_game_var *gv = e->vars[i];
        int32_t x = p->game_var[i] != NNUE_PROG_NOT_BATCHED ? batch[p->game_var[i]]
                    : gv ? gv->value(b)
                    : e->table_vars[i] ? (table_values ? table_values[i] : e->table_vars[i]->lo)
                                       : b->piece_count;
        outside |= (uint32_t)x - (uint32_t)p->var_lo[i] > p->var_span[i];
        v[i] = x;
    }
    if (outside)
        return nnue_expr_eval_with(e, b, table_values); /* a variable outside its domain: no step holds */
    for (int i = n_vars; i < n_steps; i++) {
        const nnue_prog_step *s = &p->steps[i];
        int64_t x;
        if (__builtin_expect(s->kind == NNUE_PROG_OP, 0)) {
            if (s->op == NNUE_EXPR_NEG)
                x = -v[s->in[0]];
            else if (s->op == NNUE_EXPR_IF)
                x = v[s->in[0]] ? v[s->in[1]] : v[s->in[2]];
            else
                x = nnue_expr_binary(s->op, v[s->in[0]], v[s->in[1]]);
        } else {
            const int table = s->kind == NNUE_PROG_TABLE_STEP;
            x = table ? s->off : s->k;
            for (int j = 0; j < s->n_in; j++)
                x += (int64_t)s->coef[j] * v[s->in[j]];
            if (table) {
                if ((uint64_t)x >= (uint64_t)s->size)
                    return nnue_expr_eval_with(e, b, table_values); /* cannot happen: the ranges are proven */
                x = p->pool[s->k + x];
            }
        }
        v[i] = x;
    }
    int64_t r = v[n_steps - 1];
    return (int32_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
}

int32_t nnue_expr_run(const nnue_expr *e, const nnue_board *b, const int32_t *table_values)
{
    const nnue_expr_prog *p = &e->prog;
    if (!p->n_steps)
        return nnue_expr_eval_with(e, b, table_values);
    if (p->n_steps == 2 && p->n_vars == 1 && p->steps[1].kind == NNUE_PROG_TABLE_STEP) {
        /* One table over one variable ((pieces - 1) / 4, the common selector): no step loop. */
        const nnue_game_var *gv = e->vars[0];
        int64_t x = gv ? gv->value(b) : e->table_vars[0] ? (table_values ? table_values[0] : e->table_vars[0]->lo)
                                      : b->piece_count;
        const nnue_prog_step *t = &p->steps[1];
        int64_t at = t->off + t->coef[0] * x;
        if (x < p->steps[0].lo || x > p->steps[0].hi || (uint64_t)at >= (uint64_t)t->size)
            return nnue_expr_eval_with(e, b, table_values); /* outside its domain (the table's: cannot be) */
        return p->pool[t->k + at];
    }
    return run_steps(e, b, table_values);
}
