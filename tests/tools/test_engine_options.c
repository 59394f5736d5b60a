/* tests/tools/test_engine_options.c: the GUI options of the example engines, through the
 * protocol (no net needed: the checks are on the protocol, not the moves' quality): the options
 * advertised, MultiPV lines, "go searchmoves", seldepth and hashfull in info lines, UCI_Chess960
 * castling notation, and pondering (a pondering search does not end on its own; after
 * ponderhit it is timed), UCI_Variant xiangqi. Time bounds are generous: a protocol rule, not a speed claim. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "nnue.h"
#include "support.h"

/* Runs a shell command with the engine's path as $E (stdout and stderr together). */
static char *run_engine(const char *engine, const char *shell)
{
    char command[8192];
    snprintf(command, sizeof command, "E='%s/examples/engine/%s'; %s 2>&1", test_build_dir(), engine, shell);
    FILE *p = popen(command, "r");
    ck_assert_ptr_nonnull(p);
    size_t cap = 1 << 16, len = 0, n;
    char *buf = malloc(cap);
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0)
        if ((len += n) + 1 >= cap)
            buf = realloc(buf, cap *= 2);
    buf[len] = 0;
    int st = pclose(p);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: %s\n%s", engine, command, buf);
    return buf;
}

static void expect(const char *text, const char *fragment)
{
    ck_assert_msg(strstr(text, fragment) != NULL, "output lacks '%s':\n%s", fragment, text);
}

/* The move after "bestmove ". */
static const char *bestmove(const char *out, char move[16])
{
    const char *at = strstr(out, "bestmove ");
    ck_assert_msg(at && sscanf(at, "bestmove %15s", move) == 1, "no bestmove:\n%s", out);
    return move;
}

START_TEST(options_are_advertised)
{
    char *out = run_engine("nnue-uci", "printf 'uci\\n' | \"$E\"");
    expect(out, "option name MultiPV type spin default 1 min 1 max 64\n");
    expect(out, "option name Ponder type check default false\n");
    expect(out, "option name UCI_Chess960 type check default false\n");
    expect(out, "option name UCI_Variant type combo default chess var chess var xiangqi\n");
    free(out);
    /* UCI_Variant xiangqi without a net: xiangqi's start and Pikafish's notation (ranks 0..9). */
    out = run_engine("nnue-uci", "printf 'setoption name UCI_Variant value xiangqi\nposition startpos moves h2e2\n"
                                 "go depth 2 searchmoves h9g7 b0c2\n' | \"$E\"");
    expect(out, "info string game xiangqi (UCI_Variant)\n");
    expect(out, "bestmove h9g7");
    free(out);
    /* Black's king boxed in by e8's pawn: red's mate (a0a9) or any quiet rook move (stalemate
     * loses in xiangqi) wins at once, and is found without a net. */
    const char *fen = "3k5/4P4/9/9/9/9/9/9/9/R3K4 w - - 0 1";
    char shell[512], move[16];
    snprintf(shell, sizeof shell, "printf 'setoption name UCI_Variant value xiangqi\\nposition fen %s\\n"
             "go depth 3\\n' | \"$E\"", fen);
    out = run_engine("nnue-uci", shell);
    expect(out, "score mate 1 ");
    const nnue_game *g = nnue_game_find("xiangqi");
    void *pos = malloc(g->pos_size);
    nnue_error err;
    nnue_move m, none[NNUE_MAX_MOVES];
    ck_assert(pos && g->parse(pos, fen, &err) == 0);
    ck_assert_msg(g->parse_move(pos, bestmove(out, move), &m, &err) == 0, "%s", err.message);
    g->make(pos, m, NULL);
    ck_assert_int_eq(g->legal_moves(pos, none), 0);
    free(pos);
    free(out);
    out = run_engine("nnue-usi", "printf 'usi\\nsetoption name USI_Ponder value true\\n' | \"$E\"");
    expect(out, "option name USI_Ponder type check default false\n");
    ck_assert_msg(strstr(out, "UCI_Chess960") == NULL && strstr(out, "unknown option") == NULL, "%s", out);
    free(out);
}
END_TEST

START_TEST(multipv_lines_with_seldepth_and_hashfull)
{
    char *out = run_engine("nnue-uci", "printf 'setoption name MultiPV value 3\\nsetoption name Ponder value true\\n"
                                       "position startpos\\ngo depth 3\\n' | \"$E\"");
    ck_assert_msg(strstr(out, "unknown option") == NULL, "%s", out);
    int lines[4] = {0}, last_depth = 0;
    char first[4][16] = {"", "", "", ""};
    for (const char *p = strstr(out, "info depth "); p; p = strstr(p + 1, "info depth ")) {
        int depth, sel, k, hashfull;
        char rest[64];
        int got = sscanf(p, "info depth %d seldepth %d multipv %d score cp %*d nodes %*u nps %*u hashfull %d time %*d pv "
                            "%15s",
                         &depth, &sel, &k, &hashfull, rest);
        ck_assert_msg(got == 5, "info line not as expected: %.160s", p);
        ck_assert_int_ge(sel, depth);
        ck_assert(hashfull >= 0 && hashfull <= 1000);
        ck_assert(k >= 1 && k <= 3);
        lines[k]++;
        last_depth = depth;
        if (depth == 3)
            snprintf(first[k], 16, "%s", rest);
    }
    ck_assert_int_eq(last_depth, 3);
    ck_assert_msg(lines[1] == 3 && lines[2] == 3 && lines[3] == 3, "three lines per depth expected:\n%s", out);
    /* Three different root moves, and the best one is played. */
    ck_assert(strcmp(first[1], first[2]) && strcmp(first[1], first[3]) && strcmp(first[2], first[3]));
    char move[16];
    ck_assert_str_eq(bestmove(out, move), first[1]);
    free(out);
}
END_TEST

START_TEST(searchmoves_are_honoured)
{
    char *out = run_engine("nnue-uci", "printf 'position startpos\\ngo depth 4 searchmoves a2a3 h2h4\\n' | \"$E\"");
    int count = 0;
    for (const char *p = strstr(out, " pv "); p; p = strstr(p + 1, " pv ")) {
        ck_assert_msg(strncmp(p + 4, "a2a3", 4) == 0 || strncmp(p + 4, "h2h4", 4) == 0, "%.80s\n%s", p, out);
        count++;
    }
    ck_assert_int_eq(count, 4);
    char move[16];
    bestmove(out, move);
    ck_assert_msg(strcmp(move, "a2a3") == 0 || strcmp(move, "h2h4") == 0, "bestmove %s", move);
    free(out);
    /* One move only: it is played; a move that is not legal is said and ignored. */
    out = run_engine("nnue-uci", "printf 'position startpos\\ngo searchmoves e2e5 b1a3 depth 3\\n' | \"$E\"");
    expect(out, "info string searchmoves: 'e2e5' is not a legal move here, ignored\n");
    ck_assert_str_eq(bestmove(out, move), "b1a3");
    free(out);
}
END_TEST

START_TEST(chess960_castling_notation)
{
    /* King and rooks at home, castling the only allowed move: UCI_Chess960 writes king takes rook. */
    const char *fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    char shell[1024], move[16];
    snprintf(shell, sizeof shell, "printf 'setoption name UCI_Chess960 value true\\nposition fen %s\\n"
             "go depth 2 searchmoves e1h1\\n' | \"$E\"", fen);
    char *out = run_engine("nnue-uci", shell);
    ck_assert_str_eq(bestmove(out, move), "e1h1");
    free(out);
    snprintf(shell, sizeof shell, "printf 'position fen %s\\ngo depth 2 searchmoves e1g1\\n' | \"$E\"", fen);
    out = run_engine("nnue-uci", shell);
    ck_assert_str_eq(bestmove(out, move), "e1g1");
    free(out);
    /* A move after castling in 960 notation is read back in that notation. */
    snprintf(shell, sizeof shell, "printf 'setoption name UCI_Chess960 value true\\nposition fen %s moves e1h1\\n"
             "go depth 1 searchmoves e8a8\\n' | \"$E\"", fen);
    out = run_engine("nnue-uci", shell);
    ck_assert_str_eq(bestmove(out, move), "e8a8");
    free(out);
}
END_TEST

START_TEST(ponder_waits_for_ponderhit)
{
    /* movetime 200 would end at once; while pondering the search goes on (readyok comes first,
     * a second later), and after ponderhit the move comes within its time. */
    char *out = run_engine("nnue-uci", "(printf 'position startpos\\ngo ponder movetime 200\\n'; sleep 1; "
                                       "printf 'isready\\nponderhit\\n'; sleep 3) | \"$E\"");
    const char *ready = strstr(out, "readyok"), *best = strstr(out, "bestmove ");
    ck_assert_msg(ready && best && ready < best, "bestmove before ponderhit:\n%s", out);
    free(out);
    /* Input ends after ponderhit: the (now timed) search still answers. */
    out = run_engine("nnue-uci", "printf 'position startpos\\ngo ponder movetime 200\\nponderhit\\n' | \"$E\"");
    expect(out, "bestmove ");
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("engine_options");
    TCase *tc = tcase_create("options");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, options_are_advertised);
    tcase_add_test(tc, multipv_lines_with_seldepth_and_hashfull);
    tcase_add_test(tc, searchmoves_are_honoured);
    tcase_add_test(tc, chess960_castling_notation);
    tcase_add_test(tc, ponder_waits_for_ponderhit);
    suite_add_tcase(s, tc);
    return test_run(s);
}
