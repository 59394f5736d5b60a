/* core/eval/accumulator.c: feature-transformer accumulators as arithmetic on weight rows (see
 * core/eval/accumulator.h). No state lives here: core/eval/state_update.c decides which entries to
 * update or refresh, the refresh cache (core/eval/refresh_cache.c) which rows to apply to a slot;
 * both apply rows through nnue_acc_apply: one set's rows through nnue_acc_apply_rows (i16 rows,
 * i8 rows widened, the narrowed i8 rows with their patches, PSQT rows), several sets' listed by
 * kind (nnue_acc_list_set: the net's row_table read once a set, each row requested as it is
 * listed) and summed with their PSQT rows in one acc_mixed call (nnue_acc_apply_listed). A refresh
 * from scratch (nnue_acc_sum_lists) hands every set's active list to one acc_sum call instead: the
 * rows' addresses computed in the kernel (no pointer lists), the accumulator in register tiles,
 * the PSQT rows in the same call. */
#include <stdlib.h>
#include <string.h>

#include "base/cpu_x86.h"
#include "core/eval/accumulator.h"
#include "simd/kernels_scalar.h"

/* Row r's patches onto dst, added (sign 1) or subtracted (sign 0xFFFF), in i16 wrapping arithmetic
 * (unsigned): the first from first[] (core/net/net.h), the rest only for the rows that have more. */
static inline void patch_add(int16_t *dst, unsigned col, int16_t delta, unsigned sign)
{
    /* sign 1 or 0xFFFF: the product in unsigned int (uint16_t alone would promote to int and
     * overflow), its low 16 bits the delta or its negation */
    dst[col] = (int16_t)(uint16_t)((uint16_t)dst[col] + sign * (uint16_t)delta);
}

static inline void patch_row(const nnue_narrow_rows *nr, uint32_t r, int16_t *dst, unsigned sign)
{
    const nnue_row_patch f = nr->first[r];
    patch_add(dst, f.col & (NNUE_PATCH_MORE - 1), f.delta, sign);
    if (__builtin_expect(f.col & NNUE_PATCH_MORE, 0))
        for (uint32_t p = nr->patch_start[r] + 1; p < nr->patch_start[r + 1]; p++)
            patch_add(dst, nr->patches[p].col, nr->patches[p].delta, sign);
}

/* The rows of idx[0 .. n) (n <= NNUE_MAX_ACTIVE_ANY) that have patches, into out, by the bit set
 * of patched rows: each row written, the count advanced by its bit, no branch (one on "has
 * patches" mispredicted on the ~22% of the shogi random net's rows that do). The patches of the
 * rest, one read of first[] a row from a table the size of a set's inputs (500 KB for HalfKP) and
 * an add of 0, were 15% of a HalfKP refresh on the Xeon. A move's few rows here; a refresh's are
 * picked by acc_sum as it adds them (nnue_sum_part.flags, nnue_acc_sum_lists). */
static inline int patched_rows(const nnue_narrow_rows *nr, const uint32_t *idx, int n, uint32_t *out)
{
    return nnue_ref_pick_flagged(idx, n, nr->patched, out);
}

/* The i8 rows' patches (core/net/net_narrow.c) of the subtracted and added rows, onto dst. */
static void apply_patches(const nnue_narrow_rows *nr, const uint32_t *sub, int n_sub, const uint32_t *add, int n_add,
                          int16_t *dst)
{
    uint32_t rows[NNUE_MAX_ACTIVE_ANY];
    int m = patched_rows(nr, sub, n_sub, rows);
    for (int i = 0; i < m; i++)
        patch_row(nr, rows[i], dst, 0xFFFFu);
    m = patched_rows(nr, add, n_add, rows);
    for (int i = 0; i < m; i++)
        patch_row(nr, rows[i], dst, 1u);
}

/* The addresses of rows idx[0 .. n) of a table of rows `row` bytes long. */
static void row_addresses(const void **out, const char *rows, size_t row, const uint32_t *idx, int n)
{
#if defined(__clang__) /* one to three rows a move: unrolled copies cost more than they save */
#pragma clang loop unroll(disable) vectorize(disable)
#endif
    for (int i = 0; i < n; i++)
        out[i] = rows + (size_t)idx[i] * row;
}

/* dst = src - rows(sub) + rows(add) for feature set s's weights, and psqt_dst = psqt_src -/+ its
 * PSQT rows (when the net has PSQT; psqt_src NULL = zero). */
void nnue_acc_apply_rows(const nnue_net *net, const nnue_kernels *k, int s, const uint32_t *sub, int n_sub,
                       const uint32_t *add, int n_add, int16_t *dst, const int16_t *src, int32_t *psqt_dst,
                       const int32_t *psqt_src)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    uint32_t width = ft->width, buckets = ft->psqt_buckets;
    const void *rsub[NNUE_MAX_ACTIVE_ANY], *radd[NNUE_MAX_ACTIVE_ANY];
    const nnue_row_table *t = &net->row_table[s];
    row_addresses(rsub, t->rows, t->row_bytes, sub, n_sub);
    row_addresses(radd, t->rows, t->row_bytes, add, n_add);
    if (t->i8) {
        k->acc_i8(dst, src, (const int8_t *const *)rsub, n_sub, (const int8_t *const *)radd, n_add, width);
        if (t->patched)
            apply_patches(&net->narrow[s], sub, n_sub, add, n_add, dst);
    } else {
        k->acc_i16(dst, src, (const int16_t *const *)rsub, n_sub, (const int16_t *const *)radd, n_add, width);
    }
    if (!buckets)
        return;
    const char *p = (const char *)net->set_psqt[s];
    row_addresses(rsub, p, buckets * sizeof(int32_t), sub, n_sub);
    row_addresses(radd, p, buckets * sizeof(int32_t), add, n_add);
    if (!psqt_src) {
        memset(psqt_dst, 0, buckets * sizeof(int32_t));
        psqt_src = psqt_dst;
    }
    k->acc_i32(psqt_dst, psqt_src, (const int32_t *const *)rsub, n_sub, (const int32_t *const *)radd, n_add, buckets);
}

int nnue_acc_whole_row_requests(void)
{
    const char *env = getenv("NNUE_ROW_REQUESTS");
    if (env && strcmp(env, "whole") == 0)
        return 1;
    if (env && strcmp(env, "lines") == 0)
        return 0;
    return nnue_cpu_is_amd() && nnue_cpu_supports("avx512f");
}

/* Rows idx[0 .. n) of a table of rows `row` bytes long into out, each requested as it is listed
 * (its first two lines, as nnue_acc_prefetch_rows), and their PSQT rows into pout (when not NULL),
 * requested too; with `whole`, the rest of each row into L2 as well (the update reads it tile by
 * tile). The whole rows pay on the AMD EPYC with AVX-512 (Zen 4: ab, fastest of 9, sf19 0.903, sf18
 * 0.941, xiangqi 0.905; the same with the AVX2 kernels) and cost on the Xeon with AVX-512 (Emerald
 * Rapids: without them sf18 0.929, sf19 0.970, plentychess 0.930; the requests fill the line
 * buffers that the rows' own loads then wait for) and on the AMD EPYC with AVX2 (Zen 3: without
 * them sf18 0.972, sf19 0.976): nnue_acc_whole_row_requests chooses. */
static void list_rows(const void **out, const int32_t **pout, const char *rows, size_t row, const char *psqt,
                      size_t prow, const uint32_t *idx, int n, int whole)
{
#if defined(__clang__) /* a few rows a list: small code (the L1i) over unrolled loops */
#pragma clang loop unroll(disable) vectorize(disable)
#endif
    for (int i = 0; i < n; i++) {
        const char *r = rows + (size_t)idx[i] * row;
        __builtin_prefetch(r);
        __builtin_prefetch(r + 64); /* rows are at least a line long where it matters; a request past a
                                       short row's end is harmless */
        out[i] = r;
        if (pout) { /* the PSQT row is a line of its own, missed as often as the row (docs/speed.md) */
            pout[i] = (const int32_t *)(psqt + (size_t)idx[i] * prow);
            __builtin_prefetch(pout[i]);
        }
        if (whole)
            for (size_t at = 128; at < row; at += 64)
                __builtin_prefetch(r + at, 0, 2);
    }
}

/* list_rows for a table with patches (nnue_net.narrow): each row's first patch requested with
 * its row, and the patched rows of idx picked into patched (returns their count) in the same loop:
 * one pass over a move's few indices instead of three (listing, picking, requesting the picked). */
static int list_rows_patched(const void **out, const int32_t **pout, const char *rows, size_t row, const char *psqt,
                             size_t prow, const nnue_narrow_rows *nr, const uint32_t *idx, int n, uint32_t *patched)
{
    int k = 0;
#if defined(__clang__)
#pragma clang loop unroll(disable) vectorize(disable)
#endif
    for (int i = 0; i < n; i++) {
        const uint32_t r = idx[i];
        const char *a = rows + (size_t)r * row;
        __builtin_prefetch(a);
        __builtin_prefetch(a + 64);
        /* a line of a 500 KB table for HalfKP: asked for every row, cheaper than a second loop */
        __builtin_prefetch(&nr->first[r]);
        out[i] = a;
        if (pout) {
            pout[i] = (const int32_t *)(psqt + (size_t)r * prow);
            __builtin_prefetch(pout[i]);
        }
        patched[k] = r;
        k += (int)(nr->patched[r / 64] >> (r % 64) & 1);
    }
    return k;
}

void nnue_acc_apply_move_rows(const nnue_net *net, const nnue_kernels *k, const nnue_move_rows *m)
{
    const nnue_row_table *t = &net->row_table[0];
    const nnue_ft_desc *ft = &net->arch->ft;
    const void *rsub[2][NNUE_MOVE_ROWS], *radd[2][NNUE_MOVE_ROWS];
    const int32_t *psub[2][NNUE_MOVE_ROWS], *padd[2][NNUE_MOVE_ROWS];
    uint32_t patched[2][2][NNUE_MOVE_ROWS];
    int n_patched[2][2] = {{0, 0}, {0, 0}};
    const nnue_narrow_rows *nr = &net->narrow[0];
    for (int p = 0; p < 2; p++) { /* every row requested before either perspective reads one */
        if (t->patched) {
            n_patched[p][0] = list_rows_patched(rsub[p], t->psqt ? psub[p] : NULL, t->rows, t->row_bytes, t->psqt,
                                                t->psqt_bytes, nr, m->sub[p], m->n_sub[p], patched[p][0]);
            n_patched[p][1] = list_rows_patched(radd[p], t->psqt ? padd[p] : NULL, t->rows, t->row_bytes, t->psqt,
                                                t->psqt_bytes, nr, m->add[p], m->n_add[p], patched[p][1]);
            continue;
        }
        list_rows(rsub[p], t->psqt ? psub[p] : NULL, t->rows, t->row_bytes, t->psqt, t->psqt_bytes, m->sub[p],
                  m->n_sub[p], 0);
        list_rows(radd[p], t->psqt ? padd[p] : NULL, t->rows, t->row_bytes, t->psqt, t->psqt_bytes, m->add[p],
                  m->n_add[p], 0);
    }
    for (int p = 0; p < 2; p++) {
        if (t->i8)
            k->acc_i8(m->dst[p], m->src[p], (const int8_t *const *)rsub[p], m->n_sub[p],
                      (const int8_t *const *)radd[p], m->n_add[p], ft->width);
        else
            k->acc_i16(m->dst[p], m->src[p], (const int16_t *const *)rsub[p], m->n_sub[p],
                       (const int16_t *const *)radd[p], m->n_add[p], ft->width);
        for (int a = 0; a < 2; a++)
            for (int i = 0; i < n_patched[p][a]; i++)
                patch_row(nr, patched[p][a][i], m->dst[p], a ? 1u : 0xFFFFu);
        if (t->psqt)
            k->acc_i32(m->psqt_dst[p], m->psqt_src[p], psub[p], m->n_sub[p], padd[p], m->n_add[p], ft->psqt_buckets);
    }
}

void nnue_acc_list_set(const nnue_net *net, int s, const uint32_t *sub, int n_sub, const uint32_t *add, int n_add,
                       nnue_row_lists *l)
{
    const nnue_row_table *t = &net->row_table[s];
    const int i8 = t->i8, ns = l->n_sub[0] + l->n_sub[1], na = l->n_add[0] + l->n_add[1];
    list_rows(l->sub[i8] + l->n_sub[i8], t->psqt ? l->psub + ns : NULL, t->rows, t->row_bytes, t->psqt,
              t->psqt_bytes, sub, n_sub, 0);
    list_rows(l->add[i8] + l->n_add[i8], t->psqt ? l->padd + na : NULL, t->rows, t->row_bytes, t->psqt,
              t->psqt_bytes, add, n_add, l->whole_added);
    l->n_sub[i8] += n_sub;
    l->n_add[i8] += n_add;
    if (t->patched) {
        l->patched_set[l->n_patched] = (uint8_t)s;
        l->patched[l->n_patched++] = (nnue_set_rows){sub, add, n_sub, n_add};
    }
}

void nnue_acc_apply_listed(const nnue_net *net, const nnue_kernels *k, const nnue_row_lists *l, int16_t *dst,
                           const int16_t *src, int32_t *psqt_dst, const int32_t *psqt_src)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    const nnue_mixed_rows r = {(const int16_t *const *)l->sub[0],
                               (const int16_t *const *)l->add[0],
                               (const int8_t *const *)l->sub[1],
                               (const int8_t *const *)l->add[1],
                               l->n_sub[0],
                               l->n_add[0],
                               l->n_sub[1],
                               l->n_add[1],
                               (const int32_t *const *)l->psub,
                               (const int32_t *const *)l->padd,
                               psqt_dst,
                               psqt_src,
                               l->psub ? ft->psqt_buckets : 0};
    k->acc_mixed(dst, src, &r, ft->width);
    for (int i = 0; i < l->n_patched; i++) {
        const nnue_set_rows *p = &l->patched[i];
        apply_patches(&net->narrow[l->patched_set[i]], p->sub, p->n_sub, p->add, p->n_add, dst);
    }
}

/* Several sets in one pass (nnue_acc_list_set, nnue_acc_apply_listed), when each list fits
 * NNUE_MAX_ACTIVE_ANY rows; else 0, nothing done. */
static int apply_together(const nnue_net *net, const nnue_kernels *k, const nnue_set_rows *rows, int16_t *dst,
                          const int16_t *src, int32_t *psqt_dst, const int32_t *psqt_src)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    int n_sub = 0, n_add = 0;
    for (int s = 0; s < ft->n_sets; s++) {
        n_sub += rows[s].n_sub;
        n_add += rows[s].n_add;
    }
    if (n_sub > NNUE_MAX_ACTIVE_ANY || n_add > NNUE_MAX_ACTIVE_ANY)
        return 0;
    const void *list[2][2][NNUE_MAX_ACTIVE_ANY];
    const int32_t *plist[2][NNUE_MAX_ACTIVE_ANY];
    nnue_row_lists l = {{list[0][0], list[1][0]}, {list[0][1], list[1][1]}, plist[0], plist[1], {0, 0}, {0, 0}, 0,
                        {0}, {{0}}, 0}; /* the refresh cache's rows: mostly the slot's, first lines only */
    if (!ft->psqt_buckets)
        l.psub = l.padd = NULL;
    for (int s = 0; s < ft->n_sets; s++)
        nnue_acc_list_set(net, s, rows[s].sub, rows[s].n_sub, rows[s].add, rows[s].n_add, &l);
    if (ft->psqt_buckets && !psqt_src) {
        memset(psqt_dst, 0, ft->psqt_buckets * sizeof(int32_t));
        psqt_src = psqt_dst;
    }
    nnue_acc_apply_listed(net, k, &l, dst, src, psqt_dst, psqt_src);
    return 1;
}

void nnue_acc_apply_sets(const nnue_net *net, const nnue_kernels *k, const nnue_set_rows *rows, int16_t *dst,
                         const int16_t *src, int32_t *psqt_dst, const int32_t *psqt_src)
{
    if (apply_together(net, k, rows, dst, src, psqt_dst, psqt_src))
        return;
    for (int s = 0; s < net->arch->ft.n_sets; s++) /* lists too long for one pass: set by set */
        nnue_acc_apply_rows(net, k, s, rows[s].sub, rows[s].n_sub, rows[s].add, rows[s].n_add, dst, s ? dst : src,
                            psqt_dst, s ? psqt_dst : psqt_src);
}

void nnue_acc_sum_lists(const nnue_net *net, const nnue_kernels *k, const uint32_t *const *lists, const int *n,
                        int16_t *acc, int32_t *psqt)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    nnue_sum_part parts[NNUE_MAX_FT_SETS];
    uint32_t patched[NNUE_MAX_FT_SETS][NNUE_MAX_ACTIVE_ANY];
    int n_patched[NNUE_MAX_FT_SETS];
    for (int s = 0; s < ft->n_sets; s++) {
        /* the patched rows picked by the kernel as it adds them: a pick of its own before the sum
           waited on the bits (~9% of a HalfKP refresh); requesting their first patches then gained
           nothing (docs/speed.md) */
        const nnue_narrow_rows *nr = &net->narrow[s];
        n_patched[s] = 0;
        parts[s] = (nnue_sum_part){net->row_table[s].rows,
                                   (const int32_t *)net->row_table[s].psqt,
                                   lists[s],
                                   n[s],
                                   net->row_table[s].i8,
                                   net->row_table[s].i8 ? nr->patched : NULL,
                                   patched[s],
                                   &n_patched[s]};
    }
    k->acc_sum(acc, net->ft_biases, psqt, parts, ft->n_sets, ft->width, ft->psqt_buckets);
    for (int s = 0; s < ft->n_sets; s++)
        for (int i = 0; i < n_patched[s]; i++)
            patch_row(&net->narrow[s], patched[s][i], acc, 1u);
}

void nnue_accumulator_refresh(const nnue_net *net, const nnue_kernels *k, const nnue_feature_params *params,
                              const nnue_board *board, int persp, nnue_acc_entry *e)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    uint32_t idx[NNUE_MAX_FT_SETS][NNUE_MAX_ACTIVE_ANY];
    const uint32_t *lists[NNUE_MAX_FT_SETS];
    int n[NNUE_MAX_FT_SETS];
    for (int s = 0; s < ft->n_sets; s++) {
        n[s] = ft->sets[s].features->active(&params[s], board, persp, idx[s]);
        lists[s] = idx[s];
    }
    nnue_acc_sum_lists(net, k, lists, n, e->acc[persp], e->psqt[persp]);
    e->computed[persp] = 1;
}

void nnue_accumulator_refresh_both(const nnue_net *net, const nnue_kernels *k, const nnue_feature_params *params,
                                   const nnue_board *board, nnue_acc_entry *e)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    uint32_t idx[2][NNUE_MAX_FT_SETS][NNUE_MAX_ACTIVE_ANY];
    const uint32_t *lists[2][NNUE_MAX_FT_SETS];
    int n[2][NNUE_MAX_FT_SETS];
    for (int s = 0; s < ft->n_sets; s++) {
        const nnue_feature_set *fs = ft->sets[s].features;
        lists[0][s] = idx[0][s];
        lists[1][s] = idx[1][s];
        if (fs->active_both) {
            uint32_t *const out[2] = {idx[0][s], idx[1][s]};
            int both[2];
            fs->active_both(&params[s], board, out, both);
            n[0][s] = both[0];
            n[1][s] = both[1];
        } else {
            for (int p = 0; p < 2; p++)
                n[p][s] = fs->active(&params[s], board, p, idx[p][s]);
        }
    }
    for (int p = 0; p < 2; p++) {
        nnue_acc_sum_lists(net, k, lists[p], n[p], e->acc[p], e->psqt[p]);
        e->computed[p] = 1;
    }
}

/* Requests the start of set s's weight rows of n indices: the first two cache lines of each,
 * and the CPU's own stream prefetcher follows a row once the summing walks into it; and each
 * index's PSQT row (one line: xiangqi's acc_i32 waited on them, 5% of the loop -> 0.6%,
 * docs/speed.md "Xiangqi on AVX-512"). Requesting
 * whole rows (32 lines of a 1024-wide i16 row, and the PSQT rows) stalled on the line-fill
 * buffers: `ab` against whole rows, fastest of 11 rounds, incremental: stormphrax 0.934, shogi
 * 0.961, sf19 0.987 (of 9), chess 0.915 and 1.006 in two runs (docs/speed.md). */
void nnue_acc_prefetch_rows(const nnue_net *net, int s, const uint32_t *idx, int n)
{
    const nnue_row_table *t = &net->row_table[s];
    const size_t row = t->row_bytes, prow = t->psqt_bytes;
    for (int i = 0; i < n; i++) {
        __builtin_prefetch(t->rows + idx[i] * row);
        if (row > 64)
            __builtin_prefetch(t->rows + idx[i] * row + 64);
        if (t->psqt)
            __builtin_prefetch(t->psqt + idx[i] * prow);
    }
}
