/* core/feature_set.h: the contract every feature set fills (one file per set in features/).
 *
 * A feature set turns a board (include/nnue_board.h) seen from one
 * perspective (colour 0 or 1) into the indices of its active inputs, and a
 * move's delta into the indices that went away and came in. It never sees a
 * game's internals. Adding a set: one file in features/ defining a const
 * nnue_feature_set, and one line in features/registry.c. */
#ifndef NNUE_CORE_FEATURE_SET_H
#define NNUE_CORE_FEATURE_SET_H

#include <stdint.h>

#include "nnue_board.h"

#define NNUE_MAX_ACTIVE 64      /* default bound: active features per perspective (shogi: 38) */
#define NNUE_MAX_CHANGED 8      /* default bound: removed or added features per perspective, one move */
#define NNUE_MAX_ACTIVE_ANY 256 /* largest max_active / max_changed any set may declare */

/* Per-arch settings of a configurable set (the bullet-style "Chess768"); fixed sets ignore it. */
typedef struct nnue_feature_params {
    uint8_t king_buckets;          /* number of king buckets (1 = none) */
    uint8_t king_bucket_of[64];    /* bucket of the own king's square, white's view, after mirroring */
    uint8_t mirror;                /* 1: mirror files when the own king stands on files e-h */
} nnue_feature_params;

typedef struct nnue_feature_set {
    const char *name;              /* name used in YAML: "HalfKP", "HalfKAv2_hm", ... */
    const char *game;              /* "chess" or "shogi" */
    const char *display;           /* name in description strings, e.g. "HalfKP(Friend)" */
    uint32_t hash;                 /* Stockfish-style hash of the set (0 if the format has none) */
    /* Bounds of active() and of each list changed() writes; 0 = NNUE_MAX_ACTIVE / NNUE_MAX_CHANGED.
     * At most NNUE_MAX_ACTIVE_ANY (Full_Threats: a move changes many attacks). */
    uint16_t max_active, max_changed;
    /* Most pieces (on the board and in hands, kings included) of a board this set takes: for
     * every such board active() stays within max_active (the set's comment says why), and the
     * state refuses a board with more (core/state.c), so the worst-case ranges of the weights
     * (core/net_ranges.c, max_active rows) hold for every board evaluated. 0 = not declared. */
    uint8_t max_pieces;
    /* 1: changed() reads more of `after` than the moved pieces' context (Full_Threats reads the
     * whole board), so the state hands it the exact board after each move of a lazy update. */
    uint8_t exact_board;
    /* Number of inputs (may depend on params, e.g. king buckets * 768). */
    uint32_t (*dimensions)(const nnue_feature_params *params);
    /* Writes the active indices of perspective persp; returns how many (<= the set's max_active). */
    int (*active)(const nnue_feature_params *params, const nnue_board *board, int persp,
                  uint32_t *out);
    /* Indices removed and added by a move whose result is `after` (the board right after that
     * move, also when several moves are applied at once). Only called when needs_refresh() is 0
     * for that perspective. Writes counts to *n_removed, *n_added (each <= max_changed). */
    void (*changed)(const nnue_feature_params *params, const nnue_board *after,
                    const nnue_delta *delta, int persp, uint32_t *removed, int *n_removed,
                    uint32_t *added, int *n_added);
    /* 1 when the move invalidates every feature of persp (e.g. its own king moved). */
    int (*needs_refresh)(const nnue_feature_params *params, const nnue_board *after,
                         const nnue_delta *delta, int persp);
    /* Optional, for the refresh cache (core/refresh_cache.h); both NULL = no cache. The key is
     * the own-king context of persp that selects the index block (king square, or bucket and
     * mirror state), < refresh_keys(params). Boards with equal keys should share most active
     * indices; exactness never depends on it (the cache diffs the active lists). */
    uint32_t (*refresh_keys)(const nnue_feature_params *params);
    uint32_t (*refresh_key)(const nnue_feature_params *params, const nnue_board *board, int persp);
    /* Optional: active() of both perspectives in one pass over the board (out[p], n[p] as
     * active(persp = p) would write them, same order). NULL = active() twice. */
    void (*active_both)(const nnue_feature_params *params, const nnue_board *board, uint32_t *const out[2],
                        int n[2]);
    /* Optional: changed() of both perspectives in one pass (removed[p], n_removed[p], ... as
     * changed(persp = p) would write them, same order), called only when neither perspective
     * needs a refresh. NULL = changed() twice. */
    void (*changed_both)(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                         uint32_t *const removed[2], int n_removed[2], uint32_t *const added[2], int n_added[2]);
} nnue_feature_set;

/* Registered sets (features/registry.c), NULL-terminated; lookup by YAML name. */
extern const nnue_feature_set *const nnue_feature_sets[];
const nnue_feature_set *nnue_feature_set_find(const char *name);

#endif
