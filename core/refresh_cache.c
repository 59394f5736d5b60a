/* core/refresh_cache.c: the bucket refresh cache (see core/refresh_cache.h): slot storage, the
 * sorted multiset difference of two active lists, and a cached refresh of one perspective. */
#include "core/refresh_cache.h"

#include <stdlib.h>
#include <string.h>

#include "core/state.h"

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

void nnue_refresh_cache_init(nnue_refresh_cache *c, const nnue_net *net)
{
    const nnue_feature_set *fs = net->arch->ft.features;
    memset(c, 0, sizeof *c);
    if (fs->refresh_keys && fs->refresh_key)
        c->keys = fs->refresh_keys(&net->arch->ft.params);
}

void nnue_refresh_cache_clear(nnue_refresh_cache *c)
{
    if (c->slots)
        for (uint32_t i = 0; i < 2 * c->keys; i++)
            c->slots[i].count = -1;
}

void nnue_refresh_cache_free(nnue_refresh_cache *c)
{
    free(c->slots);
    free(c->memory);
    c->slots = NULL;
    c->memory = NULL;
}

/* Allocates every slot, empty. Returns 0 or -1. */
static int cache_alloc(nnue_refresh_cache *c, const nnue_ft_desc *ft)
{
    size_t acc_bytes = round_up(ft->width * sizeof(int16_t), 64);
    size_t psqt_bytes = ft->psqt_buckets ? round_up(ft->psqt_buckets * sizeof(int32_t), 64) : 0;
    c->slots = calloc(2 * (size_t)c->keys, sizeof *c->slots);
    c->memory = aligned_alloc(64, 2 * (size_t)c->keys * (acc_bytes + psqt_bytes));
    if (!c->slots || !c->memory) {
        nnue_refresh_cache_free(c);
        return -1;
    }
    char *p = c->memory;
    for (uint32_t i = 0; i < 2 * c->keys; i++) {
        c->slots[i].acc = (int16_t *)p;
        c->slots[i].psqt = psqt_bytes ? (int32_t *)(p + acc_bytes) : NULL;
        c->slots[i].count = -1;
        p += acc_bytes + psqt_bytes;
    }
    return 0;
}

static inline unsigned bloom_bit(uint32_t x)
{
    return (x * 0x9E3779B1u) >> 23; /* 0..511 */
}

void nnue_refresh_bloom(const uint32_t *idx, int n, uint64_t bloom[8])
{
    memset(bloom, 0, 8 * sizeof(uint64_t));
    for (int i = 0; i < n; i++) {
        unsigned b = bloom_bit(idx[i]);
        bloom[b >> 6] |= 1ull << (b & 63);
    }
}

int nnue_refresh_bloom_misses(const uint32_t *idx, int n, const uint64_t bloom[8])
{
    int misses = 0;
    for (int i = 0; i < n; i++) {
        unsigned b = bloom_bit(idx[i]);
        misses += (int)(~bloom[b >> 6] >> (b & 63) & 1);
    }
    return misses;
}

void nnue_refresh_sort(uint32_t *idx, int n)
{
    for (int i = 1; i < n; i++) {
        uint32_t v = idx[i];
        int j = i;
        for (; j > 0 && idx[j - 1] > v; j--)
            idx[j] = idx[j - 1];
        idx[j] = v;
    }
}

void nnue_refresh_diff(const uint32_t *from, int n_from, const uint32_t *to, int n_to, uint32_t *removed,
                       int *n_removed, uint32_t *added, int *n_added)
{
    int i = 0, j = 0, nr = 0, na = 0;
    while (i < n_from && j < n_to) {
        if (from[i] == to[j]) {
            i++;
            j++;
        } else if (from[i] < to[j]) {
            removed[nr++] = from[i++];
        } else {
            added[na++] = to[j++];
        }
    }
    while (i < n_from)
        removed[nr++] = from[i++];
    while (j < n_to)
        added[na++] = to[j++];
    *n_removed = nr;
    *n_added = na;
}

static void rows_of(const nnue_net *net, const uint32_t *idx, int n, const int16_t **rows,
                    const int32_t **prows)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    for (int i = 0; i < n; i++) {
        rows[i] = net->ft_weights + (size_t)idx[i] * ft->width;
        if (ft->psqt_buckets)
            prows[i] = net->ft_psqt + (size_t)idx[i] * ft->psqt_buckets;
    }
}

int nnue_refresh_cache_refresh(nnue_refresh_cache *c, const nnue_net *net, const nnue_kernels *k,
                               const nnue_board *board, int persp, nnue_acc_entry *e)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    if (!c->keys)
        return -1;
    uint32_t key = ft->features->refresh_key(&ft->params, board, persp);
    if (key >= c->keys || (!c->slots && cache_alloc(c, ft) != 0))
        return -1;
    nnue_refresh_slot *slot = &c->slots[(size_t)persp * c->keys + key];

    uint32_t idx[NNUE_MAX_ACTIVE], removed[NNUE_MAX_ACTIVE], added[NNUE_MAX_ACTIVE];
    uint64_t bloom[8];
    int n = ft->features->active(&ft->params, board, persp, idx), n_removed = 0, n_added = 0;
    nnue_refresh_bloom(idx, n, bloom);
    int use_slot = slot->count >= 0 && nnue_refresh_bloom_misses(idx, n, slot->bloom) +
                                               nnue_refresh_bloom_misses(slot->active, slot->count, bloom) < n;
    if (use_slot) {
        nnue_refresh_sort(idx, n);
        if (!slot->sorted)
            nnue_refresh_sort(slot->active, slot->count);
        nnue_refresh_diff(slot->active, slot->count, idx, n, removed, &n_removed, added, &n_added);
        use_slot = n_removed + n_added < n;
    }

    const int16_t *sub[NNUE_MAX_ACTIVE], *add[NNUE_MAX_ACTIVE];
    const int32_t *psub[NNUE_MAX_ACTIVE], *padd[NNUE_MAX_ACTIVE];
    int16_t *acc = e->acc[persp];
    int32_t *psqt = e->psqt[persp];
    if (!use_slot) {
        /* Empty slot or a difference no cheaper than starting over: a full refresh. */
        rows_of(net, idx, n, add, padd);
        k->acc_i16(acc, net->ft_biases, NULL, 0, add, n, ft->width);
        if (ft->psqt_buckets) {
            memset(psqt, 0, ft->psqt_buckets * sizeof(int32_t));
            k->acc_i32(psqt, psqt, NULL, 0, padd, n, ft->psqt_buckets);
        }
    } else {
        rows_of(net, removed, n_removed, sub, psub);
        rows_of(net, added, n_added, add, padd);
        k->acc_i16(acc, slot->acc, sub, n_removed, add, n_added, ft->width);
        if (ft->psqt_buckets)
            k->acc_i32(psqt, slot->psqt, psub, n_removed, padd, n_added, ft->psqt_buckets);
    }
    c->diffs += (uint64_t)use_slot;
    c->fulls += (uint64_t)!use_slot;
    memcpy(slot->acc, acc, ft->width * sizeof(int16_t));
    if (ft->psqt_buckets)
        memcpy(slot->psqt, psqt, ft->psqt_buckets * sizeof(int32_t));
    memcpy(slot->active, idx, (size_t)n * sizeof(uint32_t));
    memcpy(slot->bloom, bloom, sizeof bloom);
    slot->count = n;
    slot->sorted = use_slot;
    e->computed[persp] = 1;
    return 0;
}
