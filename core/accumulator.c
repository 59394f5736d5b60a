/* core/accumulator.c: feature-transformer accumulators, refreshed or updated from deltas.
 *
 * acc[p] = biases + sum of the weight rows of perspective p's active features (i16, wrapping
 * like the engines); psqt[p][b] = sum of the active features' PSQT rows (i32). With several
 * feature sets (SFNNv10) every set adds its own rows (i16, or i8 widened) and PSQT rows into the
 * same two sums. Both are done by the state's kernel set (core/simd/kernels.h): a refresh adds
 * every active row onto the biases, an update subtracts the removed rows from and adds the
 * added rows onto the previous accumulator. A refresh forced by a pushed move may instead go
 * through the state's refresh cache (core/refresh_cache.c), which uses the same kernels. When
 * both perspectives start from scratch (a root, or a king move with nothing computed for the
 * other side and the cache off) both active lists of each set that offers active_both() come
 * from one pass, and a set's changed_both() lists a move's changes for both perspectives at once.
 * Sets whose changed() needs the board right after each move (Full_Threats) get it rebuilt move
 * by move (core/board_undo.h) when several moves are applied. */
#include <string.h>

#include "core/board_undo.h"
#include "core/state.h"

/* The i8 rows' patches (core/net_narrow.c) of the subtracted and added rows, onto dst (i16
 * wrapping, computed in unsigned arithmetic). */
static void apply_patches(const nnue_narrow_rows *nr, const uint32_t *sub, int n_sub, const uint32_t *add, int n_add,
                          int16_t *dst)
{
    for (int i = 0; i < n_sub; i++)
        for (uint32_t p = nr->patch_start[sub[i]]; p < nr->patch_start[sub[i] + 1]; p++)
            dst[nr->patches[p].col] = (int16_t)((uint16_t)dst[nr->patches[p].col] - (uint16_t)nr->patches[p].delta);
    for (int i = 0; i < n_add; i++)
        for (uint32_t p = nr->patch_start[add[i]]; p < nr->patch_start[add[i] + 1]; p++)
            dst[nr->patches[p].col] = (int16_t)((uint16_t)dst[nr->patches[p].col] + (uint16_t)nr->patches[p].delta);
}

/* dst = src - rows(sub) + rows(add) for feature set s's weights, and psqt_dst = psqt_src -/+ its
 * PSQT rows (when the net has PSQT; psqt_src NULL = zero). */
static void apply_rows(const nnue_net *net, const nnue_kernels *k, int s, const uint32_t *sub, int n_sub,
                       const uint32_t *add, int n_add, int16_t *dst, const int16_t *src, int32_t *psqt_dst,
                       const int32_t *psqt_src)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    uint32_t width = ft->width, buckets = ft->psqt_buckets;
    const void *rsub[NNUE_MAX_ACTIVE_ANY], *radd[NNUE_MAX_ACTIVE_ANY];
    const nnue_narrow_rows *nr = &net->narrow[s];
    if (ft->sets[s].weight_type == NNUE_I8 || nr->rows) {
        const int8_t *w = nr->rows ? nr->rows : (const int8_t *)net->set_weights[s];
        for (int i = 0; i < n_sub; i++)
            rsub[i] = w + (size_t)sub[i] * width;
        for (int i = 0; i < n_add; i++)
            radd[i] = w + (size_t)add[i] * width;
        k->acc_i8(dst, src, (const int8_t *const *)rsub, n_sub, (const int8_t *const *)radd, n_add, width);
        if (nr->patch_start)
            apply_patches(nr, sub, n_sub, add, n_add, dst);
    } else {
        const int16_t *w = net->set_weights[s];
        for (int i = 0; i < n_sub; i++)
            rsub[i] = w + (size_t)sub[i] * width;
        for (int i = 0; i < n_add; i++)
            radd[i] = w + (size_t)add[i] * width;
        k->acc_i16(dst, src, (const int16_t *const *)rsub, n_sub, (const int16_t *const *)radd, n_add, width);
    }
    if (!buckets)
        return;
    const int32_t *p = net->set_psqt[s];
    for (int i = 0; i < n_sub; i++)
        rsub[i] = p + (size_t)sub[i] * buckets;
    for (int i = 0; i < n_add; i++)
        radd[i] = p + (size_t)add[i] * buckets;
    if (!psqt_src) {
        memset(psqt_dst, 0, buckets * sizeof(int32_t));
        psqt_src = psqt_dst;
    }
    k->acc_i32(psqt_dst, psqt_src, (const int32_t *const *)rsub, n_sub, (const int32_t *const *)radd, n_add, buckets);
}

/* Perspective persp from scratch; set s's active list already in given[s] (n_given[s] entries)
 * when given and given[s] are not NULL. */
static void refresh_sets(const nnue_net *net, const nnue_kernels *k, const nnue_board *board, int persp,
                         const uint32_t *const *given, const int *n_given, nnue_acc_entry *e)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    uint32_t idx[NNUE_MAX_ACTIVE_ANY];
    for (int s = 0; s < ft->n_sets; s++) {
        const uint32_t *list = given ? given[s] : NULL;
        int n = list ? n_given[s] : 0;
        if (!list) {
            n = ft->sets[s].features->active(&ft->sets[s].params, board, persp, idx);
            list = idx;
        }
        apply_rows(net, k, s, NULL, 0, list, n, e->acc[persp], s ? e->acc[persp] : net->ft_biases, e->psqt[persp],
                   s ? e->psqt[persp] : NULL);
    }
    e->computed[persp] = 1;
}

void nnue_accumulator_refresh(const nnue_net *net, const nnue_kernels *k, const nnue_board *board, int persp,
                              nnue_acc_entry *e)
{
    refresh_sets(net, k, board, persp, NULL, NULL, e);
}

void nnue_accumulator_refresh_both(const nnue_net *net, const nnue_kernels *k, const nnue_board *board,
                                   nnue_acc_entry *e)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    uint32_t lists[NNUE_MAX_FT_SETS][2][NNUE_MAX_ACTIVE_ANY];
    const uint32_t *given[2][NNUE_MAX_FT_SETS];
    int n[2][NNUE_MAX_FT_SETS];
    for (int s = 0; s < ft->n_sets; s++) {
        const nnue_feature_set *fs = ft->sets[s].features;
        given[0][s] = given[1][s] = NULL;
        if (!fs->active_both)
            continue;
        uint32_t *const out[2] = {lists[s][0], lists[s][1]};
        int both[2];
        fs->active_both(&ft->sets[s].params, board, out, both);
        for (int p = 0; p < 2; p++) {
            given[p][s] = lists[s][p];
            n[p][s] = both[p];
        }
    }
    for (int p = 0; p < 2; p++)
        refresh_sets(net, k, board, p, given[p], n[p], e);
}

/* One pending move of a lazy update: perspective, entry, and each set's changed lists. */
typedef struct pending_move {
    int persp, entry;
    int n_removed[NNUE_MAX_FT_SETS], n_added[NNUE_MAX_FT_SETS];
    uint32_t *removed[NNUE_MAX_FT_SETS], *added[NNUE_MAX_FT_SETS];
} pending_move;

#define PENDING_MOVES 8                                    /* moves whose rows are requested together */
#define PENDING_INDICES (4 * NNUE_MAX_FT_SETS * NNUE_MAX_ACTIVE_ANY) /* room for one move, both sides, any net */

static void prefetch_bytes(const void *p, size_t bytes)
{
    for (size_t off = 0; off < bytes; off += 64)
        __builtin_prefetch((const char *)p + off);
}

/* Requests set s's weight and PSQT rows of n indices. */
static void prefetch_rows(const nnue_net *net, int s, const uint32_t *idx, int n)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    const nnue_narrow_rows *nr = &net->narrow[s];
    int narrow = ft->sets[s].weight_type == NNUE_I8 || nr->rows;
    size_t row = (size_t)ft->width * (narrow ? 1 : 2);
    size_t prow = (size_t)ft->psqt_buckets * sizeof(int32_t);
    const char *rows = nr->rows ? (const char *)nr->rows : (const char *)net->set_weights[s];
    for (int i = 0; i < n; i++) {
        prefetch_bytes(rows + idx[i] * row, row);
        if (prow)
            prefetch_bytes((const char *)net->set_psqt[s] + idx[i] * prow, prow);
        if (nr->patch_start) {
            uint32_t first = nr->patch_start[idx[i]];
            prefetch_bytes(nr->patches + first, (nr->patch_start[idx[i] + 1] - first) * sizeof *nr->patches);
        }
    }
}

static void apply_pending(nnue_state *s, const pending_move *m, int n)
{
    const nnue_ft_desc *ft = &s->net->arch->ft;
    for (int j = 0; j < n; j++) {
        int p = m[j].persp;
        const nnue_acc_entry *from = &s->entries[m[j].entry - 1];
        nnue_acc_entry *to = &s->entries[m[j].entry];
        for (int t = 0; t < ft->n_sets; t++)
            apply_rows(s->net, s->kernels, t, m[j].removed[t], m[j].n_removed[t], m[j].added[t], m[j].n_added[t],
                       to->acc[p], t ? to->acc[p] : from->acc[p], to->psqt[p], t ? to->psqt[p] : from->psqt[p]);
        to->computed[p] = 1;
    }
}

/* Brings perspective p up to date move by move from entry from[p] - 1 (nothing when
 * from[p] <= 0). The moves go in batches, entry by entry (both perspectives of an entry
 * together, so that a set's changed_both() lists them in one pass): every row of a batch is
 * requested (prefetched) before the first is summed, since the rows a move adds are mostly not
 * in cache (a new square's row) and then arrive together instead of one after another. */
static void apply_moves(nnue_state *s, const nnue_board *board, const int from[2])
{
    const nnue_ft_desc *ft = &s->net->arch->ft;
    pending_move batch[PENDING_MOVES];
    uint32_t pool[PENDING_INDICES];
    size_t bound[NNUE_MAX_FT_SETS], need = 0, used = 0;
    for (int t = 0; t < ft->n_sets; t++) {
        bound[t] = ft->sets[t].features->max_changed ? ft->sets[t].features->max_changed : NNUE_MAX_CHANGED;
        need += 2 * bound[t];
    }
    int n = 0, first = s->ply + 1;
    for (int p = 0; p < 2; p++)
        if (from[p] > 0 && from[p] < first)
            first = from[p];
    for (int i = first; i <= s->ply; i++) {
        int want[2] = {from[0] > 0 && i >= from[0], from[1] > 0 && i >= from[1]}, moves = want[0] + want[1];
        if (n + moves > PENDING_MOVES || used + moves * need > PENDING_INDICES) {
            apply_pending(s, batch, n);
            n = used = 0;
        }
        pending_move *m[2] = {NULL, NULL};
        for (int p = 0; p < 2; p++) {
            if (!want[p])
                continue;
            m[p] = &batch[n++];
            m[p]->persp = p;
            m[p]->entry = i;
            for (int t = 0; t < ft->n_sets; t++) {
                m[p]->removed[t] = pool + used;
                m[p]->added[t] = pool + used + bound[t];
                used += 2 * bound[t];
                m[p]->n_removed[t] = m[p]->n_added[t] = 0;
            }
        }
        const nnue_board *after = s->boards && i < s->ply ? &s->boards[i] : board;
        const nnue_delta *delta = &s->entries[i].delta;
        for (int t = 0; t < ft->n_sets; t++) {
            const nnue_feature_set *fs = ft->sets[t].features;
            if (moves == 2 && fs->changed_both) {
                uint32_t *const removed[2] = {m[0]->removed[t], m[1]->removed[t]};
                uint32_t *const added[2] = {m[0]->added[t], m[1]->added[t]};
                int nr[2], na[2];
                fs->changed_both(&ft->sets[t].params, after, delta, removed, nr, added, na);
                for (int p = 0; p < 2; p++)
                    m[p]->n_removed[t] = nr[p], m[p]->n_added[t] = na[p];
            } else {
                for (int p = 0; p < 2; p++)
                    if (m[p])
                        fs->changed(&ft->sets[t].params, after, delta, p, m[p]->removed[t], &m[p]->n_removed[t],
                                    m[p]->added[t], &m[p]->n_added[t]);
            }
            for (int p = 0; p < 2; p++)
                if (m[p]) {
                    prefetch_rows(s->net, t, m[p]->added[t], m[p]->n_added[t]);
                    prefetch_rows(s->net, t, m[p]->removed[t], m[p]->n_removed[t]);
                }
        }
    }
    apply_pending(s, batch, n);
}

/* The board after each entry first..ply (boards[i]), walking back from the current board. */
static void boards_back_to(nnue_state *s, const nnue_board *board, int first)
{
    s->boards[s->ply] = *board;
    for (int i = s->ply; i > first; i--)
        nnue_board_before(&s->boards[i], &s->entries[i].delta, &s->boards[i - 1]);
}

void nnue_state_update(nnue_state *s, const nnue_board *board)
{
    nnue_acc_entry *entries = s->entries, *cur = &entries[s->ply];
    int from[2] = {-1, -1};   /* per perspective: -1 computed, 0 from scratch, k > 0 see below */
    for (int p = 0; p < 2; p++) {
        if (cur->computed[p])
            continue;
        /* Walk back while the move into entry k keeps p incremental and k-1 is not computed. */
        int k = s->ply;
        while (k > 0 && !entries[k].refresh[p] && !entries[k - 1].computed[p])
            k--;
        from[p] = k;
    }
    int scratch[2];
    for (int p = 0; p < 2; p++)
        scratch[p] = from[p] == 0 || (from[p] > 0 && entries[from[p]].refresh[p] && !s->cache_on);
    if (scratch[0] && scratch[1]) {
        /* Both from scratch (a root, or a king move whose other side has no computed ancestor
         * either, cache off): one pass over the board. */
        nnue_accumulator_refresh_both(s->net, s->kernels, board, cur);
        return;
    }
    int first = s->ply; /* exact boards from here on (sets that need them only) */
    for (int p = 0; p < 2; p++)
        if (from[p] > 0 && !entries[from[p]].refresh[p] && from[p] < first)
            first = from[p];
    if (s->boards && first < s->ply)
        boards_back_to(s, board, first);
    int steps[2];
    for (int p = 0; p < 2; p++)
        steps[p] = from[p] > 0 && !entries[from[p]].refresh[p] ? from[p] : -1;
    if (steps[0] > 0 || steps[1] > 0)
        apply_moves(s, board, steps);
    for (int p = 0; p < 2; p++) {
        int k = from[p];
        if (k < 0 || steps[p] > 0)
            continue;
        if (k == 0 || !s->cache_on ||
            nnue_refresh_cache_refresh(&s->cache, s->net, s->kernels, board, p, cur) != 0) {
            /* No computed ancestor (a root), cache off or unavailable: from scratch. */
            nnue_accumulator_refresh(s->net, s->kernels, board, p, cur);
        }
    }
}
