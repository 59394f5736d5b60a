/* load/arch_load.c: YAML architecture file -> nnue_arch (schema in docs/arch-yaml.md).
 *
 * Owns the document's top-level mapping (name, game, stacks and selector, output) and the order
 * of the steps; each big section has its own reader: `format:` load/arch_format.c,
 * `feature_transformer:` load/arch_ft.c (beside it, needing no layer type), `centipawns:`
 * load/arch_centipawns.c, `layers:` load/arch_layers.c (here: it asks
 * layers/registry.c for each type). Reading is
 * table-driven (base/yaml_read.h): unknown, duplicate and missing keys are errors at their
 * file:line:col. After reading, core/arch/arch_check.c validates the graph and
 * core/arch/arch_hash.c derives hashes and sizes. A new top-level key is a line in top_fields. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "core/arch/expr_prog.h"
#include "load/load.h"

typedef struct load_state {
    nnue_arch *arch;
    yaml_node_t *selector_node;
    yaml_node_t *blocks_node;
    yaml_node_t *layers_node;
} load_state;

static nnue_status read_name(yreader *r, yaml_node_t *v, void *t)
{
    return y_string(r, v, ((load_state *)t)->arch->name, NNUE_NAME_MAX, "'name'");
}

/* Any registered game (games/registry.c, nnue_register_game): the arch keeps its descriptor. */
static nnue_status read_game(yreader *r, yaml_node_t *v, void *t)
{
    const char *names[NNUE_MAX_GAMES + 8] = {NULL};
    int n = 0;
    for (; n < nnue_game_count() && n < NNUE_MAX_GAMES + 7; n++)
        names[n] = nnue_game_at(n)->name;
    int i;
    nnue_status st = y_enum(r, v, names, &i, "'game'");
    nnue_arch *a = ((load_state *)t)->arch;
    if (st == NNUE_OK) {
        a->game_desc = nnue_game_at(i);
        snprintf(a->game, sizeof a->game, "%s", names[i]);
    }
    return st;
}

/* ---- format and feature transformer: load/arch_format.c, load/arch_ft.c ---- */

static nnue_status read_format(yreader *r, yaml_node_t *v, void *t)
{
    load_state *ls = t;
    return nnue_arch_read_format(r, v, &ls->arch->format, &ls->blocks_node);
}

static nnue_status read_ft(yreader *r, yaml_node_t *v, void *t)
{
    return nnue_arch_read_ft(r, v, ((load_state *)t)->arch);
}

/* ---- stacks and output ---- */

Y_INT_FIELD(read_stack_count, load_state, c->arch->stacks, 1, 1048576, "stacks 'count'")

static nnue_status read_selector(yreader *r, yaml_node_t *v, void *t)
{
    char text[NNUE_EXPR_TEXT_MAX];
    ((load_state *)t)->selector_node = v;
    return y_string(r, v, text, sizeof text, "stacks 'selector'");
}

static const yfield stack_fields[] = {
    {"count", 1, read_stack_count},
    {"selector", 0, read_selector},
    {NULL, 0, NULL},
};

static nnue_status read_stacks(yreader *r, yaml_node_t *v, void *t)
{
    return y_map(r, v, stack_fields, t, "stacks");
}

Y_INT_FIELD(read_divisor, load_state, c->arch->output.divisor, 1, 1 << 20, "output 'divisor'")
Y_INT_FIELD(read_clamp, load_state, c->arch->output.clamp, 1, INT32_MAX, "output 'clamp'")

static nnue_status read_scale(yreader *r, yaml_node_t *v, void *t)
{
    nnue_output *o = &((load_state *)t)->arch->output;
    int64_t pair[2];
    nnue_status st = y_int_pair(r, v, 1, 1 << 20, 1, 1 << 24, pair, "output 'scale'");
    o->scale_num = (int32_t)pair[0];
    o->scale_den = (int32_t)pair[1];
    return st;
}

static const yfield output_fields[] = {
    {"divisor", 0, read_divisor},
    {"clamp", 0, read_clamp},
    {"scale", 0, read_scale},
    {NULL, 0, NULL},
};

static nnue_status read_output(yreader *r, yaml_node_t *v, void *t)
{
    return y_map(r, v, output_fields, t, "output");
}

static nnue_status read_centipawns(yreader *r, yaml_node_t *v, void *t)
{
    return nnue_arch_read_centipawns(r, v, &((load_state *)t)->arch->centipawns);
}

static nnue_status read_layers(yreader *r, yaml_node_t *v, void *t)
{
    int n;
    ((load_state *)t)->layers_node = v;
    return y_seq(r, v, &n, "'layers'");
}

static const yfield top_fields[] = {
    {"name", 1, read_name},
    {"game", 1, read_game},
    {"format", 1, read_format},
    {"feature_transformer", 1, read_ft},
    {"stacks", 0, read_stacks},
    {"layers", 1, read_layers},
    {"output", 0, read_output},
    {"centipawns", 0, read_centipawns},
    {NULL, 0, NULL},
};

/* Reads the architecture from an opened document (closed here); path names it in messages. */
static nnue_status load_document(yreader *r, const char *path, nnue_arch **out, nnue_error *err)
{
    nnue_status st;
    load_state *ls = calloc(1, sizeof *ls);
    nnue_arch *a = calloc(1, sizeof *a);
    if (!ls || !a) {
        free(ls);
        free(a);
        y_close(r);
        return nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory", path);
    }
    ls->arch = a;
    snprintf(a->path, sizeof a->path, "%s", path);
    a->stacks = 1;
    a->format.pad_to = 1;
    a->format.description_bytes = -1;
    a->ft.activation = NNUE_FT_CLAMP;
    a->ft.clamp_max = 127;
    a->ft.shift = 7;
    a->output.divisor = 16;
    nnue_expr_constant(&a->selector, 0);
    nnue_expr_prog_build(&a->selector, NULL); /* what an evaluation runs (core/arch/expr_prog.h) */

    yaml_node_t *root = y_root(r);
    st = y_map(r, root, top_fields, ls, "architecture");
    if (st == NNUE_OK && ls->blocks_node)
        st = nnue_arch_read_blocks(r, ls->blocks_node, &a->format);
    if (st == NNUE_OK && ls->selector_node) {
        const char *text = (const char *)ls->selector_node->data.scalar.value;
        nnue_error expr_err;
        if (nnue_expr_compile_for(&a->selector, text, a->game_desc, &expr_err) != NNUE_OK)
            st = nnue_fail_at(err, NNUE_E_SYNTAX, path, (int)ls->selector_node->start_mark.line + 1,
                              (int)ls->selector_node->start_mark.column + expr_err.column,
                              "stacks 'selector': %s", expr_err.message);
        else
            nnue_expr_prog_build(&a->selector, a->game_desc);
    }
    if (st == NNUE_OK)
        st = nnue_arch_read_layers(r, ls->layers_node, a);
    if (st == NNUE_OK)
        st = nnue_arch_check(r, root, a);
    if (st == NNUE_OK)
        nnue_arch_derive(a);
    y_close(r);
    free(ls);
    if (st != NNUE_OK) {
        free(a);
        return st;
    }
    *out = a;
    return NNUE_OK;
}

nnue_status nnue_arch_load(const char *path, nnue_arch **out, nnue_error *err)
{
    nnue_error_clear(err);
    if (out)
        *out = NULL;
    if (!path || !out)
        return nnue_fail(err, NNUE_E_ARG, "nnue_arch_load: expected a path and an output pointer");
    yreader r;
    nnue_status st = y_open(&r, path, err);
    return st == NNUE_OK ? load_document(&r, path, out, err) : st;
}

nnue_status nnue_arch_load_string(const char *yaml, size_t len, const char *name, nnue_arch **out,
                                  nnue_error *err)
{
    nnue_error_clear(err);
    if (out)
        *out = NULL;
    if (!yaml || !out)
        return nnue_fail(err, NNUE_E_ARG, "nnue_arch_load_string: expected YAML text and an output pointer");
    if (!name)
        name = "<string>";
    yreader r;
    nnue_status st = y_open_string(&r, name, yaml, len, err);
    return st == NNUE_OK ? load_document(&r, name, out, err) : st;
}

void nnue_arch_free(nnue_arch *arch)
{
    free(arch);
}
