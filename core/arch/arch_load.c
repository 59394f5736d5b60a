/* core/arch/arch_load.c: YAML architecture file -> nnue_arch (schema in docs/arch-yaml.md).
 *
 * Reading is table-driven (core/yaml_read.h): unknown, duplicate and missing keys are
 * errors at their file:line:col. After reading, core/arch/arch_check.c validates the graph and
 * core/arch/arch_hash.c derives hashes and sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_internal.h"
#include "core/arch/layer.h"
#include "core/error.h"

typedef struct load_state {
    nnue_fs_ctx fs;              /* first: a feature set's own keys at the feature_transformer level */
    nnue_arch *arch;
    yaml_node_t *selector_node;
    yaml_node_t *blocks_node;
    yaml_node_t *layers_node;
    int have_width;
} load_state;

static nnue_status read_name(yreader *r, yaml_node_t *v, void *t)
{
    return y_string(r, v, ((load_state *)t)->arch->name, NNUE_NAME_MAX, "'name'");
}

/* Any registered game (games/registry.c, nnue_game_register): the arch keeps its descriptor. */
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

/* ---- format ---- */

static nnue_status read_format_kind(yreader *r, yaml_node_t *v, void *t)
{
    static const char *const kinds[] = {"stockfish", "raw", NULL};
    int i;
    nnue_status st = y_enum(r, v, kinds, &i, "format 'kind'");
    ((load_state *)t)->arch->format.kind = (nnue_format_kind)i;
    return st;
}

Y_INT_FIELD(read_version, load_state, c->arch->format.version, 0, 0xFFFFFFFFll, "format 'version'")

static nnue_status read_leb128(yreader *r, yaml_node_t *v, void *t)
{
    return y_bool(r, v, &((load_state *)t)->arch->format.leb128, "format 'leb128'");
}

Y_INT_FIELD(read_description_bytes, load_state, c->arch->format.description_bytes, 0, 1 << 20, "format 'description_bytes'")

static nnue_status read_blocks(yreader *r, yaml_node_t *v, void *t)
{
    int n;
    nnue_status st = y_seq(r, v, &n, "format 'blocks'");
    ((load_state *)t)->blocks_node = v;
    return st;
}

Y_INT_FIELD(read_pad_to, load_state, c->arch->format.pad_to, 1, 4096, "format 'pad_to'")

static nnue_status read_pad_text(yreader *r, yaml_node_t *v, void *t)
{
    nnue_format *f = &((load_state *)t)->arch->format;
    return y_string(r, v, f->pad_text, sizeof f->pad_text, "format 'pad_text'");
}

Y_INT_FIELD(read_fixed_ft_hash, load_state, c->arch->format.fixed_ft_hash, 0, 0xFFFFFFFFll, "format 'hashes' 'ft'")
Y_INT_FIELD(read_fixed_network_hash, load_state, c->arch->format.fixed_network_hash, 0, 0xFFFFFFFFll,
            "format 'hashes' 'network'")

static const yfield hash_fields[] = {
    {"ft", 1, read_fixed_ft_hash},
    {"network", 1, read_fixed_network_hash},
    {NULL, 0, NULL},
};

/* Fixed hashes (YaneuraOu's SFNN files carry constants, not the graph's hashes). */
static nnue_status read_hashes(yreader *r, yaml_node_t *v, void *t)
{
    ((load_state *)t)->arch->format.fixed_hashes = 1;
    return y_map(r, v, hash_fields, t, "format 'hashes'");
}

/* How the FT hash folds several sets: Stockfish 18 takes the first set's, Stockfish 19 all. */
static nnue_status read_ft_hash(yreader *r, yaml_node_t *v, void *t)
{
    static const char *const rules[] = {"first", "combined", NULL};
    int i;
    nnue_status st = y_enum(r, v, rules, &i, "format 'ft_hash'");
    ((load_state *)t)->arch->format.ft_hash_combined = i;
    return st;
}

/* Order of several sets' FT sections: all weights then one PSQT array (Stockfish 18), or each
 * set's weights followed by its own PSQT array (Stockfish 19). */
static nnue_status read_ft_sections(yreader *r, yaml_node_t *v, void *t)
{
    static const char *const orders[] = {"joint_psqt", "per_set", NULL};
    int i;
    nnue_status st = y_enum(r, v, orders, &i, "format 'ft_sections'");
    ((load_state *)t)->arch->format.psqt_per_set = i;
    return st;
}

static const yfield format_fields[] = {
    {"kind", 1, read_format_kind},
    {"version", 0, read_version},
    {"leb128", 0, read_leb128},
    {"description_bytes", 0, read_description_bytes},
    {"blocks", 0, read_blocks},
    {"pad_to", 0, read_pad_to},
    {"pad_text", 0, read_pad_text},
    {"hashes", 0, read_hashes},
    {"ft_hash", 0, read_ft_hash},
    {"ft_sections", 0, read_ft_sections},
    {NULL, 0, NULL},
};

static nnue_status read_format(yreader *r, yaml_node_t *v, void *t)
{
    return y_map(r, v, format_fields, t, "format");
}

/* ---- raw-format blocks ---- */

typedef struct block_ctx {
    nnue_block *block;
    int have_tensor;
} block_ctx;

/* "ft.weights", "ft.biases", "ft.psqt", or LAYER.TENSOR (a tensor a layer type declares, e.g.
 * "out.weights"), resolved against the layers in core/arch/arch_check.c. */
static nnue_status read_block_tensor(yreader *r, yaml_node_t *v, void *t)
{
    static const char *const ft_names[] = {"ft.weights", "ft.biases", "ft.psqt", NULL};
    nnue_block *b = ((block_ctx *)t)->block;
    nnue_status st = y_string(r, v, b->name, sizeof b->name, "block 'tensor'");
    if (st != NNUE_OK)
        return st;
    for (int i = 0; ft_names[i]; i++)
        if (strcmp(b->name, ft_names[i]) == 0) {
            b->tensor = (nnue_tensor)i;
            return NNUE_OK;
        }
    const char *dot = strchr(b->name, '.');
    if (!dot || dot == b->name || !dot[1])
        return y_fail(r, v, NNUE_E_SCHEMA,
                      "block 'tensor': expected ft.weights, ft.biases, ft.psqt or LAYER.TENSOR (e.g. out.weights), "
                      "found '%s'",
                      b->name);
    b->tensor = NNUE_T_LAYER;
    return NNUE_OK;
}

static nnue_status read_block_dtype(yreader *r, yaml_node_t *v, void *t)
{
    int i;
    nnue_status st = y_enum(r, v, nnue_dtype_names, &i, "block 'dtype'");
    ((block_ctx *)t)->block->dtype = (nnue_dtype)i;
    return st;
}

static nnue_status read_block_order(yreader *r, yaml_node_t *v, void *t)
{
    static const char *const names[] = {"bucket_major", "input_major", "input_major_per_bucket", NULL};
    int i;
    nnue_status st = y_enum(r, v, names, &i, "block 'order'");
    ((block_ctx *)t)->block->order = (nnue_weight_order)i;
    return st;
}

static const yfield block_fields[] = {
    {"tensor", 1, read_block_tensor},
    {"dtype", 0, read_block_dtype},
    {"order", 0, read_block_order},
    {NULL, 0, NULL},
};

static nnue_status load_blocks(yreader *r, load_state *ls)
{
    nnue_format *f = &ls->arch->format;
    int n;
    nnue_status st = y_seq(r, ls->blocks_node, &n, "format 'blocks'");
    if (st != NNUE_OK)
        return st;
    if (n < 1 || n > NNUE_MAX_BLOCKS)
        return y_fail(r, ls->blocks_node, NNUE_E_SHAPE, "format 'blocks': expected 1 to %d blocks, found %d",
                      NNUE_MAX_BLOCKS, n);
    for (int i = 0; i < n; i++) {
        nnue_block *b = &f->blocks[i];
        b->dtype = NNUE_I16;
        b->order = NNUE_ROW_MAJOR;
        block_ctx ctx = {b, 0};
        b->line = (int)y_item(r, ls->blocks_node, i)->start_mark.line + 1;
        b->column = (int)y_item(r, ls->blocks_node, i)->start_mark.column + 1;
        char what[32];
        snprintf(what, sizeof what, "block %d", i + 1);
        if ((st = y_map(r, y_item(r, ls->blocks_node, i), block_fields, &ctx, what)) != NNUE_OK)
            return st;
        for (int j = 0; j < i; j++)
            if (strcmp(f->blocks[j].name, b->name) == 0)
                return y_fail(r, y_item(r, ls->blocks_node, i), NNUE_E_SCHEMA,
                              "block %d: expected each tensor once, found a second copy of block %d's tensor", i + 1,
                              j + 1);
    }
    f->n_blocks = n;
    return NNUE_OK;
}

/* ---- feature transformer ---- */

/* The variant named by node (features/feature_set.h variants[]) into set's parameters. */
static nnue_status read_variant(yreader *r, yaml_node_t *node, nnue_ft_set *set)
{
    const nnue_feature_set *fs = set->features;
    char vname[NNUE_NAME_MAX], known[200] = "";
    nnue_status st = y_string(r, node, vname, sizeof vname, "feature set 'variant'");
    if (st != NNUE_OK)
        return st;
    int found = -1;
    for (int i = 0; fs->variants && fs->variants[i].name; i++) {
        strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
        strncat(known, fs->variants[i].name, sizeof known - strlen(known) - 1);
        if (strcmp(fs->variants[i].name, vname) == 0)
            found = i;
    }
    if (found < 0)
        return y_fail(r, node, NNUE_E_SCHEMA, "feature set 'variant': expected %s%s, found '%s'",
                      known[0] ? "one of " : "no variant for ", known[0] ? known : fs->name, vname);
    set->params.variant = (uint8_t)found;
    return NNUE_OK;
}

/* One set by its YAML name into sets[n_sets] (default parameters, i16 rows unless weights). */
static nnue_status add_feature_set(yreader *r, yaml_node_t *v, nnue_arch *a, nnue_dtype weights)
{
    char name[NNUE_NAME_MAX];
    nnue_status st = y_string(r, v, name, sizeof name, "feature_transformer 'features'");
    if (st != NNUE_OK)
        return st;
    const nnue_feature_set *fs = nnue_feature_set_find(name);
    if (!fs) {
        char known[400] = "";
        const nnue_feature_set *known_fs;
        for (int i = 0; (known_fs = nnue_feature_set_at(i)); i++) {
            strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
            strncat(known, known_fs->name, sizeof known - strlen(known) - 1);
        }
        return y_fail(r, v, NNUE_E_SCHEMA, "feature_transformer 'features': expected a known feature set (%s), found '%s'",
                      known[0] ? known : "none registered", name);
    }
    nnue_ft_set *set = &a->ft.sets[a->ft.n_sets];
    set->features = fs;
    set->weight_type = weights;
    memset(&set->params, 0, sizeof set->params);
    set->params.king_buckets = 1;
    a->ft.n_sets++;
    return NNUE_OK;
}

typedef struct set_item {
    nnue_fs_ctx fs;              /* first: the set's own keys inside its item */
    nnue_arch *arch;
    yaml_node_t *set_node, *variant_node;
    nnue_dtype weights;
} set_item;

static nnue_status read_item_variant(yreader *r, yaml_node_t *v, void *t)
{
    (void)r;
    ((set_item *)t)->variant_node = v;
    return NNUE_OK;
}

static nnue_status read_item_set(yreader *r, yaml_node_t *v, void *t)
{
    (void)r;
    ((set_item *)t)->set_node = v;
    return NNUE_OK;
}

static nnue_status read_item_weights(yreader *r, yaml_node_t *v, void *t)
{
    static const char *const names[] = {"i16", "i8", NULL};
    int i;
    nnue_status st = y_enum(r, v, names, &i, "feature set 'weights'");
    ((set_item *)t)->weights = i ? NNUE_I8 : NNUE_I16;
    return st;
}

static const yfield set_item_fields[] = {
    {"set", 1, read_item_set},
    {"weights", 0, read_item_weights},
    {"variant", 0, read_item_variant},
    {NULL, 0, NULL},
};

#define MAX_FT_FIELDS 24

/* base's keys followed by feature set fs's own keys (features/feature_set.h), into out. */
static void with_set_fields(const yfield *base, const nnue_feature_set *fs, yfield *out)
{
    int n = 0;
    for (const yfield *f = base; f->key && n < MAX_FT_FIELDS - 1; f++)
        out[n++] = *f;
    for (const yfield *f = fs && fs->fields ? fs->fields : base + n; f->key && n < MAX_FT_FIELDS - 1; f++)
        out[n++] = *f;
    out[n] = (yfield){NULL, 0, NULL};
}

/* The set's check of its parameters, located at the mapping that held its keys. */
static nnue_status check_set_params(yreader *r, yaml_node_t *where, nnue_ft_set *set)
{
    char buf[256];
    const char *problem = set->features->check_params ? set->features->check_params(&set->params, buf, sizeof buf)
                                                      : NULL;
    return problem ? y_fail(r, where, NNUE_E_SHAPE, "%s", problem) : NNUE_OK;
}

/* `features: NAME` (one set, i16 rows, its own keys beside it in the feature_transformer
 * mapping), or a list of {set: NAME, weights: i16|i8, variant: V, ...its own keys} in file order. */
static nnue_status read_features(yreader *r, yaml_node_t *v, void *t)
{
    nnue_arch *a = ((load_state *)t)->arch;
    if (v->type != YAML_SEQUENCE_NODE)
        return add_feature_set(r, v, a, NNUE_I16);
    int n;
    nnue_status st = y_seq(r, v, &n, "feature_transformer 'features'");
    if (st != NNUE_OK)
        return st;
    if (n < 1 || n > NNUE_MAX_FT_SETS)
        return y_fail(r, v, NNUE_E_SHAPE, "feature_transformer 'features': expected 1 to %d feature sets, found %d",
                      NNUE_MAX_FT_SETS, n);
    for (int i = 0; i < n; i++) {
        yaml_node_t *item_node = y_item(r, v, i), *name = NULL;
        if (item_node->type == YAML_MAPPING_NODE && (name = y_lookup(r, item_node, "set")) &&
            (st = add_feature_set(r, name, a, NNUE_I16)) != NNUE_OK)
            return st;
        nnue_ft_set *set = name ? &a->ft.sets[a->ft.n_sets - 1] : NULL;
        set_item item = {{set ? &set->params : NULL}, a, NULL, NULL, NNUE_I16};
        yfield fields[MAX_FT_FIELDS];
        with_set_fields(set_item_fields, set ? set->features : NULL, fields);
        if ((st = y_map(r, item_node, fields, &item, "feature set")) != NNUE_OK)
            return st;
        if (!set) /* cannot happen: y_map requires 'set' */
            return y_fail(r, item_node, NNUE_E_SCHEMA, "feature set: missing required key 'set'");
        set->weight_type = item.weights;
        if (item.variant_node && (st = read_variant(r, item.variant_node, set)) != NNUE_OK)
            return st;
        if ((st = check_set_params(r, item_node, set)) != NNUE_OK)
            return st;
    }
    return NNUE_OK;
}

static nnue_status read_width(yreader *r, yaml_node_t *v, void *t)
{
    int64_t n;
    nnue_status st = y_int(r, v, 1, 65536, &n, "feature_transformer 'width'");
    ((load_state *)t)->arch->ft.width = (uint32_t)n;
    ((load_state *)t)->have_width = 1;
    return st;
}

Y_INT_FIELD(read_psqt, load_state, c->arch->ft.psqt_buckets, 0, 64, "feature_transformer 'psqt_buckets'")

static nnue_status read_act_type(yreader *r, yaml_node_t *v, void *t)
{
    static const char *const names[] = {"clamp", "pairwise", "screlu", "sqrrelu", NULL};
    int i;
    nnue_status st = y_enum(r, v, names, &i, "activation 'type'");
    ((load_state *)t)->arch->ft.activation = (nnue_ft_activation)i;
    return st;
}

Y_INT_FIELD(read_act_max, load_state, c->arch->ft.clamp_max, 1, 32767, "activation 'max'")

Y_INT_FIELD(read_act_shift, load_state, c->arch->ft.shift, 0, 30, "activation 'shift'")

static const yfield activation_fields[] = {
    {"type", 1, read_act_type},
    {"max", 0, read_act_max},
    {"shift", 0, read_act_shift},
    {NULL, 0, NULL},
};

static nnue_status read_activation(yreader *r, yaml_node_t *v, void *t)
{
    return y_map(r, v, activation_fields, t, "feature_transformer 'activation'");
}

static nnue_status read_features_done(yreader *r, yaml_node_t *v, void *t)
{
    (void)r, (void)v, (void)t;
    return NNUE_OK; /* read before the mapping (read_ft), to know the sets' own keys */
}

static const yfield ft_fields[] = {
    {"features", 1, read_features_done},
    {"width", 1, read_width},
    {"psqt_buckets", 0, read_psqt},
    {"activation", 0, read_activation},
    {NULL, 0, NULL},
};

/* The feature_transformer mapping. Its sets are read first (`features`), so that a single set's
 * own keys (e.g. Chess768's king_buckets and mirror) are accepted beside the core's. */
static nnue_status read_ft(yreader *r, yaml_node_t *v, void *t)
{
    load_state *ls = t;
    nnue_arch *a = ls->arch;
    yaml_node_t *features = v->type == YAML_MAPPING_NODE ? y_lookup(r, v, "features") : NULL;
    nnue_status st;
    if (features && (st = read_features(r, features, ls)) != NNUE_OK)
        return st;
    int single = features && features->type != YAML_SEQUENCE_NODE && a->ft.n_sets == 1;
    yfield fields[MAX_FT_FIELDS];
    with_set_fields(ft_fields, single ? a->ft.sets[0].features : NULL, fields);
    ls->fs.params = single ? &a->ft.sets[0].params : NULL;
    if ((st = y_map(r, v, fields, ls, "feature_transformer")) != NNUE_OK)
        return st;
    return single ? check_set_params(r, v, &a->ft.sets[0]) : NNUE_OK;
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
    {"scale", 0, read_scale},
    {NULL, 0, NULL},
};

static nnue_status read_output(yreader *r, yaml_node_t *v, void *t)
{
    return y_map(r, v, output_fields, t, "output");
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

    yaml_node_t *root = y_root(r);
    st = y_map(r, root, top_fields, ls, "architecture");
    if (st == NNUE_OK && ls->blocks_node)
        st = load_blocks(r, ls);
    if (st == NNUE_OK && ls->selector_node) {
        const char *text = (const char *)ls->selector_node->data.scalar.value;
        nnue_error expr_err;
        if (nnue_expr_compile_for(&a->selector, text, a->game_desc, &expr_err) != NNUE_OK)
            st = nnue_fail_at(err, NNUE_E_SYNTAX, path, (int)ls->selector_node->start_mark.line + 1,
                              (int)ls->selector_node->start_mark.column + expr_err.column,
                              "stacks 'selector': %s", expr_err.message);
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
