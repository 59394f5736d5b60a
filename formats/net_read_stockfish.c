/* formats/net_read_stockfish.c: reading a Stockfish-format net (NNUE_FORMAT_STOCKFISH).
 *
 * Format facts relied on: shared/oracle/chess/FORMATS.md sections 1 (hashes) and 2 (byte
 * layout), section 8 (the random nets), section 9 (SFNNv10's two feature sets),
 * shared/oracle/shogi/FORMATS.md section 1 (the same
 * layout for YaneuraOu's classic nets):
 *   header:  u32 version, u32 file hash, u32 description length D, D bytes
 *   FT:      u32 FT hash, biases width x i16, weights inputs x width x i16 (feature-major),
 *            PSQT inputs x buckets x i32 (when the arch has PSQT); with format.leb128 each of
 *            the three arrays is a COMPRESSED_LEB128 block instead (formats/net_read.c);
 *            several feature sets (SFNNv10, section 9; SFNNv16, docs/formats-sfnnv16.md): see
 *            read_ft_sets()
 *   tables:  for each table variable the stack selector names (features/table_var.h; YaneuraOu's
 *            progress, shared/oracle/shogi/yo26/FACTS.md section 2): u32 hash, int32 values
 *   stacks:  per stack u32 network hash, then per layer in declaration order the tensors its
 *            type declares (core/arch/layer.h); an affine layer: biases out x i32, weights out x
 *            padded_in x i8 (row-major; padding columns may hold values, which the engine
 *            never reads: zeroed on load, see read_stacks())
 *   end:     no trailing byte.
 * Order of checks: version, file hash, FT hash, then (uncompressed) the whole file size against
 * the architecture before anything big is allocated; a LEB128 block's announced size is checked
 * against the file size before its array is allocated, and the stack part after the FT. */
#include <stdlib.h>
#include <string.h>

#include "core/arch/generated_name.h"
#include "core/arch/layer.h"
#include "base/error.h"
#include "formats/net_formats.h"
#include "formats/net_layer_tensors.h"

typedef unsigned long long ull;

/* The tensors of layer l that the file stores (a tensor of dtype none is not stored: it is zero),
 * in the layer's order, into t; returns how many. */
static int stored_tensors(const nnue_layer *l, nnue_tensor_shape t[NNUE_MAX_TENSORS])
{
    nnue_tensor_shape all[NNUE_MAX_TENSORS];
    int n = l->type->tensors ? l->type->tensors(l, all) : 0, kept = 0;
    for (int k = 0; k < n; k++)
        if (all[k].file != NNUE_NONE)
            t[kept++] = all[k];
    return kept;
}

/* Section k of the fixed-size part starting at the FT arrays (with_ft) or at the first stack:
 * writes its name and size; returns 0 past the last section. */
static int section_at(const nnue_arch *a, int with_ft, uint64_t k, char *name, size_t size, uint64_t *bytes)
{
    const nnue_ft_desc *ft = &a->ft;
    if (with_ft) {
        uint64_t n_ft = ft->psqt_buckets ? 3 : 2;
        if (k < n_ft) {
            static const char *const names[] = {"feature transformer biases", "feature transformer weights",
                                                "feature transformer PSQT weights"};
            uint64_t sizes[] = {(uint64_t)ft->width * 2, (uint64_t)ft->inputs * ft->width * 2,
                                (uint64_t)ft->inputs * ft->psqt_buckets * 4};
            snprintf(name, size, "%s", names[k]);
            *bytes = sizes[k];
            return 1;
        }
        k -= n_ft;
    }
    for (int v = 0; v < a->selector.n_vars; v++) {
        const nnue_table_var *tv = a->selector.table_vars[v];
        if (tv && k-- == 0) {
            snprintf(name, size, "%s section (hash and %u int32 values)", tv->section, tv->values);
            *bytes = 4 + 4 * (uint64_t)tv->values;
            return 1;
        }
    }
    uint64_t per_stack = 1;
    nnue_tensor_shape t[NNUE_MAX_TENSORS];
    for (int i = 0; i < a->n_layers; i++)
        per_stack += (uint64_t)stored_tensors(&a->layers[i], t);
    uint64_t stack = k / per_stack, j = k % per_stack;
    if (stack >= a->stacks)
        return 0;
    if (j == 0) {
        snprintf(name, size, "stack %llu hash", (ull)stack);
        *bytes = 4;
        return 1;
    }
    j--;
    for (int i = 0; i < a->n_layers; i++) {
        const nnue_layer *l = &a->layers[i];
        int n = stored_tensors(l, t);
        if (j < (uint64_t)n) {
            snprintf(name, size, "stack %llu %s %s", (ull)stack, l->name, t[j].name);
            *bytes = nnue_tensor_values(&t[j]) * nnue_dtype_size(t[j].file);
            return 1;
        }
        j -= (uint64_t)n;
    }
    return 0;
}

/* The rest of the file, from the current offset, must be exactly the fixed-size sections. */
static nnue_status check_size(nnue_weights *w, nr_stream *s, int with_ft)
{
    const nnue_arch *a = w->arch;
    char name[NNUE_NAME_MAX + 64];
    uint64_t bytes, end = s->offset;
    for (uint64_t k = 0; section_at(a, with_ft, k, name, sizeof name, &bytes); k++)
        end += bytes;
    if (end == s->size)
        return NNUE_OK;
    if (end < s->size)
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)end,
                                "end of file: expected the file to end at byte %llu (architecture %s), found %llu "
                                "trailing bytes",
                                (ull)end, a->name, (ull)(s->size - end));
    uint64_t at = s->offset;
    for (uint64_t k = 0; section_at(a, with_ft, k, name, sizeof name, &bytes); k++) {
        if (at + bytes > s->size)
            return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)s->size,
                                    "%s: file truncated: expected %llu bytes from byte %llu, found %llu (the file is "
                                    "%llu bytes, architecture %s needs %llu)",
                                    name, (ull)bytes, (ull)at, (ull)(s->size - at), (ull)s->size, a->name, (ull)end);
        at += bytes;
    }
    return NNUE_OK; /* not reached */
}

static nnue_status check_hash(nr_stream *s, const char *what, uint32_t expected, uint32_t found,
                              const nnue_arch *a)
{
    if (expected == found)
        return NNUE_OK;
    return nnue_fail_offset(s->err, NNUE_E_HASH, s->path, (long long)(s->offset - 4),
                            "%s: expected 0x%08X (architecture %s), found 0x%08X: the file may be for another "
                            "architecture",
                            what, expected, a->name, found);
}

/* Before the size check of an uncompressed FT: is there a LEB128 block the arch does not expect? */
static nnue_status check_not_leb128(nnue_weights *w, nr_stream *s)
{
    unsigned char magic[NR_LEB128_MAGIC_LEN];
    if (s->size - s->offset < sizeof magic)
        return NNUE_OK;
    size_t got = fread(magic, 1, sizeof magic, s->f);
    if (fseeko(s->f, (off_t)s->offset, SEEK_SET) != 0)
        return nnue_fail_offset(s->err, NNUE_E_IO, s->path, (long long)s->offset, "feature transformer: seek error");
    if (got == sizeof magic && memcmp(magic, NR_LEB128_MAGIC, sizeof magic) == 0)
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)s->offset,
                                "feature transformer biases: found a COMPRESSED_LEB128 block, but architecture %s "
                                "says format.leb128: false",
                                w->arch->name);
    return NNUE_OK;
}

static nnue_status read_header(nnue_weights *w, nr_stream *s)
{
    const nnue_arch *a = w->arch;
    nnue_status st;
    if ((st = nr_u32(s, &w->version, "header version")) != NNUE_OK)
        return st;
    if (w->version != a->format.version)
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, 0,
                                "header: expected version 0x%08X (format.version of architecture %s), found 0x%08X",
                                a->format.version, a->name, w->version);
    if ((st = nr_u32(s, &w->file_hash, "header file hash")) != NNUE_OK)
        return st;
    if ((st = check_hash(s, "header file hash", a->file_hash, w->file_hash, a)) != NNUE_OK)
        return st;
    uint32_t d;
    if ((st = nr_u32(s, &d, "header description length")) != NNUE_OK)
        return st;
    if (d > s->size - s->offset)
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, 8,
                                "header: description length %u exceeds the %llu bytes left in the file (truncated?)", d,
                                (ull)(s->size - s->offset));
    if (!(w->description = malloc((size_t)d + 1)))
        return nnue_fail(s->err, NNUE_E_NOMEM, "%s: out of memory for a %u-byte description", s->path, d);
    w->description[d] = 0;
    nnue_status st2 = nr_bytes(s, w->description, d, "header description");
    size_t at;
    char why[600];
    if (st2 == NNUE_OK && a->format.generated[0] &&
        nnue_generated_check_description(a, w->description, &at, why, sizeof why) != 0)
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)(12 + at), "header description: %s", why);
    return st2;
}

/* Fails unless `need` bytes remain for section `name` (checked before a big allocation). */
static nnue_status need_bytes(nr_stream *s, uint64_t need, uint64_t values, const char *name)
{
    if (s->size - s->offset >= need)
        return NNUE_OK;
    return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)s->size,
                            "%s: file truncated: %llu values need at least %llu bytes from byte %llu, found %llu", name,
                            (ull)values, (ull)need, (ull)s->offset, (ull)(s->size - s->offset));
}

/* One array of count values (file type t, LEB128-compressed when leb), allocated after the size
 * check. *out is NULL or the allocated array, also on failure (the caller owns it then). */
static nnue_status read_ft_array(nr_stream *s, int leb, nnue_dtype t, uint64_t count, void **out, const char *name)
{
    *out = NULL;
    nnue_status st = need_bytes(s, leb ? NR_LEB128_MAGIC_LEN + 4 + count : count * nnue_dtype_size(t), count, name);
    if (st == NNUE_OK)
        st = nr_alloc_for(s, out, count * nnue_dtype_size(t), name);
    if (st != NNUE_OK)
        return st;
    return leb ? nr_leb128(s, t, *out, count, name) : nr_array(s, t, t, *out, count, name);
}

/* Plain i8 values into a new i16 array (the last set of a Pikafish net). */
static nnue_status read_widened(nr_stream *s, uint64_t count, void **out, const char *name)
{
    *out = NULL;
    nnue_status st = need_bytes(s, count, count, name);
    if (st == NNUE_OK)
        st = nr_alloc_for(s, out, count * 2, name);
    return st == NNUE_OK ? nr_array(s, NNUE_I8, NNUE_I16, *out, count, name) : st;
}

/* Several feature sets, after the FT hash: biases; each set's weights in list order, i8 sets as
 * plain bytes, i16 sets as a LEB128 block (plain with leb128: false); the PSQT rows either as
 * ONE array after all weights, every set's rows in list order (SFNNv10, FORMATS.md section 9),
 * or (format ft_sections: per_set, SFNNv16, docs/formats-sfnnv16.md) each set's own PSQT array
 * right after its weights. Either way they land in one ft_psqt, set after set. Each array
 * belongs to the net as soon as it is allocated (freed with it on any error). */
static nnue_status read_ft_sets(nnue_weights *w, nr_stream *s)
{
    const nnue_ft_desc *ft = &w->arch->ft;
    int leb = w->arch->format.leb128, per_set = w->arch->format.psqt_per_set;
    uint64_t psqt_values = (uint64_t)ft->total_inputs * ft->psqt_buckets, row = 0;
    void *p;
    nnue_status st = read_ft_array(s, leb, NNUE_I16, ft->width, &p, "feature transformer biases");
    w->ft_biases = p;
    if (st == NNUE_OK && per_set) { /* every PSQT value takes at least a byte: all are still ahead */
        st = need_bytes(s, psqt_values, psqt_values, "feature transformer PSQT weights");
        if (st == NNUE_OK)
            st = nr_alloc_for(s, &p, psqt_values * 4, "feature transformer PSQT weights");
        w->ft_psqt = st == NNUE_OK ? p : NULL;
    }
    for (int k = 0; k < ft->n_sets && st == NNUE_OK; k++) {
        const nnue_ft_set *set = &ft->sets[k];
        char name[NNUE_NAME_MAX + 48];
        snprintf(name, sizeof name, "feature transformer weights (%s)", set->features->name);
        if (set->file_i8) /* i8 in the file, i16 in memory */
            st = read_widened(s, (uint64_t)set->inputs * ft->width, &p, name);
        else
            st = read_ft_array(s, leb && set->weight_type != NNUE_I8, set->weight_type,
                               (uint64_t)set->inputs * ft->width, &p, name);
        if (k == ft->n_sets - 1)
            w->ft_weights = p;
        else
            w->ft_extra[k] = p;
        if (st != NNUE_OK || !per_set)
            continue;
        uint64_t count = (uint64_t)set->inputs * ft->psqt_buckets;
        int32_t *dst = w->ft_psqt + row * ft->psqt_buckets;
        snprintf(name, sizeof name, "feature transformer PSQT weights (%s)", set->features->name);
        st = leb ? nr_leb128(s, NNUE_I32, dst, count, name) : nr_array(s, NNUE_I32, NNUE_I32, dst, count, name);
        row += set->inputs;
    }
    if (st != NNUE_OK || per_set)
        return st;
    st = read_ft_array(s, leb, NNUE_I32, psqt_values, &p, "feature transformer PSQT weights (all sets)");
    w->ft_psqt = p;
    return st;
}

static nnue_status read_ft(nnue_weights *w, nr_stream *s)
{
    const nnue_arch *a = w->arch;
    const nnue_ft_desc *ft = &a->ft;
    nnue_status st;
    uint32_t h;
    if ((st = nr_u32(s, &h, "feature transformer hash")) != NNUE_OK)
        return st;
    if ((st = check_hash(s, "feature transformer hash", a->ft_hash, h, a)) != NNUE_OK)
        return st;
    if (ft->n_sets > 1)
        return read_ft_sets(w, s);
    uint64_t nb = ft->width, nw = (uint64_t)ft->inputs * ft->width, np = (uint64_t)ft->inputs * ft->psqt_buckets;
    const char *bname = "feature transformer biases", *wname = "feature transformer weights",
               *pname = "feature transformer PSQT weights";
    void *p;
    if (!a->format.leb128) {
        if ((st = check_not_leb128(w, s)) != NNUE_OK || (st = check_size(w, s, 1)) != NNUE_OK)
            return st;
        if ((st = nr_alloc_for(s, &p, nb * 2, bname)) != NNUE_OK)
            return st;
        w->ft_biases = p;
        if ((st = nr_alloc_for(s, &p, nw * 2, wname)) != NNUE_OK)
            return st;
        w->ft_weights = p;
        if (np) {
            if ((st = nr_alloc_for(s, &p, np * 4, pname)) != NNUE_OK)
                return st;
            w->ft_psqt = p;
        }
        if ((st = nr_array(s, NNUE_I16, NNUE_I16, w->ft_biases, nb, bname)) != NNUE_OK ||
            (st = nr_array(s, NNUE_I16, NNUE_I16, w->ft_weights, nw, wname)) != NNUE_OK)
            return st;
        return np ? nr_array(s, NNUE_I32, NNUE_I32, w->ft_psqt, np, pname) : NNUE_OK;
    }
    /* LEB128: each block's size is checked against the file before its array is allocated. The
     * arrays are allocated one at a time, each just before its block is decoded. */
    if ((st = nr_alloc_for(s, &p, nb * 2, bname)) != NNUE_OK)
        return st;
    w->ft_biases = p;
    if ((st = nr_leb128(s, NNUE_I16, w->ft_biases, nb, bname)) != NNUE_OK)
        return st;
    /* The weights block needs at least one byte per value: check that much before allocating. */
    if (s->size - s->offset < NR_LEB128_MAGIC_LEN + 4 + nw)
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)s->size,
                                "%s: file truncated: a LEB128 block of %llu values needs at least %llu bytes from "
                                "byte %llu, found %llu",
                                wname, (ull)nw, (ull)(NR_LEB128_MAGIC_LEN + 4 + nw), (ull)s->offset,
                                (ull)(s->size - s->offset));
    if ((st = nr_alloc_for(s, &p, nw * 2, wname)) != NNUE_OK)
        return st;
    w->ft_weights = p;
    if ((st = nr_leb128(s, NNUE_I16, w->ft_weights, nw, wname)) != NNUE_OK)
        return st;
    if (!np)
        return NNUE_OK;
    if (s->size - s->offset < NR_LEB128_MAGIC_LEN + 4 + np)
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)s->size,
                                "%s: file truncated: a LEB128 block of %llu values needs at least %llu bytes from "
                                "byte %llu, found %llu",
                                pname, (ull)np, (ull)(NR_LEB128_MAGIC_LEN + 4 + np), (ull)s->offset,
                                (ull)(s->size - s->offset));
    if ((st = nr_alloc_for(s, &p, np * 4, pname)) != NNUE_OK)
        return st;
    w->ft_psqt = p;
    return nr_leb128(s, NNUE_I32, w->ft_psqt, np, pname);
}

/* The table variables' sections, in selector slot order: the hash, the values, then the derived
 * values in memory (prepare). */
static nnue_status read_tables(nnue_weights *w, nr_stream *s)
{
    const nnue_arch *a = w->arch;
    char name[NNUE_NAME_MAX + 64];
    nnue_status st;
    for (int v = 0; v < a->selector.n_vars; v++) {
        const nnue_table_var *tv = a->selector.table_vars[v];
        if (!tv)
            continue;
        uint32_t h;
        void *p;
        snprintf(name, sizeof name, "%s section hash", tv->section);
        if ((st = nr_u32(s, &h, name)) != NNUE_OK || (st = check_hash(s, name, tv->hash, h, a)) != NNUE_OK)
            return st;
        snprintf(name, sizeof name, "%s section", tv->section);
        if ((st = need_bytes(s, 4 * (uint64_t)tv->values, tv->values, name)) != NNUE_OK ||
            (st = nr_alloc_for(s, &p, 4 * ((uint64_t)tv->values + tv->derived), name)) != NNUE_OK)
            return st;
        w->tables[v] = p;
        if ((st = nr_array(s, NNUE_I32, NNUE_I32, p, tv->values, name)) != NNUE_OK)
            return st;
        if (tv->prepare)
            tv->prepare(w->tables[v]);
    }
    return NNUE_OK;
}

/* Per stack: the network hash, then each layer's stored tensors in the layer's order (an affine
 * layer: biases, then weights as rows of padded_in values). Padding columns may hold values,
 * which the engine never reads (Stockfish 17.1's fc1 has some): zeroed and counted. */
static nnue_status read_stacks(nnue_weights *w, nr_stream *s)
{
    const nnue_arch *a = w->arch;
    char name[NNUE_NAME_MAX + 64];
    nnue_status st;
    if ((st = nr_layer_tensors_alloc(w, s)) != NNUE_OK)
        return st;
    for (uint32_t k = 0; k < a->stacks; k++) {
        uint32_t h;
        snprintf(name, sizeof name, "stack %u hash", k);
        if ((st = nr_u32(s, &h, name)) != NNUE_OK || (st = check_hash(s, name, a->network_hash, h, a)) != NNUE_OK)
            return st;
        for (int i = 0; i < a->n_layers; i++) {
            const nnue_layer *l = &a->layers[i];
            nnue_tensor_shape t[NNUE_MAX_TENSORS];
            int n = l->type->tensors ? l->type->tensors(l, t) : 0;
            for (int j = 0; j < n; j++) {
                if (t[j].file == NNUE_NONE)
                    continue;
                void *data = w->layer_weights[(size_t)k * a->n_layers + i].tensor[j];
                uint64_t count = nnue_tensor_values(&t[j]), start = s->offset;
                snprintf(name, sizeof name, "stack %u %s %s", k, l->name, t[j].name);
                if ((st = nr_array(s, t[j].file, t[j].mem, data, count, name)) != NNUE_OK)
                    return st;
                if (t[j].mem == NNUE_F32 && (st = nr_check_finite(s, data, count, start, name)) != NNUE_OK)
                    return st;
                nr_zero_padding(w, &t[j], data);
            }
        }
    }
    return NNUE_OK;
}

nnue_status nnue_net_read_stockfish(nnue_weights *w, nr_stream *s)
{
    nnue_status st;
    if ((st = read_header(w, s)) != NNUE_OK || (st = read_ft(w, s)) != NNUE_OK)
        return st;
    if (w->arch->format.leb128 && (st = check_size(w, s, 0)) != NNUE_OK)
        return st;
    if ((st = read_tables(w, s)) != NNUE_OK || (st = read_stacks(w, s)) != NNUE_OK)
        return st;
    if (s->offset != s->size || fgetc(s->f) != EOF)
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)s->offset,
                                "end of file: expected the file to end at byte %llu, found more bytes",
                                (ull)s->offset);
    return NNUE_OK;
}
