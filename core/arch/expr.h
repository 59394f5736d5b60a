/* core/arch/expr.h: small integer expressions over board facts, used for bucket selectors.
 *
 * Grammar: expr := sum (CMP sum)?; CMP := '<' | '<=' | '>' | '>=' | '==' | '!=' (1 or 0);
 * sum := term (('+'|'-') term)*; term := unary (('*'|'/'|'%') unary)*;
 * unary := '-' unary | atom; atom := INTEGER | VARIABLE | FUNC '(' expr, ... ')' | '(' expr ')'.
 * Functions: min(a, b), max(a, b), if(c, a, b) (a when c != 0, else b).
 * Variables (docs/arch-yaml.md has the table): pieces (pieces on the board, kings included,
 * every game), those a game's descriptor offers (nnue_game.vars: shogi's king ranks and
 * files and hand counts), and table variables (features/table_var.h: a value from a table the
 * net file stores, e.g. YaneuraOu's "progress"); the expression keeps pointers to them, so a
 * game registered at run time brings its own. Division and remainder truncate toward zero as in
 * C; dividing by zero yields 0. Whitespace includes newlines (folded YAML scalars).
 * Expressions compile to a short postfix program evaluated without allocation (the definition),
 * and from it to straight steps an evaluation runs (nnue_expr_run; core/arch/expr_prog.h). */
#ifndef NNUE_CORE_ARCH_EXPR_H
#define NNUE_CORE_ARCH_EXPR_H

#include <stdint.h>

#include "core/arch/expr_steps.h"
#include "features/table_var.h"
#include "nnue_board.h"
#include "nnue_error.h"

#define NNUE_EXPR_MAX_OPS 384   /* YaneuraOu's largest generated rule, hand1024 x k29k29 x progress32, takes 200 */
#define NNUE_EXPR_TEXT_MAX 1024

typedef struct nnue_expr_op {
    uint8_t kind;       /* NNUE_EXPR_* opcode (core/arch/expr_ops.h) */
    int32_t value;      /* constant or variable id */
} nnue_expr_op;

#define NNUE_EXPR_MAX_VARS 32

typedef struct nnue_expr {
    char text[NNUE_EXPR_TEXT_MAX];  /* source text, e.g. "(pieces - 1) / 4" */
    int n_ops;
    nnue_expr_op ops[NNUE_EXPR_MAX_OPS];
    int n_vars;                     /* distinct variables; a VAR op's value indexes these */
    const nnue_game_var *vars[NNUE_EXPR_MAX_VARS];   /* NULL = "pieces" or a table variable */
    const nnue_table_var *table_vars[NNUE_EXPR_MAX_VARS]; /* non-NULL: slot v is this table variable */
    uint32_t table_slots;           /* bit v: table_vars[v] is set (an evaluation visits only those) */
    const nnue_game *var_game[NNUE_EXPR_MAX_VARS];   /* the game offering it; NULL = every game */
    nnue_expr_prog prog;            /* the ops compiled to straight steps (core/arch/expr_prog.h); n_steps 0 until nnue_expr_prog_build */
} nnue_expr;

/* A variable's value on a board: slot `id` of the expression's table (NULL = "pieces"; a table
 * variable: table_values[id], or its lo without values). */
static inline int32_t nnue_expr_var_value(const nnue_expr *e, int id, const nnue_board *b, const int32_t *table_values)
{
    if (e->table_vars[id])
        return table_values ? table_values[id] : e->table_vars[id]->lo;
    const nnue_game_var *v = e->vars[id];
    return v ? v->value(b) : b->piece_count;
}

/* Compiles text. On error fills err with the 1-based column (relative to text) in
 * err->column and returns NNUE_E_SYNTAX; the caller adds the file position. A name is looked
 * up in game's variables first (game may be NULL), then in every other game's, so that a
 * foreign variable can be named by nnue_expr_foreign_variable. */
nnue_status nnue_expr_compile_for(nnue_expr *expr, const char *text, const nnue_game *game, nnue_error *err);
nnue_status nnue_expr_compile(nnue_expr *expr, const char *text, nnue_error *err); /* game NULL */

/* A constant expression (no variables). */
void nnue_expr_constant(nnue_expr *expr, int32_t value);

int32_t nnue_expr_eval(const nnue_expr *expr, const nnue_board *board); /* table variables count lo */
/* The same with table variable values: slot v's value is table_values[v] (the other slots'
 * entries are not read). */
int32_t nnue_expr_eval_with(const nnue_expr *expr, const nnue_board *board, const int32_t *table_values);

/* 1 when the expression names a table variable. */
int nnue_expr_has_tables(const nnue_expr *expr);

/* The first variable the expression uses that game does not offer, or NULL. */
const char *nnue_expr_foreign_variable(const nnue_expr *expr, const nnue_game *game);

/* Bounds of the value over every board of game (core/arch/expr_range.c): exact for expressions of a
 * few small variables (every combination is tried), otherwise a safe over-approximation
 * (interval arithmetic for the variables not enumerated). Sets *exact accordingly. Variable
 * domains: the descriptor's lo..hi; pieces 2..game->max_pieces. */
void nnue_expr_range(const nnue_expr *expr, const nnue_game *game, int32_t *min, int32_t *max, int *exact);
/* 1 when interval arithmetic over the whole domains (one evaluation, no enumeration) already
 * bounds the value within lo..hi: a check that passes needs nnue_expr_range only to explain a
 * failure. */
int nnue_expr_surely_within(const nnue_expr *expr, const nnue_game *game, int64_t lo, int64_t hi);

#endif
