/* core/arch/expr.c: parser (recursive descent to postfix), variable lookup and evaluator for
 * core/arch/expr.h. The variables come from the games' descriptors (nnue_game.vars), never from a
 * table here: "pieces" is the only one every game has. */
#include "core/arch/expr.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/arch/expr_ops.h"
#include "base/error.h"

typedef struct parser {
    const char *text, *p;
    const nnue_game *game;  /* looked up first; may be NULL */
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
    nnue_fail_at(ps->err, NNUE_E_SYNTAX, "", 0, col, "in expression \"%.200s\" at column %d: expected %s, found %s",
                 ps->text, col, what, found);
}

static void skip_space(parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
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

static int accept2(parser *ps, const char *two)
{
    skip_space(ps);
    if (ps->p[0] == two[0] && ps->p[1] == two[1]) {
        ps->p += 2;
        return 1;
    }
    return 0;
}

/* name '(' expr (',' expr){arity-1} ')' after the name was read. */
static void parse_call(parser *ps, int fn, int arity)
{
    if (!accept(ps, '(')) {
        fail(ps, "'('");
        return;
    }
    for (int i = 0; i < arity && !ps->failed; i++) {
        if (i > 0 && !accept(ps, ',')) {
            fail(ps, "','");
            return;
        }
        parse_expr(ps);
    }
    if (!ps->failed && !accept(ps, ')')) {
        fail(ps, "')'");
        return;
    }
    emit(ps, fn, 0);
}

/* The variable of a game named text[0..len), or NULL. */
static const nnue_game_var *game_var(const nnue_game *g, const char *text, size_t len)
{
    for (int v = 0; g && v < g->n_vars; v++)
        if (strlen(g->vars[v].name) == len && strncmp(text, g->vars[v].name, len) == 0)
            return &g->vars[v];
    return NULL;
}

/* Emits a VAR op for a known name (its slot in the expression's table); 0 when unknown. */
static int lookup_var(parser *ps, const char *text, size_t len)
{
    const nnue_game_var *var = NULL;
    const nnue_table_var *tv = NULL;
    const nnue_game *owner = NULL;
    if (!(len == 6 && strncmp(text, "pieces", 6) == 0)) {
        owner = ps->game;
        var = game_var(owner, text, len);
        for (int g = 0; !var && g < nnue_game_count(); g++)
            var = game_var(owner = nnue_game_at(g), text, len);
        for (int t = 0; !var && !tv && nnue_table_var_at(t); t++) {
            const nnue_table_var *c = nnue_table_var_at(t);
            if (strlen(c->name) == len && strncmp(text, c->name, len) == 0)
                tv = c;
        }
        if (!var && !tv)
            return 0;
        if (tv) /* its game, when registered; NULL counts as foreign to every game */
            owner = nnue_game_find(tv->game);
    }
    nnue_expr *e = ps->expr;
    int slot = 0;
    while (slot < e->n_vars && (e->vars[slot] != var || e->table_vars[slot] != tv))
        slot++;
    if (slot == e->n_vars) {
        if (slot == NNUE_EXPR_MAX_VARS) {
            fail(ps, "at most 32 different variables");
            return 1;
        }
        e->vars[slot] = var;
        e->table_vars[slot] = tv;
        e->table_slots |= tv ? 1u << slot : 0u;
        e->var_game[slot] = owner;
        e->n_vars++;
    }
    emit(ps, NNUE_EXPR_VAR, slot);
    return 1;
}

static void parse_name(parser *ps)
{
    const char *start = ps->p;
    while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
        ps->p++;
    size_t len = (size_t)(ps->p - start);
    if (lookup_var(ps, start, len))
        return;
    static const struct { const char *name; int op, arity; } fns[] = {
        {"min", NNUE_EXPR_MIN, 2}, {"max", NNUE_EXPR_MAX, 2}, {"if", NNUE_EXPR_IF, 3}};
    for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++)
        if (strlen(fns[f].name) == len && strncmp(start, fns[f].name, len) == 0) {
            parse_call(ps, fns[f].op, fns[f].arity);
            return;
        }
    ps->p = start;
    fail(ps, "a number, a variable ('pieces', 'stm_king_rank', ... see docs/arch-yaml.md), min(a, b), "
             "max(a, b) or if(c, a, b)");
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
        emit(ps, NNUE_EXPR_CONST, (int32_t)v);
        return;
    }
    if (isalpha((unsigned char)*ps->p)) {
        parse_name(ps);
        return;
    }
    if (accept(ps, '(')) {
        parse_expr(ps);
        if (!accept(ps, ')'))
            fail(ps, "')'");
        return;
    }
    fail(ps, "a number, a variable, a function or '('");
}

static void parse_unary(parser *ps)
{
    if (accept(ps, '-')) {
        parse_unary(ps);
        emit(ps, NNUE_EXPR_NEG, 0);
        return;
    }
    parse_atom(ps);
}

static void parse_term(parser *ps)
{
    parse_unary(ps);
    while (!ps->failed) {
        int op = accept(ps, '*') ? NNUE_EXPR_MUL : accept(ps, '/') ? NNUE_EXPR_DIV : accept(ps, '%') ? NNUE_EXPR_MOD : 0;
        if (!op)
            return;
        parse_unary(ps);
        emit(ps, op, 0);
    }
}

static void parse_sum(parser *ps)
{
    parse_term(ps);
    while (!ps->failed) {
        int op = accept(ps, '+') ? NNUE_EXPR_ADD : accept(ps, '-') ? NNUE_EXPR_SUB : 0;
        if (!op)
            return;
        parse_term(ps);
        emit(ps, op, 0);
    }
}

/* One optional comparison: a < b < c is rejected (write it with if or *). */
static void parse_expr(parser *ps)
{
    parse_sum(ps);
    if (ps->failed)
        return;
    int op = accept2(ps, "<=") ? NNUE_EXPR_LE : accept2(ps, ">=") ? NNUE_EXPR_GE : accept2(ps, "==") ? NNUE_EXPR_EQ
           : accept2(ps, "!=") ? NNUE_EXPR_NE : accept(ps, '<') ? NNUE_EXPR_LT : accept(ps, '>') ? NNUE_EXPR_GT : 0;
    if (!op)
        return;
    parse_sum(ps);
    emit(ps, op, 0);
    skip_space(ps);
    if (!ps->failed && (*ps->p == '<' || *ps->p == '>' || (ps->p[0] == '=' && ps->p[1] == '=') ||
                        (ps->p[0] == '!' && ps->p[1] == '=')))
        fail(ps, "one comparison only (combine conditions with * or if)");
}

nnue_status nnue_expr_compile(nnue_expr *expr, const char *text, nnue_error *err)
{
    return nnue_expr_compile_for(expr, text, NULL, err);
}

nnue_status nnue_expr_compile_for(nnue_expr *expr, const char *text, const nnue_game *game, nnue_error *err)
{
    memset(expr, 0, sizeof *expr);
    if (strlen(text) >= NNUE_EXPR_TEXT_MAX)
        return nnue_fail(err, NNUE_E_SYNTAX, "expression longer than %d characters",
                         NNUE_EXPR_TEXT_MAX - 1);
    snprintf(expr->text, sizeof expr->text, "%s", text);
    parser ps = {text, text, game, expr, err, 0};
    parse_expr(&ps);
    skip_space(&ps);
    if (!ps.failed && *ps.p)
        fail(&ps, "an operator or end of expression");
    if (ps.failed)
        return NNUE_E_SYNTAX;
    return NNUE_OK;
}

void nnue_expr_constant(nnue_expr *expr, int32_t value)
{
    memset(expr, 0, sizeof *expr);
    snprintf(expr->text, sizeof expr->text, "%d", value);
    expr->n_ops = 1;
    expr->ops[0] = (nnue_expr_op){NNUE_EXPR_CONST, value};
}

int nnue_expr_has_tables(const nnue_expr *expr)
{
    for (int v = 0; v < expr->n_vars; v++)
        if (expr->table_vars[v])
            return 1;
    return 0;
}

int32_t nnue_expr_eval(const nnue_expr *expr, const nnue_board *board)
{
    return nnue_expr_eval_with(expr, board, NULL);
}

int32_t nnue_expr_eval_with(const nnue_expr *expr, const nnue_board *board, const int32_t *table_values)
{
    int64_t stack[NNUE_EXPR_MAX_OPS];
    int32_t known[NNUE_EXPR_MAX_VARS]; /* each variable asked of the board once (a selector names
                                          some several times; a game's variable may scan the board) */
    uint32_t asked = 0;
    int sp = 0;
    for (int i = 0; i < expr->n_ops; i++) {
        const nnue_expr_op *op = &expr->ops[i];
        int64_t a, b;
        switch (op->kind) {
        case NNUE_EXPR_CONST: stack[sp++] = op->value; continue;
        case NNUE_EXPR_VAR:
            if (!(asked >> op->value & 1)) {
                known[op->value] = nnue_expr_var_value(expr, op->value, board, table_values);
                asked |= 1u << op->value;
            }
            stack[sp++] = known[op->value];
            continue;
        case NNUE_EXPR_NEG: stack[sp - 1] = -stack[sp - 1]; continue;
        case NNUE_EXPR_IF:
            sp -= 2;
            stack[sp - 1] = stack[sp - 1] ? stack[sp] : stack[sp + 1];
            continue;
        default: break;
        }
        b = stack[--sp];
        a = stack[--sp];
        stack[sp++] = nnue_expr_binary(op->kind, a, b);
    }
    int64_t v = sp ? stack[sp - 1] : 0;
    return (int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}

const char *nnue_expr_foreign_variable(const nnue_expr *expr, const nnue_game *game)
{
    for (int v = 0; v < expr->n_vars; v++)
        if (expr->table_vars[v] ? expr->var_game[v] != game : expr->var_game[v] && expr->var_game[v] != game)
            return expr->table_vars[v] ? expr->table_vars[v]->name : expr->vars[v]->name;
    return NULL;
}
