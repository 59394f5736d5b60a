/* core/arch/expr_range.c: the range of a selector expression over every board of a game
 * (nnue_expr_range in core/arch/expr.h), for the loader's check that it stays in 0..count-1.
 *
 * The variables the expression reads are split in two: the smallest domains, as many as keep
 * the number of combinations under ENUM_LIMIT, are enumerated value by value; the others enter
 * as intervals. Each combination is evaluated in interval arithmetic (C semantics: truncating
 * division, remainder with the dividend's sign, division by zero = 0), where a comparison whose
 * interval is decided picks one branch of if() exactly. With every variable enumerated the
 * result is exact; otherwise it is a safe bound (never narrower than the true range).
 * Variable domains: the game descriptor's (nnue_game_var lo..hi; pieces: 2..max_pieces). */
#include <string.h>

#include "core/arch/expr.h"
#include "core/arch/expr_ops.h"

#define ENUM_LIMIT 65536

typedef struct span {
    int64_t lo, hi;
} span;

static span mk(int64_t lo, int64_t hi)
{
    return (span){nnue_expr_clamp(lo), nnue_expr_clamp(hi)};
}

static span hull4(int64_t a, int64_t b, int64_t c, int64_t d)
{
    int64_t lo = a, hi = a;
    int64_t v[3] = {b, c, d};
    for (int i = 0; i < 3; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    return mk(lo, hi);
}

static span join(span a, span b)
{
    return mk(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
}

/* Truncating division: monotone in the dividend, and on each sign side of the divisor monotone
 * in it, so the extremes sit at the ends of the dividend and of each side of the divisor. */
static span div_span(span a, span b)
{
    span r = {0, 0};
    int any = 0;
    if (b.lo <= 0 && b.hi >= 0)
        any = 1; /* a zero divisor gives 0 */
    int64_t ends[2][2] = {{b.lo, b.hi < -1 ? b.hi : -1}, {b.lo > 1 ? b.lo : 1, b.hi}};
    for (int side = 0; side < 2; side++) {
        int64_t d0 = ends[side][0], d1 = ends[side][1];
        if (side == 0 && b.lo > -1)
            continue;
        if (side == 1 && b.hi < 1)
            continue;
        span q = hull4(a.lo / d0, a.lo / d1, a.hi / d0, a.hi / d1);
        r = any ? join(r, q) : q;
        any = 1;
    }
    return r;
}

static span mod_span(span a, span b)
{
    if (a.lo == a.hi && b.lo == b.hi)
        return mk(b.lo ? a.lo % b.lo : 0, b.lo ? a.lo % b.lo : 0);
    if (b.lo > 0 && a.lo >= 0 && a.hi < b.lo)
        return a; /* a % b = a */
    int64_t m = (b.hi > -b.lo ? b.hi : -b.lo) - 1;
    if (m < 0)
        m = 0;
    int64_t lo = a.lo < 0 ? (a.lo > -m ? a.lo : -m) : 0;
    int64_t hi = a.hi > 0 ? (a.hi < m ? a.hi : m) : 0;
    return mk(lo, hi);
}

static span compare(int kind, span a, span b)
{
    int yes, no; /* always true / always false */
    switch (kind) {
    case NNUE_EXPR_LT: yes = a.hi < b.lo; no = a.lo >= b.hi; break;
    case NNUE_EXPR_LE: yes = a.hi <= b.lo; no = a.lo > b.hi; break;
    case NNUE_EXPR_GT: yes = a.lo > b.hi; no = a.hi <= b.lo; break;
    case NNUE_EXPR_GE: yes = a.lo >= b.hi; no = a.hi < b.lo; break;
    case NNUE_EXPR_EQ: yes = a.lo == a.hi && b.lo == b.hi && a.lo == b.lo; no = a.hi < b.lo || b.hi < a.lo; break;
    default: /* NE */ no = a.lo == a.hi && b.lo == b.hi && a.lo == b.lo; yes = a.hi < b.lo || b.hi < a.lo; break;
    }
    return mk(yes ? 1 : 0, no ? 0 : 1); /* decided: [1, 1] or [0, 0]; else [0, 1] */
}

/* One operator's interval from its operands' (NEG: a; IF: c, a, b; binary: a, b). */
static span op_span(int kind, span a, span b, span c)
{
    switch (kind) {
    case NNUE_EXPR_NEG: return mk(-a.hi, -a.lo);
    case NNUE_EXPR_IF: return c.lo == 0 && c.hi == 0 ? b : (c.lo > 0 || c.hi < 0) ? a : join(a, b);
    case NNUE_EXPR_ADD: return mk(a.lo + b.lo, a.hi + b.hi);
    case NNUE_EXPR_SUB: return mk(a.lo - b.hi, a.hi - b.lo);
    case NNUE_EXPR_MUL:
        return hull4(nnue_expr_mul(a.lo, b.lo), nnue_expr_mul(a.lo, b.hi), nnue_expr_mul(a.hi, b.lo),
                     nnue_expr_mul(a.hi, b.hi));
    case NNUE_EXPR_DIV: return div_span(a, b);
    case NNUE_EXPR_MOD: return mod_span(a, b);
    case NNUE_EXPR_MIN: return mk(a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi);
    case NNUE_EXPR_MAX: return mk(a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
    default: return compare(kind, a, b);
    }
}

void nnue_expr_op_range(int kind, const int64_t lo[3], const int64_t hi[3], int64_t *rlo, int64_t *rhi)
{
    span x = mk(lo[0], hi[0]), y = mk(lo[1], hi[1]), z = mk(lo[2], hi[2]);
    span r = kind == NNUE_EXPR_IF ? op_span(kind, y, z, x) : op_span(kind, x, y, z);
    *rlo = r.lo;
    *rhi = r.hi;
}

static span run(const nnue_expr *e, const span *vars)
{
    span st[NNUE_EXPR_MAX_OPS];
    int sp = 0;
    for (int i = 0; i < e->n_ops; i++) {
        const nnue_expr_op *op = &e->ops[i];
        if (op->kind == NNUE_EXPR_CONST) {
            st[sp++] = mk(op->value, op->value);
            continue;
        }
        if (op->kind == NNUE_EXPR_VAR) {
            st[sp++] = vars[op->value];
            continue;
        }
        if (op->kind == NNUE_EXPR_NEG) {
            st[sp - 1] = op_span(op->kind, st[sp - 1], st[sp - 1], st[sp - 1]);
            continue;
        }
        if (op->kind == NNUE_EXPR_IF) {
            sp -= 2;
            st[sp - 1] = op_span(op->kind, st[sp], st[sp + 1], st[sp - 1]);
            continue;
        }
        span b = st[--sp], a = st[--sp];
        st[sp++] = op_span(op->kind, a, b, b);
    }
    return sp ? st[sp - 1] : mk(0, 0);
}

/* Each variable's domain: a table's, the game descriptor's, or pieces 2..max_pieces. */
static void domains(const nnue_expr *expr, const nnue_game *game, span *vars)
{
    for (int v = 0; v < expr->n_vars; v++) {
        const nnue_game_var *var = expr->vars[v];
        const nnue_table_var *tv = expr->table_vars[v];
        vars[v] = tv ? mk(tv->lo, tv->hi) : var ? mk(var->lo, var->hi) : mk(2, game ? game->max_pieces : 255);
    }
}

int nnue_expr_surely_within(const nnue_expr *expr, const nnue_game *game, int64_t lo, int64_t hi)
{
    span vars[NNUE_EXPR_MAX_VARS];
    domains(expr, game, vars);
    span bound = run(expr, vars);
    return bound.lo >= lo && bound.hi <= hi;
}

void nnue_expr_range(const nnue_expr *expr, const nnue_game *game, int32_t *min, int32_t *max, int *exact)
{
    span vars[NNUE_EXPR_MAX_VARS];
    int order[NNUE_EXPR_MAX_VARS], n = expr->n_vars;
    domains(expr, game, vars);
    for (int v = 0; v < n; v++)
        order[v] = v;
    /* Smallest domains first (insertion sort; n <= NNUE_EXPR_MAX_VARS). */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && vars[order[j]].hi - vars[order[j]].lo < vars[order[j - 1]].hi - vars[order[j - 1]].lo;
             j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int enumerated = 0;
    int64_t combos = 1;
    while (enumerated < n) {
        int64_t size = vars[order[enumerated]].hi - vars[order[enumerated]].lo + 1;
        if (combos * size > ENUM_LIMIT)
            break;
        combos *= size;
        enumerated++;
    }
    *exact = enumerated == n;

    span full[NNUE_EXPR_MAX_VARS], cur[NNUE_EXPR_MAX_VARS];
    memcpy(full, vars, sizeof full[0] * (size_t)n);
    memcpy(cur, vars, sizeof cur[0] * (size_t)n);
    for (int k = 0; k < enumerated; k++)
        cur[order[k]] = mk(full[order[k]].lo, full[order[k]].lo);
    span total = run(expr, cur);
    for (;;) {
        int k = 0; /* odometer over the enumerated variables */
        while (k < enumerated && cur[order[k]].lo == full[order[k]].hi) {
            cur[order[k]] = mk(full[order[k]].lo, full[order[k]].lo);
            k++;
        }
        if (k == enumerated)
            break;
        cur[order[k]] = mk(cur[order[k]].lo + 1, cur[order[k]].lo + 1);
        total = join(total, run(expr, cur));
    }
    *min = (int32_t)(total.lo < INT32_MIN ? INT32_MIN : total.lo);
    *max = (int32_t)(total.hi > INT32_MAX ? INT32_MAX : total.hi);
}
