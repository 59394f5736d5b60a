/* core/accumulator.c: feature-transformer accumulators, refreshed or updated from deltas.
 *
 * acc[p] = biases + sum of the weight rows of perspective p's active features (i16, wrapping
 * like the engines); psqt[p][b] = sum of the active features' PSQT rows (i32). Both are done
 * by the state's kernel set (core/simd/kernels.h) in one pass over the width: a refresh adds
 * every active row onto the biases, an update subtracts the removed rows from and adds the
 * added rows onto the previous accumulator. A refresh forced by a pushed move may instead go
 * through the state's refresh cache (core/refresh_cache.c), which uses the same kernels. When
 * both perspectives start from scratch (a root, or a king move with nothing computed for the
 * other side and the cache off) both active lists come from one pass, if the feature set
 * offers active_both(). */
#include <string.h>

#include "core/state.h"

static void rows_i16(const nnue_net *net, const uint32_t *idx, int n, const int16_t **rows)
{
    uint32_t width = net->arch->ft.width;
    for (int i = 0; i < n; i++)
        rows[i] = net->ft_weights + (size_t)idx[i] * width;
}

static void rows_i32(const nnue_net *net, const uint32_t *idx, int n, const int32_t **rows)
{
    uint32_t buckets = net->arch->ft.psqt_buckets;
    for (int i = 0; i < n; i++)
        rows[i] = net->ft_psqt + (size_t)idx[i] * buckets;
}

/* Sums the listed rows onto the biases (and PSQT rows onto zero) for one perspective. */
static void refresh_rows(const nnue_net *net, const nnue_kernels *k, const uint32_t *idx, int n, int persp,
                         nnue_acc_entry *e)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    const int16_t *rows[NNUE_MAX_ACTIVE];
    rows_i16(net, idx, n, rows);
    k->acc_i16(e->acc[persp], net->ft_biases, NULL, 0, rows, n, ft->width);
    if (ft->psqt_buckets) {
        const int32_t *prows[NNUE_MAX_ACTIVE];
        rows_i32(net, idx, n, prows);
        memset(e->psqt[persp], 0, ft->psqt_buckets * sizeof(int32_t));
        k->acc_i32(e->psqt[persp], e->psqt[persp], NULL, 0, prows, n, ft->psqt_buckets);
    }
    e->computed[persp] = 1;
}

void nnue_accumulator_refresh(const nnue_net *net, const nnue_kernels *k, const nnue_board *board, int persp,
                              nnue_acc_entry *e)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    uint32_t idx[NNUE_MAX_ACTIVE];
    int n = ft->features->active(&ft->params, board, persp, idx);
    refresh_rows(net, k, idx, n, persp, e);
}

void nnue_accumulator_refresh_both(const nnue_net *net, const nnue_kernels *k, const nnue_board *board,
                                   nnue_acc_entry *e)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    uint32_t idx0[NNUE_MAX_ACTIVE], idx1[NNUE_MAX_ACTIVE];
    uint32_t *const out[2] = {idx0, idx1};
    int n[2];
    if (ft->features->active_both) {
        ft->features->active_both(&ft->params, board, out, n);
    } else {
        n[0] = ft->features->active(&ft->params, board, 0, idx0);
        n[1] = ft->features->active(&ft->params, board, 1, idx1);
    }
    refresh_rows(net, k, idx0, n[0], 0, e);
    refresh_rows(net, k, idx1, n[1], 1, e);
}

/* Applies the delta of entry `to` onto the accumulator of `from` for one perspective. */
static void apply_delta(const nnue_net *net, const nnue_kernels *k, const nnue_board *board, int persp,
                        const nnue_acc_entry *from, nnue_acc_entry *to)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    uint32_t removed[NNUE_MAX_CHANGED], added[NNUE_MAX_CHANGED];
    int n_removed = 0, n_added = 0;
    ft->features->changed(&ft->params, board, &to->delta, persp, removed, &n_removed, added, &n_added);
    const int16_t *sub[NNUE_MAX_CHANGED], *add[NNUE_MAX_CHANGED];
    rows_i16(net, removed, n_removed, sub);
    rows_i16(net, added, n_added, add);
    k->acc_i16(to->acc[persp], from->acc[persp], sub, n_removed, add, n_added, ft->width);
    if (ft->psqt_buckets) {
        const int32_t *psub[NNUE_MAX_CHANGED], *padd[NNUE_MAX_CHANGED];
        rows_i32(net, removed, n_removed, psub);
        rows_i32(net, added, n_added, padd);
        k->acc_i32(to->psqt[persp], from->psqt[persp], psub, n_removed, padd, n_added, ft->psqt_buckets);
    }
    to->computed[persp] = 1;
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
    for (int p = 0; p < 2; p++) {
        int k = from[p];
        if (k < 0)
            continue;
        if (k > 0 && !entries[k].refresh[p]) {
            for (int i = k; i <= s->ply; i++)
                apply_delta(s->net, s->kernels, board, p, &entries[i - 1], &entries[i]);
        } else if (k == 0 || !s->cache_on ||
                   nnue_refresh_cache_refresh(&s->cache, s->net, s->kernels, board, p, cur) != 0) {
            /* No computed ancestor (a root), cache off or unavailable: from scratch. */
            nnue_accumulator_refresh(s->net, s->kernels, board, p, cur);
        }
    }
}
