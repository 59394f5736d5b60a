/* core/eval/refresh_cache.c: the bucket refresh cache (see core/eval/refresh_cache.h): slot storage, the
 * sorted multiset difference of two active lists, and a cached refresh of one perspective. */
#include "core/eval/refresh_cache.h"

#include <stdlib.h>
#include <string.h>

#include "core/eval/accumulator.h"

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

static int set_max_active(const nnue_ft_set *set)
{
    return set->features->max_active ? set->features->max_active : NNUE_MAX_ACTIVE;
}

void nnue_refresh_cache_init(nnue_refresh_cache *c, const nnue_net *net)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    memset(c, 0, sizeof *c);
    /* The set with the most keys picks the slot (HalfKAv2_hm's king buckets, not Full_Threats'
     * board halves): the finer the key, the closer a slot's list to the current one. */
    /* Every set's lists must fit the slots: bounded by its declared max_active, which the state
     * enforces through max_pieces (boards with more pieces are refused). */
    for (int s = 0; s < ft->n_sets; s++) {
        const nnue_feature_set *fs = ft->sets[s].features;
        if (!fs->max_pieces || !fs->max_active || fs->max_active > NNUE_MAX_ACTIVE_ANY)
            return;
    }
    for (int s = 0; s < ft->n_sets; s++) {
        const nnue_feature_set *fs = ft->sets[s].features;
        uint32_t keys = fs->refresh_keys && fs->refresh_key ? fs->refresh_keys(&ft->sets[s].params) : 0;
        if (keys > c->keys) {
            c->keys = keys;
            c->key_set = s;
        }
    }
}

void nnue_refresh_cache_clear(nnue_refresh_cache *c)
{
    if (c->slots)
        for (uint32_t i = 0; i < 2 * c->keys; i++)
            c->slots[i].filled = 0;
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
    size_t list_bytes = 0;
    for (int s = 0; s < ft->n_sets; s++)
        list_bytes += round_up((size_t)set_max_active(&ft->sets[s]) * sizeof(uint32_t), 64);
    size_t per_slot = acc_bytes + psqt_bytes + list_bytes;
    c->slots = calloc(2 * (size_t)c->keys, sizeof *c->slots);
    c->memory = aligned_alloc(64, 2 * (size_t)c->keys * per_slot);
    if (!c->slots || !c->memory) {
        nnue_refresh_cache_free(c);
        return -1;
    }
    char *p = c->memory;
    for (uint32_t i = 0; i < 2 * c->keys; i++) {
        c->slots[i].acc = (int16_t *)p;
        c->slots[i].psqt = psqt_bytes ? (int32_t *)(p + acc_bytes) : NULL;
        char *lists = p + acc_bytes + psqt_bytes;
        for (int s = 0; s < ft->n_sets; s++) {
            c->slots[i].lists[s].active = (uint32_t *)lists;
            lists += round_up((size_t)set_max_active(&ft->sets[s]) * sizeof(uint32_t), 64);
        }
        c->slots[i].filled = 0;
        p += per_slot;
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

/* Difference of two bit sets over one window (at most as many removed and added indices as each
 * set has members). */
static void bits_diff(const uint64_t *from, const uint64_t *to, uint32_t base, uint32_t *removed, int *n_removed,
                      uint32_t *added, int *n_added)
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
    }
    *n_removed = nr;
    *n_added = na;
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

/* One set's part of a cached refresh: its current list, and its difference from the slot's. */
typedef struct set_refresh {
    uint32_t idx[NNUE_MAX_ACTIVE_ANY], removed[NNUE_MAX_ACTIVE_ANY], added[NNUE_MAX_ACTIVE_ANY];
    uint64_t bits[NNUE_REFRESH_WINDOW / 64];
    int n, n_removed, n_added, sorted, bits_ok;
    uint32_t base;
} set_refresh;

/* Lists set s's active features into r and, when the slot is filled, their difference from the
 * slot's list: by XOR of bit sets when both fit one window without repeats, else by a sorted
 * multiset merge. */
static void set_diff(const nnue_ft_set *set, const nnue_feature_params *params, const nnue_board *board, int persp,
                     const nnue_refresh_slot *slot, nnue_refresh_list *old, set_refresh *r)
{
    r->n = set->features->active(params, board, persp, r->idx);
    r->sorted = 0;
    r->n_removed = r->n_added = 0;
    r->base = slot->filled && old->bits_ok ? old->base : window_base(r->idx, r->n);
    r->bits_ok = nnue_refresh_bits(r->idx, r->n, r->base, r->bits);
    if (slot->filled && old->bits_ok && r->bits_ok) {
        bits_diff(old->bits, r->bits, r->base, r->removed, &r->n_removed, r->added, &r->n_added);
    } else if (slot->filled) { /* repeated indices or outside the window: sorted merge */
        nnue_refresh_sort(r->idx, r->n);
        r->sorted = 1;
        if (!old->sorted) {
            nnue_refresh_sort(old->active, old->count);
            old->sorted = 1;
        }
        nnue_refresh_diff(old->active, old->count, r->idx, r->n, r->removed, &r->n_removed, r->added, &r->n_added);
    }
    if (!r->bits_ok && r->base != window_base(r->idx, r->n)) /* try a window of its own for next time */
        r->bits_ok = nnue_refresh_bits(r->idx, r->n, r->base = window_base(r->idx, r->n), r->bits);
}

int nnue_refresh_cache_refresh(nnue_refresh_cache *c, const nnue_net *net, const nnue_kernels *k,
                               const nnue_feature_params *params, const nnue_board *board, int persp,
                               nnue_acc_entry *e)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    if (!c->keys)
        return -1;
    const nnue_ft_set *keyed = &ft->sets[c->key_set];
    uint32_t key = keyed->features->refresh_key(&keyed->params, board, persp);
    if (key >= c->keys || (!c->slots && cache_alloc(c, ft) != 0))
        return -1;
    nnue_refresh_slot *slot = &c->slots[(size_t)persp * c->keys + key];
    set_refresh sets[NNUE_MAX_FT_SETS];
    int diff_rows = 0, full_rows = 0;
    for (int s = 0; s < ft->n_sets; s++) {
        set_diff(&ft->sets[s], &params[s], board, persp, slot, &slot->lists[s], &sets[s]);
        diff_rows += sets[s].n_removed + sets[s].n_added;
        full_rows += sets[s].n;
    }
    /* From the slot when its differences cost fewer rows than starting over from the biases. */
    int use_slot = slot->filled && diff_rows < full_rows;
    int16_t *acc = e->acc[persp];
    int32_t *psqt = e->psqt[persp];
    if (use_slot) {
        nnue_set_rows rows[NNUE_MAX_FT_SETS];
        for (int s = 0; s < ft->n_sets; s++)
            rows[s] = (nnue_set_rows){sets[s].removed, sets[s].added, sets[s].n_removed, sets[s].n_added};
        nnue_acc_apply(net, k, rows, acc, slot->acc, psqt, slot->psqt);
    } else { /* a refresh from the biases */
        const uint32_t *lists[NNUE_MAX_FT_SETS];
        int n[NNUE_MAX_FT_SETS];
        for (int s = 0; s < ft->n_sets; s++)
            lists[s] = sets[s].idx, n[s] = sets[s].n;
        nnue_acc_sum_lists(net, k, lists, n, acc, psqt);
    }
    c->diffs += (uint64_t)use_slot;
    c->fulls += (uint64_t)!use_slot;
    memcpy(slot->acc, acc, ft->width * sizeof(int16_t));
    if (ft->psqt_buckets)
        memcpy(slot->psqt, psqt, ft->psqt_buckets * sizeof(int32_t));
    for (int s = 0; s < ft->n_sets; s++) {
        nnue_refresh_list *l = &slot->lists[s];
        memcpy(l->active, sets[s].idx, (size_t)sets[s].n * sizeof(uint32_t));
        memcpy(l->bits, sets[s].bits, sizeof l->bits);
        l->base = sets[s].base;
        l->bits_ok = sets[s].bits_ok;
        l->count = sets[s].n;
        l->sorted = sets[s].sorted;
    }
    slot->filled = 1;
    e->computed[persp] = 1;
    return 0;
}
