/* tests/features/test_features_shogi_halfka.c: the shogi HalfKA_hm2 and HalfKA2 sets on hand-built
 * boards, without a game adapter.
 *
 * Expected indices were derived by hand from shogi FORMATS.md sections 2-3 and 11 (and YaneuraOu's
 * half_ka_hm2.cpp / half_ka2.cpp): index = 1629 * k + q, both kings on the plane 1548 + sq,
 * mirroring (file f -> 10 - f) of k and of board squares when the own king stands on files 6-9,
 * pieces in hand never mirrored, BonaPiece 0 padding to 40 entries. */
#include <string.h>

#include "fs_check.h"

static const nnue_feature_set *set(const char *name)
{
    const nnue_feature_set *fs = nnue_feature_set_find(name);
    ck_assert_msg(fs != NULL, "feature set %s is not registered", name);
    return fs;
}

static int has(const nnue_feature_set *fs, const nnue_board *b, int persp, uint32_t index)
{
    uint32_t out[NNUE_MAX_ACTIVE];
    int n = fs->active(NULL, b, persp, out), k = 0;
    for (int i = 0; i < n; i++)
        k += out[i] == index;
    return k;
}

/* Black K 7h (61), white K 5a (36), black P 7g (60), white R 8b (64), black holds 2 golds. */
static nnue_board sample(void)
{
    nnue_board b;
    memset(&b, 0, sizeof b);
    b.num_squares = 81;
    b.king_sq[0] = 61;
    b.king_sq[1] = 36;
    b.piece_on[61] = NNUE_PIECE(0, NNUE_SHOGI_KING);
    b.piece_on[36] = NNUE_PIECE(1, NNUE_SHOGI_KING);
    b.piece_on[60] = NNUE_PIECE(0, NNUE_SHOGI_PAWN);
    b.piece_on[64] = NNUE_PIECE(1, NNUE_SHOGI_ROOK);
    b.hand[0][NNUE_SHOGI_GOLD] = 2;
    b.piece_count = 4;
    return b;
}

START_TEST(registry_entries)
{
    const nnue_feature_set *hm2 = set("HalfKA_hm2_shogi"), *ka2 = set("HalfKA2_shogi");
    ck_assert_str_eq(hm2->game, "shogi");
    ck_assert_str_eq(hm2->display, "HalfKA_hm2(Friend)");
    ck_assert_uint_eq(hm2->dimensions(NULL), 73305);   /* 5 * 9 * 1629 */
    ck_assert_str_eq(ka2->display, "HalfKA2(Friend)");
    ck_assert_uint_eq(ka2->dimensions(NULL), 131949);  /* 81 * 1629 */
    ck_assert_uint_eq(hm2->hash, 0x5F134CB8u);         /* 0x5f134cb9 ^ 1 (Friend) */
}
END_TEST

START_TEST(hm2_mirrored_black)
{
    const nnue_feature_set *fs = set("HalfKA_hm2_shogi");
    nnue_board b = sample();
    /* Black: K 7h = 61 is on file 7 -> mirrored to 3h = 25: base 1629 * 25 = 40725.
     * P 7g -> 3g = 24: 90 + 24 = 114 -> 40839. Own K -> 25: 1548 + 25 -> 42298.
     * White K 5a = 36 stays 36: 1629 + 36 stored as 1584 -> 42309. White R 8b = 64 -> 2b = 10:
     * 1305 + 10 -> 42040. Hand golds 69, 70 (not mirrored) -> 40794, 40795. */
    ck_assert_int_eq(has(fs, &b, 0, 40839), 1);
    ck_assert_int_eq(has(fs, &b, 0, 42298), 1);
    ck_assert_int_eq(has(fs, &b, 0, 42309), 1);
    ck_assert_int_eq(has(fs, &b, 0, 42040), 1);
    ck_assert_int_eq(has(fs, &b, 0, 40794), 1);
    ck_assert_int_eq(has(fs, &b, 0, 40795), 1);
    ck_assert_int_eq(has(fs, &b, 0, 40725), 34);       /* 40 - 6 padding entries */
    fs_case c = { "HalfKA_hm2_shogi", fs, NULL };
    uint32_t out[NNUE_MAX_ACTIVE];
    ck_assert_int_eq(fs_check_active(&c, &b, 0, out, "sample"), 40);
}
END_TEST

START_TEST(hm2_unmirrored_white)
{
    const nnue_feature_set *fs = set("HalfKA_hm2_shogi");
    nnue_board b = sample();
    /* White: K 5a = 36 -> 80 - 36 = 44 (file 5, not mirrored): base 1629 * 44 = 71676.
     * Own R 8b -> 16: 1224 + 16 -> 72916. Black P 7g -> 20: 171 + 20 -> 71867. Black K 7h -> 19:
     * 1548 + 19 -> 73243. Own K -> 1548 + 44 -> 73268. Black's golds are enemy hand 74, 75. */
    ck_assert_int_eq(has(fs, &b, 1, 72916), 1);
    ck_assert_int_eq(has(fs, &b, 1, 71867), 1);
    ck_assert_int_eq(has(fs, &b, 1, 73243), 1);
    ck_assert_int_eq(has(fs, &b, 1, 73268), 1);
    ck_assert_int_eq(has(fs, &b, 1, 71750), 1);
    ck_assert_int_eq(has(fs, &b, 1, 71751), 1);
    ck_assert_int_eq(has(fs, &b, 1, 71676), 34);
}
END_TEST

START_TEST(ka2_never_mirrors)
{
    const nnue_feature_set *fs = set("HalfKA2_shogi");
    nnue_board b = sample();
    /* Black: base 1629 * 61 = 99369; P 150 -> 99519; own K 1609 -> 100978; white K 1584 ->
     * 100953; white R 1369 -> 100738; golds 69, 70 -> 99438, 99439. */
    ck_assert_int_eq(has(fs, &b, 0, 99519), 1);
    ck_assert_int_eq(has(fs, &b, 0, 100978), 1);
    ck_assert_int_eq(has(fs, &b, 0, 100953), 1);
    ck_assert_int_eq(has(fs, &b, 0, 100738), 1);
    ck_assert_int_eq(has(fs, &b, 0, 99438), 1);
    ck_assert_int_eq(has(fs, &b, 0, 99439), 1);
    ck_assert_int_eq(has(fs, &b, 0, 99369), 34);
}
END_TEST

/* The other king moving is an ordinary change; the own king crossing from file 5 to file 6
 * refreshes (and flips the mirror). */
START_TEST(king_moves)
{
    const nnue_feature_set *fs = set("HalfKA_hm2_shogi");
    fs_case c = { "HalfKA_hm2_shogi", fs, NULL };
    nnue_board before = sample();
    before.side_to_move = 1;
    /* White K 5a -> 6a (45): for black the king leaves 1584 + 40725 and comes to 1548 + mirror(45)
     * = 1548 + 27 -> 42300; for white, 6a seen rotated is 80 - 45 = 35 (file 4): refresh. */
    nnue_board after = before;
    after.piece_on[36] = 0;
    after.piece_on[45] = NNUE_PIECE(1, NNUE_SHOGI_KING);
    after.king_sq[1] = 45;
    after.side_to_move = 0;
    nnue_delta d = { .count = 1, .king_moved = { 0, 1 } };
    d.dirty[0] = (nnue_dirty){ NNUE_PIECE(1, NNUE_SHOGI_KING), NNUE_PIECE(1, NNUE_SHOGI_KING), 36, 45, 0, 0 };
    ck_assert_int_eq(fs_check_delta(&c, 1, &before, &after, &d, "K 5a6a"), 1);
    uint32_t r[NNUE_MAX_CHANGED], a[NNUE_MAX_CHANGED];
    int nr = -1, na = -1;
    fs->changed(NULL, &after, &d, 0, r, &nr, a, &na);
    ck_assert_int_eq(nr, 1);
    ck_assert_int_eq(na, 1);
    ck_assert_uint_eq(r[0], 42309);
    ck_assert_uint_eq(a[0], 42300);
    ck_assert_int_eq(fs->needs_refresh(NULL, &after, &d, 1), 1);

    /* Black K 7h -> 5h (43): the mirror goes away for black: refresh; white updates. */
    nnue_board start = sample(), back = sample();
    back.piece_on[61] = 0;
    back.piece_on[43] = NNUE_PIECE(0, NNUE_SHOGI_KING);
    back.king_sq[0] = 43;
    back.side_to_move = 1;
    nnue_delta e = { .count = 1, .king_moved = { 1, 0 } };
    e.dirty[0] = (nnue_dirty){ NNUE_PIECE(0, NNUE_SHOGI_KING), NNUE_PIECE(0, NNUE_SHOGI_KING), 61, 43, 0, 0 };
    ck_assert_int_eq(fs_check_delta(&c, 1, &start, &back, &e, "K 7h5h"), 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("features_shogi_halfka");
    TCase *tc = tcase_create("halfka");
    tcase_add_test(tc, registry_entries);
    tcase_add_test(tc, hm2_mirrored_black);
    tcase_add_test(tc, hm2_unmirrored_white);
    tcase_add_test(tc, ka2_never_mirrors);
    tcase_add_test(tc, king_moves);
    suite_add_tcase(s, tc);
    return test_run(s);
}
