/* core/net/net_load.c: nnue_net_load / nnue_net_free and the Stockfish header reader: opens the
 * file (or a buffer in memory) as a read stream (core/formats/net_read.c), hands it to the reader of
 * the arch's format (core/formats/net_read_stockfish.c or core/formats/net_read_raw.c, declared in
 * core/formats/net_formats.h), then asks the layers' planner for the SIMD plan (core/layers/plan.c).
 * Header facts: shared/oracle/chess/FORMATS.md section 2 (version, hash, description length and
 * bytes, then the FT hash). A file or buffer that is one zstd frame (Pikafish ships its nets so)
 * is decompressed first, within what its architecture can take (io/zstd.h); a header
 * read decompresses only the frame's first bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "base/error.h"
#include "core/layers/plan.h"
#include "core/formats/net_formats.h"
#include "core/net/net_ranges.h"
#include "core/formats/net_read.h"
#include "io/zstd.h"
#include "nnue.h"

typedef unsigned long long ull;

/* The reader of each nnue_container (core/arch/arch.h), in its order: the containers' readers
 * unwrap their blocks and call the plain one, so the table sits here, above all three. */
typedef nnue_status (*nnue_net_reader)(nnue_weights *w, nr_stream *s);
static const nnue_net_reader raw_containers[3] = {nnue_net_read_raw, nnue_net_read_cbnf, nnue_net_read_varint};

/* ---- whole-file zstd (io/zstd.h) ---- */

/* Bytes kept of a zstd net when only its header is read: the header, its description and the
 * feature transformer's first bytes fit (descriptions are short). */
#define HEADER_HEAD_BYTES (1u << 20)

/* Opens path as a stream; a zstd frame is decompressed into *owned first (freed by the caller
 * after the stream), refused above cap bytes; keep > 0 decompresses only the first keep bytes
 * (*declared: the whole frame's size). */
static nnue_status open_net(nr_stream *s, const char *path, uint64_t cap, const char *cap_is, uint64_t keep,
                            void **owned, int *zstd, uint64_t *declared, nnue_error *err)
{
    *owned = NULL;
    *zstd = 0;
    nnue_status st = nr_open(s, path, err);
    unsigned char head[4];
    if (st != NNUE_OK || s->size < 4 || fread(head, 1, 4, s->f) != 4 || !nz_is_frame(head, 4)) {
        if (st == NNUE_OK)
            rewind(s->f);
        return st;
    }
    rewind(s->f);
    size_t plain_size;
    st = nz_unpack(&(nz_source){s->f, NULL, 0, path, cap_is}, cap, keep, owned, &plain_size, declared, err);
    nr_close(s);
    *zstd = 1;
    return st == NNUE_OK ? nr_open_memory(s, path, *owned, plain_size, err) : st;
}

/* A buffer as a stream, decompressed into *owned first when it is a zstd frame (as open_net). */
static nnue_status open_memory(nr_stream *s, const char *name, const void *data, size_t size, uint64_t cap,
                               const char *cap_is, uint64_t keep, void **owned, int *zstd, uint64_t *declared,
                               nnue_error *err)
{
    *owned = NULL;
    *zstd = nz_is_frame(data, size);
    if (!*zstd)
        return nr_open_memory(s, name, data, size, err);
    nnue_status st = nz_unpack(&(nz_source){NULL, data, size, name, cap_is}, cap, keep, owned, &size, declared, err);
    return st == NNUE_OK ? nr_open_memory(s, name, *owned, size, err) : st;
}

/* ---- load / free ---- */

/* The arrays a format reader filled (also after a failure: the net frees them) become the net's. */
static void take_weights(nnue_net *net, const nnue_weights *w)
{
    net->version = w->version;
    net->file_hash = w->file_hash;
    net->description = w->description;
    net->ft_biases = w->ft_biases;
    net->ft_weights = w->ft_weights;
    net->ft_psqt = w->ft_psqt;
    memcpy(net->ft_extra, w->ft_extra, sizeof net->ft_extra);
    memcpy(net->tables, w->tables, sizeof net->tables);
    net->padding_nonzero = w->padding_nonzero;
}

/* Reads a net from an opened stream (closed here); name labels it (path or caller's label). */
static nnue_status load_stream(const nnue_arch *arch, nr_stream *s, const char *name, nnue_net **out,
                               nnue_error *err)
{
    nnue_net *net = calloc(1, sizeof *net);
    if (net) {
        atomic_init(&net->refs, 1);
        atomic_init(&net->freed, 0);
        atomic_init(&net->ranges_done, 0);
        pthread_mutex_init(&net->ranges_lock, NULL);
    }
    if (net)
        net->arch = malloc(sizeof *net->arch);
    if (net && net->arch)
        net->layer_weights = calloc((size_t)arch->stacks * (size_t)(arch->n_layers ? arch->n_layers : 1),
                                    sizeof *net->layer_weights);
    if (!net || !net->arch || !net->layer_weights) {
        nnue_net_free(net);
        nr_close(s);
        return nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory", name);
    }
    memcpy(net->arch, arch, sizeof *arch);
    snprintf(net->path, sizeof net->path, "%s", name);
    net->file_bytes = s->size;
    nnue_weights w = {.arch = net->arch, .layer_weights = net->layer_weights};
    nnue_status st = arch->format.kind == NNUE_FORMAT_RAW ? raw_containers[arch->format.container](&w, s)
                                                          : nnue_net_read_stockfish(&w, s);
    nr_close(s);
    take_weights(net, &w);
    if (st == NNUE_OK && !net->description)
        net->description = calloc(1, 1);
    if (st == NNUE_OK && !net->description)
        st = nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory", name);
    if (st != NNUE_OK) {
        nnue_net_free(net);
        return st;
    }
    const nnue_ft_desc *ft = &net->arch->ft;
    uint64_t row = 0;
    for (int k = 0; k < ft->n_sets; k++) {
        net->set_weights[k] = k == ft->n_sets - 1 ? net->ft_weights : net->ft_extra[k];
        net->set_psqt[k] = net->ft_psqt ? net->ft_psqt + row * ft->psqt_buckets : NULL;
        row += ft->sets[k].inputs;
    }
    nnue_net_narrow_rows(net);
    net->kernel_data = nnue_plan_make(net->arch, net->layer_weights); /* NULL: the scalar path only */
    *out = net;
    return NNUE_OK;
}

uint64_t nz_cap_for_arch(const nnue_arch *arch)
{
    if (!arch)
        return NNUE_MAX_NET_BYTES;
    uint64_t plain = nnue_arch_file_bytes(arch);
    return plain >= (NNUE_MAX_NET_BYTES - (1u << 20)) / 2 ? NNUE_MAX_NET_BYTES : 2 * plain + (1u << 20);
}

const nnue_arch *nnue_net_arch(const nnue_net *net)
{
    return net ? net->arch : NULL;
}

nnue_status nnue_net_load(const nnue_arch *arch, const char *path, nnue_net **out, nnue_error *err)
{
    nnue_error_clear(err);
    if (out)
        *out = NULL;
    if (!arch || !path || !out)
        return nnue_fail(err, NNUE_E_ARG, "nnue_net_load: expected an architecture, a path and an output pointer");
    nr_stream s;
    void *owned;
    int zstd;
    nnue_status st = open_net(&s, path, nz_cap_for_arch(arch), NZ_ARCH_CAP, 0, &owned, &zstd, NULL, err);
    st = st == NNUE_OK ? load_stream(arch, &s, path, out, err) : st;
    free(owned);
    return st;
}

nnue_status nnue_net_load_memory(const nnue_arch *arch, const void *data, size_t size, const char *name,
                                 nnue_net **out, nnue_error *err)
{
    nnue_error_clear(err);
    if (out)
        *out = NULL;
    if (!name)
        name = "<memory>";
    if (arch && out && size == 0) /* as an empty file is refused (net_read.c), whatever the pointer */
        return nnue_fail_offset(err, NNUE_E_FORMAT, name, 0, "empty (0 bytes), not a net");
    if (!arch || !data || !out)
        return nnue_fail(err, NNUE_E_ARG, "nnue_net_load_memory: expected an architecture, the bytes and an output pointer");
    nr_stream s;
    void *owned;
    int zstd;
    nnue_status st = open_memory(&s, name, data, size, nz_cap_for_arch(arch), NZ_ARCH_CAP, 0, &owned, &zstd, NULL, err);
    st = st == NNUE_OK ? load_stream(arch, &s, name, out, err) : st;
    free(owned);
    return st;
}

/* The memory itself, once nobody refers to the net. */
static void destroy_net(nnue_net *net)
{
    nnue_plan_free(net->kernel_data);
    if (net->layer_weights && net->arch) {
        size_t n = (size_t)net->arch->stacks * (size_t)net->arch->n_layers;
        for (size_t i = 0; i < n; i++) {
            for (int k = 0; k < NNUE_MAX_TENSORS; k++)
                free(net->layer_weights[i].tensor[k]);
        }
    }
    free(net->layer_weights);
    free(net->ft_biases);
    free(net->ft_weights);
    free(net->ft_psqt);
    for (int v = 0; v < NNUE_EXPR_MAX_VARS; v++)
        free(net->tables[v]);
    for (int k = 0; k < NNUE_MAX_FT_SETS; k++) {
        free(net->ft_extra[k]);
    }
    nnue_net_narrow_free(net);
    free(net->description);
    free(net->warning);
    free(net->ranges);
    pthread_mutex_destroy(&net->ranges_lock);
    free(net->arch);
    free(net);
}

/* The reference count is metadata beside the weights, which stay read-only: hence the casts. */
int nnue_net_retain(const nnue_net *net)
{
    nnue_net *n = (nnue_net *)net;
    if (atomic_load_explicit(&n->freed, memory_order_acquire))
        return -1;
    atomic_fetch_add_explicit(&n->refs, 1, memory_order_relaxed);
    return 0;
}

void nnue_net_release(const nnue_net *net)
{
    nnue_net *n = (nnue_net *)net;
    if (atomic_fetch_sub_explicit(&n->refs, 1, memory_order_acq_rel) == 1)
        destroy_net(n);
}

int nnue_net_is_freed(const nnue_net *net)
{
    return atomic_load_explicit(&((nnue_net *)net)->freed, memory_order_relaxed);
}

void nnue_net_free(nnue_net *net)
{
    if (!net)
        return;
    atomic_store_explicit(&net->freed, 1, memory_order_release);
    nnue_net_release(net);
}

/* ---- header only ---- */

/* Reads the header from an opened stream (closed here). */
static nnue_status read_header_stream(nr_stream *s, nnue_net_header *h, char **description, nnue_error *err)
{
    const char *path = s->path;
    nnue_status st;
    h->file_bytes = s->size;
    if ((st = nr_u32(s, &h->version, "header version")) != NNUE_OK ||
        (st = nr_u32(s, &h->file_hash, "header file hash")) != NNUE_OK ||
        (st = nr_u32(s, &h->description_bytes, "header description length")) != NNUE_OK)
        goto done;
    if (h->description_bytes > s->size - s->offset) {
        st = nnue_fail_offset(err, NNUE_E_FORMAT, path, 8,
                              "header: description length %u exceeds the %llu bytes left in the file", h->description_bytes,
                              (ull)(s->size - s->offset));
        goto done;
    }
    if (description) {
        *description = malloc((size_t)h->description_bytes + 1);
        if (!*description) {
            st = nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory for a %u-byte description", path, h->description_bytes);
            goto done;
        }
        if ((st = nr_bytes(s, *description, h->description_bytes, "header description")) != NNUE_OK)
            goto done;
        (*description)[h->description_bytes] = 0;
    } else if ((st = nr_skip(s, h->description_bytes, "header description")) != NNUE_OK) {
        goto done;
    }
    if ((st = nr_u32(s, &h->ft_hash, "feature transformer hash")) != NNUE_OK)
        goto done;
    unsigned char magic[NR_LEB128_MAGIC_LEN];
    if (s->size - s->offset >= sizeof magic && nr_bytes(s, magic, sizeof magic, "feature transformer") == NNUE_OK)
        h->leb128 = memcmp(magic, NR_LEB128_MAGIC, sizeof magic) == 0;
done:
    nr_close(s);
    if (st != NNUE_OK && description) {
        free(*description);
        *description = NULL;
    }
    return st;
}

nnue_status nnue_net_read_header(const char *path, nnue_net_header *h, char **description, nnue_error *err)
{
    nnue_error_clear(err);
    if (description)
        *description = NULL;
    if (!path || !h)
        return nnue_fail(err, NNUE_E_ARG, "nnue_net_read_header: expected a path and a header pointer");
    memset(h, 0, sizeof *h);
    nr_stream s;
    void *owned;
    uint64_t declared = 0;
    nnue_status st = open_net(&s, path, NNUE_MAX_NET_BYTES, NULL, HEADER_HEAD_BYTES, &owned, &h->zstd, &declared, err);
    st = st == NNUE_OK ? read_header_stream(&s, h, description, err) : st;
    if (h->zstd)
        h->file_bytes = declared; /* the net's size is the decompressed frame's */
    free(owned);
    return st;
}

nnue_status nnue_net_read_header_memory(const void *data, size_t size, const char *name, nnue_net_header *h,
                                        nnue_error *err)
{
    nnue_error_clear(err);
    if (!data || !h)
        return nnue_fail(err, NNUE_E_ARG, "nnue_net_read_header_memory: expected the bytes and a header pointer");
    memset(h, 0, sizeof *h);
    nr_stream s;
    void *owned;
    uint64_t declared = 0;
    nnue_status st = open_memory(&s, name ? name : "<memory>", data, size, NNUE_MAX_NET_BYTES, NULL, HEADER_HEAD_BYTES,
                                 &owned, &h->zstd, &declared, err);
    st = st == NNUE_OK ? read_header_stream(&s, h, NULL, err) : st;
    if (h->zstd)
        h->file_bytes = declared;
    free(owned);
    return st;
}
