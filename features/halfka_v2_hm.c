/* features/halfka_v2_hm.c: chess HalfKAv2_hm (Stockfish SFNNv3..v8), 32 x 704 = 22528 inputs.
 *
 * Facts: shared/oracle/chess/FORMATS.md section 3 ("HalfKAv2_hm (v3 ... v8)").
 *  - o(sq) = sq ^ (56 if black's perspective) ^ (7 if the own king's real file is a-d), so the
 *    oriented own king always stands on files e-h;
 *  - king bucket = (7 - rank) * 4 + (7 - file) of the oriented own king (e1 -> 31, h8 -> 0);
 *  - index = o(sq) + base + 704 * bucket, base = 64 * (2*type + (own ? 0 : 1)) for P..Q,
 *    640 for both kings;
 *  - the engine refreshes a side whenever its own king moves (even within a bucket): so do we. */
#include "features/feature_set.h"
#include "features/feature_util.h"
#include "features/piece_planes.h"
#include "simd/kernels.h"

#define HALFKA_V2_HM_PLANES 704

/* Plane base of (colour c, type t) seen by perspective p: 64 * (2 * (type - 1) + enemy) for P..Q,
 * 640 for both kings (features/piece_planes.h). */
#define HM_PLANE(p, c, t)                                                                                            \
    ((t) >= NNUE_CHESS_PAWN && (t) <= NNUE_CHESS_QUEEN ? 64 * (2 * ((t) - 1) + ((c) != (p)))                         \
     : (t) == NNUE_CHESS_KING                          ? 640                                                         \
                                                       : NNUE_FS_NO_PLANE)
static const int32_t halfka_v2_hm_planes[2][32] = {NNUE_FS_PLANES(HM_PLANE, 0), NNUE_FS_PLANES(HM_PLANE, 1)};

/* For the kernel table's list_bytes_map (simd/kernels.h), which lists the pieces whose entry is
 * not 0 and reads the second perspective's at the code with its colour flipped: perspective 0's
 * planes plus 1 (0: no feature; the lists' block is passed minus 1); the square maps of
 * features/piece_planes.h. */
#define HM_LISTED(p, c, t) (HM_PLANE(p, c, t) == NNUE_FS_NO_PLANE ? 0 : HM_PLANE(p, c, t) + 1)
static const int32_t halfka_v2_hm_listed[32] = NNUE_FS_PLANES(HM_LISTED, 0);

/* Perspective persp's block (704 * king bucket) and flip (56 for black, ^7 when the own king is
 * on files a-d). */
static nnue_fs_planes halfka_v2_hm_context(const nnue_board *board, int persp)
{
    int ksq = board->king_sq[persp];
    int flip = (persp ? 56 : 0) ^ ((ksq & 7) < 4 ? 7 : 0);
    int o = ksq ^ flip;
    return (nnue_fs_planes){HALFKA_V2_HM_PLANES * ((7 - (o >> 3)) * 4 + (7 - (o & 7))), flip,
                            halfka_v2_hm_planes[persp & 1]};
}

static int32_t halfka_v2_hm_index(const void *ctx, int persp, uint8_t piece, int sq)
{
    (void)persp;
    return nnue_fs_plane_index(ctx, piece, sq);
}

static uint32_t halfka_v2_hm_dimensions(const nnue_feature_params *params)
{
    (void)params;
    return 32 * HALFKA_V2_HM_PLANES;
}

/* Both lists in one kernel call (a walk over the occupied squares with two table reads a piece
 * took ~160 ns of a refresh of Stockfish 15.1's net on the Xeon); the walk for other board sizes. */
static void halfka_v2_hm_active_both(const nnue_feature_params *params, const nnue_board *board,
                                     uint32_t *const out[2], int n[2])
{
    const nnue_fs_planes v0 = halfka_v2_hm_context(board, 0), v1 = halfka_v2_hm_context(board, 1);
    if (board->num_squares != 64) {
        nnue_fs_planes_active_both(board, v0, v1, out, n);
        return;
    }
    n[0] = n[1] = nnue_fs_kernels(params)->list_bytes_map(board->piece_on, 64, halfka_v2_hm_listed,
                                                          nnue_fs_xor_squares(v0.flip), nnue_fs_xor_squares(v1.flip),
                                                          v0.block - 1, v1.block - 1, out[0], out[1], 32);
}

static int halfka_v2_hm_active(const nnue_feature_params *params, const nnue_board *board, int persp, uint32_t *out)
{
    return nnue_fs_active_one(halfka_v2_hm_active_both, params, board, persp, out);
}

static void halfka_v2_hm_changed(const nnue_feature_params *params, const nnue_board *after,
                                 const nnue_delta *delta, int persp, uint32_t *removed,
                                 int *n_removed, uint32_t *added, int *n_added)
{
    (void)params;
    nnue_fs_planes c = halfka_v2_hm_context(after, persp);
    nnue_fs_board_changed(delta, persp, halfka_v2_hm_index, &c, removed, n_removed, added,
                          n_added);
}

/* Both perspectives in one pass over the delta (one_move_one_set, the common step). */
static void halfka_v2_hm_changed_both(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                            uint32_t *const removed[2], int n_removed[2], uint32_t *const added[2], int n_added[2])
{
    (void)params;
    nnue_fs_planes_changed_both(delta, halfka_v2_hm_context(after, 0), halfka_v2_hm_context(after, 1), removed, n_removed, added, n_added);
}

static int halfka_v2_hm_needs_refresh(const nnue_feature_params *params, const nnue_board *after,
                                      const nnue_delta *delta, int persp)
{
    (void)params;
    (void)after;
    return nnue_fs_own_king_moved(delta, persp, NNUE_CHESS_KING);
}

/* Refresh-cache key (features/feature_set.h): the own king's real square, i.e. bucket AND mirror
 * state: the king on a1 and on h1 share bucket 31 but orient every square differently. */
static uint32_t halfka_v2_hm_refresh_keys(const nnue_feature_params *params)
{
    (void)params;
    return 64;
}

static uint32_t halfka_v2_hm_refresh_key(const nnue_feature_params *params, const nnue_board *board, int persp)
{
    (void)params;
    return board->king_sq[persp] & 63;
}

const nnue_feature_set nnue_fs_halfka_v2_hm = {
    .name = "HalfKAv2_hm",
    .max_active = 32, /* 32 pieces, kings included */
    .max_changed = NNUE_MAX_DIRTY, /* a removed and an added feature per dirty piece */
    .max_pieces = 32,
    .game = "chess",
    .display = "HalfKAv2_hm(Friend)",
    .hash = 0x7F234CB8u,
    .dimensions = halfka_v2_hm_dimensions,
    .active = halfka_v2_hm_active,
    .active_both = halfka_v2_hm_active_both,
    .changed = halfka_v2_hm_changed,
    .changed_both = halfka_v2_hm_changed_both,
    .needs_refresh = halfka_v2_hm_needs_refresh,
    .refresh_on_own_king_move = 1,
    .refresh_keys = halfka_v2_hm_refresh_keys,
    .refresh_key = halfka_v2_hm_refresh_key,
};
