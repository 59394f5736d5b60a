/* tests/games/toy_features.c: "ToyKR", the toy 9x10 game's feature set, registered at run
 * time (nnue_feature_set_register). Per perspective: 3 king buckets (the own king's file / 3)
 * x 4 piece codes (own rook, own king, enemy rook, enemy king) x 90 squares, the ranks
 * flipped for colour 1. A move refreshes a perspective only when its own king changes bucket. */
#include "core/feature_set.h"
#include "toy_game.h"

#define TOY_PLANE (4 * TOY_SQUARES)

static int rel_sq(int persp, int sq)
{
    return persp ? (TOY_RANKS - 1 - sq / TOY_FILES) * TOY_FILES + sq % TOY_FILES : sq;
}

static int bucket(int king_sq)
{
    return king_sq % TOY_FILES / 3;
}

static uint32_t index_of(int persp, int king_sq, uint8_t piece, int sq)
{
    int code = NNUE_PIECE_TYPE(piece) - 1 + 2 * (NNUE_PIECE_COLOUR(piece) != persp);
    return (uint32_t)(bucket(king_sq) * TOY_PLANE + code * TOY_SQUARES + rel_sq(persp, sq));
}

static uint32_t dimensions(const nnue_feature_params *params)
{
    (void)params;
    return 3 * TOY_PLANE;
}

static int active(const nnue_feature_params *params, const nnue_board *b, int persp, uint32_t *out)
{
    (void)params;
    int n = 0;
    for (int sq = 0; sq < TOY_SQUARES; sq++)
        if (b->piece_on[sq])
            out[n++] = index_of(persp, b->king_sq[persp], b->piece_on[sq], sq);
    return n;
}

static void changed(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *d, int persp,
                    uint32_t *removed, int *n_removed, uint32_t *added, int *n_added)
{
    (void)params;
    *n_removed = *n_added = 0;
    for (int i = 0; i < d->count; i++) {
        const nnue_dirty *x = &d->dirty[i];
        if (x->old_sq >= 0)
            removed[(*n_removed)++] = index_of(persp, after->king_sq[persp], x->old_piece, x->old_sq);
        if (x->new_sq >= 0)
            added[(*n_added)++] = index_of(persp, after->king_sq[persp], x->new_piece, x->new_sq);
    }
}

static int needs_refresh(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *d, int persp)
{
    (void)params;
    if (!d->king_moved[persp])
        return 0;
    for (int i = 0; i < d->count; i++)
        if (d->dirty[i].old_piece == NNUE_PIECE(persp, TOY_KING) && d->dirty[i].old_sq >= 0)
            return bucket(d->dirty[i].old_sq) != bucket(after->king_sq[persp]);
    return 1;
}

const nnue_feature_set toy_features = {
    .name = "ToyKR",
    .game = "toy9x10",
    .display = "ToyKR(Friend)",
    .max_active = 6,
    .max_changed = 2,
    .dimensions = dimensions,
    .active = active,
    .changed = changed,
    .needs_refresh = needs_refresh,
};
