/* features/halfkp.c: chess HalfKP (Stockfish SFNNv1), 64 x 641 = 41024 inputs.
 *
 * Facts: shared/oracle/chess/FORMATS.md section 3 ("HalfKP (v1)").
 *  - black's perspective rotates the board 180 degrees: sq ^ 63; white's is unchanged;
 *  - index = o(sq) + 1 + 64 * (2*type + (own ? 0 : 1)) + 641 * o(own king), type P..Q = 0..4;
 *  - kings are not features; any move of the perspective's own king refreshes it. */
#include "features/feature_set.h"
#include "features/feature_util.h"
#include "features/piece_planes.h"

#define HALFKP_PLANES 641

/* Plane base of (colour c, type t) seen by perspective p: 1 + 64 * (2 * (type - 1) + enemy) for
 * P..Q; kings are no feature (features/piece_planes.h). */
#define HALFKP_PLANE(p, c, t)                                                                                         \
    ((t) >= NNUE_CHESS_PAWN && (t) <= NNUE_CHESS_QUEEN ? 1 + 64 * (2 * ((t) - 1) + ((c) != (p))) : NNUE_FS_NO_PLANE)
static const int32_t halfkp_planes[2][32] = {NNUE_FS_PLANES(HALFKP_PLANE, 0), NNUE_FS_PLANES(HALFKP_PLANE, 1)};

/* Perspective persp's block (641 * oriented own king square) and flip. */
static nnue_fs_planes halfkp_context(const nnue_board *board, int persp)
{
    int flip = (persp ? 63 : 0);
    return (nnue_fs_planes){HALFKP_PLANES * (board->king_sq[persp] ^ flip), flip, halfkp_planes[persp & 1]};
}

static int32_t halfkp_index(const void *ctx, int persp, uint8_t piece, int sq)
{
    (void)persp;
    return nnue_fs_plane_index(ctx, piece, sq);
}

static uint32_t halfkp_dimensions(const nnue_feature_params *params)
{
    (void)params;
    return 64 * HALFKP_PLANES;
}

static int halfkp_active(const nnue_feature_params *params, const nnue_board *board, int persp,
                         uint32_t *out)
{
    (void)params;
    return nnue_fs_planes_active(board, halfkp_context(board, persp), out);
}

static void halfkp_active_both(const nnue_feature_params *params, const nnue_board *board,
                               uint32_t *const out[2], int n[2])
{
    (void)params;
    nnue_fs_planes_active_both(board, halfkp_context(board, 0), halfkp_context(board, 1), out, n);
}

static void halfkp_changed(const nnue_feature_params *params, const nnue_board *after,
                           const nnue_delta *delta, int persp, uint32_t *removed, int *n_removed,
                           uint32_t *added, int *n_added)
{
    (void)params;
    nnue_fs_planes c = halfkp_context(after, persp);
    nnue_fs_board_changed(delta, persp, halfkp_index, &c, removed, n_removed, added, n_added);
}

/* Both perspectives in one pass over the delta (one_move_one_set, the common step). */
static void halfkp_changed_both(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                            uint32_t *const removed[2], int n_removed[2], uint32_t *const added[2], int n_added[2])
{
    (void)params;
    nnue_fs_planes_changed_both(delta, halfkp_context(after, 0), halfkp_context(after, 1), removed, n_removed, added, n_added);
}

static int halfkp_needs_refresh(const nnue_feature_params *params, const nnue_board *after,
                                const nnue_delta *delta, int persp)
{
    (void)params;
    (void)after;
    return nnue_fs_own_king_moved(delta, persp, NNUE_CHESS_KING);
}

/* Refresh-cache key (features/feature_set.h): the own king's square (it selects the 641-block). */
static uint32_t halfkp_refresh_keys(const nnue_feature_params *params)
{
    (void)params;
    return 64;
}

static uint32_t halfkp_refresh_key(const nnue_feature_params *params, const nnue_board *board, int persp)
{
    (void)params;
    return board->king_sq[persp] & 63;
}

const nnue_feature_set nnue_fs_halfkp = {
    .name = "HalfKP",
    .max_active = 30, /* 32 pieces less the two kings */
    .max_changed = NNUE_MAX_DIRTY, /* a removed and an added feature per dirty piece */
    .max_pieces = 32,
    .game = "chess",
    .display = "HalfKP(Friend)",
    .hash = 0x5D69D5B8u,
    .dimensions = halfkp_dimensions,
    .active = halfkp_active,
    .active_both = halfkp_active_both,
    .changed = halfkp_changed,
    .changed_both = halfkp_changed_both,
    .needs_refresh = halfkp_needs_refresh,
    .refresh_on_own_king_move = 1,
    .refresh_keys = halfkp_refresh_keys,
    .refresh_key = halfkp_refresh_key,
};
