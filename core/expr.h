/* core/expr.h: small integer expressions over board facts, used for bucket selectors.
 *
 * Grammar: expr := sum (CMP sum)?; CMP := '<' | '<=' | '>' | '>=' | '==' | '!=' (1 or 0);
 * sum := term (('+'|'-') term)*; term := unary (('*'|'/'|'%') unary)*;
 * unary := '-' unary | atom; atom := INTEGER | VARIABLE | FUNC '(' expr, ... ')' | '(' expr ')'.
 * Functions: min(a, b), max(a, b), if(c, a, b) (a when c != 0, else b).
 * Variables (docs/arch-yaml.md has the table): pieces (pieces on the board, kings included),
 * and for shogi each king's rank and file seen from its own side, and the side to move's and
 * the other side's pieces in hand per type. Division and remainder truncate toward zero as in
 * C; dividing by zero yields 0. Whitespace includes newlines (folded YAML scalars).
 * Expressions compile to a short postfix program evaluated without allocation. */
#ifndef NNUE_CORE_EXPR_H
#define NNUE_CORE_EXPR_H

#include <stdint.h>

#include "nnue_board.h"
#include "nnue_error.h"

#define NNUE_EXPR_MAX_OPS 192
#define NNUE_EXPR_TEXT_MAX 512

typedef struct nnue_expr_op {
    uint8_t kind;       /* NNUE_EXPR_* opcode (core/expr_ops.h) */
    int32_t value;      /* constant or variable id */
} nnue_expr_op;

typedef struct nnue_expr {
    char text[NNUE_EXPR_TEXT_MAX];  /* source text, e.g. "(pieces - 1) / 4" */
    int n_ops;
    nnue_expr_op ops[NNUE_EXPR_MAX_OPS];
} nnue_expr;

/* Compiles text. On error fills err with the 1-based column (relative to text) in
 * err->column and returns NNUE_E_SYNTAX; the caller adds the file position. */
nnue_status nnue_expr_compile(nnue_expr *expr, const char *text, nnue_error *err);

/* A constant expression (no variables). */
void nnue_expr_constant(nnue_expr *expr, int32_t value);

int32_t nnue_expr_eval(const nnue_expr *expr, const nnue_board *board);

/* The first variable the expression uses that game ("chess" or "shogi") does not have, or NULL. */
const char *nnue_expr_foreign_variable(const nnue_expr *expr, const char *game);

/* Bounds of the value over every board of game (core/expr_range.c): exact for expressions of a
 * few small variables (every combination is tried), otherwise a safe over-approximation
 * (interval arithmetic for the variables not enumerated). Sets *exact accordingly. */
void nnue_expr_range(const nnue_expr *expr, const char *game, int32_t *min, int32_t *max, int *exact);

#endif
