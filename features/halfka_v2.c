/* features/halfka_v2.c: chess HalfKAv2 (Stockfish SFNNv2), 64 x 704 = 45056 inputs.
 *
 * Facts: shared/oracle/chess/FORMATS.md section 3 ("HalfKAv2 (v2)").
 *  - black's perspective flips vertically: sq ^ 56; white's is unchanged;
 *  - index = o(sq) + base + 704 * o(own king), base = 64 * (2*type + (own ? 0 : 1)) for P..Q
 *    (type 0..4) and 640 for both kings (own and enemy king share one plane);
 *  - any move of the perspective's own king refreshes it (the king square selects the block). */
#include "features/feature_set.h"
#include "features/feature_util.h"

#define HALFKA_V2_PLANES 704

typedef struct {
    int32_t king_base;  /* 704 * oriented own king square */
} halfka_v2_ctx;

static inline int halfka_v2_orient(int persp, int sq)
{
    return sq ^ (persp ? 56 : 0);
}

static int32_t halfka_v2_index(const void *ctx, int persp, uint8_t piece, int sq)
{
    int type = NNUE_PIECE_TYPE(piece);
    int base = type == NNUE_CHESS_KING ? 640
                                       : 64 * (2 * (type - 1) + (NNUE_PIECE_COLOUR(piece) != persp));
    return ((const halfka_v2_ctx *)ctx)->king_base + halfka_v2_orient(persp, sq) + base;
}

static halfka_v2_ctx halfka_v2_context(const nnue_board *board, int persp)
{
    halfka_v2_ctx c = { HALFKA_V2_PLANES * halfka_v2_orient(persp, board->king_sq[persp]) };
    return c;
}

static uint32_t halfka_v2_dimensions(const nnue_feature_params *params)
{
    (void)params;
    return 64 * HALFKA_V2_PLANES;
}

static int halfka_v2_active(const nnue_feature_params *params, const nnue_board *board, int persp,
                            uint32_t *out)
{
    (void)params;
    halfka_v2_ctx c = halfka_v2_context(board, persp);
    return nnue_fs_board_active(board, persp, halfka_v2_index, &c, out);
}

static void halfka_v2_changed(const nnue_feature_params *params, const nnue_board *after,
                              const nnue_delta *delta, int persp, uint32_t *removed,
                              int *n_removed, uint32_t *added, int *n_added)
{
    (void)params;
    halfka_v2_ctx c = halfka_v2_context(after, persp);
    nnue_fs_board_changed(delta, persp, halfka_v2_index, &c, removed, n_removed, added, n_added);
}

static int halfka_v2_needs_refresh(const nnue_feature_params *params, const nnue_board *after,
                                   const nnue_delta *delta, int persp)
{
    (void)params;
    (void)after;
    return nnue_fs_own_king_moved(delta, persp, NNUE_CHESS_KING);
}

/* Refresh-cache key (features/feature_set.h): the own king's square (it selects the 704-block). */
static uint32_t halfka_v2_refresh_keys(const nnue_feature_params *params)
{
    (void)params;
    return 64;
}

static uint32_t halfka_v2_refresh_key(const nnue_feature_params *params, const nnue_board *board, int persp)
{
    (void)params;
    return board->king_sq[persp] & 63;
}

const nnue_feature_set nnue_fs_halfka_v2 = {
    .name = "HalfKAv2",
    .max_active = 32, /* 32 pieces, kings included */
    .max_changed = NNUE_MAX_DIRTY, /* a removed and an added feature per dirty piece */
    .max_pieces = 32,
    .game = "chess",
    .display = "HalfKAv2(Friend)",
    .hash = 0x5F234CB8u,
    .dimensions = halfka_v2_dimensions,
    .active = halfka_v2_active,
    .changed = halfka_v2_changed,
    .needs_refresh = halfka_v2_needs_refresh,
    .refresh_keys = halfka_v2_refresh_keys,
    .refresh_key = halfka_v2_refresh_key,
};
