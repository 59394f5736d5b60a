/* core/net_read_raw.c: reading a header-less "raw" net (NNUE_FORMAT_RAW, bullet's quantised.bin).
 *
 * Format facts relied on: shared/oracle/third/cwtch/FACTS.md and
 * shared/oracle/third/obsidian/FACTS.md, sections "Byte layout": little-endian blocks in a
 * fixed order with no header, hash or gaps, then a trailer that pads the file to a multiple of
 * 64 bytes with the text "bullet" repeated. The architecture says which blocks come in which
 * order (format.blocks), their dtypes, the rounding (format.pad_to) and the trailer text
 * (format.pad_text, "" = zero bytes). Block shapes:
 *   ft.weights  [inputs][width]        (feature-major, as loaded)
 *   ft.biases   [width]
 *   ft.psqt     [inputs][psqt_buckets]
 *   out.weights the single affine layer of every stack: bucket-major [stack][out][in]
 *               (cwtch) or input-major [in][stack * out] (obsidian, transposed on load)
 *   out.biases  [stack][out]
 * The file size must be exactly the data size rounded up to pad_to; it is checked before
 * anything is allocated, and a wrong size names the YAML fields the expectation came from. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/layer.h"
#include "core/net_formats.h"

typedef unsigned long long ull;

static const char *const tensor_names[] = {"ft.weights", "ft.biases", "ft.psqt", "out.weights", "out.biases"};

static int affine_index(const nnue_arch *a)
{
    for (int i = 0; i < a->n_layers; i++)
        if (a->layers[i].type->is_affine)
            return i;
    return -1;
}

/* Values of a block and, in `why`, the YAML fields they come from. */
static uint64_t block_values(const nnue_arch *a, const nnue_layer *out, const nnue_block *b, char *why, size_t size)
{
    const nnue_ft_desc *ft = &a->ft;
    size_t bytes = nnue_dtype_size(b->dtype);
    switch (b->tensor) {
    case NNUE_T_FT_WEIGHTS:
        snprintf(why, size, "feature_transformer.width %u x inputs %u x %zu bytes", ft->width, ft->inputs, bytes);
        return (uint64_t)ft->width * ft->inputs;
    case NNUE_T_FT_BIASES:
        snprintf(why, size, "feature_transformer.width %u x %zu bytes", ft->width, bytes);
        return ft->width;
    case NNUE_T_FT_PSQT:
        snprintf(why, size, "feature_transformer.psqt_buckets %u x inputs %u x %zu bytes", ft->psqt_buckets,
                 ft->inputs, bytes);
        return (uint64_t)ft->psqt_buckets * ft->inputs;
    case NNUE_T_OUT_WEIGHTS:
        snprintf(why, size, "layer '%s' inputs %u x outputs %u x stacks.count %u x %zu bytes", out->name, out->in_size,
                 out->out_size, a->stacks, bytes);
        return (uint64_t)out->in_size * out->out_size * a->stacks;
    default:
        snprintf(why, size, "layer '%s' outputs %u x stacks.count %u x %zu bytes", out->name, out->out_size,
                 a->stacks, bytes);
        return (uint64_t)out->out_size * a->stacks;
    }
}

static nnue_status check_size(nnue_net *net, nr_stream *s, const nnue_layer *out, uint64_t *data_end)
{
    const nnue_arch *a = net->arch;
    const nnue_format *f = &a->format;
    char why[700] = "", part[200];
    uint64_t data = 0;
    for (int i = 0; i < f->n_blocks; i++) {
        data += block_values(a, out, &f->blocks[i], part, sizeof part) * nnue_dtype_size(f->blocks[i].dtype);
        size_t len = strlen(why);
        snprintf(why + len, sizeof why - len, "%s%s", i ? " + " : "", part);
    }
    uint64_t pad = f->pad_to ? f->pad_to : 1;
    uint64_t expected = (data + pad - 1) / pad * pad;
    *data_end = data;
    if (expected == s->size)
        return NNUE_OK;
    return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)(s->size < expected ? s->size : expected),
                            "file size: expected %llu bytes (%s = %llu bytes, rounded up to format.pad_to %llu; "
                            "architecture %s), found %llu bytes",
                            (ull)expected, why, (ull)data, (ull)pad, a->name, (ull)s->size);
}

/* out.weights: every stack's [out][padded_in] rows, from either file order. */
static nnue_status read_out_weights(nnue_net *net, nr_stream *s, int ai, const nnue_block *b)
{
    const nnue_arch *a = net->arch;
    const nnue_layer *l = &a->layers[ai];
    nnue_dtype t = l->p.affine.weight_type;
    size_t ts = nnue_dtype_size(t);
    uint32_t in = l->in_size, outs = l->out_size, padded = l->p.affine.padded_in;
    nnue_status st;
    for (uint32_t k = 0; k < a->stacks; k++) {
        void *p;
        char what[NNUE_NAME_MAX + 64];
        snprintf(what, sizeof what, "stack %u %s weights", k, l->name);
        if ((st = nr_alloc_for(s, &p, (uint64_t)outs * padded * ts, what)) != NNUE_OK)
            return st;
        memset(p, 0, (size_t)outs * padded * ts);
        net->layer_weights[(size_t)k * a->n_layers + ai].weights = p;
    }
    if (b->order == NNUE_ROW_MAJOR) {
        for (uint32_t k = 0; k < a->stacks; k++) {
            char *w = net->layer_weights[(size_t)k * a->n_layers + ai].weights;
            char section[NNUE_NAME_MAX + 64];
            snprintf(section, sizeof section, "out.weights (stack %u of layer '%s')", k, l->name);
            for (uint32_t o = 0; o < outs; o++)
                if ((st = nr_array(s, b->dtype, t, w + (size_t)o * padded * ts, in, section)) != NNUE_OK)
                    return st;
        }
        return NNUE_OK;
    }
    /* Input-major: value (j, r) at j * rows + r with r = stack * outs + o. */
    uint64_t rows = (uint64_t)a->stacks * outs, count = rows * in;
    void *tmp;
    if ((st = nr_alloc_for(s, &tmp, count * ts, "out.weights (input-major, before the transpose)")) != NNUE_OK)
        return st;
    if ((st = nr_array(s, b->dtype, t, tmp, count, "out.weights (input-major)")) == NNUE_OK) {
        for (uint64_t j = 0; j < in; j++)
            for (uint64_t r = 0; r < rows; r++) {
                uint64_t k = r / outs, o = r % outs;
                char *w = net->layer_weights[k * (uint64_t)a->n_layers + ai].weights;
                memcpy(w + (o * padded + j) * ts, (char *)tmp + (j * rows + r) * ts, ts);
            }
    }
    free(tmp);
    return st;
}

static nnue_status read_out_biases(nnue_net *net, nr_stream *s, int ai, const nnue_block *b)
{
    const nnue_arch *a = net->arch;
    const nnue_layer *l = &a->layers[ai];
    nnue_status st;
    for (uint32_t k = 0; k < a->stacks; k++) {
        void *p;
        char section[NNUE_NAME_MAX + 64];
        snprintf(section, sizeof section, "out.biases (stack %u of layer '%s')", k, l->name);
        if ((st = nr_alloc_for(s, &p, (uint64_t)l->out_size * 4, section)) != NNUE_OK)
            return st;
        net->layer_weights[(size_t)k * a->n_layers + ai].biases = p;
        if ((st = nr_array(s, b->dtype, NNUE_I32, p, l->out_size, section)) != NNUE_OK)
            return st;
    }
    return NNUE_OK;
}

static nnue_status read_ft_block(nnue_net *net, nr_stream *s, const nnue_block *b, const nnue_layer *out)
{
    char why[200];
    uint64_t n = block_values(net->arch, out, b, why, sizeof why);
    const char *name = tensor_names[b->tensor];
    nnue_dtype mem = b->tensor == NNUE_T_FT_PSQT ? NNUE_I32 : NNUE_I16;
    void *p;
    nnue_status st = nr_alloc_for(s, &p, n * nnue_dtype_size(mem), name);
    if (st != NNUE_OK)
        return st;
    if (b->tensor == NNUE_T_FT_WEIGHTS)
        net->ft_weights = p;
    else if (b->tensor == NNUE_T_FT_BIASES)
        net->ft_biases = p;
    else
        net->ft_psqt = p;
    return nr_array(s, b->dtype, mem, p, n, name);
}

static nnue_status check_dtypes(nnue_net *net, nr_stream *s)
{
    const nnue_format *f = &net->arch->format;
    for (int i = 0; i < f->n_blocks; i++) {
        const nnue_block *b = &f->blocks[i];
        nnue_dtype t = b->dtype;
        int ok = b->tensor == NNUE_T_OUT_WEIGHTS ? t == NNUE_I8 || t == NNUE_I16
                 : b->tensor == NNUE_T_FT_WEIGHTS || b->tensor == NNUE_T_FT_BIASES ? t == NNUE_I8 || t == NNUE_I16
                                                                                    : t != NNUE_U8;
        if (!ok)
            return nnue_fail(s->err, NNUE_E_ARG, "%s: architecture %s: block %d (%s) has dtype %s, which the loader "
                             "does not support for this tensor", s->path, net->arch->name, i + 1,
                             tensor_names[b->tensor], nnue_dtype_name(t));
    }
    return NNUE_OK;
}

static nnue_status check_padding(nnue_net *net, nr_stream *s, uint64_t data_end)
{
    const nnue_format *f = &net->arch->format;
    unsigned char buf[4096 + 64];
    uint64_t n = s->size - data_end;
    if (n > sizeof buf)
        n = sizeof buf; /* cannot happen: pad_to <= 4096 */
    nnue_status st = nr_bytes(s, buf, n, "padding");
    if (st != NNUE_OK)
        return st;
    size_t len = strlen(f->pad_text);
    for (uint64_t i = 0; i < n; i++) {
        unsigned char want = len ? (unsigned char)f->pad_text[i % len] : 0;
        if (buf[i] == want)
            continue;
        char found[64];
        size_t j = 0;
        for (uint64_t k = i; k < n && j + 5 < sizeof found; k++)
            j += (size_t)snprintf(found + j, sizeof found - j,
                                  buf[k] >= 32 && buf[k] < 127 && buf[k] != '\\' ? "%c" : "\\x%02x", buf[k]);
        if (len)
            return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)(data_end + i),
                                    "padding: expected the text \"%s\" repeated (format.pad_text) up to format.pad_to "
                                    "%u, found \"%s\"",
                                    f->pad_text, f->pad_to, found);
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)(data_end + i),
                                "padding: expected zero bytes (format.pad_text is empty) up to format.pad_to %u, "
                                "found \"%s\"",
                                f->pad_to, found);
    }
    return NNUE_OK;
}

nnue_status nnue_net_read_raw(nnue_net *net, nr_stream *s)
{
    const nnue_arch *a = net->arch;
    int ai = affine_index(a);
    if (ai < 0)
        return nnue_fail(s->err, NNUE_E_ARG, "%s: architecture %s has no affine output layer", s->path, a->name);
    nnue_status st;
    uint64_t data_end;
    if ((st = check_dtypes(net, s)) != NNUE_OK || (st = check_size(net, s, &a->layers[ai], &data_end)) != NNUE_OK)
        return st;
    for (int i = 0; i < a->format.n_blocks; i++) {
        const nnue_block *b = &a->format.blocks[i];
        if (b->tensor == NNUE_T_OUT_WEIGHTS)
            st = read_out_weights(net, s, ai, b);
        else if (b->tensor == NNUE_T_OUT_BIASES)
            st = read_out_biases(net, s, ai, b);
        else
            st = read_ft_block(net, s, b, &a->layers[ai]);
        if (st != NNUE_OK)
            return st;
    }
    return check_padding(net, s, data_end);
}
