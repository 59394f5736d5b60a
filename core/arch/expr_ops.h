/* core/arch/expr_ops.h: the postfix opcodes of core/arch/expr.c, shared with the range analysis
 * (core/arch/expr_range.c). Internal to core/. */
#ifndef NNUE_CORE_ARCH_EXPR_OPS_H
#define NNUE_CORE_ARCH_EXPR_OPS_H

#include <stdint.h>

enum {
    NNUE_EXPR_CONST = 1, NNUE_EXPR_VAR, NNUE_EXPR_NEG,
    NNUE_EXPR_ADD, NNUE_EXPR_SUB, NNUE_EXPR_MUL, NNUE_EXPR_DIV, NNUE_EXPR_MOD, NNUE_EXPR_MIN, NNUE_EXPR_MAX,
    NNUE_EXPR_LT, NNUE_EXPR_LE, NNUE_EXPR_GT, NNUE_EXPR_GE, NNUE_EXPR_EQ, NNUE_EXPR_NE,
    NNUE_EXPR_IF
};

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

/* The interval of one operator's value from its operands' intervals, as the range analysis
 * (core/arch/expr_range.c) steps: NEG reads [0], IF [0] = condition, [1] = then, [2] = else,
 * binary operators [0] and [1]. */
void nnue_expr_op_range(int kind, const int64_t lo[3], const int64_t hi[3], int64_t *rlo, int64_t *rhi);

/* A binary operator on clamped operands, clamped (ADD .. NE): the interpreter's step, and the
 * compiled program's (core/arch/expr_prog.c) for what it leaves to the operator. */
static inline int64_t nnue_expr_binary(int kind, int64_t a, int64_t b)
{
    switch (kind) {
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
    return nnue_expr_clamp(a);
}

#endif
