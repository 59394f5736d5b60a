/* tests/core/test_expr.c: selector expressions evaluate like C integer arithmetic. */
#include <string.h>

#include "core/expr.h"
#include "support.h"

static int32_t eval_at(const char *text, int pieces)
{
    nnue_expr e;
    nnue_error err;
    ck_assert_int_eq(nnue_expr_compile(&e, text, &err), NNUE_OK);
    nnue_board b;
    memset(&b, 0, sizeof b);
    b.piece_count = (uint8_t)pieces;
    return nnue_expr_eval(&e, &b);
}

START_TEST(stockfish_and_bullet_selectors)
{
    for (int n = 2; n <= 32; n++) {
        ck_assert_int_eq(eval_at("(pieces - 1) / 4", n), (n - 1) / 4);
        ck_assert_int_eq(eval_at("(pieces - 2) / 4", n), (n - 2) / 4);
        int obs = (63 - n) * (32 - n) / 225;
        ck_assert_int_eq(eval_at("min((63 - pieces) * (32 - pieces) / 225, 7)", n), obs < 7 ? obs : 7);
    }
}
END_TEST

START_TEST(division_truncates_toward_zero)
{
    ck_assert_int_eq(eval_at("(pieces - 10) / 4", 3), -1);
    ck_assert_int_eq(eval_at("-7 % 3", 0), -1);
    ck_assert_int_eq(eval_at("5 / (pieces - pieces)", 9), 0);
    ck_assert_int_eq(eval_at("max(2, 3) * 2 + -1", 0), 5);
}
END_TEST

START_TEST(overflow_saturates)
{
    ck_assert_int_eq(eval_at("1000000 * 1000000 * 1000000", 0), INT32_MAX);
}
END_TEST

START_TEST(syntax_errors_have_columns)
{
    nnue_expr e;
    nnue_error err;
    ck_assert_int_eq(nnue_expr_compile(&e, "(pieces - 1) / ", &err), NNUE_E_SYNTAX);
    ck_assert_int_eq(err.column, 16);
    ck_assert_int_eq(nnue_expr_compile(&e, "kings + 1", &err), NNUE_E_SYNTAX);
    ck_assert_int_eq(err.column, 1);
    ck_assert_ptr_nonnull(strstr(err.message, "'pieces'"));
    ck_assert_int_eq(nnue_expr_compile(&e, "(1 + 2", &err), NNUE_E_SYNTAX);
    ck_assert_ptr_nonnull(strstr(err.message, "')'"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("expr");
    TCase *tc = tcase_create("expr");
    tcase_add_test(tc, stockfish_and_bullet_selectors);
    tcase_add_test(tc, division_truncates_toward_zero);
    tcase_add_test(tc, overflow_saturates);
    tcase_add_test(tc, syntax_errors_have_columns);
    suite_add_tcase(s, tc);
    return test_run(s);
}
