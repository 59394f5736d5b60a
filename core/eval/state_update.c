/* core/eval/state_update.c: nnue_state_update(): the state decides what to recompute. Each
 * perspective of the current entry is brought up to date from its nearest computed ancestor by
 * applying the moves in between (lazily, several at once, their rows prefetched together), or
 * recomputed when a move on the way forced a refresh: through the refresh cache when it is on
 * and an ancestor exists, else from scratch (both perspectives in one pass when both need it).
 * The arithmetic is core/eval/accumulator.c's. Sets whose changed() needs the board right after each
 * move (Full_Threats) get it rebuilt move by move (base/board_undo.h) when several moves are
 * applied. A move pushed with its threat changes (nnue_state_push_threats) hands them to the sets
 * that take them (changed_threats) instead. */
#include <string.h>

#include "base/board_undo.h"
#include "core/eval/accumulator.h"
#include "core/eval/board_fit.h"
#include "core/eval/state.h"

/* One pending move of a lazy update: perspective, entry, and each set's changed lists; with
 * several sets, their rows listed by kind as well (listed as each set's changed lists are made). */
typedef struct pending_move {
    int persp, entry;
    int n_removed[NNUE_MAX_FT_SETS], n_added[NNUE_MAX_FT_SETS];
    uint32_t *removed[NNUE_MAX_FT_SETS], *added[NNUE_MAX_FT_SETS];
    nnue_row_lists rows;
} pending_move;

#define PENDING_MOVES 8                                    /* moves whose rows are requested together */
#define PENDING_INDICES (4 * NNUE_MAX_FT_SETS * NNUE_MAX_ACTIVE_ANY) /* room for one move, both sides, any net */
#define PENDING_ROWS NNUE_ROW_POOL /* row and PSQT row addresses of one move, both sides, any net (state.h) */
_Static_assert(PENDING_ROWS == 2 * PENDING_INDICES, "a row and a PSQT row address per listed index");

/* Both functions below are expanded twice (sets: 0 for a net with one feature set, 1 for several),
 * so that the one-set nets run the code they ran before the listing by kind (smaller, and the
 * simulated L1i measured it: docs/speed.md). */
#define SPECIALIZED static inline __attribute__((always_inline))

SPECIALIZED void apply_pending(nnue_state *s, const pending_move *m, int n, const int sets)
{
    for (int j = 0; j < n; j++) {
        int p = m[j].persp;
        const nnue_acc_entry *from = &s->entries[m[j].entry - 1];
        nnue_acc_entry *to = &s->entries[m[j].entry];
        if (!sets) { /* the one-set applier, straight from the move's lists */
            nnue_acc_apply_rows(s->net, s->kernels, 0, m[j].removed[0], m[j].n_removed[0], m[j].added[0],
                                m[j].n_added[0], to->acc[p], from->acc[p], to->psqt[p], from->psqt[p]);
        } else { /* every set's rows, listed already, in one pass */
            nnue_acc_apply_listed(s->net, s->kernels, &m[j].rows, to->acc[p], from->acc[p], to->psqt[p],
                                  from->psqt[p]);
        }
        to->computed[p] = 1;
    }
}

/* Empty lists of a move's rows in pool: room for kind[0] i16 and kind[1] i8 rows removed and as
 * many added, and their PSQT rows when psqt; whole added rows requested when whole. Returns the
 * pool entries taken. */
static size_t list_room(nnue_row_lists *l, const void **pool, const size_t kind[2], int psqt, int whole)
{
    const size_t all = kind[0] + kind[1];
    l->sub[0] = pool;
    l->sub[1] = pool + kind[0];
    l->add[0] = pool + all;
    l->add[1] = pool + all + kind[0];
    l->psub = psqt ? (const int32_t **)(pool + 2 * all) : NULL;
    l->padd = psqt ? (const int32_t **)(pool + 3 * all) : NULL;
    l->n_sub[0] = l->n_sub[1] = l->n_add[0] = l->n_add[1] = l->n_patched = 0;
    l->whole_added = whole;
    return (psqt ? 4 : 2) * all;
}

/* Brings perspective p up to date move by move from entry from[p] - 1 (nothing when
 * from[p] <= 0). The moves go in batches, entry by entry (both perspectives of an entry
 * together, so that a set's changed_both() lists them in one pass): every row of a batch is
 * requested (prefetched) before the first is summed, since the rows a move adds are mostly not
 * in cache (a new square's row) and then arrive together instead of one after another. */
SPECIALIZED void apply_moves_with(nnue_state *s, const nnue_board *board, const int from[2], const int sets,
                                  const void **row_pool)
{
    const nnue_ft_desc *ft = &s->net->arch->ft;
    pending_move batch[PENDING_MOVES];
    uint32_t pool[PENDING_INDICES];
    size_t bound[NNUE_MAX_FT_SETS] = {0}, need = 0, used = 0, kind[2] = {0, 0}, row_need = 0, rows_used = 0;
    for (int t = 0; t < ft->n_sets; t++) {
        bound[t] = ft->sets[t].features->max_changed ? ft->sets[t].features->max_changed : NNUE_MAX_CHANGED;
        need += 2 * bound[t];
        if (sets)
            kind[s->net->row_table[t].i8] += bound[t];
    }
    if (sets) /* rows of each kind, removed and added, and their PSQT rows */
        row_need = (ft->psqt_buckets ? 4 : 2) * (kind[0] + kind[1]);
    int n = 0, first = s->ply + 1;
    for (int p = 0; p < 2; p++)
        if (from[p] > 0 && from[p] < first)
            first = from[p];
    for (int i = first; i <= s->ply; i++) {
        int want[2] = {from[0] > 0 && i >= from[0], from[1] > 0 && i >= from[1]}, moves = want[0] + want[1];
        if (n + moves > PENDING_MOVES || used + moves * need > PENDING_INDICES ||
            rows_used + moves * row_need > PENDING_ROWS) {
            apply_pending(s, batch, n, sets);
            n = used = rows_used = 0;
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
            if (sets)
                rows_used += list_room(&m[p]->rows, row_pool + rows_used, kind, ft->psqt_buckets != 0, s->whole_rows);
        }
        const nnue_board *after = s->boards && i < s->ply ? &s->boards[i] : board;
        const nnue_acc_entry *e = &s->entries[i];
        nnue_state_summaries_of_move(s, i);
        const nnue_delta *delta = &e->delta;
        for (int t = 0; t < ft->n_sets; t++) {
            const nnue_feature_set *fs = ft->sets[t].features;
            if (e->has_threats && fs->changed_threats) {
                /* The threat changes handed in with the move (nnue_state_push_threats). */
                const nnue_threat *at = s->threat_stack + e->threats_at;
                nnue_threat_span span = {at, at + e->n_threats_removed, e->n_threats_removed, e->n_threats_added};
                uint32_t *const removed[2] = {m[0] ? m[0]->removed[t] : NULL, m[1] ? m[1]->removed[t] : NULL};
                uint32_t *const added[2] = {m[0] ? m[0]->added[t] : NULL, m[1] ? m[1]->added[t] : NULL};
                int nr[2] = {0, 0}, na[2] = {0, 0}, lo = m[0] ? 0 : 1, hi = m[1] ? 1 : 0;
                fs->changed_threats(&s->set_params[t], after, delta, &span, lo, hi, removed, nr, added, na);
                for (int p = lo; p <= hi; p++)
                    m[p]->n_removed[t] = nr[p], m[p]->n_added[t] = na[p];
            } else if (moves == 2 && fs->changed_both) {
                uint32_t *const removed[2] = {m[0]->removed[t], m[1]->removed[t]};
                uint32_t *const added[2] = {m[0]->added[t], m[1]->added[t]};
                int nr[2], na[2];
                fs->changed_both(&s->set_params[t], after, delta, removed, nr, added, na);
                for (int p = 0; p < 2; p++)
                    m[p]->n_removed[t] = nr[p], m[p]->n_added[t] = na[p];
            } else {
                for (int p = 0; p < 2; p++)
                    if (m[p])
                        fs->changed(&s->set_params[t], after, delta, p, m[p]->removed[t], &m[p]->n_removed[t],
                                    m[p]->added[t], &m[p]->n_added[t]);
            }
            for (int p = 0; p < 2; p++)
                if (m[p] && sets) { /* listed by kind, each row requested as it is listed */
                    nnue_acc_list_set(s->net, t, m[p]->removed[t], m[p]->n_removed[t], m[p]->added[t],
                                      m[p]->n_added[t], &m[p]->rows);
                } else if (m[p]) {
                    nnue_acc_prefetch_rows(s->net, t, m[p]->added[t], m[p]->n_added[t]);
                    nnue_acc_prefetch_rows(s->net, t, m[p]->removed[t], m[p]->n_removed[t]);
                }
        }
    }
    apply_pending(s, batch, n, sets);
}

SPECIALIZED void apply_moves_one(nnue_state *s, const nnue_board *board, const int from[2])
{
    apply_moves_with(s, board, from, 0, NULL);
}

static __attribute__((noinline)) void apply_moves_sets(nnue_state *s, const nnue_board *board, const int from[2])
{
    apply_moves_with(s, board, from, 1, s->row_pool);
}

/* The board after each entry first..ply (boards[i]), walking back from the current board. */
static void boards_back_to(nnue_state *s, const nnue_board *board, int first)
{
    s->boards[s->ply] = *board;
    for (int i = s->ply; i > first; i--)
        nnue_board_before(&s->boards[i], &s->entries[i].delta, &s->boards[i - 1]);
}

/* The common step of a search and of the bench: one move below a computed parent, both
 * perspectives incremental, a net of one feature set. The batch path does the same (its lists in
 * the same order, its rows requested the same way) with its bookkeeping for any number of moves
 * and sets, about a third of a chess update's instructions; 0 when it is not that case. */
#define ONE_MOVE_ROOM NNUE_MOVE_ROWS /* indices per list here; a set that may change more takes the batch path */
static int one_move_one_set(nnue_state *s, const nnue_board *board)
{
    const nnue_ft_desc *ft = &s->net->arch->ft;
    nnue_acc_entry *cur = &s->entries[s->ply], *par = cur - 1;
    const nnue_feature_set *fs = ft->sets[0].features;
    if (ft->n_sets != 1 || s->ply == 0 || cur->computed[0] || cur->computed[1] || !par->computed[0] ||
        !par->computed[1] || cur->refresh[0] || cur->refresh[1] ||
        (cur->has_threats && fs->changed_threats) || (fs->max_changed ? fs->max_changed : NNUE_MAX_CHANGED) > ONE_MOVE_ROOM)
        return 0;
    uint32_t removed[2][ONE_MOVE_ROOM], added[2][ONE_MOVE_ROOM];
    uint32_t *const rm[2] = {removed[0], removed[1]}, *const ad[2] = {added[0], added[1]};
    int nr[2], na[2];
    if (fs->changed_both)
        fs->changed_both(&s->set_params[0], board, &cur->delta, rm, nr, ad, na);
    else
        for (int p = 0; p < 2; p++)
            fs->changed(&s->set_params[0], board, &cur->delta, p, removed[p], &nr[p], added[p], &na[p]);
    const nnue_move_rows m = {{removed[0], removed[1]}, {added[0], added[1]}, {nr[0], nr[1]}, {na[0], na[1]},
                              {cur->acc[0], cur->acc[1]}, {par->acc[0], par->acc[1]},
                              {cur->psqt[0], cur->psqt[1]}, {par->psqt[0], par->psqt[1]}};
    nnue_acc_apply_move_rows(s->net, s->kernels, &m);
    cur->computed[0] = cur->computed[1] = 1;
    return 1;
}

/* Room for one perspective's removed (or added) indices of set fs in a one-move update: its
 * max_changed, or its max_active where the update rebuilds its rows (rebuilt). */
static size_t one_move_bound(const nnue_feature_set *fs, int rebuilt)
{
    size_t changed = fs->max_changed ? fs->max_changed : NNUE_MAX_CHANGED;
    size_t active = fs->max_active ? fs->max_active : NNUE_MAX_ACTIVE;
    return rebuilt && active > changed ? active : changed;
}

/* A move that forces some sets of a perspective to refresh but not the others (a king move: the
 * king-bucketed pieces, not the threats or pawn pairs) costs less as an update: those sets' rows
 * of the board before the move taken off the parent's accumulator and those of the board after
 * added (wrapping sums: the same values as a refresh), the other sets' changed rows as for any
 * move; the rows of the board before are the parent's, mostly still in cache. 1 when that is the
 * case for refresh bits rebuild[] and it pays by the sets' declared bounds (twice the rebuilt
 * sets' active rows against every set's), with the board before the move in *before (rebuilt from
 * the current one and checked whole as evaluate() checks boards); 0 for a full refresh. */
static int partial_refresh(nnue_state *s, const nnue_acc_entry *cur, const nnue_board *board,
                           const unsigned rebuild[2], nnue_board *before)
{
    const nnue_ft_desc *ft = &s->net->arch->ft;
    for (int p = 0; p < 2; p++) {
        if ((rebuild[p] & ~s->all_sets) || rebuild[p] == s->all_sets) /* every set, or a bad entry */
            return 0;
        size_t rebuilt = 0, all = 0;
        for (int t = 0; t < ft->n_sets; t++) {
            const nnue_feature_set *fs = ft->sets[t].features;
            size_t active = fs->max_active ? fs->max_active : NNUE_MAX_ACTIVE;
            all += active;
            rebuilt += rebuild[p] >> t & 1 ? 2 * active : 0;
        }
        if (rebuilt >= all)
            return 0;
    }
    for (int i = 0; i < cur->delta.count; i++) /* the board before keeps the hands of the one after */
        if (cur->delta.dirty[i].old_sq == NNUE_SQ_HAND || cur->delta.dirty[i].new_sq == NNUE_SQ_HAND)
            return 0;
    nnue_board_before(board, &cur->delta, before);
    nnue_error quiet; /* a board before that does not fit (a delta that lies): the refresh instead */
    const nnue_board_limits limits = {&s->net->arch->ft, s->max_pieces, s->limit_set};
    int pieces;
    return nnue_board_fits_net(&s->shape, &limits, before, &pieces, &quiet) == 0;
}

/* The same step for a net of several sets (Stockfish 18/19, Pikafish, the 2026 chess nets): each
 * set's lists (from the move's threat changes where handed in), listed by kind as they are made,
 * then one pass per perspective; a move that refreshes some sets of a perspective rebuilds their
 * rows from the boards (partial_refresh). 0 when it is not that case. */
static __attribute__((noinline)) int one_move_sets(nnue_state *s, const nnue_board *board)
{
    const nnue_ft_desc *ft = &s->net->arch->ft;
    nnue_acc_entry *cur = &s->entries[s->ply], *par = cur - 1;
    if (s->ply == 0 || cur->computed[0] || cur->computed[1] || !par->computed[0] || !par->computed[1])
        return 0;
    const unsigned rebuild[2] = {cur->refresh[0], cur->refresh[1]}, rebuilt = rebuild[0] | rebuild[1];
    nnue_board before;
    if (rebuilt && !partial_refresh(s, cur, board, rebuild, &before))
        return 0;
    s->partial_refreshes += rebuilt != 0;
    uint32_t pool[PENDING_INDICES]; /* one move's lists, both perspectives, any net */
    size_t used = 0, kind[2] = {0, 0};
    for (int t = 0; t < ft->n_sets; t++) {
        size_t bound = one_move_bound(ft->sets[t].features, rebuilt >> t & 1);
        used += 4 * bound;
        kind[s->net->row_table[t].i8] += bound;
    }
    if (used > sizeof pool / sizeof pool[0])
        return 0;
    nnue_row_lists rows[2];
    size_t taken = list_room(&rows[0], s->row_pool, kind, ft->psqt_buckets != 0, s->whole_rows);
    list_room(&rows[1], s->row_pool + taken, kind, ft->psqt_buckets != 0, s->whole_rows);
    used = 0;
    for (int t = 0; t < ft->n_sets; t++) {
        const nnue_feature_set *fs = ft->sets[t].features;
        const nnue_feature_params *params = &s->set_params[t];
        size_t bound = one_move_bound(fs, rebuilt >> t & 1);
        uint32_t *const removed[2] = {pool + used, pool + used + 2 * bound};
        uint32_t *const added[2] = {pool + used + bound, pool + used + 3 * bound};
        used += 4 * bound;
        int nr[2] = {0, 0}, na[2] = {0, 0};
        const int threats = cur->has_threats && fs->changed_threats;
        nnue_threat_span span = {NULL, NULL, 0, 0};
        if (threats) { /* the threat changes handed in with the move */
            const nnue_threat *at = s->threat_stack + cur->threats_at;
            span = (nnue_threat_span){at, at + cur->n_threats_removed, cur->n_threats_removed, cur->n_threats_added};
        }
        if (rebuilt >> t & 1) { /* rebuilt for one perspective at least: each on its own */
            for (int p = 0; p < 2; p++)
                if (rebuild[p] >> t & 1) {
                    nnue_state_summaries_of_move(s, s->ply - 1); /* the board before's, for a moment */
                    nr[p] = fs->active(params, &before, p, removed[p]);
                    nnue_state_summaries_of_move(s, s->ply);
                    na[p] = fs->active(params, board, p, added[p]);
                } else if (threats) {
                    fs->changed_threats(params, board, &cur->delta, &span, p, p, removed, nr, added, na);
                } else {
                    fs->changed(params, board, &cur->delta, p, removed[p], &nr[p], added[p], &na[p]);
                }
        } else if (threats) {
            fs->changed_threats(params, board, &cur->delta, &span, 0, 1, removed, nr, added, na);
        } else if (fs->changed_both) {
            fs->changed_both(params, board, &cur->delta, removed, nr, added, na);
        } else {
            for (int p = 0; p < 2; p++)
                fs->changed(params, board, &cur->delta, p, removed[p], &nr[p], added[p], &na[p]);
        }
        for (int p = 0; p < 2; p++) /* listed by kind, each row requested as it is listed */
            nnue_acc_list_set(s->net, t, removed[p], nr[p], added[p], na[p], &rows[p]);
    }
    for (int p = 0; p < 2; p++) {
        nnue_acc_apply_listed(s->net, s->kernels, &rows[p], cur->acc[p], par->acc[p], cur->psqt[p], par->psqt[p]);
        cur->computed[p] = 1;
    }
    return 1;
}

void nnue_state_update(nnue_state *s, const nnue_board *board)
{
    nnue_state_summaries_of_move(s, s->ply); /* the current board's, for every hook below but those
                                                 of earlier moves (apply_moves_with, partial_refresh) */
    if (s->net->arch->ft.n_sets == 1 ? one_move_one_set(s, board) : one_move_sets(s, board))
        return;
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
        nnue_state_summaries_none(s);
        /* Both from scratch (a root, or a king move whose other side has no computed ancestor
         * either, cache off): one pass over the board. */
        nnue_accumulator_refresh_both(s->net, s->kernels, s->set_params, board, cur);
        cur->pieces[0] = cur->pieces[1] = s->board_pieces; /* evaluate() checked the board whole */
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
    if ((steps[0] > 0 || steps[1] > 0) && s->net->arch->ft.n_sets > 1)
        apply_moves_sets(s, board, steps); /* out of line: the one-set path stays as small as before */
    else if (steps[0] > 0 || steps[1] > 0)
        apply_moves_one(s, board, steps);
    nnue_state_summaries_none(s); /* the refreshes below read the board given, checked whole */
    for (int p = 0; p < 2; p++) {
        int k = from[p];
        if (k < 0 || steps[p] > 0)
            continue;
        if (k == 0 || !s->cache_on ||
            nnue_refresh_cache_refresh(&s->cache, s->net, s->kernels, s->set_params, board, p, cur) != 0) {
            /* No computed ancestor (a root), cache off or unavailable: from scratch. */
            nnue_accumulator_refresh(s->net, s->kernels, s->set_params, board, p, cur);
        }
        cur->pieces[p] = s->board_pieces; /* refreshed from the board, which evaluate() checked whole */
    }
}
