/* core/eval/accumulator.h: the feature transformer's accumulators as arithmetic on weight rows.
 *
 * acc[p] = biases + sum of the weight rows of perspective p's active features (i16, wrapping
 * like the engines); psqt[p][b] = sum of the active features' PSQT rows (i32). With several
 * feature sets (SFNNv10 and later) every set adds its own rows (i16, or i8 widened) and PSQT
 * rows into the same two sums, through the kernel set given (simd/kernels.h). Sums wrap,
 * so the order of rows never matters: an update (previous accumulator minus removed rows plus
 * added ones), a refresh (biases plus every active row) and a cached refresh (a slot plus a
 * difference) give the same values. Nothing here knows the state (core/eval/state_update.c decides). */
#ifndef NNUE_CORE_EVAL_ACCUMULATOR_H
#define NNUE_CORE_EVAL_ACCUMULATOR_H

#include "core/eval/acc_entry.h"
#include "core/net/net.h"
#include "simd/kernels.h"

/* One feature set's rows of an update: sub[0 .. n_sub) removed, add[0 .. n_add) added. */
typedef struct nnue_set_rows {
    const uint32_t *sub, *add;
    int n_sub, n_add;
} nnue_set_rows;

/* One perspective update's rows across every set of a net with several, listed by kind ([i8]:
 * i16 rows in [0], i8 rows (as read: narrowed where built) in [1]) and their PSQT rows, in the
 * caller's arrays (sub[k] and add[k] with room for each kind's rows, psub / padd for all of them;
 * NULL when the net has no PSQT); and the index lists of the sets whose rows have patches. */
typedef struct nnue_row_lists {
    const void **sub[2], **add[2];
    const int32_t **psub, **padd;
    int n_sub[2], n_add[2];
    int n_patched;
    uint8_t patched_set[NNUE_MAX_FT_SETS];
    nnue_set_rows patched[NNUE_MAX_FT_SETS];
    int whole_added; /* request every line of an added row, not only its first two (below) */
} nnue_row_lists;

/* Whether a several-set update requests the whole of each added row as it lists it (1) or its
 * first two lines (0), as nnue_row_lists.whole_added: a new square's row is mostly not in cache,
 * and whether asking for the rest ahead pays depends on the CPU's memory system (docs/speed.md,
 * "Whole added rows on the AMD EPYC with AVX-512"). 1 on AMD CPUs with AVX-512 (Zen 4 and later),
 * whichever kernels run; 0 elsewhere. NNUE_ROW_REQUESTS=whole or =lines chooses (to measure
 * another CPU). Read by each new state. */
int nnue_acc_whole_row_requests(void);

/* Appends set s's removed and added rows (and PSQT rows) to l, requesting (prefetching) the first
 * two lines of each row as it is listed, every line of an added row when l->whole_added
 * (net->row_table: nothing looked up per row but the index). */
void nnue_acc_list_set(const nnue_net *net, int s, const uint32_t *sub, int n_sub, const uint32_t *add, int n_add,
                       nnue_row_lists *l);

/* dst = src - every listed row + ..., psqt_dst = psqt_src -/+ the PSQT rows (when the net has
 * PSQT; psqt_src not NULL), in one acc_mixed call; then the patches of the listed sets. */
void nnue_acc_apply_listed(const nnue_net *net, const nnue_kernels *k, const nnue_row_lists *l, int16_t *dst,
                           const int16_t *src, int32_t *psqt_dst, const int32_t *psqt_src);

/* One move's rows of a one-set net, both perspectives (nnue_acc_apply_move_rows): at most
 * NNUE_MOVE_ROWS in each list; the sources computed (psqt_src not NULL where the net has PSQT). */
#define NNUE_MOVE_ROWS 64
typedef struct nnue_move_rows {
    const uint32_t *sub[2], *add[2];
    int n_sub[2], n_add[2];
    int16_t *dst[2];
    const int16_t *src[2];
    int32_t *psqt_dst[2];
    const int32_t *psqt_src[2];
} nnue_move_rows;

/* dst[p] = src[p] - rows(sub[p]) + rows(add[p]) for both perspectives p of feature set 0 (PSQT
 * too), every row's address listed and requested first, then each perspective summed: what
 * nnue_acc_apply_rows does twice, without a second pass over the lists to request the rows. */
void nnue_acc_apply_move_rows(const nnue_net *net, const nnue_kernels *k, const nnue_move_rows *m);

/* dst = src - rows(sub) + rows(add) of feature set s's weights (its narrowed i8 rows and
 * patches when built, core/net/net_narrow.c), and psqt_dst = psqt_src -/+ its PSQT rows when the net
 * has PSQT (psqt_src NULL = zero). dst may equal src. */
void nnue_acc_apply_rows(const nnue_net *net, const nnue_kernels *k, int s, const uint32_t *sub, int n_sub,
                         const uint32_t *add, int n_add, int16_t *dst, const int16_t *src, int32_t *psqt_dst,
                         const int32_t *psqt_src);

/* The same for every feature set s of a net with several (rows[s]) in one pass over dst: every
 * set's rows listed (nnue_acc_list_set) and applied with their PSQT rows in one acc_mixed call
 * (set by set when the lists are too long). */
void nnue_acc_apply_sets(const nnue_net *net, const nnue_kernels *k, const nnue_set_rows *rows, int16_t *dst,
                         const int16_t *src, int32_t *psqt_dst, const int32_t *psqt_src);

/* An update of every set of the net: rows[s] for each. One set goes straight to the one-set
 * applier (no listing across sets to pay for). */
static inline void nnue_acc_apply(const nnue_net *net, const nnue_kernels *k, const nnue_set_rows *rows, int16_t *dst,
                                  const int16_t *src, int32_t *psqt_dst, const int32_t *psqt_src)
{
    if (net->arch->ft.n_sets > 1)
        nnue_acc_apply_sets(net, k, rows, dst, src, psqt_dst, psqt_src);
    else
        nnue_acc_apply_rows(net, k, 0, rows->sub, rows->n_sub, rows->add, rows->n_add, dst, src, psqt_dst, psqt_src);
}

/* Requests (prefetches) the start of set s's weight rows of n indices (their first two lines). */
void nnue_acc_prefetch_rows(const nnue_net *net, int s, const uint32_t *idx, int n);

/* A refresh from the active lists: acc = biases + every set s's rows lists[s][0 .. n[s]) (its
 * narrowed i8 rows and their patches where built), psqt = their PSQT rows' sum (when the net has
 * PSQT), in one pass over acc (kernels.h acc_sum). */
void nnue_acc_sum_lists(const nnue_net *net, const nnue_kernels *k, const uint32_t *const *lists, const int *n,
                        int16_t *acc, int32_t *psqt);

/* Full recomputation of one perspective into entry. params: the sets' parameters the lists are
 * taken with ([n_sets]: a state's copies, carrying its kernel table; features/feature_set.h). */
void nnue_accumulator_refresh(const nnue_net *net, const nnue_kernels *k, const nnue_feature_params *params,
                              const nnue_board *board, int persp, nnue_acc_entry *entry);

/* Both perspectives from scratch, the active lists taken in one pass when the feature set
 * offers active_both(). */
void nnue_accumulator_refresh_both(const nnue_net *net, const nnue_kernels *k, const nnue_feature_params *params,
                                   const nnue_board *board, nnue_acc_entry *entry);

#endif
