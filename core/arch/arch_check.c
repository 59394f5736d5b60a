/* core/arch/arch_check.c: rules that concern the whole architecture, after every key was read. */
#include <stdio.h>
#include <string.h>

#include "core/arch/arch_internal.h"
#include "core/arch/layer.h"
#include "base/arch_limits.h"
#include "base/error.h"

static nnue_status check_ft(yreader *r, yaml_node_t *root, nnue_arch *a)
{
    yaml_node_t *node = y_lookup(r, root, "feature_transformer");
    nnue_ft_desc *ft = &a->ft;
    uint64_t ft_bytes = 0, total_inputs = 0;
    for (int s = 0; s < ft->n_sets; s++) {
        nnue_ft_set *set = &ft->sets[s];
        if (strcmp(set->features->game, a->game) != 0)
            return y_fail(r, y_lookup(r, node, "features"), NNUE_E_SCHEMA,
                          "feature_transformer 'features': expected a %s feature set, found '%s' (a %s set)", a->game,
                          set->features->name, set->features->game);
        set->inputs = set->features->dimensions(&set->params);
        total_inputs = nnue_sat_add(total_inputs, set->inputs);
        ft_bytes = nnue_sat_add(ft_bytes, nnue_sat_mul(nnue_sat_mul(set->inputs, ft->width),
                                                       nnue_dtype_size(set->weight_type)));
    }
    ft_bytes = nnue_sat_add(ft_bytes, nnue_sat_mul(nnue_sat_mul(total_inputs, ft->psqt_buckets), 4));
    ft->total_inputs = total_inputs > UINT32_MAX ? UINT32_MAX : (uint32_t)total_inputs;
    nnue_ft_set *last = &ft->sets[ft->n_sets - 1];
    if (ft->n_sets > 1 && last->weight_type == NNUE_I8) /* Pikafish: widened on load */
        last->weight_type = NNUE_I16, last->file_i8 = 1;
    ft->features = last->features;
    ft->params = last->params;
    ft->inputs = last->inputs;
    ft->weight_type = last->weight_type;
    ft->bias_type = NNUE_I16;
    if (ft_bytes > NNUE_MAX_FT_BYTES)
        return y_fail(r, y_lookup(r, node, "width"), NNUE_E_SHAPE,
                      "feature_transformer: expected at most 2 GiB of weights and PSQT, found %llu inputs x %u width",
                      (unsigned long long)total_inputs, ft->width);
    if (ft->weight_type != NNUE_I16)
        return y_fail(r, y_lookup(r, node, "features"), NNUE_E_SHAPE,
                      "feature_transformer 'features': expected i16 weights for the last listed set '%s', found i8",
                      last->features->name);
    if (ft->n_sets > 1 && a->format.kind == NNUE_FORMAT_STOCKFISH && !ft->psqt_buckets)
        return y_fail(r, y_lookup(r, node, "features"), NNUE_E_SCHEMA,
                      "feature_transformer 'features': several feature sets in format kind stockfish need PSQT "
                      "buckets (the SFNNv10 layout), found none (kind raw takes one ft.weights block per set)");
    if (ft->psqt_buckets && ft->psqt_buckets != a->stacks)
        return y_fail(r, y_lookup(r, node, "psqt_buckets"), NNUE_E_SHAPE,
                      "feature_transformer 'psqt_buckets': expected 0 or the stack count %u, found %u", a->stacks,
                      ft->psqt_buckets);
    if (ft->activation == NNUE_FT_PAIRWISE && ft->clamp_max * ft->clamp_max >> ft->shift > 255)
        return y_fail(r, y_lookup(r, node, "activation"), NNUE_E_SHAPE,
                      "pairwise activation: expected max^2 >> shift to fit in 0..255, found %d^2 >> %d", ft->clamp_max,
                      ft->shift);
    return NNUE_OK;
}

static nnue_status check_stacks(yreader *r, yaml_node_t *root, nnue_arch *a)
{
    yaml_node_t *node = y_lookup(r, root, "stacks");
    if (a->stacks > 1 && a->selector.n_ops == 1 && strcmp(a->selector.text, "0") == 0)
        return y_fail(r, node, NNUE_E_SCHEMA, "stacks: expected a 'selector' for %u stacks, found none", a->stacks);
    const char *foreign = nnue_expr_foreign_variable(&a->selector, a->game_desc);
    if (foreign)
        return y_fail(r, y_lookup(r, node, "selector"), NNUE_E_SCHEMA,
                      "stacks 'selector': expected variables of a %s board, found '%s' (not a %s fact)", a->game,
                      foreign, a->game);
    if (nnue_expr_has_tables(&a->selector) && a->format.kind != NNUE_FORMAT_STOCKFISH)
        return y_fail(r, y_lookup(r, node, "selector"), NNUE_E_SCHEMA,
                      "stacks 'selector': a table variable (its table is a section of the net file) needs format "
                      "kind stockfish");
    if (nnue_expr_surely_within(&a->selector, a->game_desc, 0, (int64_t)a->stacks - 1))
        return NNUE_OK; /* the common case, without enumerating (every arch load, every detection) */
    int32_t lo, hi;
    int exact;
    nnue_expr_range(&a->selector, a->game_desc, &lo, &hi, &exact);
    if (lo < 0 || hi >= (int32_t)a->stacks)
        return y_fail(r, y_lookup(r, node, "selector"), NNUE_E_SHAPE,
                      "stacks 'selector': expected values 0..%u on every %s board, found %s %d..%d", a->stacks - 1,
                      a->game, exact ? "values" : "values possibly (a safe bound) in", lo, hi);
    return NNUE_OK;
}

static nnue_status check_layers(yreader *r, yaml_node_t *root, nnue_arch *a)
{
    yaml_node_t *layers = y_lookup(r, root, "layers");
    const nnue_layer *last = &a->layers[a->n_layers - 1];
    if (last->out_size != 1)
        return y_fail(r, layers, NNUE_E_SHAPE, "layers: expected the last layer ('%s') to have 1 output, found %u",
                      last->name, last->out_size);
    for (int i = 0; i < a->n_layers - 1; i++) {
        int used = 0;
        for (int j = i + 1; j < a->n_layers && !used; j++)
            for (int k = 0; k < a->layers[j].n_inputs; k++)
                used |= a->layers[j].inputs[k] == i;
        if (!used)
            return nnue_fail_at(r->err, NNUE_E_SHAPE, r->path, a->layers[i].line, a->layers[i].column,
                                "layer '%s': expected its output to feed a later layer, found it unused",
                                a->layers[i].name);
    }
    uint64_t per_stack = 0, largest = 0;
    const nnue_layer *biggest = last;
    for (int i = 0; i < a->n_layers; i++) {
        const nnue_layer *l = &a->layers[i];
        uint64_t bytes = l->type->file_bytes(l);
        per_stack = nnue_sat_add(per_stack, bytes);
        if (bytes > largest)
            largest = bytes, biggest = l;
    }
    uint64_t all = nnue_sat_mul(per_stack, a->stacks);
    if (all > NNUE_MAX_LAYER_BYTES)
        return nnue_fail_at(r->err, NNUE_E_SHAPE, r->path, biggest->line, biggest->column,
                            "layers: expected at most 1 GiB of layer parameters over the %u stacks, found %llu bytes "
                            "(%llu per stack; layer '%s' has %llu)",
                            a->stacks, (unsigned long long)all, (unsigned long long)per_stack, biggest->name,
                            (unsigned long long)largest);
    return NNUE_OK;
}

static int has_block(const nnue_format *f, nnue_tensor t)
{
    for (int i = 0; i < f->n_blocks; i++)
        if (f->blocks[i].tensor == t)
            return 1;
    return 0;
}

static nnue_status block_fail(yreader *r, const nnue_block *b, int i, const char *fmt, const char *detail)
{
    return nnue_fail_at(r->err, NNUE_E_SCHEMA, r->path, b->line, b->column, fmt, i + 1, b->name, detail);
}

/* A LAYER.TENSOR block: which layer and which of its tensors; the block's dtype becomes the
 * tensor's file dtype (the layer type says which it accepts). */
static nnue_status resolve_layer_block(yreader *r, nnue_arch *a, nnue_block *b, int i)
{
    char layer_name[NNUE_NAME_MAX + 16], buf[200];
    snprintf(layer_name, sizeof layer_name, "%s", b->name);
    char *dot = strrchr(layer_name, '.');
    *dot = 0;
    const char *tensor = dot + 1;
    b->layer = -1;
    for (int k = 0; k < a->n_layers; k++)
        if (strcmp(a->layers[k].name, layer_name) == 0)
            b->layer = k;
    if (b->layer < 0)
        return block_fail(r, b, i, "block %d: tensor '%s': expected the name of a layer before the dot%s", "");
    nnue_layer *l = &a->layers[b->layer];
    nnue_tensor_shape t[NNUE_MAX_TENSORS];
    int n = l->type->tensors ? l->type->tensors(l, t) : 0;
    char known[160] = "";
    for (int k = 0; k < n; k++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s.%s", k ? ", " : "", l->name, t[k].name);
    b->index = -1;
    for (int k = 0; k < n; k++)
        if (strcmp(t[k].name, tensor) == 0)
            b->index = k;
    if (b->index < 0) {
        snprintf(buf, sizeof buf, " (layer '%s' is %s and has %s%s)", l->name, l->type->name,
                 n ? "the tensors " : "no tensors", known);
        return block_fail(r, b, i, "block %d: tensor '%s': expected a tensor of its layer%s", buf);
    }
    const char *problem = NULL;
    if (l->type->adopt_dtype)
        problem = l->type->adopt_dtype(l, b->index, b->dtype, buf, sizeof buf);
    else if (t[b->index].file != b->dtype) {
        snprintf(buf, sizeof buf, "expected dtype %s, found %s", nnue_dtype_name(t[b->index].file),
                 nnue_dtype_name(b->dtype));
        problem = buf;
    }
    if (!problem && b->order == NNUE_INPUT_BLOCKS_OF_4 && t[b->index].cols % 4) {
        snprintf(buf, sizeof buf, "order input_blocks_of_4: expected a multiple of 4 inputs, found %u",
                 t[b->index].cols);
        problem = buf;
    }
    if (problem)
        return block_fail(r, b, i, "block %d (%s): %s", problem);
    if (l->type->is_affine && b->index == 1)
        l->p.affine.order = b->order;
    return NNUE_OK;
}

/* An ft.weights block: which feature set's rows (its `set:`, else the last listed set), in the
 * dtype that set's rows have in the file. */
static nnue_status resolve_set_block(yreader *r, nnue_arch *a, nnue_block *b, int i)
{
    const nnue_ft_desc *ft = &a->ft;
    b->set = b->set_name[0] ? -1 : ft->n_sets - 1;
    for (int k = 0; k < ft->n_sets && b->set < 0; k++)
        if (strcmp(ft->sets[k].features->name, b->set_name) == 0)
            b->set = k;
    char buf[200];
    if (b->set < 0) {
        snprintf(buf, sizeof buf, " '%s'", b->set_name);
        return block_fail(r, b, i, "block %d (%s): expected 'set' to name a feature set of the feature transformer, "
                                   "found%s", buf);
    }
    const nnue_ft_set *set = &ft->sets[b->set];
    nnue_dtype want = set->weight_type == NNUE_I8 || set->file_i8 ? NNUE_I8 : NNUE_I16;
    if (b->order != NNUE_ROW_MAJOR)
        return block_fail(r, b, i, "block %d: 'order' applies to a layer's weights, found it on %s%s", "");
    if (b->dtype != want) {
        snprintf(buf, sizeof buf, "expected dtype %s (feature set '%s' has %s weights), found %s",
                 nnue_dtype_name(want), set->features->name, nnue_dtype_name(want), nnue_dtype_name(b->dtype));
        return block_fail(r, b, i, "block %d (%s): %s", buf);
    }
    return NNUE_OK;
}

static nnue_status check_format(yreader *r, yaml_node_t *root, nnue_arch *a)
{
    yaml_node_t *node = y_lookup(r, root, "format");
    nnue_format *f = &a->format;
    if (f->kind == NNUE_FORMAT_STOCKFISH) {
        if (!y_lookup(r, node, "version"))
            return y_fail(r, node, NNUE_E_SCHEMA, "format: missing required key 'version' for kind stockfish");
        if (f->n_blocks || y_lookup(r, node, "pad_to") || y_lookup(r, node, "pad_text") ||
            y_lookup(r, node, "container") || y_lookup(r, node, "cbnf"))
            return y_fail(r, node, NNUE_E_SCHEMA,
                          "format: 'blocks', 'pad_to', 'pad_text', 'container' and 'cbnf' belong to kind raw, found "
                          "them with stockfish");
        for (int i = 0; i < a->n_layers; i++)
            if (a->layers[i].type->is_affine &&
                (a->layers[i].p.affine.sum_divisor != 1 || a->layers[i].p.affine.sum_shift ||
                 a->layers[i].p.affine.weight_type != NNUE_I8 ||
                 a->layers[i].p.affine.bias_type != NNUE_I32))
                return nnue_fail_at(r->err, NNUE_E_SCHEMA, r->path, a->layers[i].line, a->layers[i].column,
                                    "layer '%s': expected i8 weights, i32 biases and no sum_divisor or sum_shift in a stockfish "
                                    "format file",
                                    a->layers[i].name);
        return NNUE_OK;
    }
    /* raw: the FT tensors and every tensor of every layer (those it keeps in the file), each in
     * exactly one block. */
    if (f->leb128 || y_lookup(r, node, "version") || f->description_bytes >= 0 || f->fixed_hashes || f->generated[0])
        return y_fail(r, node, NNUE_E_SCHEMA,
                      "format: 'version', 'leb128', 'description_bytes', 'hashes' and 'generated' belong to kind "
                      "stockfish, found them with raw");
    if (!f->n_blocks)
        return y_fail(r, node, NNUE_E_SCHEMA, "format: missing required key 'blocks' for kind raw");
    static const char *const names[] = {"ft.weights", "ft.biases", "ft.psqt"};
    for (int i = 0; i < f->n_blocks; i++) {
        nnue_block *b = &f->blocks[i];
        nnue_status st;
        if (b->tensor == NNUE_T_LAYER) {
            if ((st = resolve_layer_block(r, a, b, i)) != NNUE_OK)
                return st;
            continue;
        }
        if (b->set_name[0] && b->tensor != NNUE_T_FT_WEIGHTS)
            return block_fail(r, b, i, "block %d: 'set' applies to ft.weights, found it on %s%s", "");
        if (b->tensor == NNUE_T_FT_WEIGHTS) {
            if ((st = resolve_set_block(r, a, b, i)) != NNUE_OK)
                return st;
            continue;
        }
        if (b->dtype != NNUE_I16 && b->tensor != NNUE_T_FT_PSQT)
            return block_fail(r, b, i, "block %d: expected dtype i16 for %s%s", "");
        if (b->tensor == NNUE_T_FT_PSQT && b->dtype != NNUE_I16 && b->dtype != NNUE_I32)
            return block_fail(r, b, i, "block %d: expected dtype i16 or i32 for %s%s", "");
        if (b->order != NNUE_ROW_MAJOR)
            return block_fail(r, b, i, "block %d: 'order' applies to a layer's weights, found it on %s%s", "");
    }
    for (int k = 0; k < a->ft.n_sets; k++) {
        int blocks = 0;
        for (int i = 0; i < f->n_blocks; i++)
            blocks += f->blocks[i].tensor == NNUE_T_FT_WEIGHTS && f->blocks[i].set == k;
        if (blocks != 1)
            return y_fail(r, y_lookup(r, node, "blocks"), NNUE_E_SCHEMA,
                          "format 'blocks': expected one ft.weights block for feature set '%s'%s, found %d",
                          a->ft.sets[k].features->name, k == a->ft.n_sets - 1 ? " (the default 'set')" : "", blocks);
    }
    if ((f->container == NNUE_CONTAINER_CBNF) != (y_lookup(r, node, "cbnf") != NULL))
        return y_fail(r, node, NNUE_E_SCHEMA, "format: expected the key 'cbnf' exactly with container cbnf");
    for (int t = NNUE_T_FT_WEIGHTS; t <= NNUE_T_FT_BIASES; t++)
        if (!has_block(f, (nnue_tensor)t))
            return y_fail(r, y_lookup(r, node, "blocks"), NNUE_E_SCHEMA,
                          "format 'blocks': expected a block for tensor %s, found none", names[t]);
    if (has_block(f, NNUE_T_FT_PSQT) != (a->ft.psqt_buckets > 0))
        return y_fail(r, y_lookup(r, node, "blocks"), NNUE_E_SCHEMA,
                      "format 'blocks': expected an ft.psqt block exactly when psqt_buckets > 0");
    for (int k = 0; k < a->n_layers; k++) {
        nnue_layer *l = &a->layers[k];
        nnue_tensor_shape t[NNUE_MAX_TENSORS];
        int n = l->type->tensors ? l->type->tensors(l, t) : 0;
        for (int j = 0; j < n; j++) {
            int found = 0;
            for (int i = 0; i < f->n_blocks; i++)
                found |= f->blocks[i].tensor == NNUE_T_LAYER && f->blocks[i].layer == k && f->blocks[i].index == j;
            if (!found && t[j].file != NNUE_NONE)
                return y_fail(r, y_lookup(r, node, "blocks"), NNUE_E_SCHEMA,
                              "format 'blocks': expected a block for tensor %s.%s (layer '%s' is %s), found none",
                              l->name, t[j].name, l->name, l->type->name);
        }
    }
    return NNUE_OK;
}

nnue_status nnue_arch_check(yreader *r, yaml_node_t *root, nnue_arch *a)
{
    nnue_status st;
    if ((st = check_ft(r, root, a)) != NNUE_OK)
        return st;
    if ((st = check_stacks(r, root, a)) != NNUE_OK)
        return st;
    if ((st = check_layers(r, root, a)) != NNUE_OK)
        return st;
    if ((st = check_format(r, root, a)) != NNUE_OK)
        return st;
    int over;
    uint64_t text = nnue_arch_describe_length(a, &over);
    if (text > NNUE_MAX_DESCRIPTION_BYTES) {
        const nnue_layer *l = &a->layers[over >= 0 ? over : a->n_layers - 1];
        char found[32] = "over 2^64"; /* the count saturated */
        if (text < UINT64_MAX)
            snprintf(found, sizeof found, "%llu", (unsigned long long)text);
        return nnue_fail_at(r->err, NNUE_E_SHAPE, r->path, l->line, l->column,
                            "layer '%s': expected a description string of at most %u bytes (each use of a layer "
                            "writes it out again), found %s",
                            l->name, NNUE_MAX_DESCRIPTION_BYTES, found);
    }
    uint64_t file = nnue_arch_file_bytes(a);
    if (file > NNUE_MAX_FILE_BYTES) /* the FT and layer limits keep real YAML below this */
        return y_fail(r, root, NNUE_E_SHAPE, "architecture: expected a net file of at most 4 GiB, found %llu bytes",
                      (unsigned long long)file);
    return NNUE_OK;
}
