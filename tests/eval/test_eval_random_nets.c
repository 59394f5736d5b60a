/* tests/eval/test_eval_random_nets.c ARCH: `nnue init`'s random net for an architecture (here
 * also the layer types no reference net uses: pairwise, pooling, quantmoid4) loads, is
 * deterministic per seed, evaluates identically on every kernel set the CPU has, and updates
 * incrementally exactly as a full refresh computes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../nets/nets_helpers.h"
#include "core/arch/arch_api.h"
#include "base/isa.h"
#include "eval_nets.h"
#include "support.h"

static const char *arch_rel;
static char net_path[4096];
static nnue_arch *arch;

static void write_net(const char *path, uint64_t seed)
{
    nnue_error err;
    nnue_status st = nnue_net_write_random(arch, path, seed, &err);
    char msg[1200];
    nnue_error_format(&err, msg, sizeof msg);
    ck_assert_msg(st == NNUE_OK, "%s", msg);
}

START_TEST(deterministic_per_seed)
{
    char other[4200];
    snprintf(other, sizeof other, "%s.again", net_path);
    write_net(other, 7);
    size_t a_len, b_len;
    char *a = test_read_file(net_path, &a_len), *b = test_read_file(other, &b_len);
    ck_assert_uint_eq(a_len, b_len);
    ck_assert_int_eq(memcmp(a, b, a_len), 0);
    free(b);
    write_net(other, 8);
    b = test_read_file(other, &b_len);
    ck_assert_int_ne(a_len == b_len ? memcmp(a, b, a_len) : 1, 0);
    /* The exact size the architecture predicts (Stockfish format: plus the description). */
    if (arch->format.kind == NNUE_FORMAT_RAW)
        ck_assert_uint_eq(a_len, arch->file_size);
    else if (!arch->format.leb128)
        ck_assert_uint_eq(a_len, arch->file_size + nets_u32_at(net_path, 8));
    free(a);
    free(b);
    remove(other);
}
END_TEST

static void compare_states(nnue_state *x, nnue_state *y, const nnue_board *board, const char *where)
{
    nnue_eval_detail dx, dy;
    nnue_evaluate(x, board, &dx);
    nnue_evaluate(y, board, &dy);
    ck_assert_msg(dx.bucket == dy.bucket && dx.psqt == dy.psqt && dx.positional == dy.positional &&
                      dx.total == dy.total && dx.scaled == dy.scaled,
                  "%s: %d/%d/%d versus %d/%d/%d", where, dx.psqt, dx.positional, dx.total, dy.psqt, dy.positional,
                  dy.total);
    const nnue_ft_desc *ft = &x->net->arch->ft;
    for (int p = 0; p < 2; p++)
        ck_assert_msg(memcmp(x->entries[x->ply].acc[p], y->entries[y->ply].acc[p], ft->width * 2) == 0,
                      "%s: accumulators differ", where);
}

/* One row of movesA.tsv: the position (parsed), its move, and the two texts for messages. */
typedef void (*move_row_fn)(const nnue_game *game, void *pos, nnue_move move, const char *fen, const char *mv,
                            void *ctx);

/* The game's movesA.tsv: chess's is in the repository, shogi's in the shared data. */
static const char *moves_rel(void)
{
    return strcmp(arch->game, "shogi") == 0 ? "oracle/shogi/movesA.tsv" : EVAL_CHESS_MOVES;
}

/* Calls fn on the first `want` rows of the game's movesA.tsv; fails unless there were that many. */
static void each_move_row(int want, move_row_fn fn, void *ctx)
{
    const nnue_game *game = nnue_game_find(arch->game);
    char *text = test_read_file(test_data_path(moves_rel()), NULL);
    int rows = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && rows < want; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || strncmp(line, "fen\t", 4) == 0)
            continue;
        char *f[4];
        test_split_tabs(line, f, 4);
        void *pos = eval_parse(game, f[0]);
        nnue_move move;
        nnue_error err;
        ck_assert_int_eq(game->parse_move(pos, f[1], &move, &err), 0);
        fn(game, pos, move, f[0], f[1], ctx);
        free(pos);
        rows++;
    }
    ck_assert_int_eq(rows, want);
    free(text);
}

typedef struct two_states {
    nnue_state *a, *b;
    nnue_net *net;
} two_states;

static void isa_row(const nnue_game *game, void *pos, nnue_move move, const char *fen, const char *mv, void *ctx)
{
    two_states *t = ctx;
    for (int isa = NNUE_ISA_SCALAR; isa <= (int)nnue_isa_best(); isa++) {
        ck_assert_int_eq(nnue_state_set_isa(t->a, (nnue_isa)isa), 0);
        ck_assert_int_eq(nnue_state_set_isa(t->b, NNUE_ISA_SCALAR), 0);
        nnue_state_reset(t->a, game->board(pos));
        nnue_state_reset(t->b, game->board(pos));
        compare_states(t->a, t->b, game->board(pos), fen);
        nnue_delta delta;
        game->make(pos, move, &delta);
        nnue_state_push(t->a, game->board(pos), &delta); /* incremental on this ISA */
        nnue_state_reset(t->b, game->board(pos));        /* full refresh on scalar */
        compare_states(t->a, t->b, game->board(pos), mv);
        nnue_state_pop(t->a);
        game->unmake(pos, move);
    }
}

START_TEST(every_isa_and_incremental_equal_scalar_full)
{
    nnue_net *net = nets_load(arch, net_path);
    two_states t = {nnue_state_new(net, 4), nnue_state_new(net, 4), net};
    each_move_row(400, isa_row, &t);
    nnue_state_free(t.a);
    nnue_state_free(t.b);
    nnue_net_free(net);
}
END_TEST

/* a: incremental from the net's i8 rows; b: a full refresh with the i8 rows hidden. */
static void narrow_row(const nnue_game *game, void *pos, nnue_move move, const char *fen, const char *mv, void *ctx)
{
    two_states *t = ctx;
    nnue_narrow_rows kept[NNUE_MAX_FT_SETS];
    (void)fen;
    for (int isa = NNUE_ISA_SCALAR; isa <= (int)nnue_isa_best(); isa++) {
        ck_assert_int_eq(nnue_state_set_isa(t->a, (nnue_isa)isa), 0);
        ck_assert_int_eq(nnue_state_set_isa(t->b, (nnue_isa)isa), 0);
        nnue_state_reset(t->a, game->board(pos));
        nnue_evaluate(t->a, game->board(pos), NULL);
        nnue_delta delta;
        game->make(pos, move, &delta);
        nnue_state_push(t->a, game->board(pos), &delta);
        nnue_evaluate(t->a, game->board(pos), NULL);
        memcpy(kept, t->net->narrow, sizeof kept); /* the same net without its i8 copy */
        memset(t->net->narrow, 0, sizeof kept);
        nnue_state_reset(t->b, game->board(pos));
        compare_states(t->a, t->b, game->board(pos), mv);
        memcpy(t->net->narrow, kept, sizeof kept);
        nnue_state_pop(t->a);
        game->unmake(pos, move);
    }
}

/* The i8 copy of the FT rows (core/net/net_narrow.c) is built as eval_check_narrow_rows() says, and
 * evaluating from it equals evaluating from the i16 rows on every kernel set. (Patched rows:
 * tests/eval/test_eval_incremental.c on the shogi random net.) */
START_TEST(narrow_rows_equal_wide_rows)
{
    nnue_net *net = nets_load(arch, net_path);
    const nnue_ft_desc *ft = &net->arch->ft;
    int narrowed = 0;
    for (int s = 0; s < ft->n_sets; s++) {
        long long patched = eval_check_narrow_rows(net, s);
        if (patched > 0)
            fprintf(stderr, "%s: set %d: %lld values patched\n", arch_rel, s, patched);
        narrowed |= patched >= 0;
    }
    if (narrowed) {
        two_states t = {nnue_state_new(net, 4), nnue_state_new(net, 4), net};
        each_move_row(100, narrow_row, &t);
        nnue_state_free(t.a);
        nnue_state_free(t.b);
    } else { /* nothing to compare: say so instead of passing silently */
        fprintf(stderr, "%s: no i16 feature set fits i8, narrow rows not built\n", arch_rel);
    }
    nnue_net_free(net);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_eval_random_nets ARCH.yaml (relative to the source tree)\n");
        return 2;
    }
    arch_rel = argv[1];
    arch = eval_random_net_main(arch_rel, "init", 7, net_path, sizeof net_path);
    if (!arch)
        return 1;
    if (access(test_data_path(moves_rel()), R_OK) != 0)
        remove(net_path);   /* the skip below leaves no net behind */
    test_require_data(moves_rel());
    const char *base = strrchr(arch_rel, '/') ? strrchr(arch_rel, '/') + 1 : arch_rel;
    Suite *s = suite_create("eval_random_nets");
    TCase *tc = tcase_create(base);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, deterministic_per_seed);
    tcase_add_test(tc, every_isa_and_incremental_equal_scalar_full);
    tcase_add_test(tc, narrow_rows_equal_wide_rows);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    remove(net_path);
    nnue_arch_free(arch);
    return rc;
}
