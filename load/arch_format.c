/* load/arch_format.c: the `format:` mapping of an architecture YAML -> nnue_format: the kind
 * (which net reader core/net/net_load.c runs), its header keys, fixed hashes, FT section order,
 * and the raw format's `blocks:` list. A new file format adds its kind to nnue_format_kind
 * (core/arch/arch.h) and `kinds` below, its keys to `format_fields`, which kind owns which key to
 * core/arch/arch_check.c, and its reader in core/net/. Nothing else here names a kind. */
#include <stdio.h>
#include <string.h>

#include "load/load.h"
#include "core/arch/generated_name.h"
#include "core/arch/layer.h" /* nnue_dtype_names */

/* What the format keys fill; `blocks:` is only remembered here and read after the whole document
 * (nnue_arch_read_blocks), as before the split, so errors come in the same order. */
typedef struct format_ctx {
    nnue_format *f;
    yaml_node_t *blocks_node;
} format_ctx;

/* The YAML names of nnue_format_kind, in its order: a new kind is one name here. */
static const char *const kinds[] = {"stockfish", "raw", NULL};

static nnue_status read_format_kind(yreader *r, yaml_node_t *v, void *t)
{
    int i;
    nnue_status st = y_enum(r, v, kinds, &i, "format 'kind'");
    ((format_ctx *)t)->f->kind = (nnue_format_kind)i;
    return st;
}

Y_INT_FIELD(read_version, format_ctx, c->f->version, 0, 0xFFFFFFFFll, "format 'version'")

static nnue_status read_leb128(yreader *r, yaml_node_t *v, void *t)
{
    return y_bool(r, v, &((format_ctx *)t)->f->leb128, "format 'leb128'");
}

Y_INT_FIELD(read_description_bytes, format_ctx, c->f->description_bytes, 0, 1 << 20, "format 'description_bytes'")

static nnue_status read_blocks(yreader *r, yaml_node_t *v, void *t)
{
    int n;
    nnue_status st = y_seq(r, v, &n, "format 'blocks'");
    ((format_ctx *)t)->blocks_node = v;
    return st;
}

Y_INT_FIELD(read_pad_to, format_ctx, c->f->pad_to, 1, 4096, "format 'pad_to'")

static nnue_status read_pad_text(yreader *r, yaml_node_t *v, void *t)
{
    nnue_format *f = ((format_ctx *)t)->f;
    return y_string(r, v, f->pad_text, sizeof f->pad_text, "format 'pad_text'");
}

Y_INT_FIELD(read_fixed_ft_hash, format_ctx, c->f->fixed_ft_hash, 0, 0xFFFFFFFFll, "format 'hashes' 'ft'")
Y_INT_FIELD(read_fixed_network_hash, format_ctx, c->f->fixed_network_hash, 0, 0xFFFFFFFFll,
            "format 'hashes' 'network'")

static const yfield hash_fields[] = {
    {"ft", 1, read_fixed_ft_hash},
    {"network", 1, read_fixed_network_hash},
    {NULL, 0, NULL},
};

/* Fixed hashes (YaneuraOu's SFNN files carry constants, not the graph's hashes). */
static nnue_status read_hashes(yreader *r, yaml_node_t *v, void *t)
{
    ((format_ctx *)t)->f->fixed_hashes = 1;
    return y_map(r, v, hash_fields, t, "format 'hashes'");
}

/* How the FT hash folds several sets: Stockfish 18 takes the first set's, Stockfish 19 all. */
static nnue_status read_ft_hash(yreader *r, yaml_node_t *v, void *t)
{
    static const char *const rules[] = {"first", "combined", NULL};
    int i;
    nnue_status st = y_enum(r, v, rules, &i, "format 'ft_hash'");
    ((format_ctx *)t)->f->ft_hash_combined = i;
    return st;
}

/* Order of several sets' FT sections: all weights then one PSQT array (Stockfish 18), or each
 * set's weights followed by its own PSQT array (Stockfish 19). */
static nnue_status read_ft_sections(yreader *r, yaml_node_t *v, void *t)
{
    static const char *const orders[] = {"joint_psqt", "per_set", NULL};
    int i;
    nnue_status st = y_enum(r, v, orders, &i, "format 'ft_sections'");
    ((format_ctx *)t)->f->psqt_per_set = i;
    return st;
}

/* YaneuraOu's generated architectures: the name the description's Network= must match (the shape,
 * core/arch/generated_name.h). */
static nnue_status read_generated(yreader *r, yaml_node_t *v, void *t)
{
    nnue_format *f = ((format_ctx *)t)->f;
    nnue_status st = y_string(r, v, f->generated, sizeof f->generated, "format 'generated'");
    nnue_generated_shape shape;
    char why[160];
    if (st == NNUE_OK && nnue_generated_parse(f->generated, strlen(f->generated), &shape, why, sizeof why) != 0)
        return y_fail(r, v, NNUE_E_SCHEMA, "format 'generated': %s", why);
    return st;
}

static nnue_status read_container(yreader *r, yaml_node_t *v, void *t)
{
    static const char *const names[] = {"plain", "cbnf", "varint", NULL};
    int i;
    nnue_status st = y_enum(r, v, names, &i, "format 'container'");
    ((format_ctx *)t)->f->container = (nnue_container)i;
    return st;
}

Y_INT_FIELD(read_cbnf_arch, format_ctx, c->f->cbnf.arch, 0, 255, "format 'cbnf' 'arch'")
Y_INT_FIELD(read_cbnf_flags, format_ctx, c->f->cbnf.flags, 0, 65535, "format 'cbnf' 'flags'")
Y_INT_FIELD(read_cbnf_act, format_ctx, c->f->cbnf.ft_activation, 0, 255, "format 'cbnf' 'ft_activation'")
Y_INT_FIELD(read_cbnf_buckets, format_ctx, c->f->cbnf.input_buckets, 0, 255, "format 'cbnf' 'input_buckets'")

static const yfield cbnf_fields[] = {
    {"arch", 1, read_cbnf_arch},
    {"flags", 1, read_cbnf_flags},
    {"ft_activation", 0, read_cbnf_act},
    {"input_buckets", 1, read_cbnf_buckets},
    {NULL, 0, NULL},
};

/* The CBNF header's required values (formats/net_read_cbnf.c checks them). */
static nnue_status read_cbnf(yreader *r, yaml_node_t *v, void *t)
{
    return y_map(r, v, cbnf_fields, t, "format 'cbnf'");
}

static const yfield format_fields[] = {
    {"container", 0, read_container},
    {"cbnf", 0, read_cbnf},
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
    {"generated", 0, read_generated},
    {NULL, 0, NULL},
};

nnue_status nnue_arch_read_format(yreader *r, yaml_node_t *v, nnue_format *format, yaml_node_t **blocks)
{
    format_ctx ctx = {format, NULL};
    nnue_status st = y_map(r, v, format_fields, &ctx, "format");
    *blocks = ctx.blocks_node;
    return st;
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
    static const char *const names[] = {"bucket_major", "input_major", "input_major_per_bucket", "input_blocks_of_4", NULL};
    int i;
    nnue_status st = y_enum(r, v, names, &i, "block 'order'");
    ((block_ctx *)t)->block->order = (nnue_weight_order)i;
    return st;
}

/* `set: NAME`: an ft.weights block of one of several feature sets (default: the last listed). */
static nnue_status read_block_set(yreader *r, yaml_node_t *v, void *t)
{
    nnue_block *b = ((block_ctx *)t)->block;
    return y_string(r, v, b->set_name, sizeof b->set_name, "block 'set'");
}

static const yfield block_fields[] = {
    {"tensor", 1, read_block_tensor},
    {"set", 0, read_block_set},
    {"dtype", 0, read_block_dtype},
    {"order", 0, read_block_order},
    {NULL, 0, NULL},
};

nnue_status nnue_arch_read_blocks(yreader *r, yaml_node_t *blocks, nnue_format *f)
{
    int n;
    nnue_status st = y_seq(r, blocks, &n, "format 'blocks'");
    if (st != NNUE_OK)
        return st;
    if (n < 1 || n > NNUE_MAX_BLOCKS)
        return y_fail(r, blocks, NNUE_E_SHAPE, "format 'blocks': expected 1 to %d blocks, found %d",
                      NNUE_MAX_BLOCKS, n);
    for (int i = 0; i < n; i++) {
        nnue_block *b = &f->blocks[i];
        b->dtype = NNUE_I16;
        b->set_name[0] = 0;
        b->set = -1;
        b->order = NNUE_ROW_MAJOR;
        block_ctx ctx = {b, 0};
        b->line = (int)y_item(r, blocks, i)->start_mark.line + 1;
        b->column = (int)y_item(r, blocks, i)->start_mark.column + 1;
        char what[32];
        snprintf(what, sizeof what, "block %d", i + 1);
        if ((st = y_map(r, y_item(r, blocks, i), block_fields, &ctx, what)) != NNUE_OK)
            return st;
        for (int j = 0; j < i; j++)
            if (strcmp(f->blocks[j].name, b->name) == 0 && strcmp(f->blocks[j].set_name, b->set_name) == 0)
                return y_fail(r, y_item(r, blocks, i), NNUE_E_SCHEMA,
                              "block %d: expected each tensor once, found a second copy of block %d's tensor", i + 1,
                              j + 1);
    }
    f->n_blocks = n;
    return NNUE_OK;
}
