/* tests/extend/test_extend_hostile.c: extensions that misbehave (issue 49). An init that leaves its
 * error without a NUL (bad_init_extension.c, loaded from argv[1]); a feature set whose hooks give
 * an index past its dimensions, or more features than it declared: each evaluation is refused with
 * an error naming the set, the hook and the value, never a read outside the weights. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/net/net.h"
#include "nnue.h"
#include "nnue_extend.h"
#include "support.h"

static const char *bad_init_path;

START_TEST(init_error_without_nul)
{
    nnue_error err;
    ck_assert_int_eq(nnue_ext_load(bad_init_path, &err), NNUE_E_ARG);
    const char *at = strstr(err.message, "nnue_extension_init failed: ");
    ck_assert_msg(at != NULL, "%s", err.message);
    at += strlen("nnue_extension_init failed: ");
    size_t run = strspn(at, "x");
    /* the file as the extension left it: its 255 first bytes, then the line (0x78787878) */
    ck_assert_msg(run == 255 && strncmp(at + run, ":2021161080:", 12) == 0, "read %zu bytes of the file: %.300s",
                  run, at);
}
END_TEST

/* The misbehaving set: Chess768's rule (64 * code + square) in 768 inputs, max_active 32, max_changed
 * 3; `mode` picks what it does wrong. */
static int mode;
enum { GOOD, ACTIVE_INDEX, ACTIVE_COUNT, ACTIVE_NEGATIVE, REMOVED_INDEX, ADDED_COUNT, N_MODES };
static const char *const expected[N_MODES] = {
    NULL,
    "active() (perspective 0) returned index 768 at position 0, expected below its dimensions (768)",
    "active() (perspective 0) returned 33 features, expected 0 to 32",
    "active() (perspective 0) returned -1 features, expected 0 to 32",
    "changed() removed (perspective 0) returned index 4294967295 at position 0",
    "changed() added (perspective 0) returned 4 features, expected 0 to 3",
};

static uint32_t index_of(uint8_t piece, int square, int persp)
{
    int code = NNUE_PIECE_TYPE(piece) - 1 + (NNUE_PIECE_COLOUR(piece) == persp ? 0 : 6);
    return (uint32_t)(64 * code + (persp ? square ^ 56 : square));
}

static int hostile_active(const nnue_board *board, int persp, uint32_t *out)
{
    int n = 0;
    for (int sq = 0; sq < 64; sq++)
        if (board->piece_on[sq])
            out[n++] = index_of(board->piece_on[sq], sq, persp);
    if (mode == ACTIVE_INDEX)
        out[0] = 768;
    if (mode == ACTIVE_COUNT)
        return 33; /* the buffer holds 256: only the count lies */
    return mode == ACTIVE_NEGATIVE ? -1 : n;
}

static void hostile_changed(const nnue_board *after, const nnue_delta *delta, int persp, uint32_t *removed,
                            int *n_removed, uint32_t *added, int *n_added)
{
    (void)after;
    *n_removed = *n_added = 0;
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        if (d->old_sq >= 0)
            removed[(*n_removed)++] = index_of(d->old_piece, d->old_sq, persp);
        if (d->new_sq >= 0)
            added[(*n_added)++] = index_of(d->new_piece, d->new_sq, persp);
    }
    if (mode == REMOVED_INDEX)
        removed[0] = UINT32_MAX;
    if (mode == ADDED_COUNT)
        *n_added = 4;
}

static const nnue_ext_feature_set hostile = {
    .abi = NNUE_EXTEND_ABI, .name = "Hostile768", .game = "chess", .dimensions = 768, .max_active = 32,
    .max_changed = 3, .max_pieces = 32, .active = hostile_active, .changed = hostile_changed,
};

static const char yaml[] = "name: hostile\ngame: chess\nformat:\n  kind: raw\n  blocks:\n"
                           "    - {tensor: ft.weights, dtype: i16}\n    - {tensor: ft.biases, dtype: i16}\n"
                           "    - {tensor: out.biases, dtype: i32}\n    - {tensor: out.weights, dtype: i8}\n"
                           "feature_transformer:\n  features: Hostile768\n  width: 32\n"
                           "  activation: {type: clamp, max: 127}\n"
                           "layers:\n  - {name: out, type: affine, outputs: 1}\noutput:\n  divisor: 16\n";

START_TEST(bad_hook_outputs_refused)
{
    nnue_error err;
    ck_assert_int_eq(nnue_register_feature_set(&hostile, &err), NNUE_OK);
    nnue_arch *arch;
    ck_assert_int_eq(nnue_arch_load_string(yaml, strlen(yaml), "hostile.yaml", &arch, &err), NNUE_OK);
    char path[4096];
    snprintf(path, sizeof path, "%s/extend-hostile.bin", test_build_dir());
    ck_assert_int_eq(nnue_net_write_random(arch, path, 7, &err), NNUE_OK);
    nnue_net *net;
    ck_assert_int_eq(nnue_net_load(arch, path, &net, &err), NNUE_OK);
    const nnue_game *game = nnue_game_find("chess");
    void *pos = calloc(1, game->pos_size), *next = calloc(1, game->pos_size);
    ck_assert_int_eq(game->parse(pos, game->start, &err), 0);
    nnue_move moves[NNUE_MAX_MOVES];
    ck_assert_int_gt(game->legal_moves(pos, moves), 0);
    memcpy(next, pos, game->pos_size);
    nnue_delta delta;
    game->make(next, moves[0], &delta);
    int32_t good_root = 0, good_move = 0;
    for (int m = 0; m < N_MODES; m++) {
        nnue_state *s = nnue_state_new(net, 4);
        mode = GOOD;
        ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0);
        int move_mode = m >= REMOVED_INDEX;
        if (!move_mode)
            mode = m;
        nnue_eval_detail d;
        int32_t v = nnue_evaluate(s, game->board(pos), &d);
        if (m == GOOD)
            good_root = v;
        ck_assert_int_eq(nnue_state_push(s, game->board(next), &delta), 0);
        mode = m;
        int32_t w = nnue_evaluate(s, game->board(next), &d);
        if (m == GOOD)
            good_move = w;
        const nnue_error *e = nnue_state_error(s);
        if (m == GOOD) {
            ck_assert_int_eq(e->code, NNUE_OK);
        } else {
            ck_assert_msg(d.bucket == -1 && w == 0, "mode %d: a value (%d) from a bad list", m, w);
            ck_assert_int_eq(e->code, NNUE_E_ARG);
            ck_assert_msg(strstr(e->message, "feature set 'Hostile768'") && strstr(e->message, expected[m]),
                          "mode %d: %s", m, e->message);
        }
        /* once the hook behaves, the same state gives the exact values again */
        mode = GOOD;
        ck_assert_int_eq(nnue_evaluate(s, game->board(next), NULL), good_move);
        nnue_state_pop(s);
        ck_assert_int_eq(nnue_evaluate(s, game->board(pos), NULL), good_root);
        nnue_state_free(s);
    }
    free(pos);
    free(next);
    nnue_net_free(net);
    nnue_arch_free(arch);
    remove(path);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_extend_hostile BAD_INIT_EXTENSION.so\n");
        return 2;
    }
    bad_init_path = argv[1];
    Suite *s = suite_create("extend_hostile");
    TCase *t = tcase_create("hostile");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, init_error_without_nul);
    tcase_add_test(t, bad_hook_outputs_refused);
    suite_add_tcase(s, t);
    return test_run(s);
}
