/* tests/eval/test_eval_goldens.c NET: every row of NET's golden file, evaluated with a full
 * refresh, equals the reference engine's numbers bit for bit.
 *   Stockfish nets: bucket, psqt, positional, total (FORMATS.md section 5)
 *   cwtch:          output_bucket, raw_output, final_eval (FACTS.md)
 *   obsidian:       output_bucket, raw_output, nnue_cp (final_eval adds engine-only scaling)
 *   shogi:          raw network output, eval = raw / 16 (shogi FORMATS.md section 8)
 *   sfnn1536:       bucket and raw (shogi FORMATS.md section 11), on every kernel set the CPU has
 *   sf17, sf18, sf18small, sf19: Stockfish's release nets, as Stockfish nets, on every kernel set
 *   multilayer:     bucket and total (shared/oracle/third/multilayer/FACTS.md: float layers after
 *                   an int8 one, goldens from exact arithmetic), on every kernel set
 *   stormphrax:     bucket, raw (the int32 output in 2^24 units), nnue (scaled), on every kernel set
 *   plentychess:    bucket, nnue (total), on every kernel set; and raw, the float32 output of l3
 *   reckless, viridithas: bucket and raw (= total), on every kernel set; and out_bits, the float
 *                   before the engine's final x380 / x240
 * The floats are compared bit for bit: the same arch with its last layer (to_i32) swapped for a
 * test layer that hands on the float's bits as an int32 (their FACTS.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/eval/state.h"
#include "layers/common.h"
#include "base/isa.h"
#include "../nets/nets_helpers.h"
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

/* Which golden column holds which value, per net (see the top of this file). */
typedef enum { F_BUCKET, F_PSQT, F_POSITIONAL, F_TOTAL, F_SCALED } field;
typedef struct {
    const char *name;
    field f;
    int col;
} column;

static long value_of(const nnue_eval_detail *d, field f)
{
    long v[] = {d->bucket, d->psqt, d->positional, d->total, d->scaled};
    return v[f];
}

/* The column of the golden file headed out_bits (the third-party float nets), or -1. */
static int out_bits_column(const eval_net *n)
{
    static const char *const with_bits[] = {"reckless", "viridithas"};
    for (size_t i = 0; i < sizeof with_bits / sizeof with_bits[0]; i++)
        if (strcmp(n->name, with_bits[i]) == 0)
            return 5;
    return -1;
}

/* The columns compared for this net (n fields in the row); *every_isa: on every kernel set. */
static int columns_of(int n, column *c, int *every_isa)
{
    const char *name = net_info->name;
    *every_isa = strcmp(name, "sfnn1536") == 0 || strcmp(name, "multilayer") == 0 || net_info->release != NULL ||
                 strcmp(name, "stormphrax") == 0 || strcmp(name, "plentychess") == 0 || out_bits_column(net_info) >= 0;
    if (out_bits_column(net_info) >= 0)
        return c[0] = (column){"bucket", F_BUCKET, 1}, c[1] = (column){"raw", F_TOTAL, 2}, 2;
    if (strcmp(name, "stormphrax") == 0)
        return c[0] = (column){"bucket", F_BUCKET, 1}, c[1] = (column){"raw", F_POSITIONAL, 2},
               c[2] = (column){"nnue", F_SCALED, 4}, 3;
    if (strcmp(name, "plentychess") == 0)
        return c[0] = (column){"bucket", F_BUCKET, 1}, c[1] = (column){"nnue", F_TOTAL, 4}, 2;
    if (strcmp(name, "sfnn1536") == 0)
        return c[0] = (column){"bucket", F_BUCKET, 1}, c[1] = (column){"raw", F_POSITIONAL, 2}, 2;
    if (strcmp(name, "shogi") == 0)
        return c[0] = (column){"raw", F_POSITIONAL, 1}, c[1] = (column){"eval", F_TOTAL, 2}, 2;
    if (strcmp(name, "cwtch") == 0 || strcmp(name, "obsidian") == 0)
        return c[0] = (column){"output_bucket", F_BUCKET, 1}, c[1] = (column){"raw_output", F_POSITIONAL, 2},
               c[2] = (column){n == 5 ? "nnue_cp" : "final_eval", F_SCALED, n == 5 ? 4 : 3}, 3;
    if (strcmp(name, "multilayer") == 0)
        return c[0] = (column){"bucket", F_BUCKET, 1}, c[1] = (column){"total", F_TOTAL, 3}, 2;
    c[0] = (column){"bucket", F_BUCKET, 1}, c[1] = (column){"psqt", F_PSQT, 2};
    c[2] = (column){"positional", F_POSITIONAL, 3}, c[3] = (column){"total", F_TOTAL, 4};
    return 4;
}

START_TEST(golden_rows_match)
{
    nnue_net *net = eval_net_load(net_info, net_path);
    const nnue_game *game = nnue_game_find(net->arch->game);
    char *text = test_read_file(test_data_path(net_info->golden), NULL);
    ck_assert_ptr_nonnull(text);
    int rows = 0, bad = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || strncmp(line, "fen\t", 4) == 0 || strncmp(line, "sfen\t", 5) == 0)
            continue;
        char *f[8];
        int n = test_split_tabs(line, f, 8), every_isa;
        ck_assert_int_ge(n, 3);
        column cols[4];
        int n_cols = columns_of(n, cols, &every_isa);
        void *pos = eval_parse(game, f[0]);
        rows++;
        /* A fresh state per position (full refresh), on the current kernel set or on each. */
        int first = every_isa ? 0 : -1, last = every_isa ? (int)nnue_isa_best() : -1;
        for (int isa = first; isa <= last; isa++) {
            nnue_eval_detail d;
            nnue_state *st = nnue_state_new(net, 0);
            ck_assert_int_eq(isa < 0 ? 0 : nnue_state_set_isa(st, (nnue_isa)isa), 0);
            nnue_state_reset(st, game->board(pos));
            nnue_evaluate(st, game->board(pos), &d);
            nnue_state_free(st);
            for (int c = 0; c < n_cols; c++) {
                char what[64];
                snprintf(what, sizeof what, "%s on %s", cols[c].name,
                         isa < 0 ? "the current kernels" : nnue_isa_label((nnue_isa)isa));
                compare(what, value_of(&d, cols[c].f), f[cols[c].col], rows, &bad, f[0]);
            }
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

/* The float32 input's bits as int32 values (test only): put in place of the last layer (to_i32),
 * it makes the network output the float the engine forms before its final scaling. */
static void bits_propagate(const nnue_layer *l, const nnue_layer_weights *w, const int32_t *const *inputs,
                           int32_t *out)
{
    (void)w;
    memcpy(out, inputs[0], l->out_size * sizeof *out);
}

static void bits_describe(const nnue_layer *l, char *buf, size_t size)
{
    snprintf(buf, size, "FloatBits[%u]", l->out_size);
}

static const nnue_layer_type float_bits_layer = {
    .name = "test_float_bits", .min_inputs = 1, .max_inputs = 1, .shape = nnue_shape_same,
    .hash = nnue_hash_identity, .describe = bits_describe, .parameters = nnue_no_parameters,
    .file_bytes = nnue_no_parameters, .propagate = bits_propagate, .flow = NNUE_FLOW_F32_TO_I32,
};

/* The golden column of the float and how it is written: PlentyChess's raw (%.9g, which parses
 * back to the same float32), Reckless's and Viridithas's out_bits (hex). -1: none. */
static int float_column(int *hex)
{
    *hex = out_bits_column(net_info) >= 0;
    return *hex ? out_bits_column(net_info) : strcmp(net_info->name, "plentychess") == 0 ? 2 : -1;
}

/* The float before the engine's final scaling, bit for bit, on every kernel set: the arch with
 * its last layer swapped for the bits layer (same shape and flow; the file is read the same). */
START_TEST(golden_float_bits_match)
{
    nnue_arch *arch = nets_arch(net_info->arch);
    nnue_layer *last = &arch->layers[arch->n_layers - 1];
    ck_assert_str_eq(last->type->name, "to_i32");
    last->type = &float_bits_layer;
    nnue_net *net = nets_load(arch, net_path);
    nnue_arch_free(arch);
    const nnue_game *game = nnue_game_find(net->arch->game);
    char *text = test_read_file(test_data_path(net_info->golden), NULL);
    ck_assert_ptr_nonnull(text);
    int hex, col = float_column(&hex), rows = 0, bad = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "fen\t", 4) == 0)
            continue;
        char *f[8];
        ck_assert_int_gt(test_split_tabs(line, f, 8), col);
        uint32_t want;
        if (hex) {
            want = (uint32_t)strtoul(f[col], NULL, 16);
        } else {
            float v = strtof(f[col], NULL);
            memcpy(&want, &v, sizeof want);
        }
        void *pos = eval_parse(game, f[0]);
        rows++;
        for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
            nnue_eval_detail d;
            nnue_state *st = nnue_state_new(net, 0);
            ck_assert_int_eq(nnue_state_set_isa(st, (nnue_isa)isa), 0);
            nnue_state_reset(st, game->board(pos));
            nnue_evaluate(st, game->board(pos), &d);
            nnue_state_free(st);
            if ((uint32_t)d.positional != want && bad++ < 5)
                fprintf(stderr, "row %d %s: float bits on %s = %08x, golden %s = %08x\n", rows, f[0],
                        nnue_isa_label((nnue_isa)isa), (uint32_t)d.positional, f[col], want);
        }
        free(pos);
    }
    fprintf(stderr, "%s: %d golden rows, %d mismatching float bits\n", net_info->name, rows, bad);
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
    test_require_data(net_info->golden);
    net_path = eval_net_file(net_info);
    Suite *s = suite_create("eval_goldens");
    TCase *tc = tcase_create(net_info->name);
    tcase_add_test(tc, golden_rows_match);
    int hex;
    if (float_column(&hex) >= 0)
        tcase_add_test(tc, golden_float_bits_match);
    suite_add_tcase(s, tc);
    return test_run(s);
}
