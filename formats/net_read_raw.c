/* formats/net_read_raw.c: reading a header-less "raw" net (NNUE_FORMAT_RAW, bullet's quantised.bin).
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
 *   LAYER.NAME  a tensor its layer type declares (core/arch/layer.h), every stack's: a vector
 *               [stack][n]; a matrix bucket-major [stack][out][in] (cwtch), input-major
 *               [in][stack][out] (obsidian), input-major per bucket [stack][in][out]
 *               (the Viridithas-style multilayer net) or in blocks of 4 inputs
 *               [stack][in / 4][out][in % 4] (Stormphrax's L1), loaded row-major
 * The file size must be exactly the data size rounded up to pad_to; it is checked before
 * anything is allocated, and a wrong size names the YAML fields the expectation came from.
 * Several feature sets: one ft.weights block per set (block `set:`), each in its set's dtype.
 * Containers (format.container) unwrap to these blocks first: formats/net_read_cbnf.c (a
 * header, then the blocks from byte 64 or from a zstd payload) and formats/net_read_varint.c
 * (LEB128 values decoded to the plain blocks); both call nnue_net_read_raw on the result. */
#include <stdlib.h>
#include <string.h>

#include "core/arch/layer.h"
#include "base/error.h"
#include "formats/net_formats.h"
#include "formats/net_layer_tensors.h"

typedef unsigned long long ull;

/* The shape of a LAYER.TENSOR block's tensor. */
static nnue_tensor_shape block_shape(const nnue_arch *a, const nnue_block *b)
{
    const nnue_layer *l = &a->layers[b->layer];
    nnue_tensor_shape t[NNUE_MAX_TENSORS];
    l->type->tensors(l, t);
    return t[b->index];
}

/* Values of a block and, in `why`, the YAML fields they come from (net_formats.h). */
uint64_t nnue_net_raw_block_values(const nnue_arch *a, const nnue_block *b, char *why, size_t size)
{
    const nnue_ft_desc *ft = &a->ft;
    size_t bytes = nnue_dtype_size(b->dtype);
    switch (b->tensor) {
    case NNUE_T_FT_WEIGHTS: {
        const nnue_ft_set *set = &ft->sets[b->set];
        snprintf(why, size, "feature_transformer.width %u x %s%sinputs %u x %zu bytes", ft->width,
                 ft->n_sets > 1 ? set->features->name : "", ft->n_sets > 1 ? " " : "", set->inputs, bytes);
        return (uint64_t)ft->width * set->inputs;
    }
    case NNUE_T_FT_BIASES:
        snprintf(why, size, "feature_transformer.width %u x %zu bytes", ft->width, bytes);
        return ft->width;
    case NNUE_T_FT_PSQT:
        snprintf(why, size, "feature_transformer.psqt_buckets %u x inputs %u x %zu bytes", ft->psqt_buckets,
                 ft->total_inputs, bytes);
        return (uint64_t)ft->psqt_buckets * ft->total_inputs;
    default: {
        nnue_tensor_shape t = block_shape(a, b);
        snprintf(why, size, "%s %u x %u x stacks.count %u x %zu bytes", b->name, t.rows, t.cols, a->stacks, bytes);
        return (uint64_t)t.rows * t.cols * a->stacks;
    }
    }
}

/* The blocks start at the stream's current offset (0, or after a container's header). */
static nnue_status check_size(nnue_weights *w, nr_stream *s, uint64_t *data_end)
{
    uint64_t start = s->offset;
    const nnue_arch *a = w->arch;
    const nnue_format *f = &a->format;
    char why[1600] = "", part[200];
    uint64_t data = 0;
    for (int i = 0; i < f->n_blocks; i++) {
        data += nnue_net_raw_block_values(a, &f->blocks[i], part, sizeof part) * nnue_dtype_size(f->blocks[i].dtype);
        size_t len = strlen(why);
        snprintf(why + len, sizeof why - len, "%s%s", i ? " + " : "", part);
    }
    uint64_t pad = f->pad_to ? f->pad_to : 1;
    uint64_t expected = (data + pad - 1) / pad * pad;
    *data_end = start + data;
    if (expected == s->size - start)
        return NNUE_OK;
    uint64_t found = s->size - start;
    return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path,
                            (long long)(start + (found < expected ? found : expected)),
                            "file size: expected %llu bytes%s (%s = %llu bytes, rounded up to format.pad_to %llu; "
                            "architecture %s), found %llu bytes",
                            (ull)expected, start ? " after the header" : "", why, (ull)data, (ull)pad, a->name,
                            (ull)found);
}

/* A layer's tensor over all stacks, into each stack's [rows][stride] array (allocated and zeroed
 * by nr_layer_tensors_alloc). File orders (nnue_weight_order): row-major [stack][row][col];
 * input-major [col][stack][row]; input-major per bucket [stack][col][row]. */
static nnue_status read_layer_block(nnue_weights *w, nr_stream *s, const nnue_block *b)
{
    const nnue_arch *a = w->arch;
    nnue_tensor_shape t = block_shape(a, b);
    size_t ts = nnue_dtype_size(t.mem);
    uint64_t per_stack = (uint64_t)t.rows * t.cols, count = per_stack * a->stacks, start = s->offset;
    void *tmp;
    char section[NNUE_NAME_MAX + 80];
    snprintf(section, sizeof section, "%s (layer '%s', all %u stacks)", b->name, a->layers[b->layer].name, a->stacks);
    nnue_status st = nr_alloc_for(s, &tmp, count * ts, section);
    if (st != NNUE_OK)
        return st;
    if ((st = nr_array(s, b->dtype, t.mem, tmp, count, section)) == NNUE_OK && t.mem == NNUE_F32)
        st = nr_check_finite(s, tmp, count, start, section);
    for (uint64_t v = 0; st == NNUE_OK && v < count; v++) {
        uint64_t k, r, c; /* stack, row, column of file value v */
        if (b->order == NNUE_ROW_MAJOR)
            k = v / per_stack, r = v % per_stack / t.cols, c = v % t.cols;
        else if (b->order == NNUE_INPUT_MAJOR)
            c = v / ((uint64_t)a->stacks * t.rows), k = v / t.rows % a->stacks, r = v % t.rows;
        else if (b->order == NNUE_INPUT_MAJOR_PER_STACK)
            k = v / per_stack, c = v % per_stack / t.rows, r = v % t.rows;
        else /* blocks of 4 inputs: [stack][c / 4][r][c % 4] (cols % 4 == 0, checked on load) */
            k = v / per_stack, c = v % per_stack / (4 * (uint64_t)t.rows) * 4 + v % 4, r = v % per_stack / 4 % t.rows;
        char *dst = w->layer_weights[k * (uint64_t)a->n_layers + (uint64_t)b->layer].tensor[b->index];
        memcpy(dst + (r * t.stride + c) * ts, (char *)tmp + v * ts, ts);
    }
    nr_free(s, tmp);
    return st;
}

/* An FT block. Several feature sets: each set's rows have their own block (its `set:`), the
 * last listed set's are ft_weights, the others' ft_extra[set] (i8 sets stay i8). */
static nnue_status read_ft_block(nnue_weights *w, nr_stream *s, const nnue_block *b)
{
    const nnue_ft_desc *ft = &w->arch->ft;
    char why[200], section[NNUE_NAME_MAX + 40];
    uint64_t n = nnue_net_raw_block_values(w->arch, b, why, sizeof why);
    nnue_dtype mem = b->tensor == NNUE_T_FT_PSQT ? NNUE_I32 : NNUE_I16;
    int last = b->tensor != NNUE_T_FT_WEIGHTS || b->set == ft->n_sets - 1;
    if (b->tensor == NNUE_T_FT_WEIGHTS)
        mem = ft->sets[b->set].weight_type;
    snprintf(section, sizeof section, "%s%s%s", b->name, last ? "" : " of ", last ? "" : ft->sets[b->set].features->name);
    void *p;
    nnue_status st = nr_alloc_for(s, &p, n * nnue_dtype_size(mem), section);
    if (st != NNUE_OK)
        return st;
    if (b->tensor == NNUE_T_FT_WEIGHTS && !last)
        w->ft_extra[b->set] = p;
    else if (b->tensor == NNUE_T_FT_WEIGHTS)
        w->ft_weights = p;
    else if (b->tensor == NNUE_T_FT_BIASES)
        w->ft_biases = p;
    else
        w->ft_psqt = p;
    return nr_array(s, b->dtype, mem, p, n, section);
}

static nnue_status check_padding(nnue_weights *w, nr_stream *s, uint64_t data_end)
{
    const nnue_format *f = &w->arch->format;
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

nnue_status nnue_net_read_raw(nnue_weights *w, nr_stream *s)
{
    const nnue_arch *a = w->arch;
    nnue_status st;
    uint64_t data_end;
    if ((st = check_size(w, s, &data_end)) != NNUE_OK || (st = nr_layer_tensors_alloc(w, s)) != NNUE_OK)
        return st;
    for (int i = 0; i < a->format.n_blocks; i++) {
        const nnue_block *b = &a->format.blocks[i];
        st = b->tensor == NNUE_T_LAYER ? read_layer_block(w, s, b) : read_ft_block(w, s, b);
        if (st != NNUE_OK)
            return st;
    }
    return check_padding(w, s, data_end);
}
