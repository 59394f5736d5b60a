/* tests/eval/test_eval_goldens.c NET: every row of NET's golden file, evaluated with a full
 * refresh, equals the reference engine's numbers bit for bit.
 *   Stockfish nets: bucket, psqt, positional, total (FORMATS.md section 5)
 *   cwtch:          output_bucket, raw_output, final_eval (FACTS.md)
 *   obsidian:       output_bucket, raw_output, nnue_cp (final_eval adds engine-only scaling)
 *   shogi:          raw network output, eval = raw / 16 (shogi FORMATS.md section 8)
 *   sfnn1536:       bucket and raw (shogi FORMATS.md section 11), on every kernel set the CPU has
 *   sf17, sf18, sf18small, sf19: Stockfish's release nets, as Stockfish nets, on every kernel set
 *   multilayer:     bucket and total (shared/oracle/third/multilayer/FACTS.md: float layers after
 *                   an int8 one, goldens from exact arithmetic), on every kernel set */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/isa.h"
#include "core/state.h"
#include "eval_nets.h"
#include "support.h"

static const eval_net *net_info;
static const char *net_path;

static void compare(const char *what, long got, const char *want, int row, int *bad, const char *pos)
{
    if (got != atol(want)) {
        if (*bad < 5)
            fprintf(stderr, "row %d %s: %s = %ld, golden %s\n", row, pos, what, got, want);
        (*bad)++;
    }
}

START_TEST(golden_rows_match)
{
    nnue_net *net = eval_net_load(net_info, net_path);
    const nnue_game *game = nnue_game_find(net->arch->game);
    char *text = test_read_file(test_shared_path(net_info->golden), NULL);
    ck_assert_ptr_nonnull(text);
    int rows = 0, bad = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || strncmp(line, "fen\t", 4) == 0 || strncmp(line, "sfen\t", 5) == 0)
            continue;
        char *f[8];
        int n = test_split_tabs(line, f, 8);
        ck_assert_int_ge(n, 3);
        void *pos = eval_parse(game, f[0]);
        nnue_eval_detail d;
        eval_fresh(net, game->board(pos), &d);
        rows++;
        if (strcmp(net_info->name, "sfnn1536") == 0) {
            for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
                nnue_state *st = nnue_state_new(net, 0);
                ck_assert_int_eq(nnue_state_set_isa(st, (nnue_isa)isa), 0);
                nnue_state_reset(st, game->board(pos));
                nnue_evaluate(st, game->board(pos), &d);
                nnue_state_free(st);
                char what[64];
                snprintf(what, sizeof what, "bucket on %s", nnue_isa_label((nnue_isa)isa));
                compare(what, d.bucket, f[1], rows, &bad, f[0]);
                snprintf(what, sizeof what, "raw on %s", nnue_isa_label((nnue_isa)isa));
                compare(what, d.positional, f[2], rows, &bad, f[0]);
            }
        } else if (strcmp(net_info->name, "shogi") == 0) {
            compare("raw", d.positional, f[1], rows, &bad, f[0]);
            compare("eval", d.total, f[2], rows, &bad, f[0]);
        } else if (strcmp(net_info->name, "cwtch") == 0 || strcmp(net_info->name, "obsidian") == 0) {
            compare("output_bucket", d.bucket, f[1], rows, &bad, f[0]);
            compare("raw_output", d.positional, f[2], rows, &bad, f[0]);
            compare(n == 5 ? "nnue_cp" : "final_eval", d.scaled, f[n == 5 ? 4 : 3], rows, &bad, f[0]);
        } else if (strcmp(net_info->name, "multilayer") == 0) { /* float layers: on every kernel set */
            for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
                nnue_state *st = nnue_state_new(net, 0);
                ck_assert_int_eq(nnue_state_set_isa(st, (nnue_isa)isa), 0);
                nnue_state_reset(st, game->board(pos));
                nnue_evaluate(st, game->board(pos), &d);
                nnue_state_free(st);
                char what[64];
                snprintf(what, sizeof what, "bucket on %s", nnue_isa_label((nnue_isa)isa));
                compare(what, d.bucket, f[1], rows, &bad, f[0]);
                snprintf(what, sizeof what, "total on %s", nnue_isa_label((nnue_isa)isa));
                compare(what, d.total, f[3], rows, &bad, f[0]);
            }
        } else if (net_info->release) { /* Stockfish's own nets: on every kernel set the CPU has */
            for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
                nnue_state *st = nnue_state_new(net, 0);
                ck_assert_int_eq(nnue_state_set_isa(st, (nnue_isa)isa), 0);
                nnue_state_reset(st, game->board(pos));
                nnue_evaluate(st, game->board(pos), &d);
                nnue_state_free(st);
                static const char *const names[] = {"bucket", "psqt", "positional", "total"};
                long got[] = {d.bucket, d.psqt, d.positional, d.total};
                for (int c = 0; c < 4; c++) {
                    char what[64];
                    snprintf(what, sizeof what, "%s on %s", names[c], nnue_isa_label((nnue_isa)isa));
                    compare(what, got[c], f[c + 1], rows, &bad, f[0]);
                }
            }
        } else {
            compare("bucket", d.bucket, f[1], rows, &bad, f[0]);
            compare("psqt", d.psqt, f[2], rows, &bad, f[0]);
            compare("positional", d.positional, f[3], rows, &bad, f[0]);
            compare("total", d.total, f[4], rows, &bad, f[0]);
        }
        free(pos);
    }
    fprintf(stderr, "%s: %d golden rows, %d mismatching values\n", net_info->name, rows, bad);
    ck_assert_int_ge(rows, 2000);
    ck_assert_int_eq(bad, 0);
    free(text);
    nnue_net_free(net);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc != 2 || !(net_info = eval_net_find(argv[1]))) {
        fprintf(stderr, "usage: test_eval_goldens NET\n");
        return 2;
    }
    test_require_shared(net_info->golden);
    net_path = eval_net_file(net_info);
    Suite *s = suite_create("eval_goldens");
    TCase *tc = tcase_create(net_info->name);
    tcase_add_test(tc, golden_rows_match);
    suite_add_tcase(s, tc);
    return test_run(s);
}
