/* tests/eval/test_eval_random_nets.c ARCH: `nnue init`'s random net for an architecture (here
 * also the layer types no reference net uses: pairwise, pooling, quantmoid4) loads, is
 * deterministic per seed, evaluates identically on every kernel set the CPU has, and updates
 * incrementally exactly as a full refresh computes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../nets/nets_helpers.h"
#include "core/arch_api.h"
#include "core/isa.h"
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

START_TEST(every_isa_and_incremental_equal_scalar_full)
{
    nnue_net *net = nets_load(arch, net_path);
    const nnue_game *game = nnue_game_find(arch->game);
    const char *rel = strcmp(arch->game, "shogi") == 0 ? "oracle/shogi/movesA.tsv" : "oracle/chess/movesA.tsv";
    char *text = test_read_file(test_shared_path(rel), NULL);
    nnue_state *fast = nnue_state_new(net, 4), *scalar = nnue_state_new(net, 4);
    int rows = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && rows < 400; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || strncmp(line, "fen\t", 4) == 0)
            continue;
        char *f[4];
        test_split_tabs(line, f, 4);
        void *pos = eval_parse(game, f[0]);
        nnue_move move;
        nnue_error err;
        ck_assert_int_eq(game->parse_move(pos, f[1], &move, &err), 0);
        for (int isa = NNUE_ISA_SCALAR; isa <= (int)nnue_isa_best(); isa++) {
            ck_assert_int_eq(nnue_state_set_isa(fast, (nnue_isa)isa), 0);
            ck_assert_int_eq(nnue_state_set_isa(scalar, NNUE_ISA_SCALAR), 0);
            nnue_state_reset(fast, game->board(pos));
            nnue_state_reset(scalar, game->board(pos));
            compare_states(fast, scalar, game->board(pos), f[0]);
            nnue_delta delta;
            game->make(pos, move, &delta);
            nnue_state_push(fast, game->board(pos), &delta); /* incremental on this ISA */
            nnue_state_reset(scalar, game->board(pos));      /* full refresh on scalar */
            compare_states(fast, scalar, game->board(pos), f[1]);
            nnue_state_pop(fast);
            game->unmake(pos, move);
        }
        free(pos);
        rows++;
    }
    ck_assert_int_eq(rows, 400);
    nnue_state_free(fast);
    nnue_state_free(scalar);
    nnue_net_free(net);
    free(text);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_eval_random_nets ARCH.yaml (relative to the source tree)\n");
        return 2;
    }
    arch_rel = argv[1];
    test_require_shared("oracle/chess/movesA.tsv");
    test_require_shared("oracle/shogi/movesA.tsv");
    arch = eval_random_net_main(arch_rel, "init", 7, net_path, sizeof net_path);
    if (!arch)
        return 1;
    const char *base = strrchr(arch_rel, '/') ? strrchr(arch_rel, '/') + 1 : arch_rel;
    Suite *s = suite_create("eval_random_nets");
    TCase *tc = tcase_create(base);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, deterministic_per_seed);
    tcase_add_test(tc, every_isa_and_incremental_equal_scalar_full);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    remove(net_path);
    nnue_arch_free(arch);
    return rc;
}
