/* core/refresh_cache.h: per-state bucket refresh cache ("Finny tables") for the accumulators.
 *
 * For each perspective and each refresh key of the feature set (the own-king context that
 * selects the index block, core/feature_set.h) one slot keeps an accumulator, its PSQT values
 * and the sorted list of active indices they were computed from. A forced refresh of (p, key)
 * then applies only the difference between that list and the current one (a sorted multiset
 * merge: shogi HalfKP repeats its padding index) onto the slot, through the state's kernel
 * table, and stores the result back. An empty slot, or a difference costing as many rows as a
 * full refresh, is computed from the biases instead (and stored). The result is always exactly
 * a full refresh's: i16/i32 sums wrap, so the order of rows does not matter.
 * Most refreshes of unrelated positions (e.g. a benchmark's corpus) gain nothing, so a slot
 * also keeps a 512-bit Bloom filter of its list: indices of one list that miss the other's
 * filter are certainly in the difference, and when they alone reach a full refresh's cost the
 * lists are neither sorted nor merged. Lists are stored as active() wrote them and sorted only
 * when a merge needs them. */
#ifndef NNUE_CORE_REFRESH_CACHE_H
#define NNUE_CORE_REFRESH_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "core/feature_set.h"
#include "core/net.h"
#include "core/simd/kernels.h"

typedef struct nnue_refresh_slot {
    int16_t *acc;                       /* [width] */
    int32_t *psqt;                      /* [psqt_buckets], NULL without PSQT */
    int count;                          /* entries of active[]; -1 = never filled */
    int sorted;                         /* active[] is ascending */
    uint64_t bloom[8];                  /* nnue_refresh_bloom() of active[] */
    uint32_t active[NNUE_MAX_ACTIVE];
} nnue_refresh_slot;

typedef struct nnue_refresh_cache {
    uint32_t keys;                      /* refresh keys of the set; 0 = the set has no cache */
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

/* Computes persp's accumulator of board into entry through the cache and updates the slot.
 * Returns 0, or -1 when the cache cannot serve (no keys, out of memory): nothing was done. */
int nnue_refresh_cache_refresh(nnue_refresh_cache *c, const nnue_net *net, const nnue_kernels *k,
                               const nnue_board *board, int persp, struct nnue_acc_entry *entry);

/* The multiset difference of two ascending lists: indices of `from` missing in `to` go to
 * removed, indices of `to` missing in `from` to added (each as often as it is missing). */
void nnue_refresh_diff(const uint32_t *from, int n_from, const uint32_t *to, int n_to, uint32_t *removed,
                       int *n_removed, uint32_t *added, int *n_added);

/* 512-bit Bloom filter of an index list (one bit per index). */
void nnue_refresh_bloom(const uint32_t *idx, int n, uint64_t bloom[8]);

/* Entries of idx whose bit is clear in bloom (certainly not in the filtered list). */
int nnue_refresh_bloom_misses(const uint32_t *idx, int n, const uint64_t bloom[8]);

/* Sorts a short index list ascending (insertion sort; n <= NNUE_MAX_ACTIVE). */
void nnue_refresh_sort(uint32_t *idx, int n);

#endif
