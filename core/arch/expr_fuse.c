/* core/arch/expr_fuse.c: fewer steps in a compiled selector (nnue_expr_prog_fuse,
 * core/arch/expr_prog.h), after core/arch/expr_prog.c has built them.
 *
 * The compiler makes a sum step for each affine part and a table over it ((hand sum + 3) / 4
 * capped: a sum of seven hand counts, then a table over that sum). The runner
 * (core/arch/expr_run.c) pays a pass of its loop per step, so a sum read by a table or by another
 * sum is spliced into its reader: the reader computes the same index or total from the sum's own
 * inputs (coefficients multiplied out, the constant folded into the reader's), where it has room
 * for them and every partial sum stays as far inside the exact range as sum steps are
 * (expr_prog.c's SAFE bound). Steps nothing reads any more are then dropped; the variables stay
 * (each is read and checked, as the interpreter reads it). YaneuraOu's hand-king-progress
 * selector: 24 steps to 22, two passes fewer, two sums of seven fewer. */
#include <string.h>

#include "core/arch/expr_prog.h"

#define SAFE ((int64_t)1 << 39) /* as core/arch/expr_prog.c: + - * of values below it are exact */

static int64_t magnitude(const nnue_prog_step *s)
{
    return s->hi > -s->lo ? s->hi : -s->lo;
}

/* The constant a reader's inputs are added to: a sum's k, a table's offset. */
static int64_t *base_of(nnue_prog_step *s)
{
    return s->kind == NNUE_PROG_SUM ? &s->k : &s->off;
}

/* 1 when the inputs of s, with its constant, can only add up to values within +-SAFE. */
static int bounded(const nnue_expr_prog *p, const nnue_prog_step *s, int64_t base)
{
    int64_t bound = base < 0 ? -base : base, part;
    for (int j = 0; j < s->n_in; j++) {
        int64_t c = s->coef[j] < 0 ? -(int64_t)s->coef[j] : s->coef[j];
        if (__builtin_mul_overflow(c, magnitude(&p->steps[s->in[j]]), &part) ||
            __builtin_add_overflow(bound, part, &bound) || bound >= SAFE)
            return 0;
    }
    return 1;
}

/* Input j of step s (a sum or a table) replaced by the inputs of the sum it reads; 0 when that
 * does not fit (too many inputs, a coefficient past int32, a partial sum past SAFE). */
static int splice(const nnue_expr_prog *p, nnue_prog_step *s, int j)
{
    const nnue_prog_step *u = &p->steps[s->in[j]];
    if (s->n_in - 1 + u->n_in > NNUE_PROG_MAX_IN)
        return 0;
    nnue_prog_step t = *s;
    const int64_t c = s->coef[j];
    int64_t k;
    if (__builtin_mul_overflow(c, u->k, &k) || __builtin_add_overflow(*base_of(&t), k, base_of(&t)))
        return 0;
    t.n_in = 0;
    for (int i = 0; i < s->n_in; i++) {
        if (i != j) {
            t.in[t.n_in] = s->in[i];
            t.coef[t.n_in++] = s->coef[i];
            continue;
        }
        for (int m = 0; m < u->n_in; m++) {
            int64_t product;
            if (__builtin_mul_overflow(c, (int64_t)u->coef[m], &product) || product < INT32_MIN ||
                product > INT32_MAX)
                return 0;
            t.in[t.n_in] = u->in[m];
            t.coef[t.n_in++] = (int32_t)product;
        }
    }
    if (!bounded(p, &t, *base_of(&t)))
        return 0;
    *s = t;
    return 1;
}

/* Drops the steps no later step reads (the last one is the value; variables are kept), renumbering
 * the inputs of the rest. */
static void drop_unread(nnue_expr_prog *p)
{
    uint8_t read[NNUE_PROG_MAX_STEPS] = {0};
    int renumber[NNUE_PROG_MAX_STEPS];
    read[p->n_steps - 1] = 1;
    for (int i = p->n_steps - 1; i >= p->n_vars; i--)
        if (read[i])
            for (int j = 0; j < p->steps[i].n_in; j++)
                read[p->steps[i].in[j]] = 1;
    int n = 0;
    for (int i = 0; i < p->n_steps; i++) {
        if (i >= p->n_vars && !read[i])
            continue;
        renumber[i] = n;
        if (n != i)
            p->steps[n] = p->steps[i];
        for (int j = 0; j < p->steps[n].n_in; j++)
            p->steps[n].in[j] = (uint8_t)renumber[p->steps[n].in[j]];
        n++;
    }
    p->n_steps = n;
}

void nnue_expr_prog_fuse(nnue_expr_prog *p)
{
    if (p->n_steps <= p->n_vars)
        return;
    for (int i = p->n_vars; i < p->n_steps; i++) {
        nnue_prog_step *s = &p->steps[i];
        if (s->kind != NNUE_PROG_SUM && s->kind != NNUE_PROG_TABLE_STEP)
            continue;
        for (int j = 0; j < s->n_in;) { /* the same j again after a splice: it may be a sum too */
            const int in = s->in[j];
            if (in >= p->n_vars && p->steps[in].kind == NNUE_PROG_SUM && splice(p, s, j))
                continue;
            j++;
        }
    }
    drop_unread(p);
}
