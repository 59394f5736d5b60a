/* features/halfka.c: chess HalfKA, the v1-era form with 12 piece planes (kings included),
 * 64 x 769 = 49216 inputs.
 *
 * Source of facts (not in shared/oracle; looked up in nnue-pytorch, official-stockfish/nnue-pytorch,
 * files halfka.py and training_data_loader.cpp, struct HalfKA):
 *  - NUM_PT = 12 planes, NUM_PLANES = 64 * 12 + 1 = 769 (slot 0 of each block unused: "+1");
 *  - orientation for black: vertical flip, sq ^ 56 (orient_flip), for the piece square AND the
 *    own king square; white unchanged (unlike HalfKP's 180-degree rotation);
 *  - p_idx = 2 * (type - 1) + (piece colour != perspective), type P..K = 1..6, so the own king is
 *    plane 10 and the enemy king plane 11 (HalfKAv2 later merged those two);
 *  - index = 1 + o(sq) + 64 * p_idx + 769 * o(own king);
 *  - hash 0x5F134CB8 (halfka.py's FeatureBlock; same scheme as HalfKAv2's 0x5F234CB8).
 * The display name "HalfKA(Friend)" follows Stockfish's naming of its other sets (no Stockfish
 * release shipped this set, so there is no authoritative description string).
 * Refresh: any move of the perspective's own king (the king square selects the block). */
#include "features/feature_set.h"
#include "features/feature_util.h"
#include "features/piece_planes.h"

#define HALFKA_PLANES 769

/* Plane base of (colour c, type t) seen by perspective p: 1 + 64 * (2 * (type - 1) + enemy), P..K
 * (features/piece_planes.h). */
#define HALFKA_PLANE(p, c, t)                                                                                         \
    ((t) >= NNUE_CHESS_PAWN && (t) <= NNUE_CHESS_KING ? 1 + 64 * (2 * ((t) - 1) + ((c) != (p))) : NNUE_FS_NO_PLANE)
static const int32_t halfka_planes[2][32] = {NNUE_FS_PLANES(HALFKA_PLANE, 0), NNUE_FS_PLANES(HALFKA_PLANE, 1)};

/* Perspective persp's block (769 * oriented own king square) and flip. */
static nnue_fs_planes halfka_context(const nnue_board *board, int persp)
{
    int flip = (persp ? 56 : 0);
    return (nnue_fs_planes){HALFKA_PLANES * (board->king_sq[persp] ^ flip), flip, halfka_planes[persp & 1]};
}

static int32_t halfka_index(const void *ctx, int persp, uint8_t piece, int sq)
{
    (void)persp;
    return nnue_fs_plane_index(ctx, piece, sq);
}

static uint32_t halfka_dimensions(const nnue_feature_params *params)
{
    (void)params;
    return 64 * HALFKA_PLANES;
}

static int halfka_active(const nnue_feature_params *params, const nnue_board *board, int persp,
                         uint32_t *out)
{
    (void)params;
    return nnue_fs_planes_active(board, halfka_context(board, persp), out);
}

static void halfka_active_both(const nnue_feature_params *params, const nnue_board *board,
                               uint32_t *const out[2], int n[2])
{
    (void)params;
    nnue_fs_planes_active_both(board, halfka_context(board, 0), halfka_context(board, 1), out, n);
}

static void halfka_changed(const nnue_feature_params *params, const nnue_board *after,
                           const nnue_delta *delta, int persp, uint32_t *removed, int *n_removed,
                           uint32_t *added, int *n_added)
{
    (void)params;
    nnue_fs_planes c = halfka_context(after, persp);
    nnue_fs_board_changed(delta, persp, halfka_index, &c, removed, n_removed, added, n_added);
}

/* Both perspectives in one pass over the delta (one_move_one_set, the common step). */
static void halfka_changed_both(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                            uint32_t *const removed[2], int n_removed[2], uint32_t *const added[2], int n_added[2])
{
    (void)params;
    nnue_fs_planes_changed_both(delta, halfka_context(after, 0), halfka_context(after, 1), removed, n_removed, added, n_added);
}

static int halfka_needs_refresh(const nnue_feature_params *params, const nnue_board *after,
                                const nnue_delta *delta, int persp)
{
    (void)params;
    (void)after;
    return nnue_fs_own_king_moved(delta, persp, NNUE_CHESS_KING);
}

/* Refresh-cache key (features/feature_set.h): the own king's square (it selects the 769-block). */
static uint32_t halfka_refresh_keys(const nnue_feature_params *params)
{
    (void)params;
    return 64;
}

static uint32_t halfka_refresh_key(const nnue_feature_params *params, const nnue_board *board, int persp)
{
    (void)params;
    return board->king_sq[persp] & 63;
}

const nnue_feature_set nnue_fs_halfka = {
    .name = "HalfKA",
    .max_active = 32, /* 32 pieces, kings included */
    .max_changed = NNUE_MAX_DIRTY, /* a removed and an added feature per dirty piece */
    .max_pieces = 32,
    .game = "chess",
    .display = "HalfKA(Friend)",
    .hash = 0x5F134CB8u,
    .dimensions = halfka_dimensions,
    .active = halfka_active,
    .active_both = halfka_active_both,
    .changed = halfka_changed,
    .changed_both = halfka_changed_both,
    .needs_refresh = halfka_needs_refresh,
    .refresh_on_own_king_move = 1,
    .refresh_keys = halfka_refresh_keys,
    .refresh_key = halfka_refresh_key,
};
