/* core/expr_ops.h: the postfix opcodes and the variable table of core/expr.c, shared with the
 * range analysis (core/expr_range.c). Internal to core/. */
#ifndef NNUE_CORE_EXPR_OPS_H
#define NNUE_CORE_EXPR_OPS_H

#include <stdint.h>

enum {
    NNUE_EXPR_CONST = 1, NNUE_EXPR_VAR, NNUE_EXPR_NEG,
    NNUE_EXPR_ADD, NNUE_EXPR_SUB, NNUE_EXPR_MUL, NNUE_EXPR_DIV, NNUE_EXPR_MOD, NNUE_EXPR_MIN, NNUE_EXPR_MAX,
    NNUE_EXPR_LT, NNUE_EXPR_LE, NNUE_EXPR_GT, NNUE_EXPR_GE, NNUE_EXPR_EQ, NNUE_EXPR_NE,
    NNUE_EXPR_IF
};

/* Variable ids: pieces, then the shogi king squares, then hand counts: stm types 1..7 and nstm
 * types 1..7 (pawn, lance, knight, silver, gold, bishop, rook). */
enum {
    NNUE_VAR_PIECES = 0,
    NNUE_VAR_STM_KING_RANK, NNUE_VAR_STM_KING_FILE, NNUE_VAR_NSTM_KING_RANK, NNUE_VAR_NSTM_KING_FILE,
    NNUE_VAR_STM_HAND,                      /* + type - 1 */
    NNUE_VAR_NSTM_HAND = NNUE_VAR_STM_HAND + 7,
    NNUE_VAR_COUNT = NNUE_VAR_NSTM_HAND + 7
};

typedef struct nnue_expr_var {
    const char *name;
    const char *game;      /* NULL = every game */
    int32_t lo, hi;        /* values on any legal board (pieces: shogi's range; chess has 2..32) */
} nnue_expr_var;

extern const nnue_expr_var nnue_expr_vars[NNUE_VAR_COUNT];

/* 64-bit evaluation clamped to a safe range after every step, so no input can overflow. */
static inline int64_t nnue_expr_clamp(int64_t v)
{
    const int64_t limit = (int64_t)1 << 40;
    return v > limit ? limit : v < -limit ? -limit : v;
}

/* a * b for clamped operands, saturating instead of overflowing. */
static inline int64_t nnue_expr_mul(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        r = (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
    return nnue_expr_clamp(r);
}

#endif
