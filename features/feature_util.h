/* features/feature_util.h: small inline helpers shared by the feature sets in this folder.
 *
 * No format facts live here: only the generic walk over a move's dirty pieces
 * (include/nnue_board.h) that every set's changed() and needs_refresh() share.
 * A set supplies an index function that returns -1 for pieces that are not
 * features (e.g. HalfKP's kings); the helpers stay allocation-free and loop only
 * over the at most NNUE_MAX_DIRTY entries of the delta. */
#ifndef NNUE_FEATURES_FEATURE_UTIL_H
#define NNUE_FEATURES_FEATURE_UTIL_H

#include <stdint.h>

#include "features/feature_set.h"
#include "simd/kernels.h"

/* The kernel table a set's lists run on: the calling state's (params->kernels), else scalar. */
static inline const nnue_kernels *nnue_fs_kernels(const nnue_feature_params *params)
{
    return params && params->kernels ? params->kernels : &nnue_kernels_scalar;
}

/* Index of (piece on board square sq) for one perspective, -1 when not a feature. */
typedef int32_t (*nnue_fs_square_index_fn)(const void *ctx, int persp, uint8_t piece, int sq);

/* One perspective's active list through a set's active_both (a kernel that lists both at once):
 * both listed, the other one dropped. */
typedef void (*nnue_fs_active_both_fn)(const nnue_feature_params *params, const nnue_board *board,
                                       uint32_t *const out[2], int n[2]);
static inline int nnue_fs_active_one(nnue_fs_active_both_fn both, const nnue_feature_params *params,
                                     const nnue_board *board, int persp, uint32_t *out)
{
    uint32_t other[NNUE_MAX_ACTIVE];
    uint32_t *const lists[2] = {persp ? other : out, persp ? out : other};
    int n[2];
    both(params, board, lists, n);
    return n[persp & 1];
}

/* The dirty entry that moves persp's own king from one board square to another, or NULL. */
static inline const nnue_dirty *nnue_fs_own_king_entry(const nnue_delta *delta, int persp,
                                                       uint8_t king_type)
{
    const uint8_t king = NNUE_PIECE(persp, king_type);
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        if (d->old_piece == king && d->old_sq >= 0 && d->new_sq >= 0 && d->old_sq != d->new_sq)
            return d;
    }
    return 0;
}

/* 1 when persp's own king changed square (flag or dirty entry, whichever the adapter set). */
static inline int nnue_fs_own_king_moved(const nnue_delta *delta, int persp, uint8_t king_type)
{
    return delta->king_moved[persp] || nnue_fs_own_king_entry(delta, persp, king_type) != 0;
}

/* Sets oriented by the half of the board the own chess king stands on (Full_Threats, PP_3Wide):
 * their refresh context (features/feature_set.h refresh_key) is that half, files a-d = 0, e-h = 1. */
static inline uint32_t nnue_fs_king_half_keys(const nnue_feature_params *params)
{
    (void)params;
    return 2;
}

static inline uint32_t nnue_fs_king_half_key(const nnue_feature_params *params, const nnue_board *board, int persp)
{
    (void)params;
    return (board->king_sq[persp] & 7) >= 4;
}

/* Board-only games (chess): removed/added indices of every dirty entry. Entries in
 * hands never occur in chess; they are ignored here. */
static inline void nnue_fs_board_changed(const nnue_delta *delta, int persp,
                                         nnue_fs_square_index_fn index, const void *ctx,
                                         uint32_t *removed, int *n_removed, uint32_t *added,
                                         int *n_added)
{
    int nr = 0, na = 0;
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        if (d->old_sq >= 0 && d->old_piece) {
            int32_t f = index(ctx, persp, d->old_piece, d->old_sq);
            if (f >= 0)
                removed[nr++] = (uint32_t)f;
        }
        if (d->new_sq >= 0 && d->new_piece) {
            int32_t f = index(ctx, persp, d->new_piece, d->new_sq);
            if (f >= 0)
                added[na++] = (uint32_t)f;
        }
    }
    *n_removed = nr;
    *n_added = na;
}

/* Bit k set when the high bit of byte k of w is set: one multiply gathers the eight bits into
 * the top byte (portable word arithmetic, no vector unit assumed). */
static inline uint64_t nnue_fs_byte_high_bits(uint64_t w)
{
    return (((w >> 7) & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56;
}

/* Bit k set when byte k of the 8 bytes at p is nonzero: the high bit of each byte collects "any
 * bit set". */
static inline uint64_t nnue_fs_nonzero_bytes8(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 0; i < 8; i++)
        x |= (uint64_t)p[i] << (8 * i);
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
    return nnue_fs_byte_high_bits(((x & low7) + low7) | x);
}

/* Board-only games: every piece on the board that is a feature. On a 64-square board the
 * occupied squares come from a bit mask (no branch per empty square: a refresh's list costs
 * about half as much); other boards walk every square. */
static inline int nnue_fs_board_active(const nnue_board *board, int persp,
                                       nnue_fs_square_index_fn index, const void *ctx,
                                       uint32_t *out)
{
    int n = 0;
    if (board->num_squares == 64) {
        uint64_t occupied = 0;
        for (int w = 0; w < 8; w++)
            occupied |= nnue_fs_nonzero_bytes8(board->piece_on + 8 * w) << (8 * w);
        for (; occupied; occupied &= occupied - 1) {
            int sq = __builtin_ctzll(occupied);
            int32_t f = index(ctx, persp, board->piece_on[sq], sq);
            if (f >= 0 && n < NNUE_MAX_ACTIVE)
                out[n++] = (uint32_t)f;
        }
        return n;
    }
    for (int sq = 0; sq < board->num_squares; sq++) {
        uint8_t p = board->piece_on[sq];
        if (!p)
            continue;
        int32_t f = index(ctx, persp, p, sq);
        if (f >= 0 && n < NNUE_MAX_ACTIVE)
            out[n++] = (uint32_t)f;
    }
    return n;
}

#endif
