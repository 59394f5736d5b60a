/* core/arch/arch_describe.c: the description string and the Graphviz picture of an architecture.
 *
 * The string extends the classic nodchip/Stockfish grammar (docs/description-strings.md):
 *   Features=<set>[<inputs>-><width>x2][,PSQT=<buckets>][,FeatureActivation=<act>],
 *   Network=[LayerStack[<n>;<selector>](]<output layer>(<its inputs>...)[)]
 * where each layer is written as its head followed by its inputs in parentheses, and the
 * network input is InputSlice[<n>(0:<n>)]. For SFNNv1 and YaneuraOu's HalfKP net this gives
 * the classic string byte for byte.
 * A layer is written out again at each use, so shared inputs make the text grow exponentially
 * with depth (4-way concats: x4 per level). Its length is therefore computed first, in one pass
 * over the layers, and the loader refuses a description past NNUE_MAX_DESCRIPTION_BYTES. */
#include <stdio.h>
#include <string.h>

#include "core/arch/arch_internal.h"
#include "core/arch/layer.h"
#include "base/arch_limits.h"

typedef struct sbuf {
    char *buf;
    size_t size, len;
} sbuf;

static void put(sbuf *s, const char *text)
{
    size_t n = strlen(text);
    if (s->len < s->size) {
        size_t room = s->size - s->len - 1;
        memcpy(s->buf + s->len, text, n < room ? n : room);
        s->buf[s->len + (n < room ? n : room)] = 0;
    }
    s->len += n;
}

static void put_layer(sbuf *s, const nnue_arch *a, int index)
{
    char head[160];
    if (index == NNUE_INPUT_NETWORK) {
        uint32_t n = 2 * a->ft.out_per_side;
        snprintf(head, sizeof head, "InputSlice[%u(0:%u)]", n, n);
        put(s, head);
        return;
    }
    const nnue_layer *l = &a->layers[index];
    l->type->describe(l, head, sizeof head);
    put(s, head);
    put(s, "(");
    for (int i = 0; i < l->n_inputs; i++) {
        if (i)
            put(s, ",");
        put_layer(s, a, l->inputs[i]);
    }
    put(s, ")");
}

static void put_activation(sbuf *s, const nnue_ft_desc *ft)
{
    char text[96];
    switch (ft->activation) {
    case NNUE_FT_CLAMP:
        if (ft->clamp_max == 127)
            return; /* the classic default, not written */
        snprintf(text, sizeof text, ",FeatureActivation=Clamp[%d]", ft->clamp_max);
        break;
    case NNUE_FT_PAIRWISE:
        snprintf(text, sizeof text, ",FeatureActivation=PairwiseClamp[%d;>>%d]", ft->clamp_max, ft->shift);
        break;
    case NNUE_FT_SCRELU:
        snprintf(text, sizeof text, ",FeatureActivation=SquaredClamp[%d]", ft->clamp_max);
        break;
    case NNUE_FT_SQRRELU:
        snprintf(text, sizeof text, ",FeatureActivation=SquaredReLU");
        break;
    }
    put(s, text);
}

/* Everything before the output layer's expansion. */
static void put_prefix(sbuf *s, const nnue_arch *a)
{
    char text[NNUE_EXPR_TEXT_MAX + 64];
    const nnue_ft_desc *ft = &a->ft;
    put(s, "Features=");
    for (int i = 0; i < ft->n_sets - 1; i++) { /* several sets: "A+B[total->...]", i8 rows marked */
        snprintf(text, sizeof text, "%s%s+", nnue_feature_set_display(ft->sets[i].features, &ft->sets[i].params),
                 ft->sets[i].weight_type == NNUE_I8 ? "{i8}" : "");
        put(s, text);
    }
    if (ft->params.king_buckets > 1 || ft->params.mirror)
        snprintf(text, sizeof text, "%s(kb%u%s)[%u->%ux2]", nnue_feature_set_display(ft->features, &ft->params), ft->params.king_buckets,
                 ft->params.mirror ? ",mirror" : "", ft->total_inputs, ft->width);
    else
        snprintf(text, sizeof text, "%s[%u->%ux2]", nnue_feature_set_display(ft->features, &ft->params), ft->total_inputs, ft->width);
    put(s, text);
    if (ft->psqt_buckets) {
        snprintf(text, sizeof text, ",PSQT=%u", ft->psqt_buckets);
        put(s, text);
    }
    put_activation(s, ft);
    put(s, ",Network=");
    if (a->stacks > 1) {
        snprintf(text, sizeof text, "LayerStack[%u;%s](", a->stacks, a->selector.text);
        put(s, text);
    }
}

uint64_t nnue_arch_describe_length(const nnue_arch *a, int *over)
{
    /* expanded[i]: layer i written out with its inputs; inputs are earlier layers, so one pass. */
    uint64_t expanded[NNUE_MAX_LAYERS];
    char head[160];
    uint32_t n = 2 * a->ft.out_per_side;
    uint64_t network = (uint64_t)snprintf(head, sizeof head, "InputSlice[%u(0:%u)]", n, n);
    *over = -1;
    for (int i = 0; i < a->n_layers; i++) {
        const nnue_layer *l = &a->layers[i];
        l->type->describe(l, head, sizeof head);
        uint64_t len = strlen(head) + 2 + (uint64_t)(l->n_inputs - 1); /* "(", ")" and commas */
        for (int k = 0; k < l->n_inputs; k++)
            len = nnue_sat_add(len, l->inputs[k] == NNUE_INPUT_NETWORK ? network : expanded[l->inputs[k]]);
        expanded[i] = len;
        if (*over < 0 && len > NNUE_MAX_DESCRIPTION_BYTES)
            *over = i;
    }
    sbuf counter = {NULL, 0, 0}; /* size 0: put() only counts */
    put_prefix(&counter, a);
    return nnue_sat_add(counter.len + (a->stacks > 1), expanded[a->n_layers - 1]);
}

size_t nnue_arch_describe(const nnue_arch *a, char *buf, size_t size)
{
    if (!a) {
        if (buf && size)
            buf[0] = 0;
        return 0;
    }
    if (!buf || !size) { /* only the length: without writing out every shared input */
        int over;
        uint64_t len = nnue_arch_describe_length(a, &over);
        return len > SIZE_MAX ? SIZE_MAX : (size_t)len;
    }
    sbuf s = {buf, size, 0};
    buf[0] = 0;
    put_prefix(&s, a);
    put_layer(&s, a, a->n_layers - 1);
    if (a->stacks > 1)
        put(&s, ")");
    return s.len;
}

int nnue_arch_write_dot(const nnue_arch *a, void *file)
{
    if (!a || !file)
        return -1;
    FILE *f = file;
    const nnue_ft_desc *ft = &a->ft;
    fprintf(f, "digraph \"%s\" {\n  rankdir=BT;\n  node [shape=box, fontname=\"Helvetica\"];\n", a->name);
    for (int i = 0; i < ft->n_sets; i++)
        fprintf(f, "  features%d [label=\"%s\\n%u inputs%s\", shape=ellipse];\n", i, nnue_feature_set_display(ft->sets[i].features, &ft->sets[i].params),
                ft->sets[i].inputs, ft->sets[i].weight_type == NNUE_I8 ? ", i8" : "");
    fprintf(f, "  ft [label=\"feature transformer\\n%u x2%s\"];\n", ft->width, ft->psqt_buckets ? "\\n+ PSQT" : "");
    for (int i = 0; i < ft->n_sets; i++)
        fprintf(f, "  features%d -> ft;\n", i);
    if (a->stacks > 1)
        fprintf(f, "  subgraph cluster_stack {\n    label=\"layer stack x%u, bucket = %s\";\n", a->stacks,
                a->selector.text);
    for (int i = 0; i < a->n_layers; i++) {
        const nnue_layer *l = &a->layers[i];
        char head[160];
        l->type->describe(l, head, sizeof head);
        fprintf(f, "  L%d [label=\"%s\\n%s\\n%u -> %u\"];\n", i, l->name, l->type->name, l->in_size, l->out_size);
    }
    if (a->stacks > 1)
        fprintf(f, "  }\n");
    for (int i = 0; i < a->n_layers; i++) {
        const nnue_layer *l = &a->layers[i];
        for (int k = 0; k < l->n_inputs; k++) {
            if (l->inputs[k] == NNUE_INPUT_NETWORK)
                fprintf(f, "  ft -> L%d;\n", i);
            else
                fprintf(f, "  L%d -> L%d;\n", l->inputs[k], i);
        }
    }
    fprintf(f, "}\n");
    return ferror(f) ? -1 : 0;
}
