/* core/arch/expr_steps.h: the data of a selector compiled to straight steps (what
 * core/arch/expr_prog.c builds and runs; the struct lives in every nnue_expr, so core/arch/expr.h
 * includes this and nothing of the compiler).
 *
 * Each step computes one value from earlier steps: a board variable (each asked once), an
 * affine sum of steps (c0 + c1 * s1 + ...: what + - * by a constant fold to), a table indexed
 * by up to NNUE_PROG_MAX_IN steps (a part of the expression over a few small ranges, e.g.
 * (pieces - 1) / 4 over pieces, or min((hand sum + 3) / 4, 7) over the hand sum), or one
 * operator when nothing better fits. */
#ifndef NNUE_CORE_ARCH_EXPR_STEPS_H
#define NNUE_CORE_ARCH_EXPR_STEPS_H

#include <stdint.h>

#define NNUE_PROG_MAX_STEPS 48
#define NNUE_PROG_MAX_IN 8       /* inputs of one step */
#define NNUE_PROG_TABLE 1024     /* entries of one table */
#define NNUE_PROG_POOL 2048      /* entries of all tables */
#define NNUE_PROG_GAME_VARS 64   /* most variables of a game whose values are read in one call */
#define NNUE_PROG_NOT_BATCHED 0xFF /* game_var[]: the slot is not read from the game's batch */

struct nnue_game;

#define NNUE_PROG_FLAT_TABLES 8
#define NNUE_PROG_FLAT_TERMS 32 /* the tables' terms */

/* A term of the flat form: stride * the value at src of the runner's values (the batch's entry
 * src, below NNUE_PROG_GAME_VARS, or slot src - NNUE_PROG_GAME_VARS read on its own), and that
 * variable's domain, lo .. lo + span, checked as the value is read. */
typedef struct nnue_flat_term {
    int32_t stride;
    int32_t lo;
    uint32_t span;
    uint8_t src;
} nnue_flat_term;

/* The shape every multi-variable selector shipped here compiles to, run without the step loop
 * (core/arch/expr_flat.c): tables indexed by weighted sums of variables, the value
 * k + sum of weight[t] * table t's entry. n_tables 0: the program has another shape. */
typedef struct nnue_prog_flat {
    uint8_t n_tables;
    uint8_t first[NNUE_PROG_FLAT_TABLES + 1]; /* table t's terms: first[t] .. first[t + 1] - 1 */
    /* After the tables' terms (first[n_tables] .. n_terms - 1), stride 0: the slots read that no
     * table uses (each is checked, as the interpreter reads it); most selectors have none. */
    uint8_t n_terms;
    nnue_flat_term term[NNUE_PROG_FLAT_TERMS + 32]; /* + a check for each of 32 slots (NNUE_EXPR_MAX_VARS) */
    int32_t off[NNUE_PROG_FLAT_TABLES];       /* the index: off + the terms, below size */
    int32_t size[NNUE_PROG_FLAT_TABLES];
    int32_t base[NNUE_PROG_FLAT_TABLES];      /* the table's first entry in the pool */
    int32_t weight[NNUE_PROG_FLAT_TABLES];
    int64_t k;
    /* The slots read on their own (not batched: table variables, pieces, another game's); the
     * batch's entries are read where a term names them (shogi's batch has 18 values; YaneuraOu's
     * shard selector reads 6 of them). */
    uint8_t n_own, own[32];
} nnue_prog_flat;

enum { NNUE_PROG_VAR = 1, NNUE_PROG_SUM, NNUE_PROG_TABLE_STEP, NNUE_PROG_OP };

typedef struct nnue_prog_step {
    uint8_t kind;                     /* NNUE_PROG_* */
    uint8_t n_in;                     /* inputs (earlier steps) */
    uint8_t op;                       /* OP: the NNUE_EXPR_* operator; VAR: the variable slot */
    uint8_t in[NNUE_PROG_MAX_IN];
    int32_t coef[NNUE_PROG_MAX_IN];   /* SUM: coefficients; TABLE: strides */
    int64_t k;                        /* SUM: constant; TABLE: first entry in the pool */
    int64_t off;                      /* TABLE: minus the sum of stride * lo of the inputs */
    int64_t lo, hi;                   /* the value's range (VAR: checked at run time) */
    int32_t size;                     /* TABLE: entries */
} nnue_prog_step;

typedef struct nnue_expr_prog {
    int n_steps;                      /* 0: not compiled (the interpreter runs) */
    int n_vars;                       /* steps 0..n_vars-1 read variable slots 0..n_vars-1 */
    int pool_used;
    nnue_prog_step steps[NNUE_PROG_MAX_STEPS];   /* the last one is the expression's value */
    int32_t pool[NNUE_PROG_POOL];
    /* Where every game variable the expression reads is offered by one game with var_values
     * (include/nnue_board.h): that game, and per slot the variable's index in its list
     * (NNUE_PROG_NOT_BATCHED for "pieces" and table variables). NULL: each value() is called. */
    const struct nnue_game *batch;
    uint8_t game_var[32];             /* NNUE_EXPR_MAX_VARS (core/arch/expr.h) */
    /* Each variable slot's domain, as the runner checks it: lo and hi - lo (steps[v].lo/hi). */
    int32_t var_lo[32];
    uint32_t var_span[32];
    nnue_prog_flat flat;
} nnue_expr_prog;

#endif
