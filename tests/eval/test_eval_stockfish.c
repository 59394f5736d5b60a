/* tests/eval/test_eval_stockfish.c: the real Stockfish 15.1 net against Debian's stockfish 15.1
 * binary itself, with no reference data needed: positions from seeded random games (our chess
 * adapter), evaluated by our library and by the engine's `eval` command, whose "NNUE
 * evaluation" line prints the unadjusted NNUE value v in pawns, |v| / 361 with two decimals and
 * the sign of v, white's view (FORMATS.md section 5; no NNUE line for positions in check). The
 * printed text is compared with ours formatted the same way.
 * Skips (exit 77) when stockfish is not installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../nets/nets_helpers.h"
#include "eval_nets.h"
#include "support.h"

#define POSITIONS 150

static const char *net_path;

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static unsigned next_random(unsigned n)
{
    return eval_random(&rng, n);
}

START_TEST(our_values_equal_the_engines)
{
    nnue_net *net = eval_net_load(eval_net_find("sf151"), net_path);
    const nnue_game *game = nnue_game_find("chess");
    static char fens[POSITIONS][128];
    static int totals[POSITIONS], white_to_move[POSITIONS];
    int count = 0;
    nnue_move moves[NNUE_MAX_MOVES];
    while (count < POSITIONS) {
        void *pos = eval_parse(game, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        for (int ply = 0; ply < 120 && count < POSITIONS; ply++) {
            int n = game->legal_moves(pos, moves);
            if (n == 0)
                break;
            game->make(pos, moves[next_random((unsigned)n)], NULL);
            if (ply % 7 == 3 && !game->in_check(pos)) {
                nnue_eval_detail d;
                eval_fresh(net, game->board(pos), &d);
                game->format(pos, fens[count], sizeof fens[count]);
                totals[count] = d.total;
                white_to_move[count] = game->board(pos)->side_to_move == 0;
                count++;
            }
        }
        free(pos);
    }
    char script[4096], output[4096];
    snprintf(script, sizeof script, "%s/sf-eval-%d.in", nets_dir(), (int)getpid());
    snprintf(output, sizeof output, "%s/sf-eval-%d.out", nets_dir(), (int)getpid());
    FILE *f = fopen(script, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "uci\nsetoption name EvalFile value %s\nisready\n", net_path);
    for (int i = 0; i < count; i++)
        fprintf(f, "position fen %s\neval\n", fens[i]);
    fprintf(f, "quit\n");
    fclose(f);
    char command[9000];
    snprintf(command, sizeof command, "/usr/games/stockfish < '%s' > '%s' 2>&1", script, output);
    ck_assert_int_eq(system(command), 0);
    char *text = test_read_file(output, NULL);
    ck_assert_ptr_nonnull(text);
    int seen = 0;
    for (char *p = strstr(text, "NNUE evaluation "); p; p = strstr(p + 1, "NNUE evaluation ")) {
        char engine[32];
        if (sscanf(p + 16, " %31s", engine) != 1 || !strchr("+- 0123456789", engine[0]))
            continue; /* "NNUE evaluation using ..." info lines */
        ck_assert_int_lt(seen, count);
        int white = white_to_move[seen] ? totals[seen] : -totals[seen];
        char ours[32];
        snprintf(ours, sizeof ours, "%c%.2f", white < 0 ? '-' : white > 0 ? '+' : ' ', abs(white) / 361.0);
        ck_assert_msg(strcmp(ours + (ours[0] == ' '), engine) == 0, "%s: ours %s (total %d), stockfish %s", fens[seen],
                      ours, totals[seen], engine);
        seen++;
    }
    ck_assert_int_eq(seen, count);
    fprintf(stderr, "%d positions equal to Debian's stockfish 15.1 eval\n", seen);
    unlink(script);
    unlink(output);
    free(text);
    nnue_net_free(net);
}
END_TEST

int main(void)
{
    net_path = nets_sf151(); /* exits 77 when stockfish is not installed */
    Suite *s = suite_create("eval_stockfish");
    TCase *tc = tcase_create("sf151");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, our_values_equal_the_engines);
    suite_add_tcase(s, tc);
    return test_run(s);
}
