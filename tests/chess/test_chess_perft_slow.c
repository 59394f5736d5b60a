/* tests/chess/test_chess_perft_slow.c: deep perft ('slow' suite, left out of
 * the sanitizer run). Expected counts are the published perft figures
 * (start position, "Kiwipete", and the rook endgame position 3). */
#include "chess_helpers.h"
#include "support.h"

static nnue_chess_pos pos;

START_TEST(start_position_depth_5_and_6)
{
    parse_ok(&pos, NNUE_CHESS_START_FEN);
    ck_assert_uint_eq(nnue_chess_perft(&pos, 5), 4865609ull);
    ck_assert_uint_eq(nnue_chess_perft(&pos, 6), 119060324ull);
}
END_TEST

START_TEST(kiwipete_depth_5)
{
    parse_ok(&pos, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    ck_assert_uint_eq(nnue_chess_perft(&pos, 5), 193690690ull);
}
END_TEST

START_TEST(endgame_position_3_depth_6)
{
    parse_ok(&pos, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
    ck_assert_uint_eq(nnue_chess_perft(&pos, 6), 11030083ull);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("chess_perft_slow");
    TCase *tc = tcase_create("deep");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, start_position_depth_5_and_6);
    tcase_add_test(tc, kiwipete_depth_5);
    tcase_add_test(tc, endgame_position_3_depth_6);
    suite_add_tcase(s, tc);
    return test_run(s);
}
