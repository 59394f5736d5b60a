/* core/eval/accumulator.c: feature-transformer accumulators as arithmetic on weight rows (see
 * core/eval/accumulator.h). No state lives here: core/eval/state_update.c decides which entries to
 * update or refresh, the refresh cache (core/eval/refresh_cache.c) which rows to apply to a slot;
 * both apply rows through nnue_acc_apply, the one applier: every set's rows of an update (i16
 * rows, i8 rows widened, the narrowed i8 rows with their patches) in one pass of the acc_rows
 * kernel over the accumulator, the PSQT rows in one pass of acc_i32. */
#include <string.h>

#include "core/eval/accumulator.h"

/* The i8 rows' patches (core/net/net_narrow.c) of the subtracted and added rows, onto dst (i16
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

#define ROW_ROOM 64 /* rows of each kind (i16 or i8, removed or added) per pass; more take more passes */

/* The rows of one pass being listed, and where the pass goes. */
typedef struct row_pass {
    const nnue_net *net;
    const nnue_kernels *k;
    nnue_acc_rows r;
    int n_psub, n_padd;
    int16_t *dst;
    const int16_t *src;
    int32_t *psqt_dst;
    const int32_t *psqt_src;
    const int16_t *sub16[ROW_ROOM], *add16[ROW_ROOM];
    const int8_t *sub8[ROW_ROOM], *add8[ROW_ROOM];
    const int32_t *psub[2 * ROW_ROOM], *padd[2 * ROW_ROOM];
} row_pass;

/* One pass over the accumulator with the rows listed so far (and over the PSQT sums), then the
 * next pass starts from dst. */
static __attribute__((noinline)) void run_pass(row_pass *p)
{
    const nnue_ft_desc *ft = &p->net->arch->ft;
    p->k->acc_rows(p->dst, p->src, &p->r, ft->width);
    p->src = p->dst;
    p->r.n_sub16 = p->r.n_add16 = p->r.n_sub8 = p->r.n_add8 = 0;
    if (!ft->psqt_buckets)
        return;
    if (!p->psqt_src) {
        memset(p->psqt_dst, 0, ft->psqt_buckets * sizeof(int32_t));
        p->psqt_src = p->psqt_dst;
    }
    p->k->acc_i32(p->psqt_dst, p->psqt_src, p->psub, p->n_psub, p->padd, p->n_padd, ft->psqt_buckets);
    p->psqt_src = p->psqt_dst;
    p->n_psub = p->n_padd = 0;
}

/* Lists the rows of idx[0 .. n) into out (*count listed, ROW_ROOM room), rows of `row` values
 * from base, and their PSQT rows into pout (*pcount listed) when the net has PSQT (psqt not
 * NULL); a full list runs a pass first. */
#define LIST_ROWS(T, base, row, out, count, pout, pcount)                                                             \
    while (n > 0) {                                                                                                   \
        if (count == ROW_ROOM)                                                                                        \
            run_pass(p);                                                                                              \
        int take = n < ROW_ROOM - count ? n : ROW_ROOM - count;                                                       \
        T *o = out + count;                                                                                           \
        for (int i = 0; i < take; i++)                                                                                \
            o[i] = base + idx[i] * row;                                                                               \
        count += take;                                                                                                \
        if (psqt) {                                                                                                   \
            const int32_t **po = pout + pcount;                                                                       \
            for (int i = 0; i < take; i++)                                                                            \
                po[i] = psqt + idx[i] * buckets;                                                                      \
            pcount += take;                                                                                           \
        }                                                                                                             \
        idx += take;                                                                                                  \
        n -= take;                                                                                                    \
    }

/* Lists set s's rows of idx[0 .. n), subtracted (sign -1) or added. */
static inline void list_rows(row_pass *p, int s, const uint32_t *idx, int n, int sign)
{
    if (n <= 0)
        return;
    const nnue_net *net = p->net;
    const nnue_ft_desc *ft = &net->arch->ft;
    const nnue_narrow_rows *nr = &net->narrow[s];
    size_t width = ft->width, buckets = ft->psqt_buckets;
    const int32_t *psqt = buckets ? net->set_psqt[s] : NULL;
    if (nr->rows || ft->sets[s].weight_type == NNUE_I8) {
        const int8_t *w8 = nr->rows ? nr->rows : (const int8_t *)net->set_weights[s];
        if (sign < 0)
            LIST_ROWS(const int8_t *, w8, width, p->sub8, p->r.n_sub8, p->psub, p->n_psub)
        else
            LIST_ROWS(const int8_t *, w8, width, p->add8, p->r.n_add8, p->padd, p->n_padd)
    } else {
        const int16_t *w16 = net->set_weights[s];
        if (sign < 0)
            LIST_ROWS(const int16_t *, w16, width, p->sub16, p->r.n_sub16, p->psub, p->n_psub)
        else
            LIST_ROWS(const int16_t *, w16, width, p->add16, p->r.n_add16, p->padd, p->n_padd)
    }
}

void nnue_acc_apply(const nnue_net *net, const nnue_kernels *k, const nnue_set_rows *rows, int16_t *dst,
                    const int16_t *src, int32_t *psqt_dst, const int32_t *psqt_src)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    row_pass p;
    p.net = net;
    p.k = k;
    p.r = (nnue_acc_rows){p.sub16, p.add16, p.sub8, p.add8, 0, 0, 0, 0};
    p.n_psub = p.n_padd = 0;
    p.dst = dst;
    p.src = src;
    p.psqt_dst = psqt_dst;
    p.psqt_src = psqt_src;
    for (int s = 0; s < ft->n_sets; s++) {
        list_rows(&p, s, rows[s].sub, rows[s].n_sub, -1);
        list_rows(&p, s, rows[s].add, rows[s].n_add, +1);
    }
    run_pass(&p);
    for (int s = 0; s < ft->n_sets; s++)
        if (net->narrow[s].patch_start)
            apply_patches(&net->narrow[s], rows[s].sub, rows[s].n_sub, rows[s].add, rows[s].n_add, dst);
}

/* Perspective persp from scratch; set s's active list already in given[s] (n_given[s] entries)
 * when given and given[s] are not NULL. */
static void refresh_sets(const nnue_net *net, const nnue_kernels *k, const nnue_board *board, int persp,
                         const uint32_t *const *given, const int *n_given, nnue_acc_entry *e)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    uint32_t idx[NNUE_MAX_FT_SETS][NNUE_MAX_ACTIVE_ANY];
    nnue_set_rows rows[NNUE_MAX_FT_SETS];
    for (int s = 0; s < ft->n_sets; s++) {
        const uint32_t *list = given ? given[s] : NULL;
        int n = list ? n_given[s] : 0;
        if (!list) {
            n = ft->sets[s].features->active(&ft->sets[s].params, board, persp, idx[s]);
            list = idx[s];
        }
        rows[s] = (nnue_set_rows){NULL, list, 0, n};
    }
    nnue_acc_apply(net, k, rows, e->acc[persp], net->ft_biases, e->psqt[persp], NULL);
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

/* Requests the start of set s's weight rows of n indices: the first two cache lines of each,
 * and the CPU's own stream prefetcher follows a row once the summing walks into it. Requesting
 * whole rows (32 lines of a 1024-wide i16 row, and the PSQT rows) stalled on the line-fill
 * buffers: `ab` against whole rows, fastest of 11 rounds, incremental: stormphrax 0.934, shogi
 * 0.961, sf19 0.987 (of 9), chess 0.915 and 1.006 in two runs (docs/speed.md). */
void nnue_acc_prefetch_rows(const nnue_net *net, int s, const uint32_t *idx, int n)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    const nnue_narrow_rows *nr = &net->narrow[s];
    int narrow = ft->sets[s].weight_type == NNUE_I8 || nr->rows;
    size_t row = (size_t)ft->width * (narrow ? 1 : 2);
    const char *rows = nr->rows ? (const char *)nr->rows : (const char *)net->set_weights[s];
    for (int i = 0; i < n; i++) {
        __builtin_prefetch(rows + idx[i] * row);
        if (row > 64)
            __builtin_prefetch(rows + idx[i] * row + 64);
    }
}
