/* tests/core/test_expr.c: selector expressions evaluate like C integer arithmetic; shogi board
 * variables (core/arch/expr.c conventions); the loader's range analysis is exact or a safe bound. */
#include <stdio.h>
#include <string.h>

#include "core/arch/expr.h"
#include "nnue_shogi.h"
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

START_TEST(comparisons_and_if)
{
    ck_assert_int_eq(eval_at("pieces < 10", 9), 1);
    ck_assert_int_eq(eval_at("pieces < 10", 10), 0);
    ck_assert_int_eq(eval_at("pieces <= 10", 10), 1);
    ck_assert_int_eq(eval_at("pieces >= 10", 9), 0);
    ck_assert_int_eq(eval_at("pieces > 9", 10), 1);
    ck_assert_int_eq(eval_at("pieces == 3 * 3", 9), 1);
    ck_assert_int_eq(eval_at("pieces != 9", 9), 0);
    ck_assert_int_eq(eval_at("if(pieces < 10, 7, 2 + pieces)", 9), 7);
    ck_assert_int_eq(eval_at("if(pieces < 10, 7, 2 + pieces)", 12), 14);
    ck_assert_int_eq(eval_at("if(pieces - 12,\n 1,\n 0) * 5", 12), 0);   /* newlines are spaces */
    ck_assert_int_eq(eval_at("(1000000 * 1000000 * 1000000) * (1000000 * 1000000 * 1000000)", 0), INT32_MAX);
}
END_TEST

/* Shogi facts from the board: each king seen from its own side, hands of stm / other side. */
START_TEST(shogi_variables)
{
    nnue_board b;
    memset(&b, 0, sizeof b);
    b.num_squares = 81;
    b.king_sq[0] = 2 * 9 + 6;   /* black K 3g: rank index 6, file index 2 */
    b.king_sq[1] = 7 * 9 + 1;   /* white K 8b: 80 - 64 = 16: rank index 7, file index 1 */
    b.hand[0][NNUE_SHOGI_PAWN] = 3;
    b.hand[1][NNUE_SHOGI_ROOK] = 2;
    static const char *const names[] = {"stm_king_rank", "stm_king_file", "nstm_king_rank", "nstm_king_file",
                                        "stm_hand_pawn", "nstm_hand_rook", "stm_hand_rook"};
    static const int black[] = {6, 2, 7, 1, 3, 2, 0}, white[] = {7, 1, 6, 2, 0, 3, 2};
    for (int stm = 0; stm < 2; stm++) {
        b.side_to_move = (uint8_t)stm;
        for (int i = 0; i < 7; i++) {
            nnue_expr e;
            nnue_error err;
            const char *text = names[i];
            if (i == 5)
                text = stm ? "nstm_hand_pawn" : "nstm_hand_rook";
            ck_assert_int_eq(nnue_expr_compile(&e, text, &err), NNUE_OK);
            ck_assert_msg(nnue_expr_eval(&e, &b) == (stm ? white[i] : black[i]), "%s, stm %d", text, stm);
        }
    }
}
END_TEST

static void range_of(const char *text, const char *game, int32_t lo, int32_t hi, int exact)
{
    nnue_expr e;
    nnue_error err;
    ck_assert_int_eq(nnue_expr_compile(&e, text, &err), NNUE_OK);
    int32_t a, b;
    int ex;
    nnue_expr_range(&e, nnue_game_find(game), &a, &b, &ex);
    ck_assert_msg(a == lo && b == hi && ex == exact, "%s: %d..%d exact %d, expected %d..%d exact %d", text, a, b, ex,
                  lo, hi, exact);
}

START_TEST(ranges_exact_or_safe)
{
    range_of("(pieces - 1) / 4", "chess", 0, 7, 1);
    range_of("(pieces - 1) / 4", "shogi", 0, 9, 1);
    /* if() with a decided condition takes one branch: exact, although the else branch alone
     * would go negative for small ranks. */
    range_of("if(stm_king_rank < 7, stm_king_rank, 7 + (stm_king_rank - 7) * 3 + stm_king_file / 3)", "shogi", 0, 12,
             1);
    range_of("stm_king_rank - stm_king_rank", "shogi", 0, 0, 1);
    /* 14 hand variables: too many to enumerate; the bound is still exact for this sum of mins. */
    range_of("min(stm_hand_pawn + nstm_hand_pawn + stm_hand_lance + nstm_hand_lance + stm_hand_knight + "
             "nstm_hand_knight + stm_hand_silver + nstm_hand_silver + stm_hand_gold + nstm_hand_gold + "
             "stm_hand_bishop + nstm_hand_bishop + stm_hand_rook + nstm_hand_rook, 100)",
             "shogi", 0, 76, 0);
    range_of("pieces % 7 - 3 / (pieces - pieces)", "chess", 0, 6, 1);
}
END_TEST

/* Random expressions over the shogi variables: the value on random boards always lies in the
 * range the loader's analysis reports (it may be wider, never narrower). */
static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static unsigned rnd(unsigned n)
{
    return test_random_below(&rng_state, n);
}

/* A cut expression would be another expression: every one must fit its buffer. */
static void fits(size_t size, int written)
{
    ck_assert_msg(written >= 0 && (size_t)written < size, "random expression of %d bytes, buffer %zu", written, size);
}

static void random_expr(char *out, size_t size, int depth)
{
    static const char *const vars[] = {"pieces", "stm_king_rank", "stm_king_file", "nstm_king_rank", "nstm_king_file",
                                       "stm_hand_pawn", "nstm_hand_gold", "stm_hand_rook", "nstm_hand_bishop"};
    static const char *const ops[] = {"+", "-", "*", "/", "%", "<", "<=", "==", "!=", ">", ">="};
    char a[1024], b[1024], c[1024]; /* depth 3 needs at most 3 * 176 + 8 bytes */
    unsigned kind = depth <= 0 ? rnd(2) : rnd(6);
    if (kind == 0) {
        fits(size, snprintf(out, size, "%u", rnd(12)));
    } else if (kind == 1) {
        fits(size, snprintf(out, size, "%s", vars[rnd(9)]));
    } else if (kind == 2) {
        random_expr(a, sizeof a, depth - 1);
        fits(size, snprintf(out, size, "-(%s)", a));
    } else if (kind <= 4) {
        random_expr(a, sizeof a, depth - 1);
        random_expr(b, sizeof b, depth - 1);
        unsigned op = rnd(13);
        if (op < 11)
            fits(size, snprintf(out, size, "(%s) %s (%s)", a, ops[op], b));
        else
            fits(size, snprintf(out, size, "%s((%s), (%s))", op == 11 ? "min" : "max", a, b));
    } else {
        random_expr(a, sizeof a, depth - 1);
        random_expr(b, sizeof b, depth - 1);
        random_expr(c, sizeof c, depth - 1);
        fits(size, snprintf(out, size, "if(%s, %s, %s)", a, b, c));
    }
}

START_TEST(range_never_narrower_than_values)
{
    int checked = 0;
    for (int i = 0; i < 400; i++) {
        char text[1024];
        random_expr(text, sizeof text, 3);
        nnue_expr e;
        nnue_error err;
        if (strlen(text) >= NNUE_EXPR_TEXT_MAX || nnue_expr_compile(&e, text, &err) != NNUE_OK)
            continue;
        int32_t lo, hi;
        int exact;
        nnue_expr_range(&e, &nnue_game_shogi, &lo, &hi, &exact);
        for (int k = 0; k < 200; k++) {
            nnue_board b;
            memset(&b, 0, sizeof b);
            b.num_squares = 81;
            b.side_to_move = (uint8_t)rnd(2);
            b.king_sq[0] = (uint8_t)rnd(81);
            b.king_sq[1] = (uint8_t)rnd(81);
            b.piece_count = (uint8_t)(2 + rnd(39));
            static const unsigned cap[8] = {0, 18, 4, 4, 4, 4, 2, 2};
            for (int c = 0; c < 2; c++)
                for (int t = 1; t < 8; t++)
                    b.hand[c][t] = (uint8_t)rnd(cap[t] + 1);
            int32_t v = nnue_expr_eval(&e, &b);
            ck_assert_msg(v >= lo && v <= hi, "%s = %d outside its range %d..%d", text, v, lo, hi);
            checked++;
        }
    }
    ck_assert_int_gt(checked, 40000);
}
END_TEST

START_TEST(comparison_syntax_errors)
{
    nnue_expr e;
    nnue_error err;
    ck_assert_int_eq(nnue_expr_compile(&e, "1 < pieces < 3", &err), NNUE_E_SYNTAX);
    ck_assert_ptr_nonnull(strstr(err.message, "one comparison only"));
    ck_assert_int_eq(nnue_expr_compile(&e, "if(pieces, 1)", &err), NNUE_E_SYNTAX);
    ck_assert_ptr_nonnull(strstr(err.message, "','"));
    ck_assert_int_eq(err.column, 13);
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
    tcase_add_test(tc, comparisons_and_if);
    tcase_add_test(tc, shogi_variables);
    tcase_add_test(tc, ranges_exact_or_safe);
    tcase_add_test(tc, comparison_syntax_errors);
    tcase_add_test(tc, range_never_narrower_than_values);
    suite_add_tcase(s, tc);
    return test_run(s);
}
