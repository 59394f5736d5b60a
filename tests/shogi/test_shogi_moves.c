/* tests/shogi/test_shogi_moves.c: move generation, make/unmake and deltas
 * against the YaneuraOu reference data (perft 1-3, movesA, corpusA, gamesA). */
#include <stdlib.h>
#include <string.h>

#include "games/perft.h"
#include "nnue_shogi.h"
#include "shogi_helpers.h"
#include "support.h"

static nnue_move parse_move_ok(const nnue_shogi_pos *pos, const char *text)
{
    nnue_move m;
    nnue_error err;
    nnue_status rc = nnue_shogi_parse_usi(pos, text, &m, &err);
    ck_assert_msg(rc == NNUE_OK, "move %s in %s: %s", text, shogi_sfen(pos), err.message);
    return m;
}

START_TEST(perft_1_to_3)
{
    test_require_shared("oracle/shogi/perftA.tsv");
    shogi_lines lines = shogi_read_lines("oracle/shogi/perftA.tsv");
    SH_REQUIRE(lines.count >= 50);
    for (int i = 0; i < lines.count; i++) {
        char *f[6];
        int nf = test_split_tabs(lines.line[i], f, 6);
        SH_REQUIRE(nf >= 4);
        nnue_shogi_pos pos;
        shogi_parse_ok(&pos, f[0]);
        for (int d = 1; d <= 3; d++)
            ck_assert_msg(nnue_shogi_perft(&pos, d) == strtoull(f[d], NULL, 10),
                          "perft %d of %s", d, f[0]);
        SH_REQUIRE_STR(shogi_sfen(&pos), f[0]);
    }
    shogi_free_lines(&lines);
}
END_TEST

/* The generic make/unmake path of games/perft.c through the vtable. */
START_TEST(vtable_generic_perft)
{
    const nnue_game *g = nnue_game_find("shogi");
    ck_assert_ptr_nonnull(g);
    SH_REQUIRE_STR(g->name, "shogi");
    nnue_game slow = *g;
    slow.perft = NULL;
    void *pos = malloc(g->pos_size);
    SH_REQUIRE_INT(g->parse(pos, NNUE_SHOGI_START_SFEN, NULL), 0);
    SH_REQUIRE_INT(nnue_perft(&slow, pos, 3), 25470);
    SH_REQUIRE_INT(nnue_perft(g, pos, 3), 25470);
    char buf[200];
    g->format(pos, buf, sizeof buf);
    SH_REQUIRE_STR(buf, NNUE_SHOGI_START_SFEN);
    SH_REQUIRE_INT(g->board(pos)->num_squares, 81);
    SH_REQUIRE_INT(g->in_check(pos), 0);
    nnue_move m;
    SH_REQUIRE_INT(g->parse_move(pos, "7g7f", &m, NULL), 0);
    g->format_move(m, buf, sizeof buf);
    SH_REQUIRE_STR(buf, "7g7f");
    free(pos);
}
END_TEST

START_TEST(moves_a)
{
    test_require_shared("oracle/shogi/movesA.tsv");
    shogi_lines lines = shogi_read_lines("oracle/shogi/movesA.tsv");
    SH_REQUIRE_INT(lines.count, 2000);
    for (int i = 0; i < lines.count; i++) {
        char *f[10];
        SH_REQUIRE(test_split_tabs(lines.line[i], f, 10) >= 6);
        nnue_shogi_pos pos, orig;
        shogi_parse_ok(&pos, f[0]);
        orig = pos;
        nnue_move m = parse_move_ok(&pos, f[1]);
        char usi[8];
        nnue_shogi_move_to_usi(m, usi, sizeof usi);
        SH_REQUIRE_STR(usi, f[1]);
        const char *kind = NNUE_SHOGI_MOVE_IS_DROP(m) ? "drop"
                           : NNUE_SHOGI_MOVE_IS_PROMOTE(m) ? "promote" : "move";
        SH_REQUIRE_STR(kind, f[3]);
        unsigned cap = (unsigned)NNUE_SHOGI_MOVE_CAPTURED(m);
        SH_REQUIRE_STR(cap ? shogi_piece_text(cap) : "-", f[4]);
        nnue_delta d;
        nnue_shogi_make(&pos, m, &d);
        SH_REQUIRE_STR(shogi_sfen(&pos), f[2]);
        SH_REQUIRE_INT(nnue_shogi_in_check(&pos), atoi(f[5]));
        shogi_check_board(&pos.board);
        shogi_check_delta(&orig.board, &d, &pos.board);
        nnue_shogi_pos after;
        shogi_parse_ok(&after, f[2]);
        SH_REQUIRE(memcmp(&after, &pos, sizeof pos) == 0);
        nnue_shogi_unmake(&pos, m);
        SH_REQUIRE(memcmp(&pos, &orig, sizeof pos) == 0);
        SH_REQUIRE_STR(shogi_sfen(&pos), f[0]);
    }
    shogi_free_lines(&lines);
}
END_TEST

/* Every legal move of every corpus position: exact restoration, delta = board
 * difference, and the move statistics of BENCH.md. */
START_TEST(corpus_all_moves)
{
    test_require_shared("oracle/shogi/corpusA.sfen");
    shogi_lines lines = shogi_read_lines("oracle/shogi/corpusA.sfen");
    SH_REQUIRE_INT(lines.count, 2000);
    long total = 0, drops = 0, promos = 0, captures = 0, king_moves = 0, checks = 0;
    int roots_in_check = 0, mated = 0, max_moves = 0;
    nnue_move moves[NNUE_MAX_MOVES];
    for (int i = 0; i < lines.count; i++) {
        nnue_shogi_pos pos, orig;
        shogi_parse_ok(&pos, lines.line[i]);
        SH_REQUIRE_STR(shogi_sfen(&pos), lines.line[i]);
        shogi_check_board(&pos.board);
        orig = pos;
        int n = nnue_shogi_legal_moves(&pos, moves);
        int in_check = nnue_shogi_in_check(&pos);
        roots_in_check += in_check;
        mated += in_check && n == 0;
        max_moves = n > max_moves ? n : max_moves;
        total += n;
        for (int k = 0; k < n; k++) {
            nnue_move m = moves[k];
            for (int j = 0; j < k; j++)
                SH_REQUIRE(moves[j] != m);
            drops += NNUE_SHOGI_MOVE_IS_DROP(m);
            promos += NNUE_SHOGI_MOVE_IS_PROMOTE(m);
            captures += NNUE_SHOGI_MOVE_CAPTURED(m) != 0;
            king_moves += NNUE_SHOGI_MOVE_TYPE(m) == NNUE_SHOGI_KING && !NNUE_SHOGI_MOVE_IS_DROP(m);
            /* the USI text reads back as the same move */
            char usi[8];
            nnue_shogi_move_to_usi(m, usi, sizeof usi);
            nnue_move back;
            SH_REQUIRE_INT(nnue_shogi_parse_usi(&pos, usi, &back, NULL), NNUE_OK);
            SH_REQUIRE_INT(back, m);
            nnue_delta d;
            memset(&d, 0xAB, sizeof d);
            nnue_shogi_make(&pos, m, &d);
            checks += nnue_shogi_in_check(&pos);
            shogi_check_board(&pos.board);
            shogi_check_delta(&orig.board, &d, &pos.board);
            /* the side that moved is never left in check */
            nnue_shogi_pos flipped = pos;
            flipped.board.side_to_move ^= 1;
            SH_REQUIRE_INT(nnue_shogi_in_check(&flipped), 0);
            nnue_shogi_unmake(&pos, m);
            SH_REQUIRE(memcmp(&pos, &orig, sizeof pos) == 0);
        }
        SH_REQUIRE_STR(shogi_sfen(&pos), lines.line[i]);
    }
    /* figures from oracle/shogi/BENCH.md and FORMATS.md section 8 */
    SH_REQUIRE_INT(total, 138261);
    SH_REQUIRE_INT(drops, 75488);
    SH_REQUIRE_INT(promos, 2927);
    SH_REQUIRE_INT(captures, 5880);
    SH_REQUIRE_INT(king_moves, 6011);
    SH_REQUIRE_INT(checks, 5480);
    SH_REQUIRE_INT(roots_in_check, 300);
    SH_REQUIRE_INT(mated, 34);
    SH_REQUIRE_INT(max_moves, 338);
    shogi_free_lines(&lines);
}
END_TEST

START_TEST(goldens_in_check)
{
    test_require_shared("oracle/shogi/goldensA_random.tsv");
    shogi_lines lines = shogi_read_lines("oracle/shogi/goldensA_random.tsv");
    for (int i = 0; i < lines.count; i++) {
        char *f[4];
        SH_REQUIRE_INT(test_split_tabs(lines.line[i], f, 4), 4);
        nnue_shogi_pos pos;
        shogi_parse_ok(&pos, f[0]);
        SH_REQUIRE_INT(nnue_shogi_in_check(&pos), atoi(f[3]));
    }
    shogi_free_lines(&lines);
}
END_TEST

START_TEST(games_a)
{
    test_require_shared("oracle/shogi/gamesA_random.tsv");
    shogi_lines lines = shogi_read_lines("oracle/shogi/gamesA_random.tsv");
    SH_REQUIRE_INT(lines.count, 2314);
    nnue_shogi_pos pos;
    int games = 0;
    const char *game = "";
    for (int i = 0; i < lines.count; i++) {
        char *f[7];
        SH_REQUIRE_INT(test_split_tabs(lines.line[i], f, 7), 7);
        if (atoi(f[1]) == 0) {
            shogi_parse_ok(&pos, f[2]);
            games++;
            game = f[0];
        } else {
            SH_REQUIRE_STR(f[0], game);
        }
        ck_assert_msg(strcmp(shogi_sfen(&pos), f[2]) == 0, "game %s ply %s: %s, expected %s",
                      f[0], f[1], shogi_sfen(&pos), f[2]);
        SH_REQUIRE_INT(nnue_shogi_in_check(&pos), atoi(f[6]));
        shogi_check_board(&pos.board);
        if (strcmp(f[3], "-") != 0) {
            nnue_shogi_pos before = pos;
            nnue_move m = parse_move_ok(&pos, f[3]);
            nnue_delta d;
            nnue_shogi_make(&pos, m, &d);
            shogi_check_delta(&before.board, &d, &pos.board);
        }
    }
    SH_REQUIRE_INT(games, 20);
    shogi_free_lines(&lines);
}
END_TEST

START_TEST(handicap_positions)
{
    test_require_shared("oracle/shogi/handicapA.sfen");
    shogi_lines lines = shogi_read_lines("oracle/shogi/handicapA.sfen");
    SH_REQUIRE_INT(lines.count, 52);
    nnue_move moves[NNUE_MAX_MOVES];
    for (int i = 0; i < lines.count; i++) {
        nnue_shogi_pos pos, orig;
        shogi_parse_ok(&pos, lines.line[i]);
        SH_REQUIRE_STR(shogi_sfen(&pos), lines.line[i]);
        SH_REQUIRE(pos.board.piece_count < 40);
        orig = pos;
        int n = nnue_shogi_legal_moves(&pos, moves);
        for (int k = 0; k < n; k++) {
            nnue_delta d;
            nnue_shogi_make(&pos, moves[k], &d);
            shogi_check_delta(&orig.board, &d, &pos.board);
            nnue_shogi_unmake(&pos, moves[k]);
            SH_REQUIRE(memcmp(&pos, &orig, sizeof pos) == 0);
        }
    }
    shogi_free_lines(&lines);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("shogi_moves");
    TCase *tc = tcase_create("reference");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, perft_1_to_3);
    tcase_add_test(tc, vtable_generic_perft);
    tcase_add_test(tc, moves_a);
    tcase_add_test(tc, corpus_all_moves);
    tcase_add_test(tc, goldens_in_check);
    tcase_add_test(tc, games_a);
    tcase_add_test(tc, handicap_positions);
    suite_add_tcase(s, tc);
    return test_run(s);
}
