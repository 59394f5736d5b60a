/* core/refresh_cache.c: the bucket refresh cache (see core/refresh_cache.h): slot storage, the
 * sorted multiset difference of two active lists, and a cached refresh of one perspective. */
#include "core/refresh_cache.h"

#include <stdlib.h>
#include <string.h>

#include "core/acc_entry.h"

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

void nnue_refresh_cache_init(nnue_refresh_cache *c, const nnue_net *net)
{
    const nnue_feature_set *fs = net->arch->ft.features;
    memset(c, 0, sizeof *c);
    /* One set only (no cache for SFNNv10); its lists fit the slots' NNUE_MAX_ACTIVE entries only
     * when the state holds boards to the set's declared maximum (max_pieces). */
    int fits = fs->max_pieces && fs->max_active && fs->max_active <= NNUE_MAX_ACTIVE;
    if (fs->refresh_keys && fs->refresh_key && net->arch->ft.n_sets == 1 && fits)
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

int nnue_refresh_bits(const uint32_t *idx, int n, uint32_t base, uint64_t *bits)
{
    memset(bits, 0, NNUE_REFRESH_WINDOW / 8);
    uint64_t bad = 0;
    for (int i = 0; i < n; i++) {
        uint32_t off = idx[i] - base; /* below base wraps to a large value */
        bad |= off / NNUE_REFRESH_WINDOW;
        off %= NNUE_REFRESH_WINDOW;
        uint64_t m = 1ull << (off & 63);
        bad |= bits[off >> 6] & m;
        bits[off >> 6] |= m;
    }
    return bad == 0;
}

/* A window for a list: from 1024 below its smallest index (rounded down to 64). */
static uint32_t window_base(const uint32_t *idx, int n)
{
    uint32_t lo = UINT32_MAX;
    for (int i = 0; i < n; i++)
        lo = idx[i] < lo ? idx[i] : lo;
    lo &= ~63u;
    return lo > 1024 ? lo - 1024 : 0;
}

/* Difference of two bit sets over one window; stops (returning 0) once it reaches `limit`. */
static int bits_diff(const uint64_t *from, const uint64_t *to, uint32_t base, int limit, uint32_t *removed,
                     int *n_removed, uint32_t *added, int *n_added)
{
    int nr = 0, na = 0;
    for (int w = 0; w < NNUE_REFRESH_WINDOW / 64; w++) {
        uint64_t x = from[w] ^ to[w];
        if (!x)
            continue;
        for (uint64_t r = x & from[w]; r; r &= r - 1)
            removed[nr++] = base + 64 * (uint32_t)w + (uint32_t)__builtin_ctzll(r);
        for (uint64_t a = x & to[w]; a; a &= a - 1)
            added[na++] = base + 64 * (uint32_t)w + (uint32_t)__builtin_ctzll(a);
        if (nr + na >= limit)
            return 0;
    }
    *n_removed = nr;
    *n_added = na;
    return 1;
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
    /* Branch-free merge: both candidates are written, the counters advance by comparisons. */
    int i = 0, j = 0, nr = 0, na = 0;
    while (i < n_from && j < n_to) {
        uint32_t a = from[i], b = to[j];
        removed[nr] = a;
        added[na] = b;
        nr += a < b;
        na += b < a;
        i += a <= b;
        j += b <= a;
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

    /* removed/added may be overfilled by one word's bits before bits_diff() gives up. */
    uint32_t idx[NNUE_MAX_ACTIVE], removed[NNUE_MAX_ACTIVE + 64], added[NNUE_MAX_ACTIVE + 64];
    uint64_t bits[NNUE_REFRESH_WINDOW / 64];
    int n = ft->features->active(&ft->params, board, persp, idx), n_removed = 0, n_added = 0;
    int use_slot = 0, sorted = 0;
    uint32_t base = slot->count >= 0 && slot->bits_ok ? slot->base : window_base(idx, n);
    int bits_ok = nnue_refresh_bits(idx, n, base, bits);
    if (slot->count >= 0 && slot->bits_ok && bits_ok) {
        use_slot = bits_diff(slot->bits, bits, base, n, removed, &n_removed, added, &n_added);
    } else if (slot->count >= 0) { /* repeated indices or outside the window: sorted merge */
        nnue_refresh_sort(idx, n);
        sorted = 1;
        if (!slot->sorted)
            nnue_refresh_sort(slot->active, slot->count);
        nnue_refresh_diff(slot->active, slot->count, idx, n, removed, &n_removed, added, &n_added);
        use_slot = n_removed + n_added < n;
    }
    if (!bits_ok && base != window_base(idx, n)) /* try a window of its own for next time */
        bits_ok = nnue_refresh_bits(idx, n, base = window_base(idx, n), bits);

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
    memcpy(slot->bits, bits, sizeof bits);
    slot->base = base;
    slot->bits_ok = bits_ok;
    slot->count = n;
    slot->sorted = sorted;
    e->computed[persp] = 1;
    return 0;
}
