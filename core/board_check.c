/* core/board_check.c: see board_check.h. Piece codes follow include/nnue_board.h; the square
 * count, piece types, king and hands are the game descriptor's. */
#include "core/board_check.h"

static int piece_fits(const nnue_game *g, uint8_t piece)
{
    int type = NNUE_PIECE_TYPE(piece), colour = NNUE_PIECE_COLOUR(piece);
    return colour <= 1 && type >= 1 && type <= g->piece_types;
}

int nnue_board_fits(const nnue_game *g, const nnue_board *b)
{
    int squares = g->files * g->ranks;
    if (!b || b->num_squares != squares || b->side_to_move > 1)
        return 0;
    int count = 0;
    for (int sq = 0; sq < squares; sq++) {
        uint8_t p = b->piece_on[sq];
        if (p && !piece_fits(g, p))
            return 0;
        count += p != 0;
    }
    for (int c = 0; c < 2; c++) {
        if (b->king_sq[c] >= squares || b->piece_on[b->king_sq[c]] != NNUE_PIECE(c, g->king_type))
            return 0;
        for (int t = 0; t < NNUE_MAX_HAND_TYPES; t++)
            if (b->hand[c][t] > (t >= 1 && t <= g->hand_types ? g->max_hand : 0))
                return 0;
    }
    return count == b->piece_count;
}

static int location_fits(const nnue_game *g, int sq, uint8_t piece, int slot)
{
    if (sq == NNUE_SQ_NONE)
        return 1;
    if (sq == NNUE_SQ_HAND)
        return g->hand_types > 0 && piece_fits(g, piece) && slot < g->max_hand;
    return sq >= 0 && sq < g->files * g->ranks && piece_fits(g, piece);
}

int nnue_delta_fits(const nnue_game *g, const nnue_delta *d)
{
    if (!d || d->count > NNUE_MAX_DIRTY)
        return 0;
    for (int i = 0; i < d->count; i++) {
        const nnue_dirty *x = &d->dirty[i];
        if (!location_fits(g, x->old_sq, x->old_piece, x->old_slot) ||
            !location_fits(g, x->new_sq, x->new_piece, x->new_slot))
            return 0;
    }
    return 1;
}
