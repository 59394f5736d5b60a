/* tests/chess/test_chess_perft.c: perft counts against the reference
 * (shared/oracle/chess/perftA.tsv, Stockfish 15.1) and the public start-position
 * figures, through the typed API, the generic vtable path and the CLI tool. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess_helpers.h"
#include "games/perft.h"
#include "support.h"

static nnue_chess_pos pos;

START_TEST(perft_a_all_rows)
{
    test_require_shared("oracle/chess/perftA.tsv");
    test_lines lines;
    lines_read(&lines, test_shared_path("oracle/chess/perftA.tsv"));
    ck_assert_int_gt(lines.count, 1);
    ck_assert_str_eq(lines.line[0], "fen\tperft1\tperft2\tperft3\tperft4");
    int rows = 0;
    for (int i = 1; i < lines.count; i++) {
        char *f[6];
        ck_assert_int_eq(test_split_tabs(lines.line[i], f, 6), 5);
        parse_ok(&pos, f[0]);
        for (int depth = 1; depth <= 4; depth++) {
            unsigned long long want = strtoull(f[depth], NULL, 10);
            unsigned long long got = nnue_chess_perft(&pos, depth);
            ck_assert_msg(got == want, "perft %d of '%s': %llu, expected %llu", depth, f[0], got,
                          want);
        }
        rows++;
    }
    ck_assert_int_eq(rows, 50);
    lines_free(&lines);
}
END_TEST

START_TEST(start_position_to_depth_4)
{
    static const unsigned long long want[] = {1, 20, 400, 8902, 197281};
    parse_ok(&pos, NNUE_CHESS_START_FEN);
    for (int depth = 0; depth <= 4; depth++)
        ck_assert_uint_eq(nnue_chess_perft(&pos, depth), want[depth]);
}
END_TEST

/* The game-neutral perft (make/unmake through the vtable) agrees with the fast path. */
START_TEST(generic_vtable_perft_agrees)
{
    const nnue_game *game = nnue_game_find("chess");
    ck_assert_ptr_nonnull(game);
    ck_assert_ptr_eq(game, &nnue_game_chess);
    ck_assert_uint_eq(game->pos_size, sizeof(nnue_chess_pos));
    nnue_game slow = *game;
    slow.perft = NULL;
    nnue_error err;
    ck_assert_int_eq(game->parse(&pos, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w "
                                 "KQkq - 0 10", &err), 0);
    ck_assert_uint_eq(nnue_perft(&slow, &pos, 3), 97862);
    ck_assert_uint_eq(nnue_perft(game, &pos, 3), 97862);
    ck_assert_ptr_eq(game->board(&pos), &pos.board);
    ck_assert_int_eq(game->in_check(&pos), 0);
}
END_TEST

/* `nnue perft FEN DEPTH [--divide]` uses the registered chess adapter. */
START_TEST(cli_perft_and_divide)
{
    const char *tool = getenv("NNUE_TOOL");
    if (!tool || !*tool) {
        fprintf(stderr, "NNUE_TOOL not set: CLI check not run\n");
        return;
    }
    char cmd[4096], out[8192];
    snprintf(cmd, sizeof cmd, "'%s' perft --divide '%s' 3 2>/dev/null", tool,
             "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10");
    FILE *f = popen(cmd, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    ck_assert_int_eq(pclose(f), 0);
    ck_assert_msg(strstr(out, "\nnodes 97862\n") != NULL, "output: %s", out);
    ck_assert_msg(strstr(out, "e1g1: ") != NULL && strstr(out, "e1c1: ") != NULL,
                  "castling missing in divide: %s", out);
    int lines = 0;
    for (char *p = out; *p; p++)
        lines += *p == ':';
    ck_assert_int_eq(lines, 48);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("chess_perft");
    TCase *tc = tcase_create("perft");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, perft_a_all_rows);
    tcase_add_test(tc, start_position_to_depth_4);
    tcase_add_test(tc, generic_vtable_perft_agrees);
    tcase_add_test(tc, cli_perft_and_divide);
    suite_add_tcase(s, tc);
    return test_run(s);
}
