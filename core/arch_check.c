/* core/arch_check.c: rules that concern the whole architecture, after every key was read. */
#include <stdio.h>
#include <string.h>

#include "core/arch_internal.h"
#include "core/arch_limits.h"
#include "core/error.h"
#include "core/layer.h"

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
        set->params = ft->params;
        set->inputs = set->features->dimensions(&set->params);
        total_inputs = nnue_sat_add(total_inputs, set->inputs);
        ft_bytes = nnue_sat_add(ft_bytes, nnue_sat_mul(nnue_sat_mul(set->inputs, ft->width),
                                                       nnue_dtype_size(set->weight_type)));
    }
    ft_bytes = nnue_sat_add(ft_bytes, nnue_sat_mul(nnue_sat_mul(total_inputs, ft->psqt_buckets), 4));
    ft->total_inputs = total_inputs > UINT32_MAX ? UINT32_MAX : (uint32_t)total_inputs;
    const nnue_ft_set *last = &ft->sets[ft->n_sets - 1];
    ft->features = last->features;
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
    if (ft->n_sets > 1 && (a->format.kind != NNUE_FORMAT_STOCKFISH || !ft->psqt_buckets))
        return y_fail(r, y_lookup(r, node, "features"), NNUE_E_SCHEMA,
                      "feature_transformer 'features': several feature sets need format kind stockfish and PSQT "
                      "buckets (the SFNNv10 layout), found %s%s",
                      a->format.kind == NNUE_FORMAT_STOCKFISH ? "kind stockfish" : "kind raw",
                      ft->psqt_buckets ? "" : " without PSQT");
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
    const char *foreign = nnue_expr_foreign_variable(&a->selector, a->game);
    if (foreign)
        return y_fail(r, y_lookup(r, node, "selector"), NNUE_E_SCHEMA,
                      "stacks 'selector': expected variables of a %s board, found '%s' (not a %s fact)", a->game,
                      foreign, a->game);
    int32_t lo, hi;
    int exact;
    nnue_expr_range(&a->selector, a->game, &lo, &hi, &exact);
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

static nnue_status check_format(yreader *r, yaml_node_t *root, nnue_arch *a)
{
    yaml_node_t *node = y_lookup(r, root, "format");
    nnue_format *f = &a->format;
    if (f->kind == NNUE_FORMAT_STOCKFISH) {
        if (!y_lookup(r, node, "version"))
            return y_fail(r, node, NNUE_E_SCHEMA, "format: missing required key 'version' for kind stockfish");
        if (f->n_blocks || y_lookup(r, node, "pad_to") || y_lookup(r, node, "pad_text"))
            return y_fail(r, node, NNUE_E_SCHEMA,
                          "format: 'blocks', 'pad_to' and 'pad_text' belong to kind raw, found them with stockfish");
        for (int i = 0; i < a->n_layers; i++)
            if (a->layers[i].type->is_affine &&
                (a->layers[i].p.affine.sum_divisor != 1 || a->layers[i].p.affine.weight_type != NNUE_I8 ||
                 a->layers[i].p.affine.bias_type != NNUE_I32))
                return nnue_fail_at(r->err, NNUE_E_SCHEMA, r->path, a->layers[i].line, a->layers[i].column,
                                    "layer '%s': expected i8 weights, i32 biases and no sum_divisor in a stockfish "
                                    "format file",
                                    a->layers[i].name);
        return NNUE_OK;
    }
    /* raw: exactly the FT tensors and one output affine layer, each in one block. */
    if (f->leb128 || y_lookup(r, node, "version") || f->description_bytes >= 0 || f->fixed_hashes)
        return y_fail(r, node, NNUE_E_SCHEMA,
                      "format: 'version', 'leb128', 'description_bytes' and 'hashes' belong to kind stockfish, found "
                      "them with raw");
    if (!f->n_blocks)
        return y_fail(r, node, NNUE_E_SCHEMA, "format: missing required key 'blocks' for kind raw");
    int affine = -1;
    for (int i = 0; i < a->n_layers; i++)
        if (a->layers[i].type->is_affine) {
            if (affine >= 0)
                return nnue_fail_at(r->err, NNUE_E_SCHEMA, r->path, a->layers[i].line, a->layers[i].column,
                                    "layer '%s': a raw-format net has one affine (output) layer, found a second",
                                    a->layers[i].name);
            affine = i;
        }
    if (affine < 0)
        return y_fail(r, y_lookup(r, root, "layers"), NNUE_E_SCHEMA,
                      "layers: expected one affine output layer in a raw-format net, found none");
    nnue_tensor needed[] = {NNUE_T_FT_WEIGHTS, NNUE_T_FT_BIASES, NNUE_T_OUT_WEIGHTS, NNUE_T_OUT_BIASES};
    static const char *const names[] = {"ft.weights", "ft.biases", "ft.psqt", "out.weights", "out.biases"};
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
        if (!has_block(f, needed[i]))
            return y_fail(r, y_lookup(r, node, "blocks"), NNUE_E_SCHEMA,
                          "format 'blocks': expected a block for tensor %s, found none", names[needed[i]]);
    if (has_block(f, NNUE_T_FT_PSQT) != (a->ft.psqt_buckets > 0))
        return y_fail(r, y_lookup(r, node, "blocks"), NNUE_E_SCHEMA,
                      "format 'blocks': expected an ft.psqt block exactly when psqt_buckets > 0");
    for (int i = 0; i < f->n_blocks; i++) {
        nnue_block *b = &f->blocks[i];
        nnue_layer *out = &a->layers[affine];
        if (b->tensor == NNUE_T_OUT_WEIGHTS)
            out->p.affine.weight_type = b->dtype, out->p.affine.order = b->order;
        if (b->tensor == NNUE_T_OUT_BIASES)
            out->p.affine.bias_type = b->dtype;
        if (b->tensor == NNUE_T_OUT_WEIGHTS && b->dtype != NNUE_I8 && b->dtype != NNUE_I16)
            return y_fail(r, y_item(r, y_lookup(r, node, "blocks"), i), NNUE_E_SCHEMA,
                          "block %d: expected dtype i8 or i16 for %s, found %s", i + 1, names[b->tensor],
                          nnue_dtype_name(b->dtype));
        if (b->dtype == NNUE_U8)
            return y_fail(r, y_item(r, y_lookup(r, node, "blocks"), i), NNUE_E_SCHEMA,
                          "block %d: expected a signed dtype for %s, found u8", i + 1, names[b->tensor]);
        if ((b->tensor == NNUE_T_FT_WEIGHTS || b->tensor == NNUE_T_FT_BIASES) && b->dtype != NNUE_I16)
            return y_fail(r, y_item(r, y_lookup(r, node, "blocks"), i), NNUE_E_SCHEMA,
                          "block %d: expected dtype i16 for %s, found %s", i + 1, names[b->tensor],
                          nnue_dtype_name(b->dtype));
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
