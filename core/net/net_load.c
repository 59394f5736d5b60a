/* core/net/net_load.c: nnue_net_load / nnue_net_free: opens the file (or a buffer in memory) as a
 * read stream (formats/net_open.h: a zstd frame is decompressed first, within what its
 * architecture can take), hands it to the reader of the arch's format (formats/net_formats.h),
 * takes the weights it filled into the net, then asks the layers' planner for the SIMD plan
 * (layers/plan.c). The header alone: formats/net_header.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "base/error.h"
#include "layers/plan.h"
#include "formats/net_formats.h"
#include "core/net/net_ranges.h"
#include "formats/net_open.h"
#include "formats/net_read.h"
#include "nnue.h"

/* The reader of each nnue_container (core/arch/arch.h), in its order: the containers' readers
 * unwrap their blocks and call the plain one, so the table sits here, above all three. */
typedef nnue_status (*nnue_net_reader)(nnue_weights *w, nr_stream *s);
static const nnue_net_reader raw_containers[3] = {nnue_net_read_raw, nnue_net_read_cbnf, nnue_net_read_varint};

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
    if (nnue_net_narrow_rows(net) != 0) { /* an i8 set's rows for the update could not be made */
        nnue_net_free(net);
        return nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory (the feature transformer's i8 rows as i16)", name);
    }
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
    nnue_status st = nr_open_net(&s, path, nz_cap_for_arch(arch), NZ_ARCH_CAP, 0, &owned, &zstd, NULL, err);
    st = st == NNUE_OK ? load_stream(arch, &s, path, out, err) : st;
    free(owned);
    return st;
}

nnue_status nnue_memory_args(const char *fn, const char *what, const void *data, size_t size, int others_given,
                             const char **name, nnue_error *err)
{
    if (!*name)
        *name = "<memory>";
    if (others_given && size == 0) /* as an empty file is refused (formats/net_read.c), whatever the pointer */
        return nnue_fail_offset(err, NNUE_E_FORMAT, *name, 0, "empty (0 bytes), not a net");
    if (!data || !others_given)
        return nnue_fail(err, NNUE_E_ARG, "%s: expected %s", fn, what);
    return NNUE_OK;
}

nnue_status nnue_net_load_memory(const nnue_arch *arch, const void *data, size_t size, const char *name,
                                 nnue_net **out, nnue_error *err)
{
    nnue_error_clear(err);
    if (out)
        *out = NULL;
    nnue_status st = nnue_memory_args("nnue_net_load_memory", "an architecture, the bytes and an output pointer", data,
                                      size, arch && out, &name, err);
    if (st != NNUE_OK)
        return st;
    nr_stream s;
    void *owned;
    int zstd;
    st = nr_open_net_memory(&s, name, data, size, nz_cap_for_arch(arch), NZ_ARCH_CAP, 0, &owned, &zstd, NULL, err);
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

void nnue_net_free(nnue_net *net)
{
    if (!net)
        return;
    atomic_store_explicit(&net->freed, 1, memory_order_release);
    nnue_net_release(net);
}
