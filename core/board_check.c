/* core/board_check.c: see board_check.h. Piece codes and square counts per game follow
 * include/nnue_board.h. */
#include "core/board_check.h"

#include <string.h>

typedef struct game_shape {
    int squares, max_type, king, hand_types, max_hand;
} game_shape;

static game_shape shape_of(const char *game)
{
    if (strcmp(game, "shogi") == 0)
        return (game_shape){81, NNUE_SHOGI_DRAGON, NNUE_SHOGI_KING, NNUE_SHOGI_ROOK, 18};
    return (game_shape){64, NNUE_CHESS_KING, NNUE_CHESS_KING, 0, 0};
}

static int piece_fits(const game_shape *g, uint8_t piece)
{
    int type = NNUE_PIECE_TYPE(piece), colour = NNUE_PIECE_COLOUR(piece);
    return colour <= 1 && type >= 1 && type <= g->max_type;
}

int nnue_board_fits(const char *game, const nnue_board *b)
{
    game_shape g = shape_of(game);
    if (!b || b->num_squares != g.squares || b->side_to_move > 1)
        return 0;
    int count = 0;
    for (int sq = 0; sq < g.squares; sq++) {
        uint8_t p = b->piece_on[sq];
        if (p && !piece_fits(&g, p))
            return 0;
        count += p != 0;
    }
    for (int c = 0; c < 2; c++) {
        if (b->king_sq[c] >= g.squares || b->piece_on[b->king_sq[c]] != NNUE_PIECE(c, g.king))
            return 0;
        for (int t = 0; t < NNUE_MAX_HAND_TYPES; t++)
            if (b->hand[c][t] > (t >= 1 && t <= g.hand_types ? g.max_hand : 0))
                return 0;
    }
    return count == b->piece_count;
}

static int location_fits(const game_shape *g, int sq, uint8_t piece, int slot)
{
    if (sq == NNUE_SQ_NONE)
        return 1;
    if (sq == NNUE_SQ_HAND)
        return g->hand_types > 0 && piece_fits(g, piece) && slot < g->max_hand;
    return sq >= 0 && sq < g->squares && piece_fits(g, piece);
}

int nnue_delta_fits(const char *game, const nnue_delta *d)
{
    game_shape g = shape_of(game);
    if (!d || d->count > NNUE_MAX_DIRTY)
        return 0;
    for (int i = 0; i < d->count; i++) {
        const nnue_dirty *x = &d->dirty[i];
        if (!location_fits(&g, x->old_sq, x->old_piece, x->old_slot) ||
            !location_fits(&g, x->new_sq, x->new_piece, x->new_slot))
            return 0;
    }
    return 1;
}
