/* core/arch/expr_prog.c: compiles a selector's postfix ops to straight steps (core/arch/expr_prog.h;
 * core/arch/expr_run.c runs them).
 *
 * The ops become a tree with an interval per node (the range analysis's steps,
 * core/arch/expr_range.c). Then, from the root down, a node becomes:
 *   1. one table over its variables, when they are few and their domains small (the whole of
 *      (pieces - 1) / 4, of Pikafish's rook-and-minor rule, of a king-zone term);
 *   2. else, when it is + - or * by a constant, one affine sum of the parts below it that are
 *      not (the hand-count sums, the terms of a sum of buckets);
 *   3. else one table over its frontier: the variables and affine sums it is made of, when
 *      their ranges are small (min((hand sum + 3) / 4, 7) over the hand sum);
 *   4. else its operator over its compiled operands.
 * A table's entries are the interpreter's values (nnue_expr_eval_with on the node's ops with
 * its inputs as variables), so the interpreter stays the definition; a sum stands for + - *
 * only where the intervals show that no step of them can reach the interpreter's clamp, and
 * is computed exactly in 64 bits. Every variable the expression names is read (and checked
 * against its domain) first, as the interpreter reads it, whatever the folding kept. */
#include <stdlib.h>
#include <string.h>

#include "core/arch/expr.h"
#include "core/arch/expr_ops.h"
#include "core/arch/expr_prog.h"

#define SAFE ((int64_t)1 << 39)   /* below the clamp (2^40): + - * of such values are exact */

typedef struct node {
    uint8_t kind, n_kids;
    int32_t value;
    int kid[3];
    uint32_t vars;                /* variable slots read below (bit v) */
    int64_t lo, hi;               /* interval over the variables' domains */
} node;

typedef struct compiler {
    nnue_expr *e;
    nnue_expr_prog *p;
    node nodes[NNUE_EXPR_MAX_OPS];
    int64_t var_lo[NNUE_EXPR_MAX_VARS], var_hi[NNUE_EXPR_MAX_VARS];
    int var_step[NNUE_EXPR_MAX_VARS];
    int failed;
    nnue_expr *sub;               /* a node's ops with its inputs as variables, for table entries */
} compiler;

static int arity(int kind)
{
    return kind == NNUE_EXPR_CONST || kind == NNUE_EXPR_VAR ? 0 : kind == NNUE_EXPR_NEG ? 1 : kind == NNUE_EXPR_IF ? 3 : 2;
}

/* The tree of the postfix ops with each node's variables and interval; the root's index, or -1. */
static int build_tree(compiler *c)
{
    const nnue_expr *e = c->e;
    int stack[NNUE_EXPR_MAX_OPS], sp = 0;
    for (int i = 0; i < e->n_ops; i++) {
        node *x = &c->nodes[i];
        x->kind = e->ops[i].kind;
        x->value = e->ops[i].value;
        x->n_kids = (uint8_t)arity(x->kind);
        if (sp < x->n_kids)
            return -1;
        sp -= x->n_kids;
        int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        x->vars = 0;
        for (int k = 0; k < x->n_kids; k++) {
            x->kid[k] = stack[sp + k];
            x->vars |= c->nodes[x->kid[k]].vars;
            lo[k] = c->nodes[x->kid[k]].lo;
            hi[k] = c->nodes[x->kid[k]].hi;
        }
        if (x->kind == NNUE_EXPR_CONST)
            x->lo = x->hi = x->value;
        else if (x->kind == NNUE_EXPR_VAR) {
            x->vars = 1u << x->value;
            x->lo = c->var_lo[x->value];
            x->hi = c->var_hi[x->value];
        } else
            nnue_expr_op_range(x->kind, lo, hi, &x->lo, &x->hi);
        stack[sp++] = i;
    }
    return sp == 1 ? stack[0] : -1;
}

static nnue_prog_step *new_step(compiler *c, int kind, int64_t lo, int64_t hi)
{
    if (c->p->n_steps >= NNUE_PROG_MAX_STEPS) {
        c->failed = 1;
        return NULL;
    }
    nnue_prog_step *s = &c->p->steps[c->p->n_steps++];
    memset(s, 0, sizeof *s);
    s->kind = (uint8_t)kind;
    s->lo = lo;
    s->hi = hi;
    return s;
}

static int last_step(const compiler *c)
{
    return c->p->n_steps - 1;
}

static int constant_step(compiler *c, int64_t value)
{
    nnue_prog_step *s = new_step(c, NNUE_PROG_SUM, value, value);
    if (!s)
        return -1;
    s->k = value;
    return last_step(c);
}

/* 1 when x is + - or * by a variable-free operand, with every value it can take well inside
 * the clamp: then it adds its operands' values exactly. */
static int affine(const compiler *c, const node *x)
{
    if (x->lo <= -SAFE || x->hi >= SAFE)
        return 0;
    if (x->kind == NNUE_EXPR_ADD || x->kind == NNUE_EXPR_SUB || x->kind == NNUE_EXPR_NEG)
        return 1;
    return x->kind == NNUE_EXPR_MUL && (!c->nodes[x->kid[0]].vars || !c->nodes[x->kid[1]].vars);
}

static int64_t domain(const compiler *c, uint32_t vars)
{
    int64_t n = 1;
    for (int v = 0; v < NNUE_EXPR_MAX_VARS && n <= NNUE_PROG_TABLE; v++)
        if (vars >> v & 1)
            n *= c->var_hi[v] - c->var_lo[v] + 1;
    return n;
}

static int compile_node(compiler *c, int n);

/* Table inputs: nodes whose values index it (a variable node stands for its variable). */
typedef struct inputs {
    int n;
    int node[NNUE_PROG_MAX_IN];
} inputs;

static int is_input(const compiler *c, const inputs *in, int n)
{
    const node *x = &c->nodes[n];
    for (int j = 0; j < in->n; j++) {
        const node *y = &c->nodes[in->node[j]];
        if (in->node[j] == n || (x->kind == NNUE_EXPR_VAR && y->kind == NNUE_EXPR_VAR && y->value == x->value))
            return j;
    }
    return -1;
}

static void add_input(compiler *c, inputs *in, int n)
{
    if (is_input(c, in, n) >= 0)
        return;
    if (in->n == NNUE_PROG_MAX_IN)
        in->n = NNUE_PROG_MAX_IN + 1; /* too many: no table */
    else
        in->node[in->n++] = n;
}

/* The frontier of node n: walks down through operators to the variables and (unless vars_only)
 * to the affine sums over two variables or more (those become one sum each). */
static void frontier(compiler *c, int n, inputs *in, int top, int vars_only)
{
    const node *x = &c->nodes[n];
    if (!x->vars || in->n > NNUE_PROG_MAX_IN)
        return;
    if (x->kind == NNUE_EXPR_VAR || (!top && !vars_only && affine(c, x) && (x->vars & (x->vars - 1))))
        add_input(c, in, n);
    else
        for (int k = 0; k < x->n_kids; k++)
            frontier(c, x->kid[k], in, 0, vars_only);
}

/* Node n's ops with the inputs as variables 0..in->n-1 into c->sub (postfix, as parsed). */
static void emit_sub(compiler *c, const inputs *in, int n)
{
    nnue_expr *sub = c->sub;
    int j = is_input(c, in, n);
    const node *x = &c->nodes[n];
    if (j < 0)
        for (int k = 0; k < x->n_kids; k++)
            emit_sub(c, in, x->kid[k]);
    if (sub->n_ops < NNUE_EXPR_MAX_OPS)
        sub->ops[sub->n_ops++] = j >= 0 ? (nnue_expr_op){NNUE_EXPR_VAR, j} : (nnue_expr_op){x->kind, x->value};
}

/* Node n as one table over the inputs (compiled first); -1 when it does not fit. */
static int table_step(compiler *c, int n, const inputs *in)
{
    const node *x = &c->nodes[n];
    if (in->n < 1 || in->n > NNUE_PROG_MAX_IN || x->lo < INT32_MIN || x->hi > INT32_MAX)
        return -1;
    int64_t size = 1; /* first by the nodes' intervals, before compiling anything */
    for (int j = 0; j < in->n && size <= NNUE_PROG_TABLE; j++)
        size *= c->nodes[in->node[j]].hi - c->nodes[in->node[j]].lo + 1;
    if (size > NNUE_PROG_TABLE || c->p->pool_used + size > NNUE_PROG_POOL)
        return -1;
    int step_of[NNUE_PROG_MAX_IN];
    size = 1; /* then by the compiled inputs' ranges (what the index uses) */
    for (int j = 0; j < in->n; j++) {
        if ((step_of[j] = compile_node(c, in->node[j])) < 0)
            return -1;
        const nnue_prog_step *t = &c->p->steps[step_of[j]];
        if (t->lo < INT32_MIN || t->hi > INT32_MAX)
            return -1;
        size *= t->hi - t->lo + 1;
        if (size > NNUE_PROG_TABLE)
            return -1;
    }
    if (c->p->pool_used + size > NNUE_PROG_POOL)
        return -1;
    /* The sub-expression: every input a table variable of the interpreter (values given). */
    nnue_expr *sub = c->sub;
    sub->n_ops = 0;
    sub->n_vars = in->n;
    static const nnue_table_var given = {.name = "input"}; /* its value comes from values[] */
    for (int j = 0; j < in->n; j++)
        sub->table_vars[j] = &given;
    sub->table_slots = (1u << in->n) - 1; /* in->n <= NNUE_PROG_MAX_IN */
    emit_sub(c, in, n);
    nnue_prog_step *s = new_step(c, NNUE_PROG_TABLE_STEP, 0, 0);
    if (!s)
        return -1;
    s->n_in = (uint8_t)in->n;
    s->k = c->p->pool_used;
    s->size = 0;
    int64_t stride = 1;
    for (int j = in->n - 1; j >= 0; j--) {
        s->in[j] = (uint8_t)step_of[j];
        s->coef[j] = (int32_t)stride;
        stride *= c->p->steps[step_of[j]].hi - c->p->steps[step_of[j]].lo + 1;
    }
    s->size = (int32_t)stride;
    for (int j = 0; j < in->n; j++)
        s->off -= s->coef[j] * c->p->steps[step_of[j]].lo;
    int32_t values[NNUE_PROG_MAX_IN];
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int64_t at = 0; at < stride; at++) {
        int64_t rest = at;
        for (int j = in->n - 1; j >= 0; j--) {
            const nnue_prog_step *t = &c->p->steps[step_of[j]];
            int64_t span = t->hi - t->lo + 1;
            values[j] = (int32_t)(t->lo + rest % span);
            rest /= span;
        }
        int32_t v = nnue_expr_eval_with(sub, NULL, values);
        c->p->pool[c->p->pool_used + at] = v;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    c->p->pool_used += (int)stride;
    s->lo = lo;
    s->hi = hi;
    return (int)(s - c->p->steps);
}

/* A term of an affine sum: coefficient times a compiled step. */
typedef struct terms {
    int n, too_big;
    int step[NNUE_EXPR_MAX_OPS];
    int64_t coef[NNUE_EXPR_MAX_OPS];
    int64_t k;
} terms;

static void add_term(terms *t, int step, int64_t coef)
{
    for (int i = 0; i < t->n; i++)
        if (t->step[i] == step) {
            if (__builtin_add_overflow(t->coef[i], coef, &t->coef[i]))
                t->too_big = 1;
            return;
        }
    t->step[t->n] = step;
    t->coef[t->n++] = coef;
}

/* 1 when node n is + - * by constants of variables and constants only (a sum of variables). */
static int linear(const compiler *c, int n)
{
    const node *x = &c->nodes[n];
    if (!x->vars || x->kind == NNUE_EXPR_VAR)
        return 1;
    if (!affine(c, x))
        return 0;
    for (int k = 0; k < x->n_kids; k++)
        if (!linear(c, x->kid[k]))
            return 0;
    return 1;
}

/* 1 when one table over node n's variables fits (what compile_node tries first). */
static int small(const compiler *c, const node *x)
{
    return __builtin_popcount(x->vars) <= NNUE_PROG_MAX_IN && domain(c, x->vars) <= NNUE_PROG_TABLE;
}

static void collect(compiler *c, int n, int64_t coef, terms *t)
{
    const node *x = &c->nodes[n];
    int64_t product;
    if (!x->vars) { /* a constant: its interval is its value */
        if (__builtin_mul_overflow(coef, x->lo, &product) || __builtin_add_overflow(t->k, product, &t->k))
            t->too_big = 1;
        return;
    }
    if (!affine(c, x)) {
        int s = compile_node(c, n);
        if (s < 0)
            t->too_big = 1;
        else
            add_term(t, s, coef);
        return;
    }
    /* A term with an operator inside over a few small variables is one table (a king-zone or a
     * hand-bucket term); a plain sum of variables stays a sum. */
    if (small(c, x) && !linear(c, n)) {
        inputs in = {0, {0}};
        frontier(c, n, &in, 1, 1);
        int s = table_step(c, n, &in);
        if (s >= 0 || c->failed) {
            if (s < 0)
                t->too_big = 1;
            else
                add_term(t, s, coef);
            return;
        }
    }
    switch (x->kind) {
    case NNUE_EXPR_ADD: collect(c, x->kid[0], coef, t); collect(c, x->kid[1], coef, t); return;
    case NNUE_EXPR_SUB: collect(c, x->kid[0], coef, t); collect(c, x->kid[1], -coef, t); return;
    case NNUE_EXPR_NEG: collect(c, x->kid[0], -coef, t); return;
    default: { /* MUL by a variable-free operand */
        int konst = c->nodes[x->kid[0]].vars ? 1 : 0;
        if (__builtin_mul_overflow(coef, c->nodes[x->kid[konst]].lo, &product))
            t->too_big = 1;
        else
            collect(c, x->kid[!konst], product, t);
        return;
    }
    }
}

/* An affine node as sum steps (chained when it has more than NNUE_PROG_MAX_IN terms); -1 when a
 * coefficient or a partial sum could leave the exact range. */
static int sum_step(compiler *c, int n)
{
    terms *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    collect(c, n, 1, t);
    int result = -1;
    int64_t bound = t->k < 0 ? -t->k : t->k;
    for (int i = 0; i < t->n && !t->too_big; i++) {
        const nnue_prog_step *s = &c->p->steps[t->step[i]];
        int64_t m = s->hi > -s->lo ? s->hi : -s->lo, part;
        if (t->coef[i] < INT32_MIN || t->coef[i] > INT32_MAX || __builtin_mul_overflow(m, t->coef[i], &part) ||
            __builtin_add_overflow(bound, part < 0 ? -part : part, &bound) || bound >= SAFE)
            t->too_big = 1;
    }
    if (!t->too_big && t->n == 1 && t->coef[0] == 1 && t->k == 0) {
        result = t->step[0];
    } else if (!t->too_big) {
        /* At most NNUE_PROG_MAX_IN inputs a step: each partial sum is the next one's first input. */
        for (int i = 0; i < t->n && !c->failed;) {
            int chained = result >= 0, take = NNUE_PROG_MAX_IN - chained;
            take = t->n - i < take ? t->n - i : take;
            int64_t k = i + take == t->n ? t->k : 0;
            nnue_prog_step *s = new_step(c, NNUE_PROG_SUM, k, k);
            if (!s)
                break;
            s->k = k;
            if (chained) {
                s->in[s->n_in] = (uint8_t)result;
                s->coef[s->n_in++] = 1;
                s->lo += c->p->steps[result].lo;
                s->hi += c->p->steps[result].hi;
            }
            for (int j = 0; j < take; j++, i++) {
                const nnue_prog_step *in = &c->p->steps[t->step[i]];
                int64_t a = t->coef[i] * in->lo, b = t->coef[i] * in->hi;
                s->in[s->n_in] = (uint8_t)t->step[i];
                s->coef[s->n_in++] = (int32_t)t->coef[i];
                s->lo += a < b ? a : b;
                s->hi += a < b ? b : a;
            }
            result = last_step(c);
        }
        if (c->failed)
            result = -1;
    }
    free(t);
    return result;
}

/* Node n's operator over its compiled operands. */
static int op_step(compiler *c, int n)
{
    const node *x = &c->nodes[n];
    int kid[3];
    for (int k = 0; k < x->n_kids; k++)
        if ((kid[k] = compile_node(c, x->kid[k])) < 0)
            return -1;
    nnue_prog_step *s = new_step(c, NNUE_PROG_OP, x->lo, x->hi);
    if (!s)
        return -1;
    s->op = x->kind;
    s->n_in = x->n_kids;
    for (int k = 0; k < x->n_kids; k++)
        s->in[k] = (uint8_t)kid[k];
    return last_step(c);
}

static int compile_node(compiler *c, int n)
{
    const node *x = &c->nodes[n];
    if (c->failed)
        return -1;
    if (x->kind == NNUE_EXPR_VAR)
        return c->var_step[x->value];
    if (!x->vars)
        return constant_step(c, x->lo); /* variable-free: its interval is its value */
    int s = -1;
    if (small(c, x)) {
        inputs in = {0, {0}};
        frontier(c, n, &in, 1, 1);
        s = table_step(c, n, &in);
    }
    if (s < 0 && affine(c, x))
        s = sum_step(c, n);
    if (s < 0) {
        inputs in = {0, {0}};
        frontier(c, n, &in, 1, 0);
        s = table_step(c, n, &in);
    }
    return s >= 0 || c->failed ? s : op_step(c, n);
}

_Static_assert(sizeof(((nnue_expr_prog *)0)->game_var) >= NNUE_EXPR_MAX_VARS &&
                   sizeof(((nnue_expr_prog *)0)->var_span) >= NNUE_EXPR_MAX_VARS * sizeof(uint32_t),
               "the runner's arrays hold a value per variable slot");

/* The game whose var_values gives every game variable e reads, with each slot's index in its list
 * (p->batch, p->game_var); none (batch NULL, every slot NNUE_PROG_NOT_BATCHED) when a slot's
 * variable comes from another game, or the game has no batch or more than NNUE_PROG_GAME_VARS
 * variables. */
static void find_batch(const nnue_expr *e, nnue_expr_prog *p)
{
    const nnue_game *g = NULL;
    uint8_t at[NNUE_EXPR_MAX_VARS];
    memset(at, NNUE_PROG_NOT_BATCHED, sizeof at);
    for (int v = 0; v < e->n_vars; v++) {
        if (!e->vars[v])
            continue;
        const nnue_game *owner = e->var_game[v];
        if (!owner || (g && owner != g) || !owner->var_values || owner->n_vars > NNUE_PROG_GAME_VARS)
            return;
        int k = 0; /* its place in the game's list: the same descriptor entry */
        while (k < owner->n_vars && &owner->vars[k] != e->vars[v])
            k++;
        if (k == owner->n_vars)
            return;
        at[v] = (uint8_t)k;
        g = owner;
    }
    p->batch = g;
    if (g)
        memcpy(p->game_var, at, sizeof at);
}

void nnue_expr_prog_build(nnue_expr *e, const nnue_game *game)
{
    compiler *c = calloc(1, sizeof *c);
    nnue_expr *sub = calloc(1, sizeof *sub);
    nnue_expr_prog *p = &e->prog;
    memset(p, 0, sizeof *p);
    memset(p->game_var, NNUE_PROG_NOT_BATCHED, sizeof p->game_var);
    if (!c || !sub || e->n_ops == 0) {
        free(c);
        free(sub);
        return;
    }
    c->e = e;
    c->p = p;
    c->sub = sub;
    for (int v = 0; v < e->n_vars; v++) {
        const nnue_table_var *tv = e->table_vars[v];
        const nnue_game_var *gv = e->vars[v];
        c->var_lo[v] = tv ? tv->lo : gv ? gv->lo : game ? 2 : 0;
        c->var_hi[v] = tv ? tv->hi : gv ? gv->hi : game ? game->max_pieces : 255;
        nnue_prog_step *s = new_step(c, NNUE_PROG_VAR, c->var_lo[v], c->var_hi[v]);
        if (s)
            s->op = (uint8_t)v;
        c->var_step[v] = last_step(c);
    }
    p->n_vars = e->n_vars;
    int root = build_tree(c);
    int last = root < 0 ? -1 : compile_node(c, root);
    if (last < 0 || c->failed)
        p->n_steps = 0; /* the interpreter */
    else if (last != last_step(c)) {
        nnue_prog_step *s = new_step(c, NNUE_PROG_SUM, 0, 0); /* the value must be the last step */
        if (s) {
            s->n_in = 1;
            s->in[0] = (uint8_t)last;
            s->coef[0] = 1;
        }
        if (c->failed)
            p->n_steps = 0;
    }
    if (p->n_steps) {
        nnue_expr_prog_fuse(p);
        find_batch(e, p);
        for (int v = 0; v < p->n_vars; v++) { /* variable domains are int32 (nnue_game_var, nnue_table_var) */
            p->var_lo[v] = (int32_t)p->steps[v].lo;
            p->var_span[v] = (uint32_t)(p->steps[v].hi - p->steps[v].lo);
        }
        nnue_expr_prog_flatten(p);
    }
    free(c);
    free(sub);
}
