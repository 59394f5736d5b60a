/* core/expr.h: small integer expressions over board facts, used for bucket selectors.
 *
 * Grammar: expr := term (('+'|'-') term)*; term := unary (('*'|'/'|'%') unary)*;
 * unary := '-' unary | atom; atom := INTEGER | VARIABLE | FUNC '(' expr ',' expr ')' | '(' expr ')'.
 * Functions: min, max. Variables: pieces (pieces on the board, kings included).
 * Division and remainder truncate toward zero as in C; dividing by zero yields 0.
 * Expressions compile to a short postfix program evaluated without allocation. */
#ifndef NNUE_CORE_EXPR_H
#define NNUE_CORE_EXPR_H

#include <stdint.h>

#include "nnue_board.h"
#include "nnue_error.h"

#define NNUE_EXPR_MAX_OPS 48
#define NNUE_EXPR_TEXT_MAX 128

typedef struct nnue_expr_op {
    uint8_t kind;       /* NNUE_EXPR_* opcode (core/expr.c) */
    int32_t value;      /* constant or variable id */
} nnue_expr_op;

typedef struct nnue_expr {
    char text[NNUE_EXPR_TEXT_MAX];  /* normalised source text, e.g. "(pieces - 1) / 4" */
    int n_ops;
    nnue_expr_op ops[NNUE_EXPR_MAX_OPS];
} nnue_expr;

/* Compiles text. On error fills err with the 1-based column (relative to text) in
 * err->column and returns NNUE_E_SYNTAX; the caller adds the file position. */
nnue_status nnue_expr_compile(nnue_expr *expr, const char *text, nnue_error *err);

/* A constant expression (no variables). */
void nnue_expr_constant(nnue_expr *expr, int32_t value);

int32_t nnue_expr_eval(const nnue_expr *expr, const nnue_board *board);

/* Range of values over pieces in [lo, hi] (the checker uses it to validate selectors). */
void nnue_expr_range(const nnue_expr *expr, int lo, int hi, int32_t *min, int32_t *max);

#endif
