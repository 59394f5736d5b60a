/* core/arch/expr_flat.c: the flat form of a compiled selector (nnue_expr_prog_flatten,
 * core/arch/expr_prog.h; the data: nnue_prog_flat, core/arch/expr_steps.h).
 *
 * After folding (core/arch/expr_fuse.c) the selectors shipped here are tables indexed by weighted
 * sums of variables, and one table or the weighted sum of several: YaneuraOu's
 * hand-king-progress rule is four tables (the two hands' buckets, the kings', the progress bucket)
 * and their sum, Pikafish's one table over four counts. The step loop spends its instructions
 * finding out, on every evaluation, what each step is; the flat form lists the tables' terms in a
 * row, so the runner (core/arch/expr_run.c) computes each index in 32 bits and adds the weighted
 * entries. Every index is proven to stay within int32 here (its offset and the largest terms the
 * variables' domains allow), so the runner's value is the step loop's, bit for bit. */
#include <string.h>

#include "core/arch/expr_prog.h"
#include "nnue_board.h"

/* 1 when step s is a table over variable slots only, its index within int32 for every value of
 * the variables' domains. */
static int table_of_variables(const nnue_expr_prog *p, const nnue_prog_step *s)
{
    if (s->kind != NNUE_PROG_TABLE_STEP || s->off < INT32_MIN || s->off > INT32_MAX || s->size > INT32_MAX)
        return 0;
    int64_t bound = s->off < 0 ? -s->off : s->off;
    for (int j = 0; j < s->n_in; j++) {
        if (s->in[j] >= p->n_vars)
            return 0;
        const nnue_prog_step *v = &p->steps[s->in[j]];
        int64_t m = v->hi > -v->lo ? v->hi : -v->lo, c = s->coef[j] < 0 ? -(int64_t)s->coef[j] : s->coef[j];
        bound += c * m; /* |coef| < 2^31, |m| < 2^31: each product below 2^62, at most 8 of them */
        if (bound > INT32_MAX)
            return 0;
    }
    return 1;
}

/* Where the runner finds the value of variable slot v: its batch entry, or its own place. */
static uint8_t source(const nnue_expr_prog *p, int v)
{
    return p->game_var[v] != NNUE_PROG_NOT_BATCHED ? p->game_var[v] : (uint8_t)(NNUE_PROG_GAME_VARS + v);
}

/* Term j of f: stride times slot v's value, checked against v's domain. */
static void set_term(const nnue_expr_prog *p, nnue_prog_flat *f, int j, int v, int32_t stride)
{
    f->term[j] = (nnue_flat_term){stride, p->var_lo[v], p->var_span[v], source(p, v)};
}

/* Table step s into slot t of f, weighted w; 0 when the lists are full. */
static int add_table(const nnue_expr_prog *p, nnue_prog_flat *f, const nnue_prog_step *s, int32_t w)
{
    int t = f->n_tables, at = f->first[t];
    if (t == NNUE_PROG_FLAT_TABLES || at + s->n_in > NNUE_PROG_FLAT_TERMS)
        return 0;
    for (int j = 0; j < s->n_in; j++)
        set_term(p, f, at + j, s->in[j], s->coef[j]);
    f->off[t] = (int32_t)s->off;
    f->size[t] = s->size;
    f->base[t] = (int32_t)s->k;
    f->weight[t] = w;
    f->first[t + 1] = (uint8_t)(at + s->n_in);
    f->n_tables = (uint8_t)(t + 1);
    return 1;
}

void nnue_expr_prog_flatten(nnue_expr_prog *p)
{
    nnue_prog_flat *f = &p->flat;
    memset(f, 0, sizeof *f);
    const int last = p->n_steps - 1;
    if (last < p->n_vars)
        return;
    const nnue_prog_step *s = &p->steps[last];
    int ok = 1;
    if (table_of_variables(p, s)) { /* one table */
        ok = last == p->n_vars && add_table(p, f, s, 1);
    } else if (s->kind == NNUE_PROG_SUM && last - p->n_vars == s->n_in) {
        /* a sum of the tables before it, each read once (folding dropped everything else) */
        f->k = s->k;
        for (int j = 0; ok && j < s->n_in; j++)
            ok = s->in[j] >= p->n_vars && table_of_variables(p, &p->steps[s->in[j]]) &&
                 add_table(p, f, &p->steps[s->in[j]], s->coef[j]);
    } else {
        ok = 0;
    }
    if (!ok) {
        memset(f, 0, sizeof *f);
        return;
    }
    /* Every slot is read and checked, as the interpreter reads them: the terms check theirs as
     * they read them; a slot no term reads gets a term of its own with stride 0. */
    int n = f->first[f->n_tables];
    for (int v = 0; v < p->n_vars; v++) {
        if (p->game_var[v] == NNUE_PROG_NOT_BATCHED)
            f->own[f->n_own++] = (uint8_t)v;
        int read = 0;
        for (int j = 0; j < f->first[f->n_tables]; j++)
            read |= f->term[j].src == source(p, v);
        if (!read)
            set_term(p, f, n++, v, 0);
    }
    f->n_terms = (uint8_t)n;
}
