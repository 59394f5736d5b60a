/* core/eval/state.h: per-thread evaluation state: accumulator stack with lazy incremental updates.
 *
 * Each ply owns one entry: the move's delta, which perspectives it forces to refresh (decided
 * at push time, when the board after the move is at hand), and, once computed, the two
 * accumulators. Evaluating computes the current entry from the nearest computed ancestor,
 * applying the deltas in between, or refreshes a perspective when a refresh was forced on the
 * way. Feature sets' changed() is called with the current board, which is valid because a
 * perspective's orientation can only change through a forced refresh. A refresh forced by a
 * pushed move goes through the refresh cache (core/eval/refresh_cache.h) when it is on; a refresh
 * with no computed ancestor (after reset or invalidate) never does. */
#ifndef NNUE_CORE_EVAL_STATE_H
#define NNUE_CORE_EVAL_STATE_H

#include "base/isa.h"
#include "core/eval/acc_entry.h"
#include "core/eval/accumulator.h"
#include "core/eval/board_check.h"
#include "core/eval/push_check.h"
#include "core/net/net.h"
#include "core/eval/refresh_cache.h"
#include "simd/kernels.h"
#include "nnue.h"


/* Row and PSQT row addresses of one move's pending update, both sides, any net with several
 * feature sets: 4 lists (rows and PSQT rows, removed and added) of every set's changed rows for
 * each perspective (core/eval/state_update.c). Kept in the state, not on the caller's stack
 * (64 KB: an engine's search threads may have small stacks). */
#define NNUE_ROW_POOL (8 * NNUE_MAX_FT_SETS * NNUE_MAX_ACTIVE_ANY)

struct nnue_state {
    const nnue_net *net;
    const nnue_kernels *kernels;   /* nnue_isa_current()'s set unless nnue_state_set_isa() */
    /* The net's sets' parameters with .kernels = kernels: what the sets' lists are called with. */
    nnue_feature_params set_params[NNUE_MAX_FT_SETS];
    int max_ply, ply;
    nnue_acc_entry *entries;       /* [max_ply + 1] */
    void *memory;                  /* one block holding every accumulator */
    int32_t *scratch;              /* forward-pass buffers */
    size_t scratch_values;
    int cache_on;                  /* nnue_state_set_refresh_cache(), default 0 */
    int bad_root;                  /* reset() was given a board that does not fit the net's game */
    int bad_deltas;                /* entries on the stack with bad_delta set */
    uint64_t partial_refreshes;    /* one-move updates that rebuilt some sets' rows (state_update.c) */
    nnue_board_shape shape;        /* the net's game: what reset/push/evaluate check boards against */
    int max_pieces;                /* the fewest max_pieces of the net's feature sets (0: none) */
    const struct nnue_feature_set *limit_set; /* the set that declares it */
    int whole_boards;              /* nnue_state_set_whole_board_checks(): check every board whole */
    int push_reads_board;          /* a set's needs_refresh() reads the whole board: push checks it */
    unsigned step_reads_board[2];  /* the sets whose one-move step reads the board beyond the kings
                                      ([1]: with the move's threats handed in), so evaluate() checks
                                      it whole first (features/feature_set.h changed_any_board) */
    int board_pieces;              /* what a refresh from the last board checked whole holds, in
                                      pieces: its count, or max_pieces when a set pads to it
                                      (nnue_state_update stores it in the entries it refreshes) */
    int pads;                      /* a set pads its active list to max_pieces (pads_to_max) */
    int tpart_slot;                /* the selector's table variable kept incrementally, -1: none
                                      (core/eval/table_parts.c) */
    nnue_error error;              /* why the last reset/push/evaluate refused (nnue_state_error) */
    nnue_refresh_cache cache;
    nnue_board *boards;            /* [max_ply + 1] scratch when a set's changed() needs the exact
                                      board after each move (core/eval/accumulator.c), else NULL */
    int takes_threats;             /* a set of the net has changed_threats: push_threats keeps them */
    nnue_threat_filter threat_filter; /* the pairs the threat sets can read (nnue_state_threat_filter) */
    int ext_sets;                  /* a set of the net comes from an extension: its faults are reported */
    nnue_threat *threat_stack;     /* the pushed entries' threat changes, entry after entry (grown
                                      on demand; entries[i].threats_at indexes it), else NULL */
    size_t threat_cap;             /* entries threat_stack holds */
    const void **row_pool;         /* a several-set net's listed rows of the pending moves
                                      (NNUE_ROW_POOL entries, core/eval/state_update.c), else NULL */
    int whole_rows;                /* those lists request whole added rows (nnue_acc_whole_row_requests) */
    nnue_push_check push_check;    /* push's one-pass checks of deltas and threats, for this net */
    unsigned all_sets;             /* bit k for each feature set k of the net */
    unsigned summary_sets;         /* bit k: set k has a board summary (features/feature_set.h) */
    unsigned summary_owners;       /* the sets that take one: the first of those with the same functions */
    uint8_t summary_slot[NNUE_MAX_FT_SETS]; /* set k's summary: that of set summary_slot[k] */
    unsigned char *summaries;      /* [max_ply + 1][n_sets][NNUE_FS_SUMMARY_BYTES] when summary_sets,
                                      entry i's (the board after its move) set by reset and push */
    int root_summary;              /* reset took entry 0's from a board that fits (else a first push
                                      takes its own from its board) */
};

/* Set k's summary of entry i's board. */
static inline unsigned char *nnue_state_summary(const nnue_state *s, int i, int k)
{
    size_t slot = (size_t)i * (size_t)s->net->arch->ft.n_sets + s->summary_slot[k];
    return s->summaries + slot * NNUE_FS_SUMMARY_BYTES;
}

/* No summaries for the hooks called next: they take what they need from the board given (a
 * refresh reads the board it was handed, checked whole, not the one a push summarised). */
static inline void nnue_state_summaries_none(nnue_state *s)
{
    for (unsigned m = s->summary_sets; m; m &= m - 1) {
        int k = __builtin_ctz(m);
        s->set_params[k].summary_before = s->set_params[k].summary_after = NULL;
    }
}

/* Points the sets' parameters at the summaries of entry i's move: the board after it, and the one
 * before it (entry i - 1); for the hooks the state calls next for that move or that board. */
static inline void nnue_state_summaries_of_move(nnue_state *s, int i)
{
    for (unsigned m = s->summary_sets; m; m &= m - 1) {
        int k = __builtin_ctz(m);
        s->set_params[k].summary_before = i > 0 ? nnue_state_summary(s, i - 1, k) : NULL;
        s->set_params[k].summary_after = nnue_state_summary(s, i, k);
    }
}

/* Runs this state on another kernel set (tests compare sets); the current entry's
 * accumulators are recomputed on the next evaluation. Returns -1 if the CPU lacks it. */
int nnue_state_set_isa(nnue_state *state, nnue_isa isa);

/* Brings the current entry's accumulators up to date (core/eval/state_update.c). */
void nnue_state_update(nnue_state *state, const nnue_board *board);

/* The selector slot of the table variable a state keeps incrementally (the first one with
 * shares, features/table_var.h, whose table the net has), or -1; and bringing the current entry's
 * shares up to date from the nearest ancestor that has them (core/eval/table_parts.c). */
int nnue_table_parts_slot(const nnue_net *net);
void nnue_table_parts_update(nnue_state *state, const nnue_board *board);

/* The layers after the feature transformer (core/eval/forward.c); the selector's incremental
 * table variable from the entry's shares when they are up to date. */
int32_t nnue_forward(const nnue_net *net, const nnue_kernels *k, const nnue_acc_entry *entry,
                     const nnue_board *board, int32_t *scratch, nnue_eval_detail *detail);

/* Scratch int32 values the forward pass of this net needs. */
size_t nnue_forward_scratch_values(const nnue_net *net);
/* The stack the selector picks for a board (core/eval/forward.c); the table variables' values
 * (features/table_var.h) go to table_values[slot] and their measures to measures[slot] when
 * those are not NULL (NNUE_EXPR_MAX_VARS entries; other slots untouched). */
int32_t nnue_forward_bucket(const nnue_net *net, const nnue_board *board, int32_t *table_values, int64_t *measures);

#endif
