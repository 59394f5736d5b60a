/* tests/shogi/test_shogi_yo26_names.c: YaneuraOu's generated SFNN names load by name (issue 37).
 *   - A's and B's names equal archs/shogi_sfnn_progress8.yaml and archs/shogi_sfnn_shard.yaml
 *     (description, hashes, stacks) and FACTS.md's numbers (header hash, bytes per stack, the
 *     Progress section's bytes, the file size with the description); SFNN-1536 and its long form
 *     equal archs/shogi_sfnn1536.yaml;
 *   - every hand rule x every king rule (none included) x progress (none, 3, 8) of FACTS.md
 *     section 4 picks the stack a reference written here from the tables picks, on corpus A;
 *   - names the generator refuses are refused.
 * Facts: shared/oracle/shogi/yo26/FACTS.md sections 1, 2, 4. Skips (77) without ../shared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "core/arch/expr_prog.h"
#include "core/arch/generated_name.h"
#include "features/table_var.h"
#include "nnue.h"
#include "support.h"

static nnue_arch *by_name(const char *name)
{
    nnue_arch *a = NULL;
    nnue_error err;
    if (nnue_arch_load_named(name, &a, &err) != NNUE_OK) {
        char msg[1200];
        nnue_error_format(&err, msg, sizeof msg);
        ck_abort_msg("%s: %s", name, msg);
    }
    return a;
}

static void same_arch(const nnue_arch *a, const nnue_arch *b)
{
    char da[4096], db[4096];
    nnue_arch_describe(a, da, sizeof da);
    nnue_arch_describe(b, db, sizeof db);
    ck_assert_str_eq(da, db);
    ck_assert_uint_eq(a->file_hash, b->file_hash);
    ck_assert_uint_eq(a->stacks, b->stacks);
    ck_assert_uint_eq(nnue_arch_stack_bytes(a), nnue_arch_stack_bytes(b));
    ck_assert_uint_eq(nnue_arch_table_bytes(a), nnue_arch_table_bytes(b));
    ck_assert_uint_eq(a->file_size, b->file_size);
}

START_TEST(names_of_the_two_nets)
{
    static const struct {
        const char *name, *yaml;
        uint32_t hash, stacks;
        uint64_t stack_bytes, table_bytes, description, file;
    } nets[] = {
        {"SFNN_halfkahm2_512_8_32_hand64z_k3k3_progress8", "archs/shogi_sfnn_progress8.yaml", 0x5370697D, 4608, 5320,
         38039384 - 37537824, 139, 62553944},
        {"SFNN_halfkahm2_1024_7_64_c256_s192x4_hand4_k13k13z", "archs/shogi_sfnn_shard.yaml", 0x3C203B32, 676, 10600,
         0, 143, 82241023},
    };
    for (int i = 0; i < 2; i++) {
        nnue_arch *g = by_name(nets[i].name), *y = by_name(test_source_path(nets[i].yaml));
        same_arch(g, y);
        ck_assert_uint_eq(g->file_hash, nets[i].hash);
        ck_assert_uint_eq(g->stacks, nets[i].stacks);
        ck_assert_uint_eq(nnue_arch_stack_bytes(g), nets[i].stack_bytes);
        ck_assert_uint_eq(nnue_arch_table_bytes(g), nets[i].table_bytes);
        char d[512];
        ck_assert_int_eq(nnue_generated_description(g, d, sizeof d), (int)nets[i].description);
        /* The FT stored plain instead of LEB128 is the arch's own size; the file's is smaller. */
        ck_assert_uint_gt(g->file_size + nets[i].description, nets[i].file);
        nnue_arch_free(g);
        nnue_arch_free(y);
    }
    nnue_arch *ref = by_name(test_source_path("archs/shogi_sfnn1536.yaml"));
    for (int i = 0; i < 2; i++) {
        nnue_arch *g = by_name(i ? "SFNN-1536" : "SFNN_halfkahm2_1536_15_32_k3k3");
        ck_assert_uint_eq(g->file_hash, ref->file_hash);
        ck_assert_uint_eq(g->stacks, ref->stacks);
        ck_assert_uint_eq(nnue_arch_stack_bytes(g), nnue_arch_stack_bytes(ref));
        ck_assert_uint_eq(g->file_size, ref->file_size);
        nnue_arch_free(g);
    }
    nnue_arch_free(ref);
}
END_TEST

/* FACTS.md section 4, written again from the tables. h[]: pawn..rook in hand of one side. */
static int hand_single(const char *t, const uint8_t *h)
{
    int P = h[1], L = h[2], N = h[3], S = h[4], G = h[5], B = h[6], R = h[7];
    if (!strcmp(t, "hand4")) return B > 0;
    if (!strcmp(t, "hand16")) return (P > 0) + 2 * (B > 0);
    if (!strcmp(t, "hand64")) return (P + L + N > 0) + 2 * (G + S + R > 0) + 4 * (B > 0);
    if (!strcmp(t, "hand64z")) { int v = (P + 2 * (L + N) + 3 * (S + G) + 5 * (B + R) + 3) / 4; return v < 7 ? v : 7; }
    if (!strcmp(t, "hand256")) return (P + L + N > 0) + 2 * (S + G > 0) + 4 * (B > 0) + 8 * (R > 0);
    return (P > 0) + 2 * (L + N > 0) + 4 * (S + G > 0) + 8 * (B > 0) + 16 * (R > 0); /* hand1024 */
}

static int king_single(const char *t, int r, int f)
{
    if (!strcmp(t, "k3k3")) return r / 3;
    if (!strcmp(t, "k9k9")) return r;
    if (!strcmp(t, "k9k9z")) return r < 3 ? 0 : r < 6 ? 1 : r == 6 ? 2 : 3 + 3 * (r - 7) + f / 3;
    if (!strcmp(t, "k13k13z")) return r < 7 ? r : 7 + 3 * (r - 7) + f / 3;
    if (!strcmp(t, "k21k21")) return r < 3 ? 0 : r < 6 ? 1 : r == 6 ? 2 : 3 + 9 * (r - 7) + f;
    return r < 3 ? 0 : r < 6 ? 1 : 2 + 9 * (r - 6) + f; /* k29k29 */
}

static const char *const hands[] = {"", "hand4", "hand16", "hand64", "hand64z", "hand256", "hand1024"};
static const int hand_m[] = {1, 2, 4, 8, 8, 16, 32};
static const char *const kings[] = {"", "k3k3", "k9k9", "k9k9z", "k13k13z", "k21k21", "k29k29"};
static const int king_k[] = {1, 3, 9, 9, 13, 21, 29};

static int reference(int hi, int ki, int progress, int p, const nnue_board *b)
{
    int stm = b->side_to_move, idx = 0;
    if (hi)
        idx = hand_single(hands[hi], b->hand[stm]) * hand_m[hi] + hand_single(hands[hi], b->hand[!stm]);
    if (ki) {
        int k = 0;
        for (int side = 0; side < 2; side++) {
            int c = side ? !stm : stm, sq = c ? 80 - b->king_sq[c] : b->king_sq[c];
            k = k * king_k[ki] + king_single(kings[ki], sq % 9, sq / 9);
        }
        idx = idx * king_k[ki] * king_k[ki] + k;
    }
    return progress ? idx * progress + p * progress / 256 : idx;
}

START_TEST(every_rule_buckets_as_the_tables_say)
{
    char *text = test_read_file(test_shared_path("oracle/shogi/corpusA.sfen"), NULL), *save = NULL;
    ck_assert_ptr_nonnull(text);
    const nnue_game *game = nnue_game_find("shogi");
    void *pos[300];
    int n = 0;
    for (char *line = strtok_r(text, "\n", &save); line && n < 300; line = strtok_r(NULL, "\n", &save)) {
        nnue_error err;
        pos[n] = calloc(1, game->pos_size);
        ck_assert_int_eq(game->parse(pos[n], line, &err), 0);
        n++;
    }
    static const int progresses[] = {0, 3, 8};
    int archs = 0, refused = 0;
    for (int hi = 0; hi < 7; hi++)
        for (int ki = 0; ki < 7; ki++)
            for (int pi = 0; pi < 3; pi++) {
                char name[128];
                int pr = progresses[pi];
                snprintf(name, sizeof name, "SFNN_halfkahm2_64_%d_32%s%s%s%s", (hi + ki) % 2 ? 7 : 8, hi ? "_" : "",
                         hands[hi], ki ? "_" : "", kings[ki]);
                if (pr)
                    snprintf(name + strlen(name), sizeof name - strlen(name), "_progress%d", pr);
                uint64_t stacks = (uint64_t)hand_m[hi] * hand_m[hi] * king_k[ki] * king_k[ki] * (pr ? pr : 1);
                nnue_arch *a = NULL;
                nnue_error err;
                if (nnue_arch_load_named(name, &a, &err) != NNUE_OK) {
                    /* the limits of base/arch_limits.h: 2^20 stacks, 1 GiB of layers */
                    ck_assert_msg(stacks > (1u << 19), "%s refused: %s", name, err.message);
                    refused++;
                    continue;
                }
                ck_assert_uint_eq(a->stacks, stacks);
                ck_assert_msg(stacks == 1 || a->selector.prog.n_steps > 0, "%s: selector not compiled", name);
                int slot = -1;
                for (int v = 0; v < a->selector.n_vars; v++)
                    if (a->selector.table_vars[v])
                        slot = v;
                ck_assert_int_eq(slot >= 0, pr != 0);
                for (int i = 0; i < n; i++)
                    for (int p = 0; p < 256; p += pr ? 17 : 256) {
                        int32_t values[NNUE_EXPR_MAX_VARS] = {0};
                        if (slot >= 0)
                            values[slot] = p;
                        const nnue_board *b = game->board(pos[i]);
                        int32_t got = nnue_expr_eval_with(&a->selector, b, values);
                        /* the compiled program (core/arch/expr_prog.h), what evaluations run */
                        ck_assert_msg(nnue_expr_run(&a->selector, b, values) == got, "%s: compiled %d, interpreted %d",
                                      name, nnue_expr_run(&a->selector, b, values), got);
                        ck_assert_msg(got == reference(hi, ki, pr, p, b), "%s, position %d, progress %d: %d, tables %d",
                                      name, i, p, got, reference(hi, ki, pr, p, b));
                    }
                nnue_arch_free(a);
                archs++;
            }
    fprintf(stderr, "%d generated architectures checked on %d positions, %d refused for their stack count\n", archs,
            n, refused);
    ck_assert_int_ge(archs, 136); /* 147 names, 11 past the limits */
    for (int i = 0; i < n; i++)
        free(pos[i]);
    free(text);
}
END_TEST

/* Each with the parser's own reason (issue 49: not the generic "neither a built-in ..."). */
START_TEST(names_the_generator_refuses)
{
    static const char *const bad[][2] = {
        {"SFNN_halfkahm2_512_9_32", "expected H1 = 8n or 8n - 1, found '9'"},
        {"SFNN_halfkp_512_8_32", "expected the feature halfkahm2 (the one feature set supported), found 'halfkp'"},
        {"SFNN_halfkahm2_512_8_32_hand8", "found 'hand8'"},
        {"SFNN_halfkahm2_512_8_32_progress5", "expected progress2, 3, 4, 8, 16 or 32, found 'progress5'"},
        {"SFNN_halfkahm2_512_8_32_k3k3_k9k9", "expected one king rule, found a second: 'k9k9'"},
        {"SFNN_halfkahm2_1024_7_64_c256_s128x4", "expected common + shard x groups = FT"},
        {"SFNN_halfkahm2_1024_7_64_c256_s192x3", "expected common + shard x groups = FT"},
        {"SFNN_halfkahm2_1024_7_64_c200_s206x4", "multiples of 64"},
        {"SFNN_halfkahm2_1024_5_64_c256_s192x4", "expected H1 = 8n or 8n - 1, found '5'"},
        {"SFNN_halfkahm2_512_8", "expected SFNN_<feature>_<FT>_<H1>_<H2>"},
        /* empty parts (strtok would have skipped them) */
        {"SFNN__halfkahm2_512_8_32", "an empty part at character 6"},
        {"SFNN_halfkahm2_512__8_32", "an empty part at character 20"},
        {"SFNN_halfkahm2_512_8_32_", "an empty part at character 24"},
        {"SFNN-halfkahm2-512-8-32--k9k9", "an empty part at character 25"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        nnue_arch *a = NULL;
        nnue_error err;
        ck_assert_msg(nnue_arch_load_named(bad[i][0], &a, &err) != NNUE_OK, "%s loaded", bad[i][0]);
        ck_assert_ptr_null(a);
        ck_assert_msg(strstr(err.message, "is not a generated architecture name") && strstr(err.message, bad[i][1]),
                      "%s: expected '%s' in: %s", bad[i][0], bad[i][1], err.message);
    }
    /* a well-formed one still loads */
    nnue_arch *a = NULL;
    nnue_error err;
    ck_assert_msg(nnue_arch_load_named("SFNN-halfkahm2-512-8-32-k9k9", &a, &err) == NNUE_OK, "%s", err.message);
    nnue_arch_free(a);
}
END_TEST

/* A table variable kept incrementally gives parts, part_move and value_of together
 * (features/table_var.h): progress does; one with only some of them is refused by name, and so is
 * one with part_move_both alone. */
static int32_t toy_value(const struct nnue_kernels *k, const int32_t *table, const nnue_board *board, int64_t *measure)
{
    (void)k, (void)table, (void)board, (void)measure;
    return 0;
}

static void toy_parts(const struct nnue_kernels *k, const int32_t *table, const nnue_board *board, int64_t out[2])
{
    (void)k, (void)table, (void)board;
    out[0] = out[1] = 0;
}

static int toy_both(const int32_t *table, const nnue_board *after, const nnue_delta *delta, int64_t parts[2])
{
    (void)table, (void)after, (void)delta, (void)parts;
    return 0;
}

START_TEST(table_variable_shares_all_or_none)
{
    const nnue_table_var *progress = nnue_table_var_find("progress");
    ck_assert_ptr_nonnull(progress);
    ck_assert(progress->parts && progress->part_move && progress->value_of);
    static const nnue_table_var half = {.name = "toy_half", .game = "shogi", .lo = 0, .hi = 1, .section = "toy",
                                        .values = 1, .value = toy_value, .parts = toy_parts};
    nnue_error err;
    ck_assert_int_eq(nnue_register_table_var(&half, &err), NNUE_E_ARG);
    ck_assert_msg(strstr(err.message, "part_move and value_of all or none"), "%s", err.message);
    ck_assert_ptr_null(nnue_table_var_find("toy_half"));
    static const nnue_table_var both_alone = {.name = "toy_both", .game = "shogi", .lo = 0, .hi = 1,
                                              .section = "toy", .values = 1, .value = toy_value,
                                              .part_move_both = toy_both};
    ck_assert_int_eq(nnue_register_table_var(&both_alone, &err), NNUE_E_ARG);
    ck_assert_msg(strstr(err.message, "part_move_both only with them"), "%s", err.message);
}
END_TEST

int main(void)
{
    test_require_shared("oracle/shogi/corpusA.sfen");
    Suite *s = suite_create("shogi_yo26_names");
    TCase *tc = tcase_create("names");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, names_of_the_two_nets);
    tcase_add_test(tc, every_rule_buckets_as_the_tables_say);
    tcase_add_test(tc, names_the_generator_refuses);
    tcase_add_test(tc, table_variable_shares_all_or_none);
    suite_add_tcase(s, tc);
    return test_run(s);
}
