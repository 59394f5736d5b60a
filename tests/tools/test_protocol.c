/* tests/tools/test_protocol.c: nnue_protocol_parse on UCI and USI lines: each command and
 * argument lands in its field, and malformed lines are refused with the column of the culprit. */
#include <stdio.h>
#include <string.h>

#include "nnue_protocol.h"
#include "support.h"

static nnue_command cmd;

static void parse_ok(const char *line)
{
    nnue_error err;
    nnue_status st = nnue_protocol_parse(line, &cmd, &err);
    ck_assert_msg(st == NNUE_OK, "'%.60s': %s", line, err.message);
}

static void parse_fails(const char *line, int column, const char *fragment)
{
    nnue_error err;
    ck_assert_int_eq(nnue_protocol_parse(line, &cmd, &err), NNUE_E_SYNTAX);
    ck_assert_int_eq(cmd.kind, NNUE_CMD_ERROR);
    ck_assert_str_eq(err.file, "protocol");
    ck_assert_msg(err.column == column, "'%.60s': column %d, expected %d (%.200s)", line, err.column, column, err.message);
    ck_assert_msg(strstr(err.message, fragment) != NULL, "'%.60s': message lacks '%s': %.200s", line, fragment, err.message);
}

START_TEST(simple_commands)
{
    static const struct { const char *line; nnue_cmd_kind kind; } cases[] = {
        {"uci\n", NNUE_CMD_UCI}, {"usi\r\n", NNUE_CMD_USI}, {"  isready  ", NNUE_CMD_ISREADY},
        {"ucinewgame", NNUE_CMD_NEWGAME}, {"usinewgame", NNUE_CMD_NEWGAME}, {"stop", NNUE_CMD_STOP},
        {"quit", NNUE_CMD_QUIT}, {"ponderhit", NNUE_CMD_PONDERHIT}, {"", NNUE_CMD_EMPTY}, {" \t\n", NNUE_CMD_EMPTY},
        {"debug on", NNUE_CMD_DEBUG},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        parse_ok(cases[i].line);
        ck_assert_int_eq(cmd.kind, cases[i].kind);
    }
    parse_ok("gameover lose");
    ck_assert_int_eq(cmd.kind, NNUE_CMD_GAMEOVER);
    ck_assert_str_eq(cmd.result, "lose");
}
END_TEST

START_TEST(setoption_names_and_values_with_spaces)
{
    parse_ok("setoption name Eval File value /nets/my net.nnue  \n");
    ck_assert_int_eq(cmd.kind, NNUE_CMD_SETOPTION);
    ck_assert_str_eq(cmd.option_name, "Eval File");
    ck_assert_int_eq(cmd.has_value, 1);
    ck_assert_str_eq(cmd.option_value, "/nets/my net.nnue");
    parse_ok("setoption name Clear Hash");
    ck_assert_str_eq(cmd.option_name, "Clear Hash");
    ck_assert_int_eq(cmd.has_value, 0);
    parse_fails("setoption Threads value 2", 11, "expected 'name'");
    parse_fails("setoption name  value 3", 17, "option name");
}
END_TEST

START_TEST(position_forms)
{
    parse_ok("position startpos");
    ck_assert_int_eq(cmd.startpos, 1);
    ck_assert_int_eq(cmd.move_count, 0);
    parse_ok("position startpos moves e2e4   e7e5 e1g1");
    ck_assert_int_eq(cmd.move_count, 3);
    ck_assert_str_eq(cmd.moves[2], "e1g1");
    parse_ok("position fen 8/8/8/8/8/8/8/K6k  w - - 0 1 moves a1a2");
    ck_assert_int_eq(cmd.startpos, 0);
    ck_assert_str_eq(cmd.position, "8/8/8/8/8/8/8/K6k w - - 0 1");
    ck_assert_str_eq(cmd.moves[0], "a1a2");
    parse_ok("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f P*5e");
    ck_assert_str_eq(cmd.position, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    ck_assert_int_eq(cmd.move_count, 2);
    ck_assert_str_eq(cmd.moves[1], "P*5e");
    parse_fails("position", 9, "expected 'startpos'");
    parse_fails("position fen 8/8 w", 19, "found 2");
    parse_fails("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 9", 42, "found more");
    parse_fails("position startpos e2e4", 19, "expected 'moves'");
    parse_fails("position startpos moves e2e4verylong", 25, "at most 7");
}
END_TEST

START_TEST(go_parameters)
{
    parse_ok("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5");
    ck_assert_int_eq(cmd.kind, NNUE_CMD_GO);
    ck_assert_int_eq(cmd.go.wtime, 1000);
    ck_assert_int_eq(cmd.go.btime, 2000);
    ck_assert_int_eq(cmd.go.winc, 10);
    ck_assert_int_eq(cmd.go.binc, 20);
    ck_assert_int_eq(cmd.go.movestogo, 5);
    ck_assert_int_eq(cmd.go.movetime, -1);
    ck_assert_int_eq(cmd.go.depth, -1);
    parse_ok("go btime 0 wtime 0 byoyomi 1000");
    ck_assert_int_eq(cmd.go.byoyomi, 1000);
    parse_ok("go depth 7 nodes 12345");
    ck_assert_int_eq(cmd.go.depth, 7);
    ck_assert_int_eq(cmd.go.nodes, 12345);
    parse_ok("go infinite");
    ck_assert_int_eq(cmd.go.infinite, 1);
    parse_ok("go ponder movetime 50");
    ck_assert_int_eq(cmd.go.ponder, 1);
    ck_assert_int_eq(cmd.go.movetime, 50);
    parse_ok("go wtime -20");
    ck_assert_int_eq(cmd.go.wtime, 0);
    parse_ok("go mate 3");
    ck_assert_int_eq(cmd.go.mate, 3);
    parse_fails("go wtime abc", 10, "expected a number");
    parse_fails("go movetime", 12, "end of the line");
    parse_fails("go depth 5 sideways", 12, "unknown parameter");
    parse_fails("go nodes 1234567890123456789012", 10, "at most 18 digits");
}
END_TEST

START_TEST(unknown_and_oversized)
{
    parse_fails("  xyzzy 3", 3, "unknown command 'xyzzy'");
    static char big[NNUE_PROTOCOL_MAX_LINE + 10];
    memset(big, 'a', sizeof big - 1);
    parse_fails(big, NNUE_PROTOCOL_MAX_LINE + 1, "longer than");
    nnue_error err;
    ck_assert_int_eq(nnue_protocol_parse(NULL, &cmd, &err), NNUE_E_ARG);
    /* More moves than fit. */
    static char many[NNUE_PROTOCOL_MAX_MOVES * 5 + 64];
    size_t n = (size_t)snprintf(many, sizeof many, "position startpos moves");
    for (int i = 0; i <= NNUE_PROTOCOL_MAX_MOVES; i++)
        n += (size_t)snprintf(many + n, sizeof many - n, " a1a2");
    parse_fails(many, 25 + 5 * NNUE_PROTOCOL_MAX_MOVES, "more than 2048 moves");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("protocol");
    TCase *tc = tcase_create("protocol");
    tcase_add_test(tc, simple_commands);
    tcase_add_test(tc, setoption_names_and_values_with_spaces);
    tcase_add_test(tc, position_forms);
    tcase_add_test(tc, go_parameters);
    tcase_add_test(tc, unknown_and_oversized);
    suite_add_tcase(s, tc);
    return test_run(s);
}
