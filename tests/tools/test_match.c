/* tests/tools/test_match.c: the engines nnue-uci and nnue-usi play short matches (2 games,
 * 30 ms a move) against Debian's stockfish (chess) and fairy-stockfish in USI mode (shogi) or
 * UCI_Variant xiangqi (ranks counted from 1, translated by the match) through `nnue match`: both games finish by a rule of the game, no engine makes an illegal
 * move, crashes or times out, the W/D/L line adds up, and the records replay legally with the
 * library's own move generator. Skipped (77) when the opponent engine is not installed (xiangqi:
 * or Pikafish's anchor that makes the net, x86-64 with AVX-512 VNNI, or zstd).
 * Run as `test_match chess`, `test_match shogi`, `test_match xiangqi`, or `test_match sf19` (Stockfish 19's own net
 * through EvalFile alone, the slow suite). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../eval/eval_nets.h"
#include "../nets/nets_helpers.h"
#include "cli_run.h"
#include "nnue_shogi.h"
#include "support.h"

static const char *net_chess, *net_shogi;
static char net_xiangqi[4096];

static const char *build_path(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", test_build_dir(), name);
    return path;
}

static void require_engine(const char *path)
{
    if (access(path, X_OK) != 0) {
        fprintf(stderr, "SKIP: %s is not installed (scripts/setup.sh installs it); the match test did not run\n", path);
        exit(77);
    }
}

static int count(const char *text, const char *fragment)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, fragment)); p += strlen(fragment))
        n++;
    return n;
}

/* Every game line ends by a rule of the game, never by a failure. */
static void expect_two_rule_endings(const char *out, const char *const *reasons)
{
    ck_assert_msg(strstr(out, "game 1/2: ") && strstr(out, "game 2/2: "), "missing game lines:\n%s", out);
    ck_assert_msg(!strstr(out, "illegal") && !strstr(out, "exceeded") && !strstr(out, "exited"), "%s", out);
    int endings = 0;
    for (int i = 0; reasons[i]; i++)
        endings += count(out, reasons[i]);
    ck_assert_msg(endings == 2, "expected 2 games ended by the rules, found %d:\n%s", endings, out);
    int w, d, l;
    const char *score = strstr(out, ": W ");
    ck_assert_msg(score && sscanf(score, ": W %d D %d L %d", &w, &d, &l) == 3, "no W/D/L line:\n%s", out);
    ck_assert_int_eq(w + d + l, 2);
    ck_assert_msg(strstr(out, " nps on average over "), "no nps from our engine:\n%s", out);
}

/* nnue-uci with net_chess (plus extra options) against Debian's stockfish: two games ended by the
 * rules, a PGN record of both. */
static void chess_match(const char *extra, const char *pgn_name)
{
    char args[8192], *out;
    const char *pgn = build_path(pgn_name);
    snprintf(args, sizeof args,
             "match --game chess --engine '%s/examples/engine/nnue-uci' --option EvalFile='%s' %s"
             "--option Threads=2 --opponent /usr/games/stockfish --opponent-option Threads=1 --games 2 --movetime 30 "
             "--max-plies 160 --random-plies 4 --out '%s'",
             test_build_dir(), net_chess, extra, pgn);
    int rc = cli_run_stdout(args, &out);
    ck_assert_msg(rc == 0, "exit %d:\n%s", rc, out);
    static const char *const reasons[] = {"checkmate", "stalemate", "threefold repetition", "50-move rule",
                                          "insufficient material", "ply cap", NULL};
    expect_two_rule_endings(out, reasons);
    free(out);
    char *text = test_read_file(pgn, NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_int_eq(count(text, "[Result \""), 2);
    ck_assert_int_eq(count(text, "[White \"nnue-uci "), 1);
    ck_assert_int_eq(count(text, "[Black \"nnue-uci "), 1);
    free(text);
}

START_TEST(chess_against_stockfish)
{
    chess_match("--option EvalArch=sfnnv5 ", "match-chess.pgn");
}
END_TEST

/* Stockfish 19's release net (SFNNv16), loaded by EvalFile alone (no EvalArch: detected from
 * its header), against Debian's stockfish: every move legal, both games ended by the rules. */
START_TEST(sf19_net_against_stockfish)
{
    chess_match("", "match-sf19.pgn");
}
END_TEST

/* Each "position startpos moves ..." line of a match record replays move by move with the
 * library's legality check (the game's descriptor): 2 games of more than 2 plies. */
static void replay_records(const char *record, const nnue_game *game)
{
    char *text = test_read_file(record, NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(game);
    void *pos = malloc(game->pos_size);
    int games = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "position startpos", 17) != 0)
            continue;
        games++;
        nnue_error err;
        ck_assert_int_eq(game->parse(pos, game->start, &err), 0);
        char *moves = strstr(line, " moves ");
        int plies = 0;
        for (char *m = moves ? moves + 7 : NULL; m && *m;) {
            char word[16];
            int n = 0;
            sscanf(m, "%15s%n", word, &n);
            nnue_move move;
            ck_assert_msg(game->parse_move(pos, word, &move, &err) == 0, "game %d ply %d: %s", games, plies + 1,
                          err.message);
            game->make(pos, move, NULL);
            plies++;
            m += n;
            while (*m == ' ')
                m++;
        }
        ck_assert_int_gt(plies, 2);
    }
    ck_assert_int_eq(games, 2);
    free(pos);
    free(text);
}

START_TEST(shogi_against_fairy_stockfish)
{
    char args[8192], *out;
    const char *record = build_path("match-shogi.txt");
    snprintf(args, sizeof args,
             "match --game shogi --engine '%s/examples/engine/nnue-usi' --option EvalFile='%s' --option Threads=2 "
             "--opponent /usr/games/fairy-stockfish --games 2 --movetime 30 --max-plies 200 --random-plies 2 --out '%s'",
             test_build_dir(), net_shogi, record);
    int rc = cli_run_stdout(args, &out);
    ck_assert_msg(rc == 0, "exit %d:\n%s", rc, out);
    static const char *const reasons[] = {"checkmate", "no legal move", "sennichite", "declares a win", "ply cap",
                                          "resigns", NULL};
    expect_two_rule_endings(out, reasons);
    free(out);
    /* Each record (CSA: games/shogi/csa.c) replays move by move with the library's legality check:
     * every CSA move must be exactly one legal move (from, to, and the piece after the move). */
    char *text = test_read_file(record, NULL);
    ck_assert_ptr_nonnull(text);
    int games = 0, plies = 0, ended = 0;
    nnue_shogi_pos pos;
    nnue_error err;
    static const char *const csa[] = {"", "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU",
                                      "TO", "NY", "NK", "NG", "UM", "RY"};
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (strcmp(line, "V2.2") == 0) {
            ck_assert_msg(games == 0 || plies > 2, "game %d: %d plies", games, plies);
            games++, plies = 0;
            ck_assert_int_eq(nnue_shogi_parse_sfen(&pos, NNUE_SHOGI_START_SFEN, &err), NNUE_OK);
            continue;
        }
        if (line[0] == '%') {
            ended++;
            continue;
        }
        if ((line[0] != '+' && line[0] != '-') || strlen(line) != 7)
            continue;
        ck_assert_int_eq(line[0] == '-', pos.board.side_to_move);
        int from = line[1] == '0' ? -1 : (line[1] - '1') * 9 + line[2] - '1', to = (line[3] - '1') * 9 + line[4] - '1';
        nnue_move legal[NNUE_MAX_MOVES], found = 0;
        int n = nnue_shogi_legal_moves(&pos, legal), matches = 0;
        for (int i = 0; i < n; i++) {
            nnue_move m = legal[i];
            int drop = NNUE_SHOGI_MOVE_IS_DROP(m), type = drop ? NNUE_SHOGI_MOVE_TYPE(m)
                                                               : NNUE_PIECE_TYPE(pos.board.piece_on[NNUE_SHOGI_MOVE_FROM(m)]);
            if (NNUE_SHOGI_MOVE_IS_PROMOTE(m))
                type = type <= NNUE_SHOGI_SILVER ? type + 8 : type + 7;
            if (NNUE_SHOGI_MOVE_TO(m) == to && (drop ? from < 0 : NNUE_SHOGI_MOVE_FROM(m) == from) &&
                strcmp(csa[type], line + 5) == 0)
                found = m, matches++;
        }
        ck_assert_msg(matches == 1, "game %d ply %d: %s is %d legal moves", games, plies + 1, line, matches);
        nnue_shogi_make(&pos, found, NULL);
        plies++;
    }
    ck_assert_int_gt(plies, 2);
    ck_assert_int_eq(games, 2);
    ck_assert_int_eq(ended, 2);
    free(text);
}
END_TEST

/* nnue-uci with Pikafish's net (the game follows the net) against fairy-stockfish, told
 * UCI_Variant xiangqi by the match (it offers the value) and translated from ranks 1..10. */
START_TEST(xiangqi_against_fairy_stockfish)
{
    char args[8192], *out;
    const char *record = build_path("match-xiangqi.txt");
    snprintf(args, sizeof args,
             "match --game xiangqi --engine '%s/examples/engine/nnue-uci' --option EvalFile='%s' --option Threads=2 "
             "--opponent /usr/games/fairy-stockfish --opponent-ranks-from 1 --games 2 --movetime 30 --max-plies 160 "
             "--random-plies 2 --out '%s'",
             test_build_dir(), net_xiangqi, record);
    int rc = cli_run_stdout(args, &out);
    ck_assert_msg(rc == 0, "exit %d:\n%s", rc, out);
    static const char *const reasons[] = {"checkmate", "stalemate (loses)", "perpetual check (loses)",
                                          "threefold repetition", "ply cap", NULL};
    expect_two_rule_endings(out, reasons);
    free(out);
    replay_records(record, nnue_game_find("xiangqi"));
}
END_TEST

/* nnue-uci's output for the commands (printf text), run with the Pikafish net as EvalFile. */
static char *uci_session(const char *commands)
{
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "printf 'setoption name EvalFile value %s\\n%s' | '%s/examples/engine/nnue-uci' 2>&1",
             net_xiangqi, commands, test_build_dir());
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = 0;
    pclose(p);
    return buf;
}

/* The game follows the net: xiangqi's start, Pikafish's notation, a legal bestmove; with
 * UCI_Variant chess the net is refused by name instead of evaluating chess boards. */
START_TEST(engine_plays_the_nets_game)
{
    const char *out = uci_session("isready\\nposition startpos moves h2e2\\ngo depth 3\\n");
    ck_assert_msg(strstr(out, "info string game xiangqi (the net's game)"), "%s", out);
    const char *best = strstr(out, "bestmove ");
    char word[16];
    ck_assert_msg(best && sscanf(best, "bestmove %15s", word) == 1, "%s", out);
    const nnue_game *g = nnue_game_find("xiangqi");
    void *pos = malloc(g->pos_size);
    nnue_error err;
    nnue_move m;
    ck_assert_int_eq(g->parse(pos, g->start, &err), 0);
    ck_assert_int_eq(g->parse_move(pos, "h2e2", &m, &err), 0);
    g->make(pos, m, NULL);
    ck_assert_msg(g->parse_move(pos, word, &m, &err) == 0, "bestmove %s: %s", word, err.message);
    free(pos);
    out = uci_session("setoption name UCI_Variant value chess\\nisready\\nposition startpos\\ngo depth 1\\n");
    ck_assert_msg(strstr(out, "info string error: the net is for xiangqi, the position is chess"), "%s", out);
}
END_TEST

/* BUILD/nets/pikafish-random-20261125.nnue.zst (as tests/xiangqi make it): Pikafish's anchor
 * writes the random net, zstd compresses it. Exits 77 when either cannot run here. */
static void make_xiangqi_net(void)
{
#if defined(__x86_64__)
    int vnni = __builtin_cpu_supports("avx512vnni");
#else
    int vnni = 0;
#endif
    if (!vnni || system("zstd --version >/dev/null 2>&1") != 0) {
        fprintf(stderr, "SKIP: the Pikafish anchor needs x86-64 with AVX-512 VNNI, and zstd; the match did not run\n");
        exit(77);
    }
    test_require_shared("anchors/pikafish-nnuebench");
    char dir[4096], cmd[16384];
    snprintf(dir, sizeof dir, "%s/nets", test_build_dir());
    mkdir(dir, 0777);
    snprintf(net_xiangqi, sizeof net_xiangqi, "%s/pikafish-random-20261125.nnue.zst", dir);
    struct stat sb;
    if (stat(net_xiangqi, &sb) == 0)
        return;
    snprintf(cmd, sizeof cmd,
             "printf 'randomnet %s/pikafish-match.tmp 20261125\\nquit\\n' | '%s' >/dev/null 2>&1 && "
             "zstd -q -f --rm '%s/pikafish-match.tmp' -o '%s.match.tmp' && mv '%s.match.tmp' '%s'",
             dir, test_shared_path("anchors/pikafish-nnuebench"), dir, net_xiangqi, net_xiangqi, net_xiangqi);
    if (system(cmd) != 0) {
        fprintf(stderr, "FAIL: could not make the Pikafish net with the anchor and zstd\n");
        exit(1);
    }
}

/* argv[1]: chess, shogi, xiangqi or sf19 (one test each in meson, so a missing opponent skips only its own). */
int main(int argc, char **argv)
{
    int shogi = argc > 1 && strcmp(argv[1], "shogi") == 0, sf19 = argc > 1 && strcmp(argv[1], "sf19") == 0;
    int xiangqi = argc > 1 && strcmp(argv[1], "xiangqi") == 0;
    Suite *s = suite_create(shogi ? "match_shogi" : sf19 ? "match_sf19" : xiangqi ? "match_xiangqi" : "match_chess");
    TCase *tc = tcase_create("match");
    tcase_set_timeout(tc, 600);
    if (shogi) {
        require_engine("/usr/games/fairy-stockfish");
        net_shogi = eval_net_file(eval_net_find("shogi"));
        tcase_add_test(tc, shogi_against_fairy_stockfish);
    } else if (xiangqi) {
        require_engine("/usr/games/fairy-stockfish");
        make_xiangqi_net();
        tcase_add_test(tc, engine_plays_the_nets_game);
        tcase_add_test(tc, xiangqi_against_fairy_stockfish);
    } else if (sf19) {
        require_engine("/usr/games/stockfish");
        net_chess = nets_stockfish_release("nn-1a298aa575a0.nnue", 98511183);
        tcase_add_test(tc, sf19_net_against_stockfish);
    } else {
        require_engine("/usr/games/stockfish");
        net_chess = eval_net_file(eval_net_find("sf151"));
        tcase_add_test(tc, chess_against_stockfish);
    }
    suite_add_tcase(s, tc);
    return test_run(s);
}
