/* tests/tools/test_examples.c: the example programs an engine author copies, run on the real
 * Stockfish 15.1 net: own_board (an engine's own board feeding nnue_board / nnue_delta: the
 * incremental evaluation equals a fresh one after castling, en passant and a capturing
 * promotion) and the nnue-uci engine speaking UCI (isready, a depth-limited search whose
 * bestmove is legal, stop ending an infinite search, several threads). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../eval/eval_nets.h"
#include "cli_run.h"
#include "nnue_chess.h"
#include "support.h"

static const char *net;

static char *run_shell(const char *command, int *status)
{
    FILE *p = popen(command, "r");
    ck_assert_ptr_nonnull(p);
    size_t cap = 1 << 16, len = 0, n;
    char *buf = malloc(cap);
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0)
        if ((len += n) + 1 >= cap)
            buf = realloc(buf, cap *= 2);
    buf[len] = 0;
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return buf;
}

START_TEST(own_board_matches_fresh_evaluation)
{
    static const char *moves = "e2e4 d7d5 e4d5 c7c5 d5c6 b7c6 g1f3 g8f6 f1e2 e7e6 e1g1 f8e7 b2b4 e8g8 b4b5 a7a5 "
                               "b5a6 h7h6 a6a7 h6h5 a7b8q";
    char command[8192];
    snprintf(command, sizeof command, "'%s/examples/own_board' '%s' %s", test_build_dir(), net, moves);
    int status;
    char *out = run_shell(command, &status);
    ck_assert_msg(status == 0, "exit %d:\n%s", status, out);
    int lines = 0;
    for (const char *p = out; (p = strstr(p, "after ")); p++)
        lines++;
    ck_assert_int_eq(lines, 21);
    ck_assert_msg(!strstr(out, "MISMATCH"), "%s", out);
    free(out);
}
END_TEST

/* The last "bestmove X" of the output is a legal move of the position reached by moves. */
static void expect_legal_bestmove(const char *out, const char *moves)
{
    const char *at = NULL;
    for (const char *p = out; (p = strstr(p, "bestmove ")); p++)
        at = p;
    ck_assert_msg(at != NULL, "no bestmove:\n%s", out);
    char best[16];
    ck_assert_int_eq(sscanf(at, "bestmove %15s", best), 1);
    nnue_chess_pos pos;
    nnue_error err;
    ck_assert_int_eq(nnue_chess_parse_fen(&pos, NNUE_CHESS_START_FEN, &err), NNUE_OK);
    char list[512];
    snprintf(list, sizeof list, "%s", moves);
    nnue_move m;
    for (char *tok = strtok(list, " "); tok; tok = strtok(NULL, " ")) {
        ck_assert_int_eq(nnue_chess_parse_uci(&pos, tok, &m, &err), NNUE_OK);
        nnue_chess_make(&pos, m, NULL);
    }
    ck_assert_msg(nnue_chess_parse_uci(&pos, best, &m, &err) == NNUE_OK, "bestmove %s: %s", best, err.message);
}

static char *uci_session(const char *script)
{
    char command[8192];
    snprintf(command, sizeof command, "printf '%s' | '%s/examples/engine/nnue-uci'", script, test_build_dir());
    int status;
    char *out = run_shell(command, &status);
    ck_assert_msg(status == 0, "exit %d:\n%s", status, out);
    return out;
}

START_TEST(uci_depth_search_and_stop)
{
    char script[4096];
    snprintf(script, sizeof script,
             "uci\\nsetoption name EvalFile value %s\\nsetoption name EvalArch value sfnnv5\\n"
             "setoption name Threads value 3\\nsetoption name Hash value 8\\nisready\\nucinewgame\\n"
             "position startpos moves e2e4 e7e5 g1f3\\ngo depth 6\\nisready\\n",
             net);
    char *out = uci_session(script);
    cli_expect_contains(out, "uciok");
    cli_expect_contains(out, "option name EvalFile type string");
    cli_expect_contains(out, "readyok");
    cli_expect_contains(out, "info depth 6 seldepth ");
    cli_expect_contains(out, " multipv 1 score cp ");
    cli_expect_contains(out, " nps ");
    cli_expect_contains(out, " pv ");
    ck_assert_msg(!strstr(out, "error"), "%s", out);
    expect_legal_bestmove(out, "e2e4 e7e5 g1f3");
    free(out);
    /* An infinite search answers isready at once and stops on "stop" (or at quit). */
    snprintf(script, sizeof script,
             "setoption name EvalFile value %s\\nsetoption name EvalArch value sfnnv5\\n"
             "position startpos moves d2d4\\ngo infinite\\nisready\\nstop\\nquit\\n",
             net);
    out = uci_session(script);
    cli_expect_contains(out, "readyok");
    expect_legal_bestmove(out, "d2d4");
    free(out);
}
END_TEST

START_TEST(uci_reports_a_bad_evalfile)
{
    char *out = uci_session("setoption name EvalFile value /nonexistent.nnue\\nisready\\n"
                            "position startpos\\ngo depth 2\\nposition startpos moves e2e5\\nquit\\n");
    cli_expect_contains(out, "info string error: EvalFile: /nonexistent.nnue");
    cli_expect_contains(out, "readyok");
    cli_expect_contains(out, "info string error: position moves");
    expect_legal_bestmove(out, "");
    free(out);
}
END_TEST

int main(void)
{
    net = eval_net_file(eval_net_find("sf151"));
    Suite *s = suite_create("examples");
    TCase *tc = tcase_create("examples");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, own_board_matches_fresh_evaluation);
    tcase_add_test(tc, uci_depth_search_and_stop);
    tcase_add_test(tc, uci_reports_a_bad_evalfile);
    suite_add_tcase(s, tc);
    return test_run(s);
}
