/* tests/games/test_game_versions.c: the game descriptor's version (include/nnue_board.h: its size
 * field, games/registry.c) and the hooks of version 2, with the toy 9x10 game (toy_game.c):
 *  - the built-in descriptors are of the current size and carry their hooks (chess: a threat
 *    maker, filtered too, and the material rule, xiangqi: a threat maker, filtered too, shogi:
 *    neither);
 *  - a descriptor of the first version (NNUE_GAME_SIZE_V1 bytes, no size field, in a buffer of
 *    exactly that size so that a sanitizer build catches a read past it) still registers through
 *    the deprecated nnue_game_register and works: perft, plain make, no threats, no material;
 *  - a descriptor of the second version (NNUE_GAME_SIZE_V2 bytes, built before var_values) still
 *    registers through nnue_register_game, as a copy of the current size without the batch and
 *    the filtered threat maker;
 *  - a wrong size is refused with a message naming both sizes;
 *  - the deprecated names of the extension calls still register;
 *  - centipawns ask the game for the material (core/net/net_centipawns.c): chess counts
 *    Stockfish's material on corpus A as the FEN letters do, and a game without the hook gets a
 *    clear "no material rule for game X" instead of a value. */
#include <stdlib.h>
#include <string.h>

#include "features/feature_set.h"
#include "nnue.h"
#include "nnue_extend.h"
#include "support.h"
#include "toy_game.h"

extern const nnue_feature_set toy_features;

/* The deprecated names are called on purpose here: old callers must keep working. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

START_TEST(builtin_descriptors_are_current)
{
    for (int i = 0; nnue_games[i]; i++)
        ck_assert_uint_eq(nnue_games[i]->size, sizeof(nnue_game));
    const nnue_game *chess = nnue_game_find("chess"), *shogi = nnue_game_find("shogi");
    const nnue_game *xiangqi = nnue_game_find("xiangqi");
    ck_assert(chess->make_threats && chess->make_threats_filtered && chess->material &&
              nnue_game_records_threats(chess));
    ck_assert(xiangqi->make_threats && xiangqi->make_threats_filtered && !xiangqi->material &&
              nnue_game_records_threats(xiangqi));
    ck_assert(!shogi->make_threats && !shogi->make_threats_filtered && !shogi->material &&
              !nnue_game_records_threats(shogi));
    ck_assert(shogi->var_values && xiangqi->var_values && !chess->var_values); /* chess offers no variables */
    ck_assert_uint_eq(NNUE_GAME_SIZE_V1, offsetof(nnue_game, write_record) + sizeof(void (*)(void)));
    ck_assert_uint_eq(NNUE_GAME_SIZE_V2, offsetof(nnue_game, material) + sizeof(void (*)(void)));
}
END_TEST

/* A first-version descriptor, exactly NNUE_GAME_SIZE_V1 bytes long (caller frees). */
static nnue_game *first_version(const char *name)
{
    unsigned char *bytes = malloc(NNUE_GAME_SIZE_V1);
    ck_assert_ptr_nonnull(bytes);
    memcpy(bytes, &toy_game, NNUE_GAME_SIZE_V1);
    memcpy(bytes + offsetof(nnue_game, name), &name, sizeof name);
    return (nnue_game *)bytes;
}

START_TEST(first_version_still_registers)
{
    nnue_game *old = first_version("toy9x10v1");
    nnue_error err;
    int count = nnue_game_count();
    ck_assert_int_eq(nnue_game_register(old, &err), NNUE_OK);
    ck_assert_int_eq(nnue_game_count(), count + 1);
    ck_assert_int_eq(nnue_game_register(old, &err), NNUE_OK); /* again: a no-op */
    ck_assert_int_eq(nnue_game_count(), count + 1);
    const nnue_game *g = nnue_game_find("toy9x10v1");
    ck_assert_ptr_nonnull(g);
    ck_assert_ptr_eq(nnue_game_at(count), g);
    ck_assert_ptr_ne(g, old); /* the library's copy, of the current size, later fields empty */
    ck_assert_uint_eq(g->size, sizeof(nnue_game));
    ck_assert(!g->make_threats && !g->material && !g->var_values && !g->make_threats_filtered);
    ck_assert_ptr_eq(g->parse, toy_game.parse);
    ck_assert_ptr_eq(g->make, toy_game.make);
    ck_assert_int_eq(g->files, TOY_FILES);

    /* It plays: perft through the copy and through the caller's own bytes agree with the toy's. */
    void *pos = malloc(toy_game.pos_size);
    ck_assert_int_eq(g->parse(pos, g->start, &err), 0);
    unsigned long long expected = nnue_perft(&toy_game, pos, 3);
    ck_assert_uint_gt(expected, 0);
    ck_assert_uint_eq(nnue_perft(g, pos, 3), expected);
    ck_assert_uint_eq(nnue_perft(old, pos, 3), expected);
    /* No threat maker: a plain make, the lists emptied, from either pointer. */
    ck_assert_int_eq(nnue_game_records_threats(old), 0);
    ck_assert_int_eq(nnue_game_records_threats(g), 0);
    nnue_move moves[NNUE_MAX_MOVES];
    ck_assert_int_gt(g->legal_moves(pos, moves), 0);
    nnue_delta delta;
    nnue_threats *t = malloc(sizeof *t);
    t->n_removed = t->n_added = 7;
    ck_assert_int_eq(nnue_game_make_threats(old, pos, moves[0], &delta, t), 0);
    ck_assert_int_eq(t->n_removed + t->n_added, 0);
    ck_assert_int_ge(delta.count, 1);
    g->unmake(pos, moves[0]);
    t->n_removed = t->n_added = 7; /* the filtered entry falls back to the same */
    ck_assert_int_eq(nnue_game_make_threats_filtered(old, pos, moves[0], &delta, t, NULL), 0);
    ck_assert_int_eq(t->n_removed + t->n_added, 0);
    g->unmake(pos, moves[0]);
    ck_assert_uint_eq(nnue_perft(g, pos, 2), nnue_perft(&toy_game, pos, 2));
    free(t);
    free(pos);
    /* Its name is taken now, by the copy: another descriptor under it is refused. */
    nnue_game other = toy_game;
    other.name = "toy9x10v1";
    ck_assert_int_eq(nnue_register_game(&other, &err), NNUE_E_ARG);
    ck_assert_msg(strstr(err.message, "the name is taken"), "%s", err.message);
    /* The descriptor registered with its size through the old name is found as itself. */
    ck_assert_int_eq(nnue_game_register(&toy_game, &err), NNUE_OK);
    ck_assert_ptr_eq(nnue_game_find(toy_game.name), &toy_game);
    free(old); /* the library keeps its copy, not the caller's bytes */
    ck_assert_str_eq(nnue_game_find("toy9x10v1")->name, "toy9x10v1");
}
END_TEST

/* A second-version descriptor (through material, size NNUE_GAME_SIZE_V2) in a buffer of exactly
 * that many bytes: nnue_register_game reads no further and registers a copy of the current size. */
START_TEST(second_version_still_registers)
{
    unsigned char *bytes = malloc(NNUE_GAME_SIZE_V2);
    ck_assert_ptr_nonnull(bytes);
    nnue_game v2 = toy_game;
    v2.name = "toy9x10v2";
    v2.size = (uint32_t)NNUE_GAME_SIZE_V2;
    memcpy(bytes, &v2, NNUE_GAME_SIZE_V2);
    const nnue_game *old = (const nnue_game *)bytes;
    nnue_error err;
    int count = nnue_game_count();
    ck_assert_msg(nnue_register_game(old, &err) == NNUE_OK, "%s", err.message);
    ck_assert_int_eq(nnue_register_game(old, &err), NNUE_OK); /* again: a no-op */
    ck_assert_int_eq(nnue_game_count(), count + 1);
    const nnue_game *g = nnue_game_find("toy9x10v2");
    ck_assert_ptr_nonnull(g);
    ck_assert_ptr_ne(g, old);
    ck_assert_uint_eq(g->size, sizeof(nnue_game));
    ck_assert_ptr_null(g->var_values);
    ck_assert_ptr_null(g->make_threats_filtered);
    ck_assert_ptr_eq(g->vars, toy_game.vars);
    ck_assert_int_eq(g->n_vars, toy_game.n_vars);
    ck_assert_ptr_eq(g->make, toy_game.make);
    void *pos = malloc(toy_game.pos_size);
    ck_assert_int_eq(g->parse(pos, g->start, &err), 0);
    ck_assert_uint_eq(nnue_perft(g, pos, 3), nnue_perft(&toy_game, pos, 3));
    free(pos);
    free(bytes); /* the library keeps its copy */
    ck_assert_str_eq(nnue_game_find("toy9x10v2")->name, "toy9x10v2");
}
END_TEST

START_TEST(wrong_size_is_refused)
{
    nnue_error err;
    static nnue_game g; /* registered below: the registry keeps the pointer, so it outlives the test */
    g = toy_game;
    g.name = "toysize";
    int count = nnue_game_count();
    g.size = 0; /* not set */
    ck_assert_int_eq(nnue_register_game(&g, &err), NNUE_E_ARG);
    ck_assert_msg(strstr(err.message, "game 'toysize': expected a descriptor of size") &&
                      strstr(err.message, "found size 0") && strstr(err.message, "nnue_game_register"),
                  "%s", err.message);
    g.size = (uint32_t)sizeof(nnue_game) + 8; /* a newer header's */
    ck_assert_int_eq(nnue_register_game(&g, &err), NNUE_E_ARG);
    ck_assert_msg(strstr(err.message, "newer nnue_board.h"), "%s", err.message);
    g.size = (uint32_t)NNUE_GAME_SIZE_V1;
    ck_assert_int_eq(nnue_register_game(&g, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_game_count(), count);
    ck_assert_ptr_null(nnue_game_find("toysize"));
    g.size = sizeof(nnue_game);
    ck_assert_int_eq(nnue_register_game(&g, &err), NNUE_OK);
    ck_assert_ptr_eq(nnue_game_find("toysize"), &g);
}
END_TEST

/* The deprecated extension names register as the new ones do (the same checks, the same no-op). */
START_TEST(deprecated_extension_names_still_register)
{
    nnue_error err;
    ck_assert_int_eq(nnue_ext_register_layer_type(NULL, &err), NNUE_E_ARG);
    ck_assert_msg(strstr(err.message, "type is NULL"), "%s", err.message);
    ck_assert_int_eq(nnue_ext_register_feature_set(NULL, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_game_register(NULL, &err), NNUE_E_ARG);
    static const nnue_ext_feature_set set = {.abi = NNUE_EXTEND_ABI, .name = "OldNameSet", .game = "toy9x10",
                                             .dimensions = 4, .active = NULL};
    ck_assert_int_eq(nnue_ext_register_feature_set(&set, &err), NNUE_E_ARG); /* active is required */
    ck_assert_msg(strstr(err.message, "nnue_register_feature_set"), "%s", err.message);
}
END_TEST

/* Chess material from the board (games/chess) equals Stockfish's count from the FEN's letters. */
static int letters_material(const char *fen)
{
    static const char pieces[] = "pnbrq";
    static const int weight[] = {1, 3, 3, 5, 9};
    int m = 0;
    for (const char *p = fen; *p && *p != ' '; p++) {
        const char *at = strchr(pieces, *p | 0x20);
        if (at && *at)
            m += weight[at - pieces];
    }
    return m;
}

START_TEST(chess_counts_material)
{
    const char *path = test_data_path("tests/reference/chess/corpusA.fen");
    test_require_data("tests/reference/chess/corpusA.fen");
    char *text = test_read_file(path, NULL);
    ck_assert_ptr_nonnull(text);
    const nnue_game *chess = nnue_game_find("chess");
    void *pos = malloc(chess->pos_size);
    nnue_error err;
    int n = 0, distinct[80] = {0};
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"), n++) {
        ck_assert_int_eq(chess->parse(pos, line, &err), 0);
        int m = chess->material(chess->board(pos));
        ck_assert_msg(m == letters_material(line), "%s: %d", line, m);
        distinct[m < 79 ? m : 79] = 1;
    }
    ck_assert_int_gt(n, 2000);
    int kinds = 0;
    for (int i = 0; i < 80; i++)
        kinds += distinct[i];
    ck_assert_int_gt(kinds, 20); /* the corpus spans many material counts */
    ck_assert_int_eq(chess->parse(pos, "startpos", &err), 0);
    ck_assert_int_eq(chess->material(chess->board(pos)), 78);
    free(pos);
    free(text);
}
END_TEST

/* A material centipawn model over a game without the hook: no value, and why. */
START_TEST(game_without_material_rule)
{
    char *yaml = test_read_file(test_source_path("tests/games/toy9x10.yaml"), NULL);
    ck_assert_ptr_nonnull(yaml);
    const char *cp = "centipawns: {engine: Toy, material: [1, 2, 3, 400]}\n";
    yaml = realloc(yaml, strlen(yaml) + strlen(cp) + 1);
    strcat(yaml, cp);
    nnue_arch *arch;
    nnue_error err;
    ck_assert_msg(nnue_arch_load_string(yaml, strlen(yaml), "toy.yaml", &arch, &err) == NNUE_OK, "%s", err.message);
    nnue_cp_rule rule;
    nnue_cp_rule_for(arch, NULL, &rule);
    ck_assert_int_eq(rule.kind, NNUE_CP_NONE);
    ck_assert_msg(strstr(rule.why, "no material rule for game toy9x10"), "%s", rule.why);
    nnue_eval_detail d = {.psqt = 1600, .positional = 1600, .total = 200};
    int value = 12345;
    ck_assert_int_eq(nnue_cp_convert(&rule, &d, toy_game.start, &value), 0);
    /* A material rule handed in by hand over such a game, or over none: 0, not a crash. */
    rule = (nnue_cp_rule){.kind = NNUE_CP_MATERIAL, .a = {0, 0, 0, 100}, .game = &toy_game};
    ck_assert_int_eq(nnue_cp_convert(&rule, &d, toy_game.start, &value), 0);
    rule.game = NULL;
    ck_assert_int_eq(nnue_cp_convert(&rule, &d, toy_game.start, &value), 0);
    ck_assert_int_eq(value, 12345);
    /* Chess has one: a = 100 everywhere gives v = psqt / 16 + positional / 16; a text that does
     * not parse gives none. */
    rule.game = nnue_game_find("chess");
    ck_assert_int_eq(nnue_cp_convert(&rule, &d, "startpos", &value), 1);
    ck_assert_int_eq(value, 200);
    ck_assert_int_eq(nnue_cp_convert(&rule, &d, "not a fen", &value), 0);
    nnue_arch_free(arch);
    free(yaml);
}
END_TEST

int main(void)
{
    if (toy_register() != 0)
        return 1;
    Suite *s = suite_create("game_versions");
    TCase *tc = tcase_create("game_versions");
    tcase_add_test(tc, builtin_descriptors_are_current);
    tcase_add_test(tc, first_version_still_registers);
    tcase_add_test(tc, second_version_still_registers);
    tcase_add_test(tc, wrong_size_is_refused);
    tcase_add_test(tc, deprecated_extension_names_still_register);
    tcase_add_test(tc, chess_counts_material);
    tcase_add_test(tc, game_without_material_rule);
    suite_add_tcase(s, tc);
    return test_run(s);
}
