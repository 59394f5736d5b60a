/* tests/core/test_arch_errors.c: every class of bad architecture YAML gets a located error
 * (file:line:col, what was expected, what was found), a non-zero status and no leak. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/arch/arch_api.h"
#include "support.h"

/* A valid base document; each test replaces one line (marked by its key) or appends text. */
static const char *base =
    "name: t\n"                                        /* 1 */
    "game: chess\n"                                    /* 2 */
    "format: {kind: stockfish, version: 0x7AF32F16}\n" /* 3 */
    "feature_transformer:\n"                           /* 4 */
    "  features: HalfKP\n"                             /* 5 */
    "  width: 256\n"                                   /* 6 */
    "layers:\n"                                        /* 7 */
    "  - {name: fc0, type: affine, outputs: 32}\n"     /* 8 */
    "  - {name: ac0, type: crelu}\n"                   /* 9 */
    "  - {name: fc1, type: affine, outputs: 1}\n";     /* 10 */

static char path[256];

static nnue_status load_text(const char *text, nnue_error *err)
{
    snprintf(path, sizeof path, "%s/arch-error-%d.yaml", test_build_dir(), (int)getpid());
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    nnue_arch *a = (nnue_arch *)0x1;
    nnue_status st = nnue_arch_load(path, &a, err);
    unlink(path);
    if (st == NNUE_OK)
        nnue_arch_free(a);
    else
        ck_assert_ptr_null(a);
    return st;
}

/* base with the line that starts with `prefix` replaced by `line` (or appended if prefix is NULL). */
static char *edit(const char *prefix, const char *line)
{
    char *out = calloc(1, strlen(base) + strlen(line) + 2);
    const char *p = base;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = (size_t)(eol - p) + 1;
        if (prefix && strncmp(p, prefix, strlen(prefix)) == 0) {
            strcat(out, line);
            strcat(out, "\n");
        } else {
            strncat(out, p, len);
        }
        p += len;
    }
    if (!prefix) {
        strcat(out, line);
        strcat(out, "\n");
    }
    return out;
}

static void expect_error(const char *text, nnue_status code, int line, int col, const char *fragment)
{
    nnue_error err;
    nnue_status st = load_text(text, &err);
    char msg[1200];
    nnue_error_format(&err, msg, sizeof msg);
    ck_assert_msg(st == code, "status %d (%s), expected %d: %s", st, nnue_status_name(st), code, msg);
    ck_assert_msg(err.line == line && (col == 0 || err.column == col), "at %d:%d, expected %d:%d: %s", err.line,
                  err.column, line, col, msg);
    ck_assert_msg(strstr(msg, fragment) != NULL, "message lacks '%s': %s", fragment, msg);
    ck_assert_msg(strncmp(msg, path, strlen(path)) == 0, "message does not start with the file name: %s", msg);
}

static void expect_edit(const char *prefix, const char *line, nnue_status code, int at_line, int col,
                        const char *fragment)
{
    char *text = edit(prefix, line);
    expect_error(text, code, at_line, col, fragment);
    free(text);
}

START_TEST(base_document_is_valid)
{
    nnue_error err;
    ck_assert_int_eq(load_text(base, &err), NNUE_OK);
}
END_TEST

START_TEST(malformed_yaml)
{
    expect_edit("  width", "  width: [256", NNUE_E_SYNTAX, 7, 0, "malformed YAML");
}
END_TEST

START_TEST(unknown_key)
{
    expect_edit("  width", "  widht: 256", NNUE_E_SCHEMA, 6, 3, "unknown key 'widht'");
}
END_TEST

START_TEST(duplicate_key)
{
    expect_edit("name:", "name: t\nname: u", NNUE_E_SCHEMA, 2, 1, "duplicate key 'name'");
}
END_TEST

START_TEST(missing_key)
{
    expect_edit("  width", "  psqt_buckets: 0", NNUE_E_SCHEMA, 5, 3, "missing required key 'width'");
}
END_TEST

START_TEST(wrong_type)
{
    expect_edit("  width", "  width: wide", NNUE_E_SCHEMA, 6, 10, "expected an integer, found 'wide'");
    expect_edit("format", "format: [stockfish]", NNUE_E_SCHEMA, 3, 9, "expected a mapping, found a sequence");
}
END_TEST

START_TEST(unknown_layer_type)
{
    expect_edit("  - {name: ac0", "  - {name: ac0, type: relu6}", NNUE_E_SCHEMA, 9, 23,
                "expected one of affine, affine_sparse, crelu");
}
END_TEST

START_TEST(unknown_feature_set)
{
    expect_edit("  features", "  features: HalfKQ", NNUE_E_SCHEMA, 5, 13, "found 'HalfKQ'");
}
END_TEST

/* A list of feature sets (SFNNv10 style): each item checked where it stands. */
START_TEST(feature_set_lists)
{
    expect_edit("  features", "  features:\n    - {set: Full_Threats, weights: i8}\n    - {set: HalfKQ}",
                NNUE_E_SCHEMA, 7, 13, "found 'HalfKQ'");
    expect_edit("  features", "  features:\n    - {set: Full_Threats, weights: i4}", NNUE_E_SCHEMA, 6, 36,
                "expected one of i16, i8");
    expect_edit("  features", "  features:\n    - {sets: Full_Threats}", NNUE_E_SCHEMA, 6, 8, "unknown key 'sets'");
    expect_edit("  features", "  features: []", NNUE_E_SHAPE, 5, 13, "expected 1 to 4 feature sets, found 0");
    /* an i8 last set is widened on load when several sets are listed (Pikafish), not alone */
    expect_edit("  features", "  features:\n    - {set: HalfKAv2_hm, weights: i8}",
                NNUE_E_SHAPE, 6, 5, "expected i16 weights for the last listed set 'HalfKAv2_hm'");
    expect_edit("  features", "  features:\n    - {set: Full_Threats, weights: i8}\n    - {set: HalfKAv2_hm}",
                NNUE_E_SCHEMA, 6, 5, "several feature sets in format kind stockfish need PSQT");
    expect_edit("  features", "  features:\n    - {set: Full_Threats, weights: i8, variant: sfnnv99}", NNUE_E_SCHEMA,
                6, 49, "expected one of sfnnv10, sfnnv16, reckless, found 'sfnnv99'");
    expect_edit("  features", "  features:\n    - {set: HalfKAv2_hm, variant: sfnnv16}", NNUE_E_SCHEMA, 6, 35,
                "expected no variant for HalfKAv2_hm, found 'sfnnv16'");
}
END_TEST

/* The SFNNv16 format keys take their documented values only. */
START_TEST(format_ft_keys)
{
    expect_edit("format", "format: {kind: stockfish, version: 0x7AF32F16, ft_hash: all}", NNUE_E_SCHEMA, 3, 57,
                "expected one of first, combined");
    expect_edit("format", "format: {kind: stockfish, version: 0x7AF32F16, ft_sections: mixed}", NNUE_E_SCHEMA, 3,
                61, "expected one of joint_psqt, per_set");
}
END_TEST

START_TEST(feature_set_of_another_game)
{
    expect_edit("  features", "  features: HalfKP_shogi", NNUE_E_SCHEMA, 5, 13, "expected a chess feature set");
}
END_TEST

START_TEST(shapes_that_do_not_chain)
{
    expect_edit("  - {name: fc1", "  - {name: fc1, type: affine, outputs: 1, input_size: 64}", NNUE_E_SHAPE, 10, 55,
                "expected 64 inputs (its input_size), found 32 from ac0");
    expect_edit("  - {name: fc1", "  - {name: fc1, type: slice, offset: 30, size: 4}", NNUE_E_SHAPE, 10, 5,
                "inside the 32 input values");
    expect_edit("  - {name: fc1", "  - {name: fc1, type: affine, outputs: 2}", NNUE_E_SHAPE, 8, 3,
                "last layer ('fc1') to have 1 output");
    expect_edit("  - {name: fc1", "  - {name: fc1, type: affine, outputs: 1, input: nowhere}", NNUE_E_SCHEMA, 10, 50,
                "found 'nowhere'");
}
END_TEST

START_TEST(zero_and_absurd_sizes)
{
    expect_edit("  width", "  width: 0", NNUE_E_SHAPE, 6, 10, "from 1 to 65536, found 0");
    expect_edit("  width", "  width: 60000", NNUE_E_SHAPE, 6, 10, "at most 2 GiB of weights");
    expect_edit("  - {name: fc0", "  - {name: fc0, type: affine, outputs: 100000}", NNUE_E_SHAPE, 8, 40,
                "from 1 to 65536, found 100000");
    /* One layer over 2^28 weights (65536 x 2 * 4096). */
    char *text = edit("  width", "  width: 4096");
    char *wide = calloc(1, strlen(text) + 64);
    strcpy(wide, text);
    strcpy(strstr(wide, "outputs: 32}"), "outputs: 65536}\n  - {name: ac0, type: crelu}\n  - {name: fc1, type: affine, outputs: 1}\n");
    expect_error(wide, NNUE_E_SHAPE, 8, 0, "expected at most 2^28 weights, found 65536 x 8192");
    free(text);
    free(wide);
    /* Each layer fits, but 64 stacks of them add up to 2 GiB: refused before any net is read,
     * naming the largest layer and the limit. */
    text = edit("  - {name: fc0", "  - {name: fc0, type: affine, outputs: 65536}");
    char *stacked = calloc(1, strlen(text) + 64);
    strcpy(stacked, text);
    strcat(stacked, "stacks: {count: 64, selector: pieces}\n");
    expect_error(stacked, NNUE_E_SHAPE, 8, 5,
                 "layers: expected at most 1 GiB of layer parameters over the 64 stacks, found 2168455424 bytes");
    free(text);
    free(stacked);
}
END_TEST

/* Raw layouts: a block dtype the loader cannot read is refused in the YAML, not when a net is
 * read (found by fuzz_arch_net: the net error had no byte offset to give). */
START_TEST(raw_block_dtypes)
{
    const char *raw = "name: r\n"
                      "game: chess\n"
                      "format:\n"
                      "  kind: raw\n"
                      "  blocks:\n"
                      "    - {tensor: ft.weights, dtype: i16}\n"
                      "    - {tensor: ft.biases, dtype: i16}\n"
                      "    - {tensor: out.weights, dtype: OUTW}\n"
                      "    - {tensor: out.biases, dtype: OUTB}\n"
                      "feature_transformer:\n"
                      "  features: Chess768\n"
                      "  width: 4\n"
                      "  activation: {type: screlu, max: 255}\n"
                      "layers:\n"
                      "  - {name: out, type: affine, outputs: 1}\n";
    const char *cases[][4] = {
        {"f32", "i32", "8", "block 3 (out.weights): expected dtype i8, i16 or i32 for an affine layer's weights, found f32"},
        {"i16", "u8", "9", "block 4 (out.biases): expected dtype i16 or i32 for an affine layer's biases, found u8"},
    };
    for (int c = 0; c < 2; c++) {
        char text[1024];
        snprintf(text, sizeof text, "%s", raw);
        char *w = strstr(text, "OUTW"), *b = strstr(text, "OUTB");
        memcpy(w, cases[c][0], 3);
        memmove(w + strlen(cases[c][0]), w + 4, strlen(w + 4) + 1);
        b = strstr(text, "OUTB");
        memcpy(b, cases[c][1], strlen(cases[c][1]));
        memmove(b + strlen(cases[c][1]), b + 4, strlen(b + 4) + 1);
        expect_error(text, NNUE_E_SCHEMA, atoi(cases[c][2]), 7, cases[c][3]);
    }
}
END_TEST

/* Raw layouts of several feature sets (Reckless, Viridithas): one ft.weights block per set,
 * named by `set:` (default: the last listed set) and in the set's dtype; the blocks-of-4 order needs inputs in fours; affine_f32's
 * lanes divide its inputs. */
static const char *raw_sets =
    "name: r\n"                                                                    /* 1 */
    "game: chess\n"                                                                /* 2 */
    "format:\n"                                                                    /* 3 */
    "  kind: raw\n"                                                                /* 4 */
    "  blocks:\n"                                                                  /* 5 */
    "    - {tensor: ft.weights, set: Full_Threats, dtype: i8}\n"                   /* 6 */
    "    - {tensor: ft.weights, set: Chess768}\n"                                  /* 7 */
    "    - {tensor: ft.biases, dtype: i16}\n"                                      /* 8 */
    "    - {tensor: s.weights, dtype: i8, order: input_blocks_of_4}\n"             /* 9 */
    "    - {tensor: f.biases, dtype: f32}\n"                                       /* 10 */
    "    - {tensor: o.weights, dtype: f32}\n"                                      /* 11 */
    "    - {tensor: o.biases, dtype: f32}\n"                                       /* 12 */
    "feature_transformer:\n"                                                       /* 13 */
    "  features:\n"                                                                /* 14 */
    "    - {set: Full_Threats, weights: i8, variant: reckless}\n"                  /* 15 */
    "    - {set: Chess768}\n"                                                      /* 16 */
    "  width: 4\n"                                                                 /* 17 */
    "  activation: {type: screlu, max: 255}\n"                                     /* 18 */
    "layers:\n"                                                                    /* 19 */
    "  - {name: s, type: affine_sparse, outputs: 8, bias_type: none}\n"           /* 20 */
    "  - {name: f, type: dequantize, scale: [1, 64]}\n"                            /* 21 */
    "  - {name: o, type: affine_f32, outputs: 1, lanes: 4}\n"                      /* 22 */
    "  - {name: i, type: to_i32}\n";                                               /* 23 */

/* raw_sets with its line `line` (1-based) replaced by `text` ("" drops it). */
static char *raw_sets_with(int line, const char *text)
{
    char *out = calloc(1, strlen(raw_sets) + strlen(text) + 2);
    const char *p = raw_sets;
    for (int n = 1; *p; n++) {
        const char *eol = strchr(p, '\n');
        size_t len = (size_t)(eol - p) + 1;
        if (n != line)
            strncat(out, p, len);
        else if (text[0])
            strcat(strcat(out, text), "\n");
        p += len;
    }
    return out;
}

START_TEST(raw_feature_set_blocks)
{
    nnue_error err;
    ck_assert_msg(load_text(raw_sets, &err) == NNUE_OK, "%s", err.message);
    const struct {
        int line;
        const char *text;
        nnue_status code;
        int at_line, col;
        const char *fragment;
    } cases[] = {
        {6, "    - {tensor: ft.weights, dtype: i8}", NNUE_E_SCHEMA, 6, 7,
         "block 1 (ft.weights): expected dtype i16 (feature set 'Chess768' has i16 weights), found i8"},
        {6, "    - {tensor: ft.weights, set: HalfKP, dtype: i8}", NNUE_E_SCHEMA, 6, 7,
         "expected 'set' to name a feature set of the feature transformer, found 'HalfKP'"},
        {6, "    - {tensor: ft.weights, set: Full_Threats}", NNUE_E_SCHEMA, 6, 7,
         "expected dtype i8 (feature set 'Full_Threats' has i8 weights), found i16"},
        {7, "    - {tensor: ft.weights, set: Full_Threats, dtype: i8}", NNUE_E_SCHEMA, 7, 0,
         "expected each tensor once"},
        {7, "", NNUE_E_SCHEMA, 0, 0,
         "expected one ft.weights block for feature set 'Chess768' (the default 'set'), found 0"},
        {8, "    - {tensor: ft.biases, set: Chess768}", NNUE_E_SCHEMA, 8, 7, "'set' applies to ft.weights"},
        {17, "  width: 3", NNUE_E_SCHEMA, 9, 7, "expected a multiple of 4 inputs, found 6"},
        {22, "  - {name: o, type: affine_f32, outputs: 1, lanes: 3}", NNUE_E_SHAPE, 22, 0,
         "'lanes': expected a power of two dividing the 8 inputs, found 3"},
        {22, "  - {name: o, type: affine_f32, outputs: 1, lanes: 16}", NNUE_E_SHAPE, 22, 0,
         "'lanes': expected a power of two dividing the 8 inputs, found 16"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char *text = raw_sets_with(cases[c].line, cases[c].text);
        nnue_status st = load_text(text, &err);
        char msg[1200];
        nnue_error_format(&err, msg, sizeof msg);
        ck_assert_msg(st == cases[c].code, "case %zu: status %d: %s", c, st, msg);
        ck_assert_msg(cases[c].at_line == 0 || (err.line == cases[c].at_line &&
                                                (cases[c].col == 0 || err.column == cases[c].col)),
                      "case %zu at %d:%d: %s", c, err.line, err.column, msg);
        ck_assert_msg(strstr(msg, cases[c].fragment), "case %zu lacks '%s': %s", c, cases[c].fragment, msg);
        free(text);
    }
}
END_TEST

START_TEST(selector_out_of_range)
{
    expect_edit(NULL, "stacks: {count: 8, selector: pieces / 2}", NNUE_E_SHAPE, 11, 30,
                "expected values 0..7 on every chess board, found values 1..16");
    expect_edit(NULL, "stacks: {count: 8, selector: stm_king_rank}", NNUE_E_SCHEMA, 11, 30,
                "expected variables of a chess board, found 'stm_king_rank'");
    expect_edit(NULL, "stacks: {count: 8, selector: (pieces - 1) /}", NNUE_E_SYNTAX, 11, 0,
                "expected a number");
}
END_TEST

START_TEST(missing_file)
{
    nnue_arch *a;
    nnue_error err;
    ck_assert_int_eq(nnue_arch_load("/nonexistent/x.yaml", &a, &err), NNUE_E_IO);
    ck_assert_ptr_null(a);
    ck_assert_str_eq(err.file, "/nonexistent/x.yaml");
}
END_TEST

/* The `centipawns:` section (load/arch_centipawns.c): exactly one rule, engine with divide and
 * material only, four finite coefficients. */
START_TEST(centipawns_rules)
{
    expect_edit(NULL, "centipawns: {engine: E, divide: 0}", NNUE_E_SHAPE, 11, 33, "centipawns 'divide'");
    expect_edit(NULL, "centipawns: {engine: E, divide: 3, none: x}", NNUE_E_SCHEMA, 11, 13,
                "expected exactly one of 'divide', 'material', 'release', 'none', found 2");
    expect_edit(NULL, "centipawns: {divide: 361}", NNUE_E_SCHEMA, 11, 13, "expected 'engine'");
    expect_edit(NULL, "centipawns: {engine: E, none: x}", NNUE_E_SCHEMA, 11, 13, "'engine' goes with");
    expect_edit(NULL, "centipawns: {engine: E, material: [1, 2, 3]}", NNUE_E_SCHEMA, 11, 35, "expected 4 coefficients");
    expect_edit(NULL, "centipawns: {engine: E, material: [1, 2, x, 4]}", NNUE_E_SCHEMA, 11, 42,
                "expected a finite number, found 'x'");
    expect_edit(NULL, "centipawns: {sorts: 1}", NNUE_E_SCHEMA, 11, 0, "unknown key 'sorts'");
    nnue_error err;
    char *ok = edit(NULL, "centipawns: {engine: E, material: [-1.5, 2, 3e2, 4]}");
    ck_assert_int_eq(load_text(ok, &err), NNUE_OK);
    free(ok);
}
END_TEST

START_TEST(empty_document)
{
    expect_error("", NNUE_E_SCHEMA, 1, 1, "empty document");
    expect_error("- 1\n- 2\n", NNUE_E_SCHEMA, 1, 1, "architecture: expected a mapping, found a sequence");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("arch_errors");
    TCase *tc = tcase_create("errors");
    tcase_add_test(tc, base_document_is_valid);
    tcase_add_test(tc, malformed_yaml);
    tcase_add_test(tc, unknown_key);
    tcase_add_test(tc, duplicate_key);
    tcase_add_test(tc, missing_key);
    tcase_add_test(tc, wrong_type);
    tcase_add_test(tc, unknown_layer_type);
    tcase_add_test(tc, unknown_feature_set);
    tcase_add_test(tc, feature_set_of_another_game);
    tcase_add_test(tc, feature_set_lists);
    tcase_add_test(tc, format_ft_keys);
    tcase_add_test(tc, shapes_that_do_not_chain);
    tcase_add_test(tc, zero_and_absurd_sizes);
    tcase_add_test(tc, raw_block_dtypes);
    tcase_add_test(tc, raw_feature_set_blocks);
    tcase_add_test(tc, selector_out_of_range);
    tcase_add_test(tc, missing_file);
    tcase_add_test(tc, empty_document);
    tcase_add_test(tc, centipawns_rules);
    suite_add_tcase(s, tc);
    return test_run(s);
}
