/* core/eval/refresh_cache.h: per-state bucket refresh cache ("Finny tables") for the accumulators.
 *
 * For each perspective and each refresh key (the own-king context that selects the index block,
 * features/feature_set.h; given by the first feature set that has keys) one slot keeps an
 * accumulator, its PSQT values and, per feature set, the list of active indices they were
 * computed from. A forced refresh of (p, key) then applies only each set's difference between
 * that list and the current one (a sorted multiset merge: shogi HalfKP repeats its padding
 * index) onto the slot, through the one row applier (core/eval/accumulator.h: i16, i8 and narrowed
 * rows alike), and stores the result back. An empty slot, or differences costing as many rows
 * as a full refresh, is computed from the biases instead (and stored). The result is always
 * exactly a full refresh's: i16/i32 sums wrap, so the order of rows does not matter. Nets with
 * several sets (Full_Threats + HalfKAv2_hm) are served like single-set ones.
 * Sorting and merging short lists costs about as much as a small full refresh, so a slot also
 * keeps its list as a 4096-bit set over a window of indices (one block of every set fits):
 * the difference is then the XOR of two bit sets, without sorting. A list with a repeated
 * index (multiset) or an index outside the window takes the sorted merge instead; lists are
 * stored as active() wrote them and sorted only when a merge needs them. */
#ifndef NNUE_CORE_EVAL_REFRESH_CACHE_H
#define NNUE_CORE_EVAL_REFRESH_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "core/net/net.h"
#include "simd/kernels.h"
#include "features/feature_set.h"

#define NNUE_REFRESH_WINDOW 4096   /* indices per slot bit set */

/* One feature set's active list in a slot. */
typedef struct nnue_refresh_list {
    int count;                          /* entries of active[] */
    int sorted;                         /* active[] is ascending */
    int bits_ok;                        /* bits[] holds active[] (no repeats, all in window) */
    uint32_t base;                      /* bits[] bit b stands for index base + b */
    uint32_t *active;                   /* [the set's max_active] */
    uint64_t bits[NNUE_REFRESH_WINDOW / 64];
} nnue_refresh_list;

typedef struct nnue_refresh_slot {
    int16_t *acc;                       /* [width] */
    int32_t *psqt;                      /* [psqt_buckets], NULL without PSQT */
    int filled;                         /* acc, psqt and lists hold a computed accumulator */
    nnue_refresh_list lists[NNUE_MAX_FT_SETS];
} nnue_refresh_slot;

typedef struct nnue_refresh_cache {
    uint32_t keys;                      /* refresh keys; 0 = no set has keys: no cache */
    int key_set;                        /* the feature set whose refresh_key() picks the slot */
    nnue_refresh_slot *slots;           /* [2][keys], allocated on first use */
    void *memory;                       /* accumulators of every slot */
    uint64_t diffs, fulls;              /* refreshes served by a difference / from the biases */
} nnue_refresh_cache;

struct nnue_acc_entry;

/* Sets up an empty cache for net (no allocation yet). */
void nnue_refresh_cache_init(nnue_refresh_cache *c, const nnue_net *net);

/* Forgets every slot (memory is kept). */
void nnue_refresh_cache_clear(nnue_refresh_cache *c);

void nnue_refresh_cache_free(nnue_refresh_cache *c);

/* Computes persp's accumulator of board into entry through the cache and updates the slot; the
 * lists taken with params (the sets' parameters as the state runs them, [n_sets]).
 * Returns 0, or -1 when the cache cannot serve (no keys, out of memory): nothing was done. */
int nnue_refresh_cache_refresh(nnue_refresh_cache *c, const nnue_net *net, const nnue_kernels *k,
                               const nnue_feature_params *params, const nnue_board *board, int persp,
                               struct nnue_acc_entry *entry);

/* The multiset difference of two ascending lists: indices of `from` missing in `to` go to
 * removed, indices of `to` missing in `from` to added (each as often as it is missing). */
void nnue_refresh_diff(const uint32_t *from, int n_from, const uint32_t *to, int n_to, uint32_t *removed,
                       int *n_removed, uint32_t *added, int *n_added);

/* Bit set of idx over [base, base + NNUE_REFRESH_WINDOW). Returns 0 when an index repeats or
 * lies outside the window (bits is then unusable). */
int nnue_refresh_bits(const uint32_t *idx, int n, uint32_t base, uint64_t *bits);

/* Sorts a short index list ascending (n <= NNUE_MAX_ACTIVE_ANY). */
void nnue_refresh_sort(uint32_t *idx, int n);

#endif
