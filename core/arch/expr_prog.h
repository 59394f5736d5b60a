/* core/arch/expr_prog.h: a selector expression compiled to straight steps (core/arch/expr_prog.c;
 * the steps' data: core/arch/expr_steps.h), what an evaluation runs instead of interpreting the
 * postfix ops (core/arch/expr.c, which stays the definition: every table entry is the
 * interpreter's value). The compiler proves each step's value range from the variables'
 * domains; a variable outside its domain at run time (a board no check vouched for) sends that
 * evaluation to the interpreter, so no index ever leaves a table. */
#ifndef NNUE_CORE_ARCH_EXPR_PROG_H
#define NNUE_CORE_ARCH_EXPR_PROG_H

#include "core/arch/expr.h"

/* The same value through the compiled program (expr->prog; core/arch/expr_prog.c), what an
 * evaluation calls: equal to nnue_expr_eval_with on every board, the interpreter's own answer
 * where the program was not built or a variable lies outside its domain. */
int32_t nnue_expr_run(const nnue_expr *expr, const nnue_board *board, const int32_t *table_values);
/* Builds expr->prog from expr->ops (after nnue_expr_compile_for or nnue_expr_constant: the architecture loader calls it; until then the interpreter runs).
 * Variable domains: a table variable's and a game variable's lo..hi; pieces 2..max_pieces of
 * game, or 0..255 when game is NULL. An expression whose program would not fit keeps
 * prog.n_steps 0 (the interpreter runs). */
void nnue_expr_prog_build(nnue_expr *expr, const nnue_game *game);
/* The last step of nnue_expr_prog_build (core/arch/expr_fuse.c): sums spliced into the tables and
 * sums that read them, and steps nothing reads dropped; the same value on every board. */
void nnue_expr_prog_fuse(nnue_expr_prog *prog);
/* After it and after the batch and domains are set (core/arch/expr_flat.c): prog->flat, when the
 * steps are tables over variables and their weighted sum (or one table), with every index provably
 * within int32. */
void nnue_expr_prog_flatten(nnue_expr_prog *prog);

#endif
