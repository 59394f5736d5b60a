/* core/expr.c: parser (recursive descent to postfix) and evaluator for core/expr.h. */
#include "core/expr.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"

enum { OP_CONST = 1, OP_VAR, OP_NEG, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_MIN, OP_MAX };
enum { VAR_PIECES = 0 };

typedef struct parser {
    const char *text, *p;
    nnue_expr *expr;
    nnue_error *err;
    int failed;
} parser;

static void fail(parser *ps, const char *what)
{
    if (ps->failed)
        return;
    ps->failed = 1;
    int col = (int)(ps->p - ps->text) + 1;
    char found[24];
    if (*ps->p)
        snprintf(found, sizeof found, "'%.8s'", ps->p);
    else
        snprintf(found, sizeof found, "end of text");
    nnue_fail_at(ps->err, NNUE_E_SYNTAX, "", 0, col, "in expression \"%s\" at column %d: expected %s, found %s",
                 ps->text, col, what, found);
}

static void skip_space(parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t')
        ps->p++;
}

static void emit(parser *ps, int kind, int32_t value)
{
    if (ps->expr->n_ops >= NNUE_EXPR_MAX_OPS) {
        fail(ps, "a shorter expression");
        return;
    }
    ps->expr->ops[ps->expr->n_ops++] = (nnue_expr_op){(uint8_t)kind, value};
}

static void parse_expr(parser *ps);

static int accept(parser *ps, char c)
{
    skip_space(ps);
    if (*ps->p == c) {
        ps->p++;
        return 1;
    }
    return 0;
}

static void parse_atom(parser *ps)
{
    skip_space(ps);
    if (ps->failed)
        return;
    if (isdigit((unsigned char)*ps->p)) {
        long long v = 0;
        while (isdigit((unsigned char)*ps->p)) {
            v = v * 10 + (*ps->p++ - '0');
            if (v > 1000000) {
                fail(ps, "an integer up to 1000000");
                return;
            }
        }
        emit(ps, OP_CONST, (int32_t)v);
        return;
    }
    if (isalpha((unsigned char)*ps->p)) {
        const char *start = ps->p;
        while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
            ps->p++;
        size_t len = (size_t)(ps->p - start);
        if (len == 6 && strncmp(start, "pieces", 6) == 0) {
            emit(ps, OP_VAR, VAR_PIECES);
            return;
        }
        int fn = 0;
        if (len == 3 && strncmp(start, "min", 3) == 0)
            fn = OP_MIN;
        else if (len == 3 && strncmp(start, "max", 3) == 0)
            fn = OP_MAX;
        if (!fn) {
            ps->p = start;
            fail(ps, "a number, 'pieces', min(a, b) or max(a, b)");
            return;
        }
        if (!accept(ps, '(')) {
            fail(ps, "'('");
            return;
        }
        parse_expr(ps);
        if (!accept(ps, ',')) {
            fail(ps, "','");
            return;
        }
        parse_expr(ps);
        if (!accept(ps, ')')) {
            fail(ps, "')'");
            return;
        }
        emit(ps, fn, 0);
        return;
    }
    if (accept(ps, '(')) {
        parse_expr(ps);
        if (!accept(ps, ')'))
            fail(ps, "')'");
        return;
    }
    fail(ps, "a number, 'pieces', a function or '('");
}

static void parse_unary(parser *ps)
{
    if (accept(ps, '-')) {
        parse_unary(ps);
        emit(ps, OP_NEG, 0);
        return;
    }
    parse_atom(ps);
}

static void parse_term(parser *ps)
{
    parse_unary(ps);
    while (!ps->failed) {
        int op = accept(ps, '*') ? OP_MUL : accept(ps, '/') ? OP_DIV : accept(ps, '%') ? OP_MOD : 0;
        if (!op)
            return;
        parse_unary(ps);
        emit(ps, op, 0);
    }
}

static void parse_expr(parser *ps)
{
    parse_term(ps);
    while (!ps->failed) {
        int op = accept(ps, '+') ? OP_ADD : accept(ps, '-') ? OP_SUB : 0;
        if (!op)
            return;
        parse_term(ps);
        emit(ps, op, 0);
    }
}

nnue_status nnue_expr_compile(nnue_expr *expr, const char *text, nnue_error *err)
{
    memset(expr, 0, sizeof *expr);
    if (strlen(text) >= NNUE_EXPR_TEXT_MAX)
        return nnue_fail(err, NNUE_E_SYNTAX, "expression longer than %d characters",
                         NNUE_EXPR_TEXT_MAX - 1);
    snprintf(expr->text, sizeof expr->text, "%s", text);
    parser ps = {text, text, expr, err, 0};
    parse_expr(&ps);
    skip_space(&ps);
    if (!ps.failed && *ps.p)
        fail(&ps, "an operator or end of expression");
    return ps.failed ? NNUE_E_SYNTAX : NNUE_OK;
}

void nnue_expr_constant(nnue_expr *expr, int32_t value)
{
    memset(expr, 0, sizeof *expr);
    snprintf(expr->text, sizeof expr->text, "%d", value);
    expr->n_ops = 1;
    expr->ops[0] = (nnue_expr_op){OP_CONST, value};
}

/* 64-bit evaluation clamped to a safe range after every step, so no input can overflow. */
static int64_t clamp_value(int64_t v)
{
    const int64_t limit = (int64_t)1 << 40;
    return v > limit ? limit : v < -limit ? -limit : v;
}

static int32_t run(const nnue_expr *expr, int32_t pieces)
{
    int64_t stack[NNUE_EXPR_MAX_OPS];
    int sp = 0;
    for (int i = 0; i < expr->n_ops; i++) {
        const nnue_expr_op *op = &expr->ops[i];
        int64_t a, b;
        switch (op->kind) {
        case OP_CONST: stack[sp++] = op->value; continue;
        case OP_VAR: stack[sp++] = pieces; continue;
        case OP_NEG: stack[sp - 1] = -stack[sp - 1]; continue;
        default: break;
        }
        b = stack[--sp];
        a = stack[--sp];
        switch (op->kind) {
        case OP_ADD: a += b; break;
        case OP_SUB: a -= b; break;
        case OP_MUL: a *= b; break;
        case OP_DIV: a = b ? a / b : 0; break;
        case OP_MOD: a = b ? a % b : 0; break;
        case OP_MIN: a = a < b ? a : b; break;
        case OP_MAX: a = a > b ? a : b; break;
        }
        stack[sp++] = clamp_value(a);
    }
    int64_t v = sp ? stack[sp - 1] : 0;
    return (int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}

int32_t nnue_expr_eval(const nnue_expr *expr, const nnue_board *board)
{
    return run(expr, board->piece_count);
}

void nnue_expr_range(const nnue_expr *expr, int lo, int hi, int32_t *min, int32_t *max)
{
    *min = *max = run(expr, lo);
    for (int n = lo + 1; n <= hi; n++) {
        int32_t v = run(expr, n);
        if (v < *min)
            *min = v;
        if (v > *max)
            *max = v;
    }
}
