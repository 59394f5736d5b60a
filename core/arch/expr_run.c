/* core/arch/expr_run.c: runs a selector's compiled steps (core/arch/expr_prog.h), what an
 * evaluation calls to choose its layer stack; core/arch/expr_prog.c builds them.
 * Written for few instructions, since it runs on every evaluation: YaneuraOu's
 * hand-king-progress selector (17 variables) cost 105 ns of ~680 an evaluation here as a loop over
 * steps with a call per variable (AMD EPYC, AVX2, a second run measured in place), 75 ns with the
 * game's batch and folded sums, and runs in the flat form now (run_flat). */
#include "core/arch/expr.h"
#include "core/arch/expr_ops.h"
#include "core/arch/expr_prog.h"

/* Slot i's own value (a variable not in the batch). */
static inline int32_t own_value(const nnue_expr *e, int i, const nnue_board *b, const int32_t *table_values)
{
    const nnue_game_var *gv = e->vars[i];
    return gv ? gv->value(b)
              : e->table_vars[i] ? (table_values ? table_values[i] : e->table_vars[i]->lo) : b->piece_count;
}

/* Every variable of the program into x (each read once, as the interpreter reads it: the game's
 * in one call where it offers them together, nnue_game.var_values: prog->batch); nonzero when one
 * lies outside its domain (a board no check vouched for: then no step holds). The domain checks
 * are one test after the loop. */
static inline __attribute__((always_inline)) uint32_t read_vars(const nnue_expr *e, const nnue_board *b,
                                                                const int32_t *table_values, int32_t *x)
{
    const nnue_expr_prog *p = &e->prog;
    int32_t batch[NNUE_PROG_GAME_VARS];
    uint32_t outside = 0;
    const int n_vars = p->n_vars; /* a local: the variables' calls could write memory */
    if (p->batch)
        p->batch->var_values(b, batch);
    for (int i = 0; i < n_vars; i++) {
        x[i] = p->game_var[i] != NNUE_PROG_NOT_BATCHED ? batch[p->game_var[i]] : own_value(e, i, b, table_values);
        outside |= (uint32_t)x[i] - (uint32_t)p->var_lo[i] > p->var_span[i];
    }
    return outside;
}

/* The flat form (core/arch/expr_flat.c): the game's batch and the other slots' values in one
 * array, each term's value checked against its variable's domain as it is read (the batch's
 * entries no term reads are not read), each table's index from its terms in 32 bits (proven to
 * fit), the value k + the weighted entries, as the steps compute it. Checking in the terms' loop
 * rather than in one of its own saves a pass over the values (YaneuraOu's 17: ~60 instructions
 * an evaluation); an entry read past a value outside its domain is in bounds and thrown away. */
static __attribute__((noinline)) int32_t run_flat(const nnue_expr *e, const nnue_board *b,
                                                  const int32_t *table_values)
{
    const nnue_expr_prog *p = &e->prog;
    const nnue_prog_flat *f = &p->flat;
    int32_t x[NNUE_PROG_GAME_VARS + NNUE_EXPR_MAX_VARS];
    if (p->batch)
        p->batch->var_values(b, x); /* read back one value a load: a vector load of values just
                                       stored one by one waits for them to reach the cache */
    for (int o = 0; o < f->n_own; o++)
        x[NNUE_PROG_GAME_VARS + f->own[o]] = own_value(e, f->own[o], b, table_values);
    uint32_t outside = 0;
    int64_t r = f->k;
    int j = 0;
    for (int t = 0; t < f->n_tables; t++) {
        uint32_t at = (uint32_t)f->off[t]; /* wrapping adds of values whose true sum fits int32 */
        for (; j < f->first[t + 1]; j++) {
            const nnue_flat_term *m = &f->term[j];
            const int32_t v = x[m->src];
            outside |= (uint32_t)v - (uint32_t)m->lo > m->span;
            at += (uint32_t)m->stride * (uint32_t)v;
        }
        if (at >= (uint32_t)f->size[t]) /* only past a value outside its domain: the ranges are proven */
            return nnue_expr_eval_with(e, b, table_values);
        r += (int64_t)f->weight[t] * p->pool[f->base[t] + at];
    }
    for (; j < f->n_terms; j++) { /* the slots no table reads */
        const nnue_flat_term *m = &f->term[j];
        outside |= (uint32_t)x[m->src] - (uint32_t)m->lo > m->span;
    }
    if (outside)
        return nnue_expr_eval_with(e, b, table_values); /* a variable outside its domain */
    return (int32_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
}

/* The steps of any other program (nnue_expr_run below): out of line, so that the common
 * one-table selector pays for none of this function's registers and stack. Sums and tables in one
 * loop (a table is a sum, its offset first, that then indexes the pool). */
static __attribute__((noinline)) int32_t run_steps(const nnue_expr *e, const nnue_board *b,
                                                   const int32_t *table_values)
{
    const nnue_expr_prog *p = &e->prog;
    int64_t v[NNUE_PROG_MAX_STEPS];
    int32_t vars[NNUE_EXPR_MAX_VARS];
    const int n_vars = p->n_vars, n_steps = p->n_steps;
    if (read_vars(e, b, table_values, vars))
        return nnue_expr_eval_with(e, b, table_values); /* a variable outside its domain: no step holds */
    for (int i = 0; i < n_vars; i++)
        v[i] = vars[i];
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
    return p->flat.n_tables ? run_flat(e, b, table_values) : run_steps(e, b, table_values);
}
