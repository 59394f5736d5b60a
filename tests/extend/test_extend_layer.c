/* tests/extend/test_extend_layer.c: a layer type added from tests/ alone (toy_negate_f32.c),
 * registered at run time with nnue_register_internal_layer_type, proves docs/extending.md's claim: a YAML
 * names it, a net loads, and it evaluates on every kernel set and incrementally.
 * The multilayer net of shared/oracle/third/multilayer (docs/examples/multilayer_f32.yaml) is
 * loaded twice: as it is, and with the toy between its last float layer and to_i32. The toy
 * keeps no tensors, so the same file fits both; since to_i32 multiplies by 400 and truncates
 * toward zero, both exact under negation, every total with the toy is minus the golden total. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "core/eval/state.h"
#include "base/isa.h"
#include "nnue.h"
#include "support.h"
#include "toy_negate_f32.h"

static const char *net_path;

/* docs/examples/multilayer_f32.yaml with the toy inserted before its output layer. */
static char *toy_yaml(void)
{
    char *text = test_read_file(test_source_path("docs/examples/multilayer_f32.yaml"), NULL);
    ck_assert_ptr_nonnull(text);
    const char *anchor = "  - {name: out, type: to_i32";
    char *at = strstr(text, anchor);
    ck_assert_ptr_nonnull(at);
    const char *toy = "  - {name: neg, type: toy_negate_f32}\n";
    char *out = malloc(strlen(text) + strlen(toy) + 1);
    sprintf(out, "%.*s%s%s", (int)(at - text), text, toy, at);
    free(text);
    return out;
}

static nnue_net *load(const char *yaml, const char *name)
{
    nnue_arch *a;
    nnue_net *n;
    nnue_error err;
    char msg[1200];
    if (nnue_arch_load_string(yaml, strlen(yaml), name, &a, &err) != NNUE_OK ||
        nnue_net_load(a, net_path, &n, &err) != NNUE_OK) {
        nnue_error_format(&err, msg, sizeof msg);
        ck_abort_msg("%s: %s", name, msg);
    }
    nnue_arch_free(a);
    return n;
}

START_TEST(unknown_before_registration_then_named)
{
    char *yaml = toy_yaml();
    nnue_arch *a;
    nnue_error err;
    /* The library does not know the type until it is registered: refused at its line. */
    if (nnue_layer_type_find("toy_negate_f32") == NULL) {
        ck_assert_int_eq(nnue_arch_load_string(yaml, strlen(yaml), "toy.yaml", &a, &err), NNUE_E_SCHEMA);
        ck_assert_msg(strstr(err.message, "found 'toy_negate_f32'") != NULL, "%s", err.message);
    }
    ck_assert_int_eq(nnue_register_internal_layer_type(&toy_negate_f32, &err), NNUE_OK);
    ck_assert_int_eq(nnue_register_internal_layer_type(&toy_negate_f32, &err), NNUE_OK); /* again: a no-op */
    static const nnue_layer_type incomplete = {.name = "toy_incomplete"};
    ck_assert_int_eq(nnue_register_internal_layer_type(&incomplete, &err), NNUE_E_ARG);
    ck_assert_msg(strstr(err.message, "layer type 'toy_incomplete': expected a name and the members"), "%s",
                  err.message);
    nnue_layer_type clash = toy_negate_f32; /* complete, but under a built-in type's name */
    clash.name = "affine_f32";
    ck_assert_int_eq(nnue_register_internal_layer_type(&clash, &err), NNUE_E_ARG);
    ck_assert_msg(strstr(err.message, "'affine_f32': the name is taken by another layer type"), "%s", err.message);
    ck_assert_int_eq(nnue_arch_load_string(yaml, strlen(yaml), "toy.yaml", &a, &err), NNUE_OK);
    ck_assert_ptr_nonnull(strstr(a->layers[a->n_layers - 2].type->name, "toy_negate_f32"));
    char desc[4096];
    nnue_arch_describe(a, desc, sizeof desc);
    ck_assert_msg(strstr(desc, "ToInt32[1;scale=0x1.9p+8](ToyNegateF32[1](AffineF32[1<-32]") != NULL, "%s", desc);
    nnue_arch_free(a);
    free(yaml);
}
END_TEST

START_TEST(negated_goldens_on_every_isa_and_incrementally)
{
    nnue_error err;
    ck_assert_int_eq(nnue_register_internal_layer_type(&toy_negate_f32, &err), NNUE_OK);
    char *yaml = toy_yaml();
    char *plain = test_read_file(test_source_path("docs/examples/multilayer_f32.yaml"), NULL);
    nnue_net *toy = load(yaml, "toy.yaml"), *base = load(plain, "multilayer_f32.yaml");
    const nnue_game *game = nnue_game_find("chess");
    char *text = test_read_file(test_shared_path("oracle/third/multilayer/goldensA.tsv"), NULL);
    ck_assert_ptr_nonnull(text);
    int rows = 0, nonzero = 0;
    char *save = NULL;
    nnue_move moves[NNUE_MAX_MOVES];
    for (char *line = strtok_r(text, "\n", &save); line && rows < 400; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "fen\t", 4) == 0)
            continue;
        char *f[4];
        ck_assert_int_eq(test_split_tabs(line, f, 4), 4);
        void *pos = calloc(1, game->pos_size);
        nnue_error err;
        ck_assert_int_eq(game->parse(pos, f[0], &err), 0);
        int golden = atoi(f[3]);
        for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
            nnue_state *s = nnue_state_new(toy, 2), *b = nnue_state_new(base, 0);
            ck_assert_int_eq(nnue_state_set_isa(s, (nnue_isa)isa), 0);
            ck_assert_int_eq(nnue_state_set_isa(b, (nnue_isa)isa), 0);
            nnue_eval_detail d, db;
            nnue_state_reset(s, game->board(pos));
            nnue_state_reset(b, game->board(pos));
            nnue_evaluate(s, game->board(pos), &d);
            nnue_evaluate(b, game->board(pos), &db);
            ck_assert_msg(db.total == golden && d.total == -golden, "%s on %s: %d and %d, golden %d", f[0],
                          nnue_isa_label((nnue_isa)isa), db.total, d.total, golden);
            /* One move on: pushed with its delta vs a fresh state. */
            int n = game->legal_moves(pos, moves);
            if (n > 0) {
                nnue_delta delta;
                game->make(pos, moves[rows % n], &delta);
                nnue_state_push(s, game->board(pos), &delta);
                nnue_eval_detail inc, full;
                nnue_evaluate(s, game->board(pos), &inc);
                nnue_state *fresh = nnue_state_new(toy, 0);
                ck_assert_int_eq(nnue_state_set_isa(fresh, (nnue_isa)isa), 0);
                nnue_state_reset(fresh, game->board(pos));
                nnue_evaluate(fresh, game->board(pos), &full);
                ck_assert_int_eq(inc.total, full.total);
                nnue_state_free(fresh);
                nnue_state_pop(s);
                game->unmake(pos, moves[rows % n]);
            }
            nnue_state_free(s);
            nnue_state_free(b);
        }
        nonzero += golden != 0;
        free(pos);
        rows++;
    }
    ck_assert_int_eq(rows, 400);
    ck_assert_int_gt(nonzero, 300); /* -x == x only at 0: the check must see real values */
    nnue_net_free(toy);
    nnue_net_free(base);
    free(text);
    free(plain);
    free(yaml);
}
END_TEST

int main(void)
{
    test_require_shared("oracle/third/multilayer/goldensA.tsv");
    test_require_shared("oracle/third/multilayer/multilayer-random.bin");
    net_path = test_shared_path("oracle/third/multilayer/multilayer-random.bin");
    Suite *s = suite_create("extend_layer");
    TCase *tc = tcase_create("toy_negate_f32");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, unknown_before_registration_then_named);
    tcase_add_test(tc, negated_goldens_on_every_isa_and_incrementally);
    suite_add_tcase(s, tc);
    return test_run(s);
}
