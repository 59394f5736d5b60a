/* core/arch/expr_run.c: runs a selector's compiled steps (core/arch/expr_prog.h), what an
 * evaluation calls to choose its layer stack; core/arch/expr_prog.c builds them. */
#include "core/arch/expr.h"
#include "core/arch/expr_ops.h"
#include "core/arch/expr_prog.h"

/* The steps of a program of more than one table (nnue_expr_run below): out of line, so that the
 * common one-table selector pays for none of this function's registers and stack. */
static __attribute__((noinline)) int32_t run_steps(const nnue_expr *e, const nnue_board *b,
                                                   const int32_t *table_values)
{
    const nnue_expr_prog *p = &e->prog;
    int64_t v[NNUE_PROG_MAX_STEPS];
    int i = 0;
    for (; i < p->n_vars; i++) { /* each variable once, checked against its domain */
        const nnue_game_var *gv = e->vars[i];
        int64_t x = gv ? gv->value(b) : e->table_vars[i] ? (table_values ? table_values[i] : e->table_vars[i]->lo)
                                      : b->piece_count;
        if (x < p->steps[i].lo || x > p->steps[i].hi)
            return nnue_expr_eval_with(e, b, table_values); /* outside its domain: no step holds */
        v[i] = x;
    }
    for (; i < p->n_steps; i++) {
        const nnue_prog_step *s = &p->steps[i];
        int64_t x;
        switch (s->kind) {
        case NNUE_PROG_SUM:
            x = s->k;
            for (int j = 0; j < s->n_in; j++)
                x += (int64_t)s->coef[j] * v[s->in[j]];
            break;
        case NNUE_PROG_TABLE_STEP: {
            int64_t at = s->off;
            for (int j = 0; j < s->n_in; j++)
                at += (int64_t)s->coef[j] * v[s->in[j]];
            if ((uint64_t)at >= (uint64_t)s->size)
                return nnue_expr_eval_with(e, b, table_values); /* cannot happen: the ranges are proven */
            x = p->pool[s->k + at];
            break;
        }
        default:
            if (s->op == NNUE_EXPR_NEG)
                x = -v[s->in[0]];
            else if (s->op == NNUE_EXPR_IF)
                x = v[s->in[0]] ? v[s->in[1]] : v[s->in[2]];
            else
                x = nnue_expr_binary(s->op, v[s->in[0]], v[s->in[1]]);
            break;
        }
        v[i] = x;
    }
    int64_t r = v[p->n_steps - 1];
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
