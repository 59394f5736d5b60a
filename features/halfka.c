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

#define HALFKA_PLANES 769

typedef struct {
    int32_t king_base;  /* 769 * oriented own king square */
} halfka_ctx;

static inline int halfka_orient(int persp, int sq)
{
    return sq ^ (persp ? 56 : 0);
}

static int32_t halfka_index(const void *ctx, int persp, uint8_t piece, int sq)
{
    int type = NNUE_PIECE_TYPE(piece);
    int enemy = NNUE_PIECE_COLOUR(piece) != persp;
    return ((const halfka_ctx *)ctx)->king_base + 1 + halfka_orient(persp, sq) +
           64 * (2 * (type - 1) + enemy);
}

static halfka_ctx halfka_context(const nnue_board *board, int persp)
{
    halfka_ctx c = { HALFKA_PLANES * halfka_orient(persp, board->king_sq[persp]) };
    return c;
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
    halfka_ctx c = halfka_context(board, persp);
    return nnue_fs_board_active(board, persp, halfka_index, &c, out);
}

static void halfka_changed(const nnue_feature_params *params, const nnue_board *after,
                           const nnue_delta *delta, int persp, uint32_t *removed, int *n_removed,
                           uint32_t *added, int *n_added)
{
    (void)params;
    halfka_ctx c = halfka_context(after, persp);
    nnue_fs_board_changed(delta, persp, halfka_index, &c, removed, n_removed, added, n_added);
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
    .changed = halfka_changed,
    .needs_refresh = halfka_needs_refresh,
    .refresh_keys = halfka_refresh_keys,
    .refresh_key = halfka_refresh_key,
};
