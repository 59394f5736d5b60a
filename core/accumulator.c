/* core/accumulator.c: feature-transformer accumulators, refreshed or updated from deltas.
 *
 * acc[p] = biases + sum of the weight rows of perspective p's active features (i16, wrapping
 * like the engines); psqt[p][b] = sum of the active features' PSQT rows (i32). */
#include <string.h>

#include "core/state.h"

static void add_row(int16_t *acc, const int16_t *row, uint32_t width)
{
    for (uint32_t j = 0; j < width; j++)
        acc[j] = (int16_t)(uint16_t)((uint16_t)acc[j] + (uint16_t)row[j]);
}

static void sub_row(int16_t *acc, const int16_t *row, uint32_t width)
{
    for (uint32_t j = 0; j < width; j++)
        acc[j] = (int16_t)(uint16_t)((uint16_t)acc[j] - (uint16_t)row[j]);
}

void nnue_accumulator_refresh(const nnue_net *net, const nnue_board *board, int persp, nnue_acc_entry *e)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    uint32_t idx[NNUE_MAX_ACTIVE];
    int n = ft->features->active(&ft->params, board, persp, idx);
    uint32_t width = ft->width, buckets = ft->psqt_buckets;
    memcpy(e->acc[persp], net->ft_biases, width * sizeof(int16_t));
    for (int i = 0; i < n; i++)
        add_row(e->acc[persp], net->ft_weights + (size_t)idx[i] * width, width);
    if (buckets) {
        memset(e->psqt[persp], 0, buckets * sizeof(int32_t));
        for (int i = 0; i < n; i++)
            for (uint32_t b = 0; b < buckets; b++)
                e->psqt[persp][b] += net->ft_psqt[(size_t)idx[i] * buckets + b];
    }
    e->computed[persp] = 1;
}

/* Applies the delta of entry `to` onto the accumulator of `from` for one perspective. */
static void apply_delta(const nnue_net *net, const nnue_board *board, int persp, const nnue_acc_entry *from,
                        nnue_acc_entry *to)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    uint32_t removed[NNUE_MAX_CHANGED], added[NNUE_MAX_CHANGED];
    int n_removed = 0, n_added = 0;
    ft->features->changed(&ft->params, board, &to->delta, persp, removed, &n_removed, added, &n_added);
    uint32_t width = ft->width, buckets = ft->psqt_buckets;
    memcpy(to->acc[persp], from->acc[persp], width * sizeof(int16_t));
    for (int i = 0; i < n_removed; i++)
        sub_row(to->acc[persp], net->ft_weights + (size_t)removed[i] * width, width);
    for (int i = 0; i < n_added; i++)
        add_row(to->acc[persp], net->ft_weights + (size_t)added[i] * width, width);
    if (buckets) {
        memcpy(to->psqt[persp], from->psqt[persp], buckets * sizeof(int32_t));
        for (int i = 0; i < n_removed; i++)
            for (uint32_t b = 0; b < buckets; b++)
                to->psqt[persp][b] -= net->ft_psqt[(size_t)removed[i] * buckets + b];
        for (int i = 0; i < n_added; i++)
            for (uint32_t b = 0; b < buckets; b++)
                to->psqt[persp][b] += net->ft_psqt[(size_t)added[i] * buckets + b];
    }
    to->computed[persp] = 1;
}

void nnue_state_update(nnue_state *s, const nnue_board *board)
{
    nnue_acc_entry *entries = s->entries;
    for (int p = 0; p < 2; p++) {
        if (entries[s->ply].computed[p])
            continue;
        /* Walk back while the move into entry k keeps p incremental and k-1 is not computed. */
        int k = s->ply;
        while (k > 0 && !entries[k].refresh[p] && !entries[k - 1].computed[p])
            k--;
        if (k > 0 && !entries[k].refresh[p]) {
            for (int i = k; i <= s->ply; i++)
                apply_delta(s->net, board, p, &entries[i - 1], &entries[i]);
        } else {
            nnue_accumulator_refresh(s->net, board, p, &entries[s->ply]);
        }
    }
}
