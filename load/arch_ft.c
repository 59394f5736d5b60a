/* load/arch_ft.c: the `feature_transformer:` mapping of an architecture YAML -> nnue_ft: its
 * feature sets (one name, or a list of set items with weights and variant), each set's own keys
 * and check (features/feature_set.h), width, PSQT buckets and activation. A feature set is found
 * by name in features/registry.c and adds nothing here; a new FT activation is its name in
 * read_act_type's list (in nnue_ft_activation's order, core/arch/arch.h) plus its use. */
#include <stdio.h>
#include <string.h>

#include "load/load.h"

/* The mapping's target: a feature set's own key handlers get it as an nnue_fs_ctx (first). */
typedef struct ft_ctx {
    nnue_fs_ctx fs;
    nnue_arch *arch;
} ft_ctx;

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
    set->params.set = fs;
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
    nnue_arch *a = ((ft_ctx *)t)->arch;
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
    ((ft_ctx *)t)->arch->ft.width = (uint32_t)n;
    return st;
}

Y_INT_FIELD(read_psqt, ft_ctx, c->arch->ft.psqt_buckets, 0, 64, "feature_transformer 'psqt_buckets'")

static nnue_status read_act_type(yreader *r, yaml_node_t *v, void *t)
{
    static const char *const names[] = {"clamp", "pairwise", "screlu", "sqrrelu", NULL};
    int i;
    nnue_status st = y_enum(r, v, names, &i, "activation 'type'");
    ((ft_ctx *)t)->arch->ft.activation = (nnue_ft_activation)i;
    return st;
}

Y_INT_FIELD(read_act_max, ft_ctx, c->arch->ft.clamp_max, 1, 32767, "activation 'max'")

Y_INT_FIELD(read_act_shift, ft_ctx, c->arch->ft.shift, 0, 30, "activation 'shift'")

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
nnue_status nnue_arch_read_ft(yreader *r, yaml_node_t *v, nnue_arch *a)
{
    ft_ctx ctx = {{NULL}, a};
    yaml_node_t *features = v->type == YAML_MAPPING_NODE ? y_lookup(r, v, "features") : NULL;
    nnue_status st;
    if (features && (st = read_features(r, features, &ctx)) != NNUE_OK)
        return st;
    int single = features && features->type != YAML_SEQUENCE_NODE && a->ft.n_sets == 1;
    yfield fields[MAX_FT_FIELDS];
    with_set_fields(ft_fields, single ? a->ft.sets[0].features : NULL, fields);
    ctx.fs.params = single ? &a->ft.sets[0].params : NULL;
    if ((st = y_map(r, v, fields, &ctx, "feature_transformer")) != NNUE_OK)
        return st;
    return single ? check_set_params(r, v, &a->ft.sets[0]) : NNUE_OK;
}
