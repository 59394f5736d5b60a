/* tests/xiangqi/test_xiangqi_perft.c: the xiangqi adapter against Pikafish: perft on
 * shared/oracle/xiangqi/perftA.tsv (200 positions at depth 3, the start position to depth 4:
 * about a second), FEN round trips over the corpus, UCI moves, deltas that replay the board. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/perft.h"
#include "nnue_board.h"
#include "support.h"

static const nnue_game *game;
static unsigned char pos[512];

static void parse_ok(const char *fen)
{
    nnue_error err;
    ck_assert_msg(game->parse(pos, fen, &err) == 0, "parse '%s': %s", fen, err.message);
}

START_TEST(perft_a_all_rows)
{
    test_require_shared("oracle/xiangqi/perftA.tsv");
    size_t size;
    char *text = test_read_file(test_shared_path("oracle/xiangqi/perftA.tsv"), &size);
    ck_assert_ptr_nonnull(text);
    int rows = 0, ok = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *f[4];
        if (strncmp(line, "fen\t", 4) == 0 || test_split_tabs(line, f, 4) != 3)
            continue;
        int depth = atoi(f[1]);
        parse_ok(f[0]);
        unsigned long long want = strtoull(f[2], NULL, 10), got = nnue_perft(game, pos, depth);
        rows++;
        ok += got == want;
        if (got != want)
            fprintf(stderr, "perft %d of '%s': %llu, expected %llu\n", depth, f[0], got, want);
    }
    fprintf(stderr, "xiangqi perftA: %d / %d rows match\n", ok, rows);
    ck_assert_int_eq(ok, rows);
    ck_assert_int_eq(rows, 204);
    free(text);
}
END_TEST

START_TEST(fen_round_trip_corpus)
{
    test_require_shared("oracle/xiangqi/corpusA.fen");
    size_t size;
    char *text = test_read_file(test_shared_path("oracle/xiangqi/corpusA.fen"), &size);
    ck_assert_ptr_nonnull(text);
    int n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char out[256];
        parse_ok(line);
        game->format(pos, out, sizeof out);
        ck_assert_str_eq(out, line);
        n++;
    }
    ck_assert_int_eq(n, 2000);
    free(text);
}
END_TEST

/* Every legal move's text parses back to it; make/unmake restores the position; the delta
 * replays the board. */
START_TEST(moves_and_deltas)
{
    parse_ok(game->start);
    nnue_move moves[NNUE_MAX_MOVES];
    unsigned seed = 12345;
    for (int ply = 0; ply < 300; ply++) {
        int n = game->legal_moves(pos, moves);
        if (n == 0)
            break;
        for (int i = 0; i < n; i++) {
            char buf[16];
            nnue_move back;
            nnue_error err;
            game->format_move(moves[i], buf, sizeof buf);
            ck_assert_int_eq(strlen(buf), 4);
            ck_assert_int_eq(game->parse_move(pos, buf, &back, &err), 0);
            ck_assert_uint_eq(back, moves[i]);
        }
        seed = seed * 1103515245u + 12345u;
        nnue_move m = moves[(seed >> 16) % (unsigned)n];
        nnue_board before = *game->board(pos);
        char fen_before[256], fen_after[256];
        game->format(pos, fen_before, sizeof fen_before);
        nnue_delta d;
        game->make(pos, m, &d);
        nnue_board replay = before;
        for (int k = 0; k < d.count; k++) {
            if (d.dirty[k].old_sq >= 0)
                replay.piece_on[d.dirty[k].old_sq] = 0;
        }
        for (int k = 0; k < d.count; k++)
            if (d.dirty[k].new_sq >= 0)
                replay.piece_on[d.dirty[k].new_sq] = d.dirty[k].new_piece;
        ck_assert_mem_eq(replay.piece_on, game->board(pos)->piece_on, 90);
        game->unmake(pos, m);
        ck_assert_mem_eq(&before, game->board(pos), sizeof before);
        game->format(pos, fen_after, sizeof fen_after);
        ck_assert_str_eq(fen_before, fen_after);
        game->make(pos, m, NULL);
    }
}
END_TEST

START_TEST(bad_fens_refused)
{
    static const char *const bad[] = {
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1",    /* short rank */
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1",   /* side */
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1",   /* no king */
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4A4/P1P1P1P1P/1C5C1/9/RNB1KABNR w - - 0 1", /* advisor */
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ w - - 0 1",   /* letter */
        "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",                                       /* facing, b to move would capture */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        nnue_error err;
        ck_assert_msg(game->parse(pos, bad[i], &err) != 0, "accepted '%s'", bad[i]);
    }
}
END_TEST

int main(void)
{
    game = nnue_game_find("xiangqi");
    if (!game) {
        fprintf(stderr, "xiangqi is not a registered game\n");
        return 1;
    }
    if (game->pos_size > sizeof pos)
        return 1;
    Suite *s = suite_create("xiangqi");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, perft_a_all_rows);
    tcase_add_test(tc, fen_round_trip_corpus);
    tcase_add_test(tc, moves_and_deltas);
    tcase_add_test(tc, bad_fens_refused);
    suite_add_tcase(s, tc);
    return test_run(s);
}
