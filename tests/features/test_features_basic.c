/* tests/features/test_features_basic.c: feature sets without any game adapter.
 *
 * Registry, dimensions and hashes (chess FORMATS.md section 3 and the HalfKA facts in
 * features/halfka.c; shogi FORMATS.md section 3; third/cwtch and third/obsidian FACTS.md), index spot checks derived
 * by hand from those formulas on hand-built boards, and synthetic shogi capture/drop deltas
 * (shogi FORMATS.md section 5). */
#include <string.h>

#include "fs_check.h"

static const nnue_feature_set *set(const char *name)
{
    const nnue_feature_set *fs = nnue_feature_set_find(name);
    ck_assert_msg(fs != NULL, "feature set %s is not registered", name);
    return fs;
}

/* Chess board from the placement field of a FEN (white to move). */
static nnue_board chess_board(const char *placement)
{
    static const char letters[] = "pnbrqk";
    nnue_board b;
    memset(&b, 0, sizeof b);
    b.num_squares = 64;
    int rank = 7, file = 0;
    for (const char *p = placement; *p; p++) {
        if (*p == '/') {
            rank--;
            file = 0;
        } else if (*p >= '1' && *p <= '8') {
            file += *p - '0';
        } else {
            int colour = *p >= 'A' && *p <= 'Z' ? 0 : 1;
            const char *l = strchr(letters, colour ? *p : *p - 'A' + 'a');
            ck_assert_ptr_nonnull(l);
            int type = (int)(l - letters) + 1, sq = rank * 8 + file++;
            b.piece_on[sq] = NNUE_PIECE(colour, type);
            b.piece_count++;
            if (type == NNUE_CHESS_KING)
                b.king_sq[colour] = (uint8_t)sq;
        }
    }
    return b;
}

static int has(const nnue_feature_set *fs, const nnue_feature_params *params,
               const nnue_board *b, int persp, uint32_t index)
{
    uint32_t out[NNUE_MAX_ACTIVE_ANY];
    int n = fs->active(params, b, persp, out), k = 0;
    for (int i = 0; i < n; i++)
        k += out[i] == index;
    return k;
}

#define START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"

START_TEST(registry_dimensions_and_hashes)
{
    static const struct {
        const char *name, *game, *display;
        uint32_t hash, dims;
    } want[] = {
        { "HalfKP", "chess", "HalfKP(Friend)", 0x5D69D5B8u, 41024 },
        { "HalfKA", "chess", "HalfKA(Friend)", 0x5F134CB8u, 64 * 769 },
        { "HalfKAv2", "chess", "HalfKAv2(Friend)", 0x5F234CB8u, 45056 },
        { "HalfKAv2_hm", "chess", "HalfKAv2_hm(Friend)", 0x7F234CB8u, 22528 },
        { "HalfKP_shogi", "shogi", "HalfKP(Friend)", 0x5D69D5B8u, 125388 },
        { "Full_Threats", "chess", "Full_Threats(Friend)", 0x8F234CB8u, 79856 }, /* FORMATS.md section 9 */
        { "PP_3Wide", "chess", "PP_3Wide(Friend)", 0x86F2B1DDu, 4560 },          /* docs/formats-sfnnv16.md */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const nnue_feature_set *fs = set(want[i].name);
        ck_assert_str_eq(fs->game, want[i].game);
        ck_assert_str_eq(fs->display, want[i].display);
        ck_assert_uint_eq(fs->hash, want[i].hash);
        ck_assert_uint_eq(fs->dimensions(NULL), want[i].dims);
    }
    const nnue_feature_set *c = set("Chess768");
    ck_assert_str_eq(c->game, "chess");
    ck_assert_uint_eq(c->dimensions(&fs_params_cwtch), 4 * 768);   /* cwtch: 768x4hm */
    ck_assert_uint_eq(c->dimensions(&fs_params_obsidian), 768);    /* obsidian: 768hm */
    ck_assert_uint_eq(c->dimensions(NULL), 768);
    ck_assert_ptr_null(nnue_feature_set_find("NoSuchSet"));
    /* Full_Threats of Stockfish 19 (docs/formats-sfnnv16.md section 3) */
    const nnue_feature_set *t = set("Full_Threats");
    const nnue_feature_params v16 = {.variant = 1};
    ck_assert_str_eq(t->variants[1].name, "sfnnv16");
    ck_assert_uint_eq(t->dimensions(&v16), 59808);
    ck_assert_uint_eq(nnue_feature_set_hash(t, &v16), 0x2E6B9D04u);
    ck_assert_uint_eq(nnue_feature_set_hash(t, NULL), 0x8F234CB8u);
    /* Full_Threats of Reckless (shared/oracle/third/reckless/FACTS.md, "Threat features") */
    const nnue_feature_params reckless = {.variant = 2};
    ck_assert_str_eq(t->variants[2].name, "reckless");
    ck_assert_uint_eq(t->dimensions(&reckless), 66864);
}
END_TEST

/* Reckless's threat indices, worked out by hand from its FACTS.md ("Threat features"): block
 * starts white P N B R Q K 0, 504, 3864, 8344, 15512, 30072; kings attack, are never victims. */
START_TEST(reckless_threat_spot_checks)
{
    const nnue_feature_set *t = set("Full_Threats");
    const nnue_feature_params reckless = {.variant = 2};
    uint32_t out[NNUE_MAX_ACTIVE_ANY];
    nnue_board k = chess_board("4k3/8/8/8/8/2r5/8/1N2K3");
    /* white, K e1: flip 7; N b1 -> g1 (6) hits r c3 -> f3 (21): block 504, (1 * 10 / 2 + 3) * 336
     * = 2688, cnt[N][g1] = 21, below f3 from g1: e2 -> 1 */
    ck_assert_int_eq(has(t, &reckless, &k, 0, 504 + 2688 + 21 + 1), 1);
    ck_assert_int_eq(t->active(&reckless, &k, 0, out), 1);
    /* a king attacks: K e1 -> d1 (3) hits n d2 -> e2 (12): block 30072, (1 * 8 / 2 + 1) * 420 =
     * 2100, cnt[K][d1] = 3 + 5 + 5 = 13, below e2 from d1: c1, e1, c2, d2 -> 4 */
    nnue_board a = chess_board("4k3/8/8/8/8/8/3n4/4K3");
    ck_assert_int_eq(has(t, &reckless, &a, 0, 30072 + 2100 + 13 + 4), 1);
    /* a king is never a victim: n d3 attacks K e1, a feature of sfnnv10 only */
    nnue_board v = chess_board("4k3/8/8/8/8/3n4/8/4K3");
    ck_assert_int_eq(t->active(&reckless, &v, 0, out), 0);
    ck_assert_int_eq(t->active(NULL, &v, 0, out), 1);
}
END_TEST

/* Indices worked out by hand from docs/formats-sfnnv16.md sections 3 and 4. */
START_TEST(sfnnv16_spot_checks)
{
    const nnue_feature_set *pp = set("PP_3Wide");
    nnue_board b = chess_board(START);
    uint32_t out[NNUE_MAX_ACTIVE_ANY];
    /* 7 white pairs side by side, 7 black ones, 2 + 6 * 3 + 2 = 22 white-black pairs */
    ck_assert_int_eq(pp->active(NULL, &b, 0, out), 36);
    /* white, K e1: o = 7; a2 -> h2: id 15 - 8 = 7, b2 -> g2: id 6; 7 * 6 / 2 + 6 = 27 */
    ck_assert_int_eq(has(pp, NULL, &b, 0, 27), 1);
    /* white: a7 and b7 (black) -> ids 48 + 55 - 8 = 95 and 94: 95 * 94 / 2 + 94 = 4559, the last */
    ck_assert_int_eq(has(pp, NULL, &b, 0, 4559), 1);
    /* black, K e8: o = 63, colours swap: a2 and b2 also give 95 and 94 */
    ck_assert_int_eq(has(pp, NULL, &b, 1, 4559), 1);
    ck_assert_int_eq(has(pp, NULL, &b, 1, 27), 1);
    /* no pair across two files: a2 (7) with c2 (5 after the flip): 7 * 6 / 2 + 5 = 26 */
    ck_assert_int_eq(has(pp, NULL, &b, 0, 26), 0);

    const nnue_feature_set *t = set("Full_Threats");
    const nnue_feature_params v16 = {.variant = 1};
    nnue_board k = chess_board("4k3/8/8/8/8/2r5/8/1N2K3");
    /* white, K e1: o = 7; N b1 -> g1 (6) hits r c3 -> f3 (21): base[wN] = 4 * 84 = 336, slot
     * (1 * 10 / 2 + 3) * 336 = 2688, offsets[N][g1] = 2+3+4+4+4+4 = 21, below f3 from g1: e2 -> 1 */
    ck_assert_int_eq(has(t, &v16, &k, 0, 336 + 2688 + 21 + 1), 1);
    /* the rook attacks nothing; the kings attack nothing in this variant */
    ck_assert_int_eq(t->active(&v16, &k, 0, out), 1);
    ck_assert_int_eq(t->active(NULL, &k, 0, out), 1);
}
END_TEST

START_TEST(halfkp_spot_checks)
{
    const nnue_feature_set *fs = set("HalfKP");
    nnue_board b = chess_board(START);
    /* white: K e1 = 4; P a2 = 8: 8 + 1 + 64*(2*0 + 0) + 641*4 = 2573 */
    ck_assert_int_eq(has(fs, NULL, &b, 0, 2573), 1);
    /* black: K e8 = 60 -> 60^63 = 3; own P a7 = 48 -> 15: 15 + 1 + 0 + 641*3 = 1939 */
    ck_assert_int_eq(has(fs, NULL, &b, 1, 1939), 1);
    /* black: enemy Q d1 = 3 -> 60: 60 + 1 + 64*(2*4 + 1) + 1923 = 2560 */
    ck_assert_int_eq(has(fs, NULL, &b, 1, 2560), 1);
    uint32_t out[NNUE_MAX_ACTIVE_ANY];
    ck_assert_int_eq(fs->active(NULL, &b, 0, out), 30);   /* kings are not features */
}
END_TEST

START_TEST(halfka_spot_checks)
{
    const nnue_feature_set *fs = set("HalfKA");
    nnue_board b = chess_board(START);
    /* white: P a2: 1 + 8 + 64*0 + 769*4 = 3085 */
    ck_assert_int_eq(has(fs, NULL, &b, 0, 3085), 1);
    /* white: enemy K e8: p_idx = 2*5 + 1 = 11: 1 + 60 + 704 + 3076 = 3841 */
    ck_assert_int_eq(has(fs, NULL, &b, 0, 3841), 1);
    /* black (vertical flip): K e8 -> 4; own P a7 = 48 -> 8: 1 + 8 + 0 + 3076 = 3085 */
    ck_assert_int_eq(has(fs, NULL, &b, 1, 3085), 1);
    /* black: enemy Q d1 = 3 -> 59, p_idx 9: 1 + 59 + 576 + 3076 = 3712 */
    ck_assert_int_eq(has(fs, NULL, &b, 1, 3712), 1);
    /* black: own K e8 -> 4, p_idx 10: 1 + 4 + 640 + 3076 = 3721 */
    ck_assert_int_eq(has(fs, NULL, &b, 1, 3721), 1);
}
END_TEST

START_TEST(halfka_v2_spot_checks)
{
    const nnue_feature_set *fs = set("HalfKAv2");
    nnue_board b = chess_board(START);
    /* white: own K e1: 4 + 640 + 704*4 = 3460; enemy K e8: 60 + 640 + 2816 = 3516 */
    ck_assert_int_eq(has(fs, NULL, &b, 0, 3460), 1);
    ck_assert_int_eq(has(fs, NULL, &b, 0, 3516), 1);
    /* black: K e8 -> 4; enemy N g1 = 6 -> 62: 62 + 64*(2*1 + 1) + 2816 = 3070 */
    ck_assert_int_eq(has(fs, NULL, &b, 1, 3070), 1);
}
END_TEST

START_TEST(halfka_v2_hm_spot_checks)
{
    const nnue_feature_set *fs = set("HalfKAv2_hm");
    nnue_board b = chess_board(START);
    /* white: K e1 (no mirror) -> bucket (7-0)*4 + (7-4) = 31: own K 4 + 640 + 704*31 = 22468 */
    ck_assert_int_eq(has(fs, NULL, &b, 0, 22468), 1);
    ck_assert_int_eq(has(fs, NULL, &b, 0, 60 + 640 + 21824), 1);
    /* K d1 is mirrored to e1 (bucket 31); black K e8 = 60 -> 59: 59 + 640 + 21824 = 22523 */
    nnue_board d = chess_board("4k3/8/8/8/8/8/8/3K4");
    ck_assert_int_eq(has(fs, NULL, &d, 0, 22468), 1);
    ck_assert_int_eq(has(fs, NULL, &d, 0, 22523), 1);
    /* black: K e8 -> 4 (file e, no mirror); enemy K d1 = 3 -> 59: 22523 */
    ck_assert_int_eq(has(fs, NULL, &d, 1, 22523), 1);
    ck_assert_int_eq(has(fs, NULL, &d, 1, 22468), 1);
    /* white K h8: bucket (7-7)*4 + (7-7) = 0: 63 + 640 = 703 */
    nnue_board h = chess_board("7K/8/8/8/8/8/8/k7");
    ck_assert_int_eq(has(fs, NULL, &h, 0, 703), 1);
}
END_TEST

START_TEST(chess768_spot_checks)
{
    const nnue_feature_set *fs = set("Chess768");
    nnue_board b = chess_board(START);
    /* cwtch, white: K e1 on files e-h -> mirror; e1^7 = d1 -> bucket 1 (rank 1: 0 0 1 1).
     * P a2 = 8 -> 15: 768 + 0 + 15 = 783; own K: 768 + 5*64 + 3 = 1091;
     * enemy K e8 = 60 -> 59: 768 + 11*64 + 59 = 1531. */
    ck_assert_int_eq(has(fs, &fs_params_cwtch, &b, 0, 783), 1);
    ck_assert_int_eq(has(fs, &fs_params_cwtch, &b, 0, 1091), 1);
    ck_assert_int_eq(has(fs, &fs_params_cwtch, &b, 0, 1531), 1);
    /* cwtch, black: K e8 -> 4, mirrored -> 3, bucket 1; own P a7 = 48 ^ 56 ^ 7 = 15: 783 */
    ck_assert_int_eq(has(fs, &fs_params_cwtch, &b, 1, 783), 1);
    /* obsidian, black: enemy Q d1 = 3 -> 3^7^56 = 60: 1*384 + 4*64 + 60 = 700 */
    ck_assert_int_eq(has(fs, &fs_params_obsidian, &b, 1, 700), 1);
    /* obsidian, white: P a2 -> 15 */
    ck_assert_int_eq(has(fs, &fs_params_obsidian, &b, 0, 15), 1);
    /* cwtch, white K b2 (files a-d, no mirror): bucket 2; P a2 = 8: 2*768 + 8 = 1544 */
    nnue_board k = chess_board("4k3/8/8/8/8/8/PK6/8");
    ck_assert_int_eq(has(fs, &fs_params_cwtch, &k, 0, 1544), 1);
}
END_TEST

/* Shogi board with both kings (5i black = 44, 5a white = 36) and nothing else. */
static nnue_board shogi_kings(void)
{
    nnue_board b;
    memset(&b, 0, sizeof b);
    b.num_squares = 81;
    b.king_sq[0] = 44;
    b.king_sq[1] = 36;
    b.piece_on[44] = NNUE_PIECE(0, NNUE_SHOGI_KING);
    b.piece_on[36] = NNUE_PIECE(1, NNUE_SHOGI_KING);
    b.piece_count = 2;
    return b;
}

START_TEST(shogi_spot_checks_and_padding)
{
    const nnue_feature_set *fs = set("HalfKP_shogi");
    nnue_board b = shogi_kings();
    b.piece_on[60] = NNUE_PIECE(0, NNUE_SHOGI_PAWN);       /* 7g = (7-1)*9 + 6 */
    b.piece_on[64] = NNUE_PIECE(1, NNUE_SHOGI_ROOK);       /* 8b = (8-1)*9 + 1 */
    b.piece_on[11] = NNUE_PIECE(0, NNUE_SHOGI_PRO_PAWN);   /* 2c = (2-1)*9 + 2 */
    b.hand[0][NNUE_SHOGI_GOLD] = 2;
    b.hand[1][NNUE_SHOGI_BISHOP] = 1;
    /* black: ksq 44 -> base 44*1548 = 68112. f pawn 90+60 -> 68262; e rook 1305+64 -> 69481;
     * tokin = f gold 738+11 -> 68861; f hand gold 69, 70 -> 68181, 68182; e hand bishop 82
     * -> 68194; 38 - 6 = 32 padding features 68112 + 0. */
    ck_assert_int_eq(has(fs, NULL, &b, 0, 68262), 1);
    ck_assert_int_eq(has(fs, NULL, &b, 0, 69481), 1);
    ck_assert_int_eq(has(fs, NULL, &b, 0, 68861), 1);
    ck_assert_int_eq(has(fs, NULL, &b, 0, 68181), 1);
    ck_assert_int_eq(has(fs, NULL, &b, 0, 68182), 1);
    ck_assert_int_eq(has(fs, NULL, &b, 0, 68194), 1);
    ck_assert_int_eq(has(fs, NULL, &b, 0, 68112), 32);
    /* white: ksq 80-36 = 44 -> same base. f rook 1224 + (80-64) -> 69352; e pawn 171 + 20
     * -> 68303; tokin = e gold 819 + 69 -> 69000; e hand gold 74, 75 -> 68186, 68187;
     * f hand bishop 79 -> 68191. */
    ck_assert_int_eq(has(fs, NULL, &b, 1, 69352), 1);
    ck_assert_int_eq(has(fs, NULL, &b, 1, 68303), 1);
    ck_assert_int_eq(has(fs, NULL, &b, 1, 69000), 1);
    ck_assert_int_eq(has(fs, NULL, &b, 1, 68186), 1);
    ck_assert_int_eq(has(fs, NULL, &b, 1, 68187), 1);
    ck_assert_int_eq(has(fs, NULL, &b, 1, 68191), 1);
    ck_assert_int_eq(has(fs, NULL, &b, 1, 68112), 32);
    uint32_t out[NNUE_MAX_ACTIVE_ANY];
    ck_assert_int_eq(fs->active(NULL, &b, 0, out), 38);
    fs_case c = { "HalfKP_shogi", fs, NULL };
    fs_check_active(&c, &b, 0, out, "hand-built");
    fs_check_active(&c, &b, 1, out, "hand-built");
}
END_TEST

/* A capture with promotion, then a drop, as include/nnue_board.h describes their deltas. */
START_TEST(shogi_capture_and_drop_deltas)
{
    const nnue_feature_set *fs = set("HalfKP_shogi");
    fs_case c = { "HalfKP_shogi", fs, NULL };
    nnue_board before = shogi_kings();
    before.piece_on[29] = NNUE_PIECE(0, NNUE_SHOGI_SILVER);      /* 4c */
    before.piece_on[28] = NNUE_PIECE(1, NNUE_SHOGI_PRO_SILVER);  /* 4b */
    before.hand[0][NNUE_SHOGI_SILVER] = 1;
    before.hand[0][NNUE_SHOGI_GOLD] = 1;

    /* 4c4b+ capturing a narigin: it goes to black's hand as a silver, slot 1 (one before). */
    nnue_board after = before;
    after.piece_on[29] = 0;
    after.piece_on[28] = NNUE_PIECE(0, NNUE_SHOGI_PRO_SILVER);
    after.hand[0][NNUE_SHOGI_SILVER] = 2;
    after.side_to_move = 1;
    nnue_delta d = { .count = 2 };
    d.dirty[0] = (nnue_dirty){ NNUE_PIECE(0, NNUE_SHOGI_SILVER), NNUE_PIECE(0, NNUE_SHOGI_PRO_SILVER),
                               29, 28, 0, 0 };
    d.dirty[1] = (nnue_dirty){ NNUE_PIECE(1, NNUE_SHOGI_PRO_SILVER), NNUE_PIECE(0, NNUE_SHOGI_SILVER),
                               28, NNUE_SQ_HAND, 0, 1 };
    ck_assert_int_eq(fs_check_delta(&c, 1, &before, &after, &d, "capture 4c4b+"), 2);

    /* S*6e: black drops its last silver (slot 2 - 1 = 1). 6e = (6-1)*9 + 4 = 49. */
    nnue_board dropped = after;
    dropped.hand[0][NNUE_SHOGI_SILVER] = 1;
    dropped.piece_on[49] = NNUE_PIECE(0, NNUE_SHOGI_SILVER);
    dropped.side_to_move = 0;
    nnue_delta e = { .count = 1 };
    e.dirty[0] = (nnue_dirty){ NNUE_PIECE(0, NNUE_SHOGI_SILVER), NNUE_PIECE(0, NNUE_SHOGI_SILVER),
                               NNUE_SQ_HAND, 49, 1, 0 };
    ck_assert_int_eq(fs_check_delta(&c, 1, &after, &dropped, &e, "drop S*6e"), 2);

    /* White king 5a -> 4a: only white refreshes; black has no change at all. */
    nnue_board moved = dropped;
    moved.piece_on[36] = 0;
    moved.piece_on[27] = NNUE_PIECE(1, NNUE_SHOGI_KING);
    moved.king_sq[1] = 27;
    nnue_delta k = { .count = 1, .king_moved = { 0, 1 } };
    k.dirty[0] = (nnue_dirty){ NNUE_PIECE(1, NNUE_SHOGI_KING), NNUE_PIECE(1, NNUE_SHOGI_KING), 36,
                               27, 0, 0 };
    ck_assert_int_eq(fs->needs_refresh(NULL, &moved, &k, 1), 1);
    ck_assert_int_eq(fs->needs_refresh(NULL, &moved, &k, 0), 0);
    uint32_t r[NNUE_MAX_CHANGED], a[NNUE_MAX_CHANGED];
    int nr = -1, na = -1;
    fs->changed(NULL, &moved, &k, 0, r, &nr, a, &na);
    ck_assert_int_eq(nr, 0);
    ck_assert_int_eq(na, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("features_basic");
    TCase *tc = tcase_create("basic");
    tcase_add_test(tc, registry_dimensions_and_hashes);
    tcase_add_test(tc, halfkp_spot_checks);
    tcase_add_test(tc, halfka_spot_checks);
    tcase_add_test(tc, halfka_v2_spot_checks);
    tcase_add_test(tc, halfka_v2_hm_spot_checks);
    tcase_add_test(tc, chess768_spot_checks);
    tcase_add_test(tc, sfnnv16_spot_checks);
    tcase_add_test(tc, reckless_threat_spot_checks);
    tcase_add_test(tc, shogi_spot_checks_and_padding);
    tcase_add_test(tc, shogi_capture_and_drop_deltas);
    suite_add_tcase(s, tc);
    return test_run(s);
}
