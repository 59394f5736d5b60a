/* tests/extend/test_extend_public.c: the public extension API (include/nnue_extend.h) from the
 * inside: what registration refuses and why, and the toy extension of outside/toy_extension.c
 * (compiled in here; test_outside.sh builds the same file as a shared object) evaluated on random
 * games: after every move, the incrementally updated state equals a fresh one and minus the same
 * net read through built-in pieces (outside/builtin.yaml), on every kernel set. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/isa.h"
#include "core/eval/state.h"
#include "core/net/net.h"
#include "nnue.h"
#include "nnue_extend.h"
#include "support.h"

nnue_status nnue_extension_init(nnue_error *err); /* outside/toy_extension.c */

static void propagate_nothing(const nnue_ext_layer *l, const void *const *t, const int32_t *const *in, int32_t *out)
{
    (void)t;
    for (uint32_t i = 0; i < l->out_size; i++)
        out[i] = in[0][i];
}

static int active_nothing(const nnue_board *b, int persp, uint32_t *out)
{
    (void)b, (void)persp, (void)out;
    return 0;
}

static void changed_nothing(const nnue_board *a, const nnue_delta *d, int persp, uint32_t *r, int *nr, uint32_t *ad,
                            int *na)
{
    (void)a, (void)d, (void)persp, (void)r, (void)ad;
    *nr = *na = 0;
}

static void expect_refused_layer(const nnue_ext_layer_type *t, const char *words)
{
    nnue_error err;
    ck_assert_int_eq(nnue_register_layer_type(t, &err), NNUE_E_ARG);
    ck_assert_msg(strstr(err.message, words) != NULL, "expected '%s' in: %s", words, err.message);
}

START_TEST(registration_refuses_with_reasons)
{
    nnue_error err;
    static const nnue_ext_layer_type good = {.abi = NNUE_EXTEND_ABI, .name = "pub_identity", .min_inputs = 1,
                                      .max_inputs = 1, .propagate = propagate_nothing};
    ck_assert_int_eq(nnue_register_layer_type(NULL, &err), NNUE_E_ARG);
    nnue_ext_layer_type t = good;
    t.abi = 99;
    expect_refused_layer(&t, "built for extension ABI 99; this library reads ABI 1");
    t = good;
    t.propagate = NULL;
    expect_refused_layer(&t, "needs a name and propagate");
    t = good;
    t.max_inputs = 5;
    expect_refused_layer(&t, "inputs 1..5");
    t = good;
    static const char *const reserved[] = {"inputs", NULL};
    t.params = reserved;
    expect_refused_layer(&t, "the key 'inputs' belongs to every layer");
    static const char *const twice[] = {"k", "k", NULL};
    t.params = twice;
    expect_refused_layer(&t, "the key 'k' twice");
    static const char *const nine[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", NULL};
    t.params = nine;
    expect_refused_layer(&t, "at most 8 parameter keys");
    /* names and keys follow the rule of built-in names (base/names.h; issue 49) */
    static char huge[1 << 20];
    memset(huge, 'a', sizeof huge - 1);
    t = good;
    t.name = huge;
    expect_refused_layer(&t, "a name of more than 95 characters");
    t.name = "two words";
    expect_refused_layer(&t, "character 4 is 0x20; expected a letter, a digit or '_'");
    t.name = "line\nbreak";
    expect_refused_layer(&t, "character 5 is 0x0a");
    t.name = "9lives";
    expect_refused_layer(&t, "character 1 is 0x39 '9'; expected a letter or '_' first");
    t = good;
    static const char *const spaced[] = {"ok_key", "bad key", NULL};
    t.params = spaced;
    expect_refused_layer(&t, "parameter key 1 'bad...': character 4 is 0x20");
    t = good;
    t.name = "affine"; /* a built-in type's name */
    expect_refused_layer(&t, "'affine': the name is taken");
    ck_assert_int_eq(nnue_register_layer_type(&good, &err), NNUE_OK);
    ck_assert_int_eq(nnue_register_layer_type(&good, &err), NNUE_OK); /* again: a no-op */

    static const nnue_ext_feature_set set = {.abi = NNUE_EXTEND_ABI, .name = "PubNothing", .game = "chess",
                                      .dimensions = 10, .active = active_nothing, .changed = changed_nothing};
    nnue_ext_feature_set s = set;
    ck_assert_int_eq(nnue_register_feature_set(NULL, &err), NNUE_E_ARG);
    s.game = "go";
    ck_assert_int_eq(nnue_register_feature_set(&s, &err), NNUE_E_ARG);
    ck_assert_msg(strstr(err.message, "reads the game 'go', which is not known"), "%s", err.message);
    s = set;
    s.max_active = 300;
    ck_assert_int_eq(nnue_register_feature_set(&s, &err), NNUE_E_ARG);
    ck_assert_msg(strstr(err.message, "at most 256 each"), "%s", err.message);
    s = set;
    s.name = huge;
    ck_assert_int_eq(nnue_register_feature_set(&s, &err), NNUE_E_ARG);
    ck_assert_msg(strstr(err.message, "feature set 'aaaa"), "%s", err.message);
    ck_assert_msg(strstr(err.message, "a name of more than 95 characters"), "%s", err.message);
    s.name = "Half KP\n";
    ck_assert_int_eq(nnue_register_feature_set(&s, &err), NNUE_E_ARG);
    ck_assert_msg(strstr(err.message, "feature set 'Half...': character 5 is 0x20"), "%s", err.message);
    s = set;
    s.name = "HalfKP";
    ck_assert_int_eq(nnue_register_feature_set(&s, &err), NNUE_E_ARG);
    ck_assert_msg(strstr(err.message, "'HalfKP': the name is taken"), "%s", err.message);
    ck_assert_int_eq(nnue_register_feature_set(&set, &err), NNUE_OK);
    ck_assert_int_eq(nnue_register_feature_set(&set, &err), NNUE_OK);
}
END_TEST

static nnue_arch *load_arch(const char *relative)
{
    nnue_arch *a = NULL;
    nnue_error err;
    char msg[1200];
    if (nnue_arch_load(test_source_path(relative), &a, &err) != NNUE_OK) {
        nnue_error_format(&err, msg, sizeof msg);
        ck_abort_msg("%s", msg);
    }
    return a;
}

START_TEST(yaml_errors_name_the_key)
{
    nnue_error err;
    ck_assert_int_eq(nnue_extension_init(&err), NNUE_OK);
    static const char *const cases[][2] = {
        {"{name: out, type: toy_affine}", "missing required key 'outputs'"},
        {"{name: out, type: toy_affine, outputs: x}", "expected a finite number for 'outputs', found 'x'"},
        {"{name: out, type: toy_affine, outputs: 1, sign: 2}", "'sign' must be 1 or -1"}, /* the type's shape() */
    };
    char *text = test_read_file(test_source_path("tests/extend/outside/toy.yaml"), NULL);
    ck_assert_ptr_nonnull(text);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *line = "{name: out, type: toy_affine, outputs: 1, sign: -1}";
        char *at = strstr(text, line);
        ck_assert_ptr_nonnull(at);
        char yaml[4096];
        snprintf(yaml, sizeof yaml, "%.*s%s%s", (int)(at - text), text, cases[i][0], at + strlen(line));
        nnue_arch *a;
        ck_assert_int_ne(nnue_arch_load_string(yaml, strlen(yaml), "bad.yaml", &a, &err), NNUE_OK);
        ck_assert_msg(strstr(err.message, cases[i][1]) != NULL, "expected '%s' in: %s", cases[i][1], err.message);
        ck_assert_msg(err.line > 0, "no line for: %s", err.message);
    }
    free(text);
}
END_TEST

START_TEST(toy_incremental_equals_fresh_and_builtin_on_every_isa)
{
    nnue_error err;
    ck_assert_int_eq(nnue_extension_init(&err), NNUE_OK);
    ck_assert_int_eq(nnue_extension_init(&err), NNUE_OK); /* twice: every registration a no-op */
    nnue_arch *toy_arch = load_arch("tests/extend/outside/toy.yaml");
    nnue_arch *base_arch = load_arch("tests/extend/outside/builtin.yaml");
    char path[4096];
    snprintf(path, sizeof path, "%s/extend-public-toy.bin", test_build_dir());
    ck_assert_int_eq(nnue_net_write_random(toy_arch, path, 5, &err), NNUE_OK);
    nnue_net *toy, *base;
    ck_assert_int_eq(nnue_net_load(toy_arch, path, &toy, &err), NNUE_OK);
    ck_assert_int_eq(nnue_net_load(base_arch, path, &base, &err), NNUE_OK);
    const nnue_game *game = nnue_game_find("chess");
    void *pos = calloc(1, game->pos_size);
    nnue_move moves[NNUE_MAX_MOVES];
    unsigned seed = 12345;
    int checked = 0, nonzero = 0;
    for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
        for (int g = 0; g < 6; g++) {
            ck_assert_int_eq(game->parse(pos, game->start, &err), 0);
            nnue_state *inc = nnue_state_new(toy, 64);
            ck_assert_int_eq(nnue_state_set_isa(inc, (nnue_isa)isa), 0);
            ck_assert_int_eq(nnue_state_reset(inc, game->board(pos)), 0);
            for (int ply = 0; ply < 60; ply++) {
                int n = game->legal_moves(pos, moves);
                if (n == 0)
                    break;
                seed = seed * 1103515245u + 12345u;
                nnue_delta delta;
                game->make(pos, moves[(seed >> 8) % (unsigned)n], &delta);
                ck_assert_int_eq(nnue_state_push(inc, game->board(pos), &delta), 0);
                nnue_state *fresh = nnue_state_new(toy, 0), *b = nnue_state_new(base, 0);
                ck_assert_int_eq(nnue_state_set_isa(fresh, (nnue_isa)isa), 0);
                ck_assert_int_eq(nnue_state_set_isa(b, (nnue_isa)isa), 0);
                nnue_state_reset(fresh, game->board(pos));
                nnue_state_reset(b, game->board(pos));
                nnue_eval_detail di, df, db;
                nnue_evaluate(inc, game->board(pos), &di);
                nnue_evaluate(fresh, game->board(pos), &df);
                nnue_evaluate(b, game->board(pos), &db);
                ck_assert_msg(di.total == df.total && df.total == -db.total,
                              "%s game %d ply %d: incremental %d, fresh %d, built-in %d",
                              nnue_isa_label((nnue_isa)isa), g, ply, di.total, df.total, db.total);
                checked++;
                nonzero += df.total != 0;
                nnue_state_free(fresh);
                nnue_state_free(b);
            }
            nnue_state_free(inc);
        }
    }
    ck_assert_int_gt(checked, 300);
    ck_assert_int_gt(nonzero, checked * 9 / 10);
    free(pos);
    nnue_net_free(toy);
    nnue_net_free(base);
    nnue_arch_free(toy_arch);
    nnue_arch_free(base_arch);
    remove(path);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("extend_public");
    TCase *t = tcase_create("public");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, registration_refuses_with_reasons);
    tcase_add_test(t, yaml_errors_name_the_key);
    tcase_add_test(t, toy_incremental_equals_fresh_and_builtin_on_every_isa);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return test_run(suite());
}
