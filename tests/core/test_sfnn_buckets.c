/* tests/core/test_sfnn_buckets.c: YaneuraOu SFNN layer-stack rules written as YAML selectors
 * (docs/examples/shogi_sfnn64_*.yaml, archs/shogi_sfnn1536.yaml) give the buckets computed by
 * hand from the rules in YaneuraOu's source/eval/nnue/architectures/README.md.
 *
 * Conventions used for the hand computation: square = (file-1)*9 + (rank-1); each king is seen
 * from its own side (black as is, white rotated 80 - sq), so its rank index r is 0 for the far
 * rank and 8 for its own back rank, and its file index f is file-1 for black, 9-file for white.
 * Boards carry only what the selectors read (kings, side to move, hands). Positions sit on the
 * rule edges: r 2/3 (ranks 3|4) and 5/6 (ranks 6|7), the file thirds of ranks 8 and 9, the
 * far files for each colour, empty and full hands, hand scores at zone borders. */
#include <string.h>

#include "core/arch/arch_api.h"
#include "core/arch/arch.h"
#include "support.h"

static nnue_arch *load(const char *relative)
{
    nnue_arch *a;
    nnue_error err;
    nnue_status st = nnue_arch_load(test_source_path(relative), &a, &err);
    ck_assert_msg(st == NNUE_OK, "%s: %s", relative, err.message);
    return a;
}

/* stm 0 = black; bk/wk = king squares; hands as "PLNSGBR" counts for black and white. */
static nnue_board board(int stm, int bk, int wk, const int bh[7], const int wh[7])
{
    nnue_board b;
    memset(&b, 0, sizeof b);
    b.num_squares = 81;
    b.side_to_move = (uint8_t)stm;
    b.king_sq[0] = (uint8_t)bk;
    b.king_sq[1] = (uint8_t)wk;
    b.piece_on[bk] = NNUE_PIECE(0, NNUE_SHOGI_KING);
    b.piece_on[wk] = NNUE_PIECE(1, NNUE_SHOGI_KING);
    b.piece_count = 2;
    for (int t = 0; t < 7; t++) {
        b.hand[0][t + 1] = (uint8_t)(bh ? bh[t] : 0);
        b.hand[1][t + 1] = (uint8_t)(wh ? wh[t] : 0);
    }
    return b;
}

#define SQ(file, rank) (((file) - 1) * 9 + ((rank) - 1))

static void expect(const nnue_arch *a, nnue_board b, int bucket, const char *what)
{
    int got = nnue_expr_eval(&a->selector, &b);
    ck_assert_msg(got == bucket, "%s %s: bucket %d, expected %d", a->name, what, got, bucket);
    ck_assert_int_lt(got, (int)a->stacks);
}

START_TEST(k3k3_of_the_sfnn1536_net)
{
    nnue_arch *a = load("archs/shogi_sfnn1536.yaml");
    ck_assert_uint_eq(a->stacks, 9);
    /* Start: black K 5i r 8 -> 6; white K 5a r 8 -> 2: 8. */
    expect(a, board(0, SQ(5, 9), SQ(5, 1), NULL, NULL), 8, "start");
    /* Black K 5c r 2 -> 0; white K 5g: own view rank 9-7 = 2 -> 0: 0. */
    expect(a, board(0, SQ(5, 3), SQ(5, 7), NULL, NULL), 0, "ranks 3 and 7");
    /* Black K 5d r 3 -> 3; white K 5f r 3 -> 1: 4. */
    expect(a, board(0, SQ(5, 4), SQ(5, 6), NULL, NULL), 4, "ranks 4 and 6");
    /* White to move, white K 5c: r 6 -> 6; black K 5g r 6 -> 2: 8. Black K 5f r 5 -> 1: 7. */
    expect(a, board(1, SQ(5, 7), SQ(5, 3), NULL, NULL), 8, "white to move, ranks 7 and 3");
    expect(a, board(1, SQ(5, 6), SQ(5, 3), NULL, NULL), 7, "white to move, ranks 6 and 3");
    nnue_arch_free(a);
}
END_TEST

START_TEST(k9k9z_king_zones)
{
    nnue_arch *a = load("docs/examples/shogi_sfnn64_k9k9z.yaml");
    ck_assert_uint_eq(a->stacks, 81);
    /* single: r < 3 -> 0, r < 6 -> 1, r 6 -> 2, r 7/8 -> 3 + (r - 7) * 3 + f / 3. */
    expect(a, board(0, SQ(1, 3), SQ(9, 7), NULL, NULL), 0, "1c / 9g (r 2, r 2)");
    expect(a, board(0, SQ(1, 4), SQ(9, 6), NULL, NULL), 10, "1d / 9f (r 3, r 3)");
    expect(a, board(0, SQ(4, 6), SQ(6, 4), NULL, NULL), 10, "4f / 6d (r 5, r 5)");
    expect(a, board(0, SQ(4, 7), SQ(6, 3), NULL, NULL), 20, "4g / 6c (r 6, r 6)");
    /* 7h: r 7, f 6 -> 3 + 0 + 2 = 5; white 3b: 80 - 19 = 61: r 7, f 6 -> 5: 50. */
    expect(a, board(0, SQ(7, 8), SQ(3, 2), NULL, NULL), 50, "7h / 3b");
    /* 9i: r 8, f 8 -> 8; white 9a: 80 - 72 = 8: r 8, f 0 -> 6: 78 (the far files differ). */
    expect(a, board(0, SQ(9, 9), SQ(9, 1), NULL, NULL), 78, "9i / 9a");
    /* White to move: white 1a: 80 - 0 = 80: r 8, f 8 -> 8; black 5e r 4 -> 1: 73. */
    expect(a, board(1, SQ(5, 5), SQ(1, 1), NULL, NULL), 73, "white to move, 1a / 5e");
    /* 3h: r 7, f 2 -> 3; 4h: f 3 -> 4 (file thirds 1-3 | 4-6 | 7-9). White 5a: r 8, f 4 -> 7. */
    expect(a, board(0, SQ(3, 8), SQ(5, 1), NULL, NULL), 3 * 9 + 7, "3h / 5a");
    expect(a, board(0, SQ(4, 8), SQ(5, 1), NULL, NULL), 4 * 9 + 7, "4h / 5a");
    nnue_arch_free(a);
}
END_TEST

START_TEST(hand64z_hand_scores)
{
    nnue_arch *a = load("docs/examples/shogi_sfnn64_hand64z.yaml");
    ck_assert_uint_eq(a->stacks, 64);
    /* single = min((P + 2(L+N) + 3(S+G) + 5(B+R) + 3) / 4, 7); bucket = stm * 8 + nstm. */
    static const int none[7] = {0}, p1[7] = {1}, p4[7] = {4}, p5[7] = {5};
    static const int full[7] = {18, 4, 4, 4, 4, 2, 2};          /* score 78 -> 7 */
    static const int s24[7] = {1, 0, 0, 1, 0, 2, 2};            /* 1 + 3 + 20 = 24 -> 6 */
    static const int s25[7] = {2, 0, 0, 0, 1, 2, 2};            /* 2 + 3 + 20 = 25 -> 7 */
    expect(a, board(0, SQ(5, 9), SQ(5, 1), none, none), 0, "empty hands");
    expect(a, board(0, SQ(5, 9), SQ(5, 1), p1, none), 8, "one pawn");
    expect(a, board(0, SQ(5, 9), SQ(5, 1), p4, none), 8, "score 4");
    expect(a, board(0, SQ(5, 9), SQ(5, 1), p5, full), 2 * 8 + 7, "score 5 vs full");
    expect(a, board(1, SQ(5, 9), SQ(5, 1), p5, full), 7 * 8 + 2, "white to move: full vs score 5");
    expect(a, board(0, SQ(5, 9), SQ(5, 1), s24, s25), 6 * 8 + 7, "score 24 vs 25");
    nnue_arch_free(a);
}
END_TEST

START_TEST(hand1024_presence_bits)
{
    nnue_arch *a = load("docs/examples/shogi_sfnn64_hand1024.yaml");
    ck_assert_uint_eq(a->stacks, 1024);
    /* bits: P 1, L|N 2, S|G 4, B 8, R 16; bucket = stm * 32 + nstm. */
    static const int nr[7] = {0, 0, 1, 0, 0, 0, 1};     /* knight + rook -> 18 */
    static const int pgb[7] = {1, 0, 0, 0, 1, 1, 0};    /* pawn + gold + bishop -> 13 */
    static const int full[7] = {18, 4, 4, 4, 4, 2, 2};
    expect(a, board(0, SQ(5, 9), SQ(5, 1), NULL, NULL), 0, "empty hands");
    expect(a, board(0, SQ(5, 9), SQ(5, 1), nr, pgb), 18 * 32 + 13, "N+R vs P+G+B");
    expect(a, board(1, SQ(5, 9), SQ(5, 1), nr, pgb), 13 * 32 + 18, "white to move");
    expect(a, board(0, SQ(5, 9), SQ(5, 1), full, full), 1023, "full hands");
    nnue_arch_free(a);
}
END_TEST

START_TEST(hand4_k13k13z_combined)
{
    nnue_arch *a = load("docs/examples/shogi_sfnn64_hand4_k13k13z.yaml");
    ck_assert_uint_eq(a->stacks, 676);
    /* hand4 * 169 + k13; hand4 = (stm B > 0) * 2 + (nstm B > 0);
     * k13 single: r < 7 -> r, else 7 + (r - 7) * 3 + f / 3. */
    static const int b1[7] = {0, 0, 0, 0, 0, 1, 0};
    /* 5i: r 8, f 4 -> 11; white 5a -> 11: 11 * 13 + 11 = 154; black holds B: hand 2 -> 492. */
    expect(a, board(0, SQ(5, 9), SQ(5, 1), b1, NULL), 2 * 169 + 154, "start kings, black B");
    /* White to move, both hold B: 3. White 2c: 80 - 11 = 69: r 6 -> 6; black 8g r 6 -> 6: 84. */
    expect(a, board(1, SQ(8, 7), SQ(2, 3), b1, b1), 3 * 169 + 84, "white to move, r 6 / r 6");
    /* No hands: black 3c r 2, white 7g: 80 - 60 = 20: r 2: 28; black 3d r 3: 41. */
    expect(a, board(0, SQ(3, 3), SQ(7, 7), NULL, NULL), 28, "3c / 7g");
    expect(a, board(0, SQ(3, 4), SQ(7, 7), NULL, NULL), 41, "3d / 7g");
    /* Black 4h: r 7, f 3 -> 8; white 7b: 80 - 55 = 25: r 7, f 2 -> 7: 111. */
    expect(a, board(0, SQ(4, 8), SQ(7, 2), NULL, NULL), 111, "4h / 7b");
    nnue_arch_free(a);
}
END_TEST

START_TEST(k29k29_on_halfka2)
{
    nnue_arch *a = load("docs/examples/shogi_sfnn64_halfka2_k29k29.yaml");
    ck_assert_uint_eq(a->stacks, 841);
    ck_assert_str_eq(a->ft.features->name, "HalfKA2_shogi");
    /* single: r < 3 -> 0, r < 6 -> 1, else 2 + (r - 6) * 9 + f; bucket = stm * 29 + nstm. */
    expect(a, board(0, SQ(5, 9), SQ(5, 1), NULL, NULL), 24 * 29 + 24, "5i / 5a (r 8, f 4)");
    expect(a, board(0, SQ(1, 7), SQ(9, 3), NULL, NULL), 2 * 29 + 2, "1g / 9c (r 6, f 0)");
    expect(a, board(0, SQ(1, 6), SQ(9, 4), NULL, NULL), 30, "1f / 9d (r 5)");
    expect(a, board(0, SQ(9, 9), SQ(1, 1), NULL, NULL), 840, "9i / 1a (r 8, f 8)");
    /* White to move: white 2b: 80 - 10 = 70: r 7, f 7 -> 18; black 3c r 2 -> 0: 522. */
    expect(a, board(1, SQ(3, 3), SQ(2, 2), NULL, NULL), 18 * 29, "white to move, 2b / 3c");
    nnue_arch_free(a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sfnn_buckets");
    TCase *tc = tcase_create("buckets");
    tcase_add_test(tc, k3k3_of_the_sfnn1536_net);
    tcase_add_test(tc, k9k9z_king_zones);
    tcase_add_test(tc, hand64z_hand_scores);
    tcase_add_test(tc, hand1024_presence_bits);
    tcase_add_test(tc, hand4_k13k13z_combined);
    tcase_add_test(tc, k29k29_on_halfka2);
    suite_add_tcase(s, tc);
    return test_run(s);
}
