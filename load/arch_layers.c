/* load/arch_layers.c: the `layers:` list of an architecture.
 *
 * Each item is a mapping with `name`, `type`, optionally `input` (one layer name) or
 * `inputs` (a list), and the type's own keys (layers/<type>.c). A layer without
 * input reads the previous layer, the first one reads the network input (the FT output,
 * also nameable as `ft`). Output sizes follow from the inputs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/layer.h"
#include "load/load.h"
#include "base/arch_limits.h"

#define MAX_FIELDS 24

typedef struct layer_read {
    nnue_layer_ctx ctx;
    yaml_node_t *input_nodes[NNUE_MAX_LAYER_INPUTS];
    int n_input_nodes;         /* -1: not given */
    yaml_node_t *input_size_node; /* optional declared input count, checked against the graph */
} layer_read;

static nnue_status read_layer_name(yreader *r, yaml_node_t *v, void *t)
{
    return y_string(r, v, ((layer_read *)t)->ctx.layer->name, NNUE_NAME_MAX, "layer 'name'");
}

static nnue_status read_layer_type(yreader *r, yaml_node_t *v, void *t)
{
    (void)r;
    (void)v;
    (void)t;
    return NNUE_OK; /* already read before the mapping, to know the type's keys */
}

static nnue_status read_input(yreader *r, yaml_node_t *v, void *t)
{
    layer_read *lr = t;
    if (lr->n_input_nodes >= 0)
        return y_fail(r, v, NNUE_E_SCHEMA, "layer: expected 'input' or 'inputs', found both");
    char found[80];
    if (v->type != YAML_SCALAR_NODE)
        return y_fail(r, v, NNUE_E_SCHEMA, "layer 'input': expected a layer name, found %s",
                      y_describe(v, found, sizeof found));
    lr->input_nodes[0] = v;
    lr->n_input_nodes = 1;
    return NNUE_OK;
}

static nnue_status read_inputs(yreader *r, yaml_node_t *v, void *t)
{
    layer_read *lr = t;
    if (lr->n_input_nodes >= 0)
        return y_fail(r, v, NNUE_E_SCHEMA, "layer: expected 'input' or 'inputs', found both");
    int n;
    nnue_status st = y_seq(r, v, &n, "layer 'inputs'");
    if (st != NNUE_OK)
        return st;
    if (n < 1 || n > NNUE_MAX_LAYER_INPUTS)
        return y_fail(r, v, NNUE_E_SHAPE, "layer 'inputs': expected 1 to %d layer names, found %d",
                      NNUE_MAX_LAYER_INPUTS, n);
    for (int i = 0; i < n; i++)
        lr->input_nodes[i] = y_item(r, v, i);
    lr->n_input_nodes = n;
    return NNUE_OK;
}

static nnue_status read_input_size(yreader *r, yaml_node_t *v, void *t)
{
    int64_t n;
    ((layer_read *)t)->input_size_node = v;
    return y_int(r, v, 1, NNUE_MAX_LAYER_VALUES, &n, "layer 'input_size'");
}

static const yfield common_fields[] = {
    {"name", 1, read_layer_name},
    {"type", 1, read_layer_type},
    {"input", 0, read_input},
    {"inputs", 0, read_inputs},
    {"input_size", 0, read_input_size},
};

static int find_layer(const nnue_arch *a, int before, const char *name)
{
    if (strcmp(name, "ft") == 0)
        return NNUE_INPUT_NETWORK;
    for (int i = 0; i < before; i++)
        if (strcmp(a->layers[i].name, name) == 0)
            return i;
    return -2;
}

static uint32_t output_size(const nnue_arch *a, int index)
{
    return index == NNUE_INPUT_NETWORK ? 2 * a->ft.out_per_side : a->layers[index].out_size;
}

static nnue_status resolve_inputs(yreader *r, yaml_node_t *item, nnue_arch *a, int index, layer_read *lr)
{
    nnue_layer *l = &a->layers[index];
    char found[80];
    if (lr->n_input_nodes < 0) {
        l->n_inputs = 1;
        l->inputs[0] = index == 0 ? NNUE_INPUT_NETWORK : index - 1;
    } else {
        l->n_inputs = lr->n_input_nodes;
        for (int i = 0; i < lr->n_input_nodes; i++) {
            yaml_node_t *node = lr->input_nodes[i];
            if (node->type != YAML_SCALAR_NODE)
                return y_fail(r, node, NNUE_E_SCHEMA, "layer '%s' input: expected a layer name, found %s", l->name,
                              y_describe(node, found, sizeof found));
            const char *name = (const char *)node->data.scalar.value;
            int target = find_layer(a, index, name);
            if (target == -2)
                return y_fail(r, node, NNUE_E_SCHEMA,
                              "layer '%s' input: expected 'ft' or the name of an earlier layer, found '%s'", l->name,
                              name);
            l->inputs[i] = target;
        }
    }
    if (l->n_inputs < l->type->min_inputs || l->n_inputs > l->type->max_inputs)
        return y_fail(r, item, NNUE_E_SHAPE, "layer '%s' (%s): expected %d to %d inputs, found %d", l->name,
                      l->type->name, l->type->min_inputs, l->type->max_inputs, l->n_inputs);
    uint64_t total = 0; /* in 64 bits: four inputs of 2^31 values would wrap a uint32 sum */
    for (int i = 0; i < l->n_inputs; i++) {
        l->input_sizes[i] = output_size(a, l->inputs[i]);
        total = nnue_sat_add(total, l->input_sizes[i]);
    }
    if (total > NNUE_MAX_LAYER_VALUES) {
        yaml_node_t *at = lr->n_input_nodes < 0 ? item : y_lookup(r, item, lr->n_input_nodes > 1 ? "inputs" : "input");
        return y_fail(r, at ? at : item, NNUE_E_SHAPE, "layer '%s': expected at most %u input values, found %llu",
                      l->name, NNUE_MAX_LAYER_VALUES, (unsigned long long)total);
    }
    l->in_size = (uint32_t)total;
    return NNUE_OK;
}

static const char *value_name(nnue_dtype t)
{
    return t == NNUE_F32 ? "float32" : "int32";
}

/* The value type of layer index's output from its inputs' (the network input is int32) and its
 * type's flow (core/arch/layer.h); a mismatch is refused at the layer. */
static nnue_status value_flow(yreader *r, yaml_node_t *item, nnue_arch *a, int index)
{
    nnue_layer *l = &a->layers[index];
    nnue_dtype in = NNUE_I32;
    for (int k = 0; k < l->n_inputs; k++) {
        nnue_dtype t = l->inputs[k] == NNUE_INPUT_NETWORK ? NNUE_I32 : a->layers[l->inputs[k]].value_type;
        if (k > 0 && t != in)
            return y_fail(r, item, NNUE_E_SHAPE, "layer '%s' (%s): expected inputs of one value type, found %s and %s",
                          l->name, l->type->name, value_name(in), value_name(t));
        in = t;
    }
    static const nnue_dtype wants[] = {NNUE_I32, NNUE_F32, NNUE_I32, NNUE_F32};
    static const nnue_dtype gives[] = {NNUE_I32, NNUE_F32, NNUE_F32, NNUE_I32};
    nnue_value_flow f = l->type->flow;
    if (f == NNUE_FLOW_SAME) {
        l->value_type = in;
        return NNUE_OK;
    }
    if (in != wants[f])
        return y_fail(r, item, NNUE_E_SHAPE,
                      "layer '%s' (%s): expected %s input values, found %s from %s (a float layer reads float32 "
                      "values: dequantize turns int32 into float32, to_i32 back)",
                      l->name, l->type->name, value_name(wants[f]), value_name(in),
                      l->inputs[0] == NNUE_INPUT_NETWORK ? "the feature transformer" : a->layers[l->inputs[0]].name);
    l->value_type = gives[f];
    return NNUE_OK;
}

static nnue_status read_one(yreader *r, yaml_node_t *item, nnue_arch *a, int index)
{
    nnue_layer *l = &a->layers[index];
    char found[80], what[NNUE_NAME_MAX + 32];
    l->line = (int)item->start_mark.line + 1;
    l->column = (int)item->start_mark.column + 1;
    if (item->type != YAML_MAPPING_NODE)
        return y_fail(r, item, NNUE_E_SCHEMA, "layer %d: expected a mapping, found %s", index + 1,
                      y_describe(item, found, sizeof found));
    yaml_node_t *type_node = y_lookup(r, item, "type");
    if (!type_node)
        return y_fail(r, item, NNUE_E_SCHEMA, "layer %d: missing required key 'type'", index + 1);
    char type_name[NNUE_NAME_MAX];
    nnue_status st = y_string(r, type_node, type_name, sizeof type_name, "layer 'type'");
    if (st != NNUE_OK)
        return st;
    l->type = nnue_layer_type_find(type_name);
    if (!l->type) {
        char known[1200] = "";
        const nnue_layer_type *t;
        for (int i = 0; (t = nnue_layer_type_at(i)); i++) {
            strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
            strncat(known, t->name, sizeof known - strlen(known) - 1);
        }
        return y_fail(r, type_node, NNUE_E_SCHEMA, "layer 'type': expected one of %s, found '%s'", known, type_name);
    }
    /* The item's keys: the common ones plus the type's own. */
    yfield fields[MAX_FIELDS];
    int n = 0;
    for (size_t i = 0; i < sizeof common_fields / sizeof common_fields[0]; i++)
        fields[n++] = common_fields[i];
    for (const yfield *f = l->type->fields; f->key && n < MAX_FIELDS - 1; f++)
        fields[n++] = *f;
    fields[n] = (yfield){NULL, 0, NULL};

    layer_read lr = {{a, l, a->format.kind == NNUE_FORMAT_RAW}, {0}, -1, NULL};
    l->type->defaults(l, a);
    snprintf(what, sizeof what, "layer %d (%s)", index + 1, type_name);
    if ((st = y_map(r, item, fields, &lr, what)) != NNUE_OK)
        return st;
    if (find_layer(a, index, l->name) != -2)
        return y_fail(r, y_lookup(r, item, "name"), NNUE_E_SCHEMA,
                      "layer 'name': expected a new name, found '%s' a second time (or the reserved 'ft')", l->name);
    if ((st = resolve_inputs(r, item, a, index, &lr)) != NNUE_OK || (st = value_flow(r, item, a, index)) != NNUE_OK)
        return st;
    if (lr.input_size_node) {
        uint32_t declared = (uint32_t)strtoul((const char *)lr.input_size_node->data.scalar.value, NULL, 0);
        if (declared != l->in_size)
            return y_fail(r, lr.input_size_node, NNUE_E_SHAPE,
                          "layer '%s': expected %u inputs (its input_size), found %u from %s", l->name, declared,
                          l->in_size, l->inputs[0] == NNUE_INPUT_NETWORK ? "the feature transformer" : a->layers[l->inputs[0]].name);
    }
    char buf[200];
    const char *problem = l->type->shape(l, buf, sizeof buf);
    if (problem)
        return y_fail(r, item, NNUE_E_SHAPE, "layer '%s' (%s) with %u inputs: %s", l->name, l->type->name,
                      l->in_size, problem);
    if (l->out_size == 0)
        return y_fail(r, item, NNUE_E_SHAPE, "layer '%s': expected a non-zero output size", l->name);
    if (l->out_size > NNUE_MAX_LAYER_VALUES)
        return y_fail(r, item, NNUE_E_SHAPE, "layer '%s': expected at most %u output values, found %u", l->name,
                      NNUE_MAX_LAYER_VALUES, l->out_size);
    /* The evaluation scratch holds the network input and every layer's output (core/eval/forward.c). */
    uint64_t scratch = 2 * (uint64_t)a->ft.out_per_side;
    for (int i = 0; i <= index; i++)
        scratch += a->layers[i].out_size;
    if (scratch > NNUE_MAX_SCRATCH_VALUES)
        return y_fail(r, item, NNUE_E_SHAPE,
                      "layer '%s': expected at most %u scratch values (network input and layer outputs), found %llu",
                      l->name, NNUE_MAX_SCRATCH_VALUES, (unsigned long long)scratch);
    return NNUE_OK;
}

nnue_status nnue_arch_read_layers(yreader *r, yaml_node_t *layers, nnue_arch *a)
{
    int n;
    nnue_status st = y_seq(r, layers, &n, "'layers'");
    if (st != NNUE_OK)
        return st;
    if (n < 1 || n > NNUE_MAX_LAYERS)
        return y_fail(r, layers, NNUE_E_SHAPE, "'layers': expected 1 to %d layers, found %d", NNUE_MAX_LAYERS, n);
    /* The network input size depends on the FT activation, checked here first. */
    const nnue_ft_desc *ft = &a->ft;
    if (ft->activation == NNUE_FT_PAIRWISE && ft->width % 2)
        return y_fail(r, layers, NNUE_E_SHAPE, "pairwise activation: expected an even width, found %u", ft->width);
    a->ft.out_per_side = ft->activation == NNUE_FT_PAIRWISE ? ft->width / 2 : ft->width;
    for (int i = 0; i < n; i++) {
        a->n_layers = i + 1;
        if ((st = read_one(r, y_item(r, layers, i), a, i)) != NNUE_OK)
            return st;
    }
    const nnue_layer *last = &a->layers[n - 1];
    if (last->value_type != NNUE_I32)
        return y_fail(r, y_item(r, layers, n - 1), NNUE_E_SHAPE,
                      "layer '%s' (%s): expected the output layer to give int32 values, found float32 (end with "
                      "to_i32)",
                      last->name, last->type->name);
    return NNUE_OK;
}
