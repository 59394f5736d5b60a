/* features/piece_planes.h: the active lists of the chess sets of the HalfKP / HalfKA family
 * (halfkp.c, halfka.c, halfka_v2.c, halfka_v2_hm.c), whose index of a piece on square sq is, for
 * perspective p,
 *     block[p] + plane[p][piece] + (sq ^ flip[p])
 * block: the own king's block (planes * king square or bucket), plane: the piece's plane base for
 * that perspective (a table of the set's, NNUE_FS_NO_PLANE for a piece that is no feature, e.g.
 * HalfKP's kings), flip: the square orientation (rank flip, rotation, half-mirror).
 * One walk over the occupied squares lists both perspectives (a refresh wants both): two table
 * reads and adds a piece, no branch but the walk's. The piece table has one row of 32 entries per
 * perspective (NNUE_PIECE codes: colour << 4 | type); NNUE_FS_PLANES(ENTRY, p) writes a row from
 * a set's ENTRY(p, colour, type) expression. */
#ifndef NNUE_FEATURES_PIECE_PLANES_H
#define NNUE_FEATURES_PIECE_PLANES_H

#include <stdint.h>

#include "features/feature_util.h"

#define NNUE_FS_NO_PLANE (-(1 << 28)) /* below any block + square: the sum stays negative */

#define NNUE_FS_PLANES_8(E, p, c, t) E(p, c, t), E(p, c, t + 1), E(p, c, t + 2), E(p, c, t + 3), E(p, c, t + 4), \
                                     E(p, c, t + 5), E(p, c, t + 6), E(p, c, t + 7)
#define NNUE_FS_PLANES(E, p)                                                                                          \
    { NNUE_FS_PLANES_8(E, p, 0, 0), NNUE_FS_PLANES_8(E, p, 0, 8), NNUE_FS_PLANES_8(E, p, 1, 0),                       \
      NNUE_FS_PLANES_8(E, p, 1, 8) }

/* One perspective's part: its block, its flip and its row of the piece table. */
typedef struct nnue_fs_planes {
    int32_t block;
    int flip;
    const int32_t *plane; /* [32] */
} nnue_fs_planes;

/* The squares of a 64-square board under each of its four orientations, sq ^ 0, 7, 56, 63 (the
 * rank flip and the file mirror of the chess sets): the square maps of the kernel table's
 * list_bytes_map (simd/kernels.h), nnue_fs_xor_squares(flip) the map of flip. */
#define NNUE_FS_XOR8(f, r) (8 * (r)) ^ (f), (8 * (r) + 1) ^ (f), (8 * (r) + 2) ^ (f), (8 * (r) + 3) ^ (f), \
                           (8 * (r) + 4) ^ (f), (8 * (r) + 5) ^ (f), (8 * (r) + 6) ^ (f), (8 * (r) + 7) ^ (f)
#define NNUE_FS_XOR64(f)                                                                                          \
    {NNUE_FS_XOR8(f, 0), NNUE_FS_XOR8(f, 1), NNUE_FS_XOR8(f, 2), NNUE_FS_XOR8(f, 3), NNUE_FS_XOR8(f, 4),             \
     NNUE_FS_XOR8(f, 5), NNUE_FS_XOR8(f, 6), NNUE_FS_XOR8(f, 7)}
static const uint8_t nnue_fs_xor_square_maps[4][64] = {NNUE_FS_XOR64(0), NNUE_FS_XOR64(7), NNUE_FS_XOR64(56),
                                                       NNUE_FS_XOR64(63)};

static inline const uint8_t *nnue_fs_xor_squares(int flip)
{
    return nnue_fs_xor_square_maps[(flip & 7 ? 1 : 0) | (flip & 56 ? 2 : 0)];
}

/* The occupied squares of a 64-square board as a bit mask. */
static inline uint64_t nnue_fs_occupied64(const nnue_board *board)
{
    uint64_t occupied = 0;
    for (int w = 0; w < 8; w++)
        occupied |= nnue_fs_nonzero_bytes8(board->piece_on + 8 * w) << (8 * w);
    return occupied;
}

/* The index of the piece code pc on square sq for one perspective; negative: no feature. */
static inline int32_t nnue_fs_plane_index(const nnue_fs_planes *v, unsigned pc, int sq)
{
    return v->block + v->plane[pc & 31] + (sq ^ v->flip);
}

/* Perspective v's active list into out (at most NNUE_MAX_ACTIVE entries); returns its length. */
static inline int nnue_fs_planes_active(const nnue_board *board, nnue_fs_planes v, uint32_t *out)
{
    int n = 0;
    if (board->num_squares == 64) { /* at most 64 entries */
        for (uint64_t occ = nnue_fs_occupied64(board); occ; occ &= occ - 1) {
            int sq = __builtin_ctzll(occ);
            int32_t f = nnue_fs_plane_index(&v, board->piece_on[sq], sq);
            out[n] = (uint32_t)f;
            n += f >= 0;
        }
        return n;
    }
    for (int sq = 0; sq < board->num_squares; sq++) {
        int32_t f = board->piece_on[sq] ? nnue_fs_plane_index(&v, board->piece_on[sq], sq) : -1;
        if (f >= 0 && n < NNUE_MAX_ACTIVE)
            out[n++] = (uint32_t)f;
    }
    return n;
}

/* Both perspectives' lists in one walk: the same lists, in the same order, as
 * nnue_fs_planes_active for each. */
static inline void nnue_fs_planes_active_both(const nnue_board *board, nnue_fs_planes v0, nnue_fs_planes v1,
                                              uint32_t *const out[2], int n[2])
{
    if (board->num_squares != 64) {
        n[0] = nnue_fs_planes_active(board, v0, out[0]);
        n[1] = nnue_fs_planes_active(board, v1, out[1]);
        return;
    }
    uint32_t *o0 = out[0], *o1 = out[1];
    int n0 = 0, n1 = 0;
    for (uint64_t occ = nnue_fs_occupied64(board); occ; occ &= occ - 1) {
        int sq = __builtin_ctzll(occ);
        unsigned pc = board->piece_on[sq];
        int32_t f0 = nnue_fs_plane_index(&v0, pc, sq), f1 = nnue_fs_plane_index(&v1, pc, sq);
        o0[n0] = (uint32_t)f0;
        o1[n1] = (uint32_t)f1;
        n0 += f0 >= 0;
        n1 += f1 >= 0;
    }
    n[0] = n0;
    n[1] = n1;
}

/* Piece pc on square sq appended to both perspectives' lists where it is a feature there. */
static inline void nnue_fs_planes_append2(const nnue_fs_planes *v0, const nnue_fs_planes *v1, unsigned pc, int sq,
                                          uint32_t *const out[2], int *n0, int *n1)
{
    int32_t f0 = nnue_fs_plane_index(v0, pc, sq), f1 = nnue_fs_plane_index(v1, pc, sq);
    out[0][*n0] = (uint32_t)f0;
    out[1][*n1] = (uint32_t)f1;
    *n0 += f0 >= 0;
    *n1 += f1 >= 0;
}

/* Both perspectives' changed() lists of a board-only delta in one pass over it: the same lists, in
 * the same order, as nnue_fs_board_changed with nnue_fs_plane_index for each (a dirty entry with a
 * square and a piece gives each perspective its index when that is a feature). */
static inline void nnue_fs_planes_changed_both(const nnue_delta *delta, nnue_fs_planes v0, nnue_fs_planes v1,
                                               uint32_t *const removed[2], int n_removed[2],
                                               uint32_t *const added[2], int n_added[2])
{
    int r0 = 0, r1 = 0, a0 = 0, a1 = 0;
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        if (d->old_sq >= 0 && d->old_piece)
            nnue_fs_planes_append2(&v0, &v1, d->old_piece, d->old_sq, removed, &r0, &r1);
        if (d->new_sq >= 0 && d->new_piece)
            nnue_fs_planes_append2(&v0, &v1, d->new_piece, d->new_sq, added, &a0, &a1);
    }
    n_removed[0] = r0;
    n_removed[1] = r1;
    n_added[0] = a0;
    n_added[1] = a1;
}

#endif
