/* core/expr.c: parser (recursive descent to postfix), variable table and evaluator for
 * core/expr.h.
 *
 * Shogi board facts (shared/oracle/shogi/FORMATS.md section 2 and YaneuraOu's SFNN bucket rules,
 * source/eval/nnue/architectures/README.md "King Buckets"): squares are (file-1)*9 + (rank-1);
 * a king's rank and file are taken from its own side, i.e. black's as is and white's rotated
 * (80 - sq), so rank 0 is the far rank (rank 1 for black) and 8 the own back rank, file 0 is
 * file 1 for black and file 9 for white. */
#include "core/expr.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/expr_ops.h"

#define SHOGI_VAR(name, lo, hi) {name, "shogi", lo, hi}
const nnue_expr_var nnue_expr_vars[NNUE_VAR_COUNT] = {
    {"pieces", NULL, 2, 40},
    SHOGI_VAR("stm_king_rank", 0, 8),   SHOGI_VAR("stm_king_file", 0, 8),
    SHOGI_VAR("nstm_king_rank", 0, 8),  SHOGI_VAR("nstm_king_file", 0, 8),
    SHOGI_VAR("stm_hand_pawn", 0, 18),  SHOGI_VAR("stm_hand_lance", 0, 4),  SHOGI_VAR("stm_hand_knight", 0, 4),
    SHOGI_VAR("stm_hand_silver", 0, 4), SHOGI_VAR("stm_hand_gold", 0, 4),   SHOGI_VAR("stm_hand_bishop", 0, 2),
    SHOGI_VAR("stm_hand_rook", 0, 2),
    SHOGI_VAR("nstm_hand_pawn", 0, 18),  SHOGI_VAR("nstm_hand_lance", 0, 4),  SHOGI_VAR("nstm_hand_knight", 0, 4),
    SHOGI_VAR("nstm_hand_silver", 0, 4), SHOGI_VAR("nstm_hand_gold", 0, 4),   SHOGI_VAR("nstm_hand_bishop", 0, 2),
    SHOGI_VAR("nstm_hand_rook", 0, 2),
};

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

static void parse_name(parser *ps)
{
    const char *start = ps->p;
    while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
        ps->p++;
    size_t len = (size_t)(ps->p - start);
    for (int v = 0; v < NNUE_VAR_COUNT; v++)
        if (strlen(nnue_expr_vars[v].name) == len && strncmp(start, nnue_expr_vars[v].name, len) == 0) {
            emit(ps, NNUE_EXPR_VAR, v);
            return;
        }
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
    expr->ops[0] = (nnue_expr_op){NNUE_EXPR_CONST, value};
}

static int32_t var_value(int id, const nnue_board *b)
{
    int stm = b->side_to_move & 1;
    if (id == NNUE_VAR_PIECES)
        return b->piece_count;
    if (id < NNUE_VAR_STM_HAND) {
        int colour = id <= NNUE_VAR_STM_KING_FILE ? stm : !stm;
        int sq = colour ? 80 - b->king_sq[colour] : b->king_sq[colour];
        return (id - NNUE_VAR_STM_KING_RANK) % 2 ? sq / 9 : sq % 9;
    }
    if (id < NNUE_VAR_NSTM_HAND)
        return b->hand[stm][id - NNUE_VAR_STM_HAND + 1];
    return b->hand[!stm][id - NNUE_VAR_NSTM_HAND + 1];
}

int32_t nnue_expr_eval(const nnue_expr *expr, const nnue_board *board)
{
    int64_t stack[NNUE_EXPR_MAX_OPS];
    int sp = 0;
    for (int i = 0; i < expr->n_ops; i++) {
        const nnue_expr_op *op = &expr->ops[i];
        int64_t a, b;
        switch (op->kind) {
        case NNUE_EXPR_CONST: stack[sp++] = op->value; continue;
        case NNUE_EXPR_VAR: stack[sp++] = var_value(op->value, board); continue;
        case NNUE_EXPR_NEG: stack[sp - 1] = -stack[sp - 1]; continue;
        case NNUE_EXPR_IF:
            sp -= 2;
            stack[sp - 1] = stack[sp - 1] ? stack[sp] : stack[sp + 1];
            continue;
        default: break;
        }
        b = stack[--sp];
        a = stack[--sp];
        switch (op->kind) {
        case NNUE_EXPR_ADD: a += b; break;
        case NNUE_EXPR_SUB: a -= b; break;
        case NNUE_EXPR_MUL: a = nnue_expr_mul(a, b); break;
        case NNUE_EXPR_DIV: a = b ? a / b : 0; break;
        case NNUE_EXPR_MOD: a = b ? a % b : 0; break;
        case NNUE_EXPR_MIN: a = a < b ? a : b; break;
        case NNUE_EXPR_MAX: a = a > b ? a : b; break;
        case NNUE_EXPR_LT: a = a < b; break;
        case NNUE_EXPR_LE: a = a <= b; break;
        case NNUE_EXPR_GT: a = a > b; break;
        case NNUE_EXPR_GE: a = a >= b; break;
        case NNUE_EXPR_EQ: a = a == b; break;
        case NNUE_EXPR_NE: a = a != b; break;
        }
        stack[sp++] = nnue_expr_clamp(a);
    }
    int64_t v = sp ? stack[sp - 1] : 0;
    return (int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}

const char *nnue_expr_foreign_variable(const nnue_expr *expr, const char *game)
{
    for (int i = 0; i < expr->n_ops; i++) {
        if (expr->ops[i].kind != NNUE_EXPR_VAR)
            continue;
        const nnue_expr_var *v = &nnue_expr_vars[expr->ops[i].value];
        if (v->game && strcmp(v->game, game) != 0)
            return v->name;
    }
    return NULL;
}
