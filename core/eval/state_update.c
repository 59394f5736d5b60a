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
#include "core/eval/state.h"

/* One pending move of a lazy update: perspective, entry, direction (back: entry - 1 from entry,
 * the move undone), and each set's changed lists (as the move makes them). */
typedef struct pending_move {
    int persp, entry, back;
    int n_removed[NNUE_MAX_FT_SETS], n_added[NNUE_MAX_FT_SETS];
    uint32_t *removed[NNUE_MAX_FT_SETS], *added[NNUE_MAX_FT_SETS];
} pending_move;

#define PENDING_MOVES 8                                    /* moves whose rows are requested together */
#define PENDING_INDICES (4 * NNUE_MAX_FT_SETS * NNUE_MAX_ACTIVE_ANY) /* room for one move, both sides, any net */

static void apply_pending(nnue_state *s, const pending_move *m, int n)
{
    const nnue_ft_desc *ft = &s->net->arch->ft;
    for (int j = 0; j < n; j++) {
        int p = m[j].persp, b = m[j].back;
        const nnue_acc_entry *from = &s->entries[m[j].entry - !b];
        nnue_acc_entry *to = &s->entries[m[j].entry - b];
        /* undone, the move's added rows are subtracted and its removed rows added */
        uint32_t *const *sub = b ? m[j].added : m[j].removed, *const *add = b ? m[j].removed : m[j].added;
        const int *n_sub = b ? m[j].n_added : m[j].n_removed, *n_add = b ? m[j].n_removed : m[j].n_added;
        if (ft->n_sets == 1) { /* the one-set applier, straight from the move's lists */
            nnue_acc_apply_rows(s->net, s->kernels, 0, sub[0], n_sub[0], add[0], n_add[0], to->acc[p], from->acc[p],
                                to->psqt[p], from->psqt[p]);
        } else { /* every set's rows in one pass */
            nnue_set_rows rows[NNUE_MAX_FT_SETS];
            for (int t = 0; t < ft->n_sets; t++)
                rows[t] = (nnue_set_rows){sub[t], add[t], n_sub[t], n_add[t]};
            nnue_acc_apply_sets(s->net, s->kernels, rows, to->acc[p], from->acc[p], to->psqt[p], from->psqt[p]);
        }
        to->computed[p] = 1;
    }
}

/* Forward (back 0): brings perspective p up to date move by move from entry from[p] - 1
 * (nothing when from[p] <= 0). Backward (back 1): computes perspective p's entries from[p] ..
 * ply - 1 from the current one, undoing the moves ply .. from[p] + 1 (nothing when from[p] < 0).
 * The moves go in batches, entry by entry (both perspectives of an entry together, so that a
 * set's changed_both() lists them in one pass): every row of a batch is requested (prefetched)
 * before the first is summed, since the rows a move adds are mostly not in cache (a new square's
 * row) and then arrive together instead of one after another. */
static void apply_moves(nnue_state *s, const nnue_board *board, const int from[2], int back)
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
        if (from[p] + back > 0 && from[p] + back < first)
            first = from[p] + back; /* the first move applied or undone */
    for (int step = 0; step <= s->ply - first; step++) {
        int i = back ? s->ply - step : first + step, want[2], moves;
        for (int p = 0; p < 2; p++)
            want[p] = from[p] + back > 0 && i >= from[p] + back;
        moves = want[0] + want[1];
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
            m[p]->back = back;
            for (int t = 0; t < ft->n_sets; t++) {
                m[p]->removed[t] = pool + used;
                m[p]->added[t] = pool + used + bound[t];
                used += 2 * bound[t];
                m[p]->n_removed[t] = m[p]->n_added[t] = 0;
            }
        }
        const nnue_board *after = s->boards && i < s->ply ? &s->boards[i] : board;
        const nnue_acc_entry *e = &s->entries[i];
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
                if (m[p]) {
                    nnue_acc_prefetch_rows(s->net, t, m[p]->added[t], m[p]->n_added[t]);
                    nnue_acc_prefetch_rows(s->net, t, m[p]->removed[t], m[p]->n_removed[t]);
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

/* The net change of pieces (board and hands) a delta makes, as push counts it (core/eval/state.c). */
static int delta_change(const nnue_delta *delta)
{
    int change = 0;
    for (int i = 0; i < delta->count; i++)
        change += (delta->dirty[i].new_sq != NNUE_SQ_NONE) - (delta->dirty[i].old_sq != NNUE_SQ_NONE);
    return change;
}

/* After perspective p of the current entry was refreshed, the lowest entry (at least lo: the
 * refresh point, or the root) that undoing moves from it may compute: each entry's count of pieces
 * (the current one's less the moves' net changes) must stay within the net's sets' maximum, as
 * push keeps it for the entries it counts (deltas that contradict their boards stop the walk); an
 * entry whose pushed board did not fit (and a root that did not) is left to refresh from its
 * board, which evaluate() then checks whole. */
static int back_stop(const nnue_state *s, int p, int lo)
{
    int pieces = s->entries[s->ply].pieces[p];
    for (int i = s->ply; i > lo; i--) {
        pieces -= delta_change(&s->entries[i].delta);
        if (pieces < 0 || (s->max_pieces && pieces > s->max_pieces) || s->entries[i - 1].bad_delta ||
            (i == 1 && s->bad_root))
            return i;
        s->entries[i - 1].pieces[p] = pieces;
    }
    return lo;
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
    /* A perspective refreshed here also gets the entries between the refresh point (the move
     * that forced it, or the root) and the current one, computed backward by undoing the moves
     * (as Stockfish does): a search evaluates the siblings and children of this node next, and
     * they then update from a computed ancestor instead of refreshing again. */
    int steps[2], back[2] = {-1, -1}, first = s->ply; /* exact boards from `first` on (sets that need them) */
    for (int p = 0; p < 2; p++) {
        steps[p] = from[p] > 0 && !entries[from[p]].refresh[p] ? from[p] : -1;
        if (steps[p] > 0 && steps[p] < first)
            first = steps[p];
        if (from[p] >= 0 && steps[p] < 0 && from[p] < s->ply)
            back[p] = from[p];
    }
    int scratch[2];
    for (int p = 0; p < 2; p++)
        scratch[p] = from[p] == 0 || (from[p] > 0 && entries[from[p]].refresh[p] && !s->cache_on);
    if (scratch[0] && scratch[1]) {
        /* Both from scratch (a root, or a king move whose other side has no computed ancestor
         * either, cache off): one pass over the board. */
        nnue_accumulator_refresh_both(s->net, s->kernels, s->set_params, board, cur);
        cur->pieces[0] = cur->pieces[1] = s->board_pieces; /* evaluate() checked the board whole */
    } else {
        if (steps[0] > 0 || steps[1] > 0) {
            if (s->boards && first < s->ply)
                boards_back_to(s, board, first);
            apply_moves(s, board, steps, 0);
        }
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
    if (back[0] < 0 && back[1] < 0)
        return;
    int low = s->ply + 1; /* the first move undone */
    for (int p = 0; p < 2; p++)
        if (back[p] >= 0) {
            back[p] = back_stop(s, p, back[p]);
            if (back[p] == s->ply)
                back[p] = -1; /* the walk stopped at once: nothing to compute */
            else if (back[p] + 1 < low)
                low = back[p] + 1;
        }
    if (low <= s->ply) {
        if (s->boards)
            boards_back_to(s, board, low);
        apply_moves(s, board, back, 1);
    }
}
