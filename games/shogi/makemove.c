/* games/shogi/makemove.c: make/unmake of shogi moves on the mailbox and the
 * embedded nnue_board, and the nnue_delta report (rules in nnue_shogi.h).
 * The captured piece travels inside the move, so no undo stack is needed. */
#include "games/shogi/internal.h"

void sh_put(nnue_shogi_pos *pos, int cell, unsigned piece)
{
    pos->cell[cell] = (uint8_t)piece;
    pos->board.piece_on[sh_sq_of_cell(cell)] = (uint8_t)piece;
}

void nnue_shogi_make(nnue_shogi_pos *pos, nnue_move move, nnue_delta *delta)
{
    if (!pos)
        return;
    nnue_board *bd = &pos->board;
    int us = bd->side_to_move, them = us ^ 1;
    int to_sq = NNUE_SHOGI_MOVE_TO(move), to = sh_cell_of_sq(to_sq);
    int type = NNUE_SHOGI_MOVE_TYPE(move);
    if (delta) {
        delta->king_moved[0] = delta->king_moved[1] = 0;
        delta->count = 1;
    }
    if (NNUE_SHOGI_MOVE_IS_DROP(move)) {
        unsigned piece = NNUE_PIECE(us, type);
        int before = bd->hand[us][type]--;
        pos->cell[to] = (uint8_t)piece;
        bd->piece_on[to_sq] = (uint8_t)piece;
        bd->piece_count++;
        if (type == SH_PAWN)
            pos->pawn_files[us] |= (uint16_t)(1u << (to_sq / 9));
        if (delta)
            delta->dirty[0] = (nnue_dirty){(uint8_t)piece, (uint8_t)piece, NNUE_SQ_HAND,
                                           (int8_t)to_sq, (uint8_t)(before - 1), 0};
    } else {
        int from_sq = NNUE_SHOGI_MOVE_FROM(move), from = sh_cell_of_sq(from_sq);
        unsigned piece = pos->cell[from], captured = (unsigned)NNUE_SHOGI_MOVE_CAPTURED(move);
        unsigned moved = piece;
        if (NNUE_SHOGI_MOVE_IS_PROMOTE(move)) {
            moved = NNUE_PIECE(us, sh_promote[type]);
            if (type == SH_PAWN)
                pos->pawn_files[us] &= (uint16_t)~(1u << (from_sq / 9));
        }
        pos->cell[from] = 0;
        bd->piece_on[from_sq] = 0;
        pos->cell[to] = (uint8_t)moved;
        bd->piece_on[to_sq] = (uint8_t)moved;
        if (type == SH_KING) {
            pos->king_cell[us] = (uint8_t)to;
            bd->king_sq[us] = (uint8_t)to_sq;
            if (delta)
                delta->king_moved[us] = 1;
        }
        if (delta)
            delta->dirty[0] = (nnue_dirty){(uint8_t)piece, (uint8_t)moved, (int8_t)from_sq,
                                           (int8_t)to_sq, 0, 0};
        if (captured) {
            int kind = sh_demote[sh_type(captured)];
            int before = bd->hand[us][kind]++;
            bd->piece_count--;
            if (sh_type(captured) == SH_PAWN)
                pos->pawn_files[them] &= (uint16_t)~(1u << (to_sq / 9));
            if (delta) {
                delta->dirty[1] = (nnue_dirty){(uint8_t)captured, NNUE_PIECE(us, kind),
                                               (int8_t)to_sq, NNUE_SQ_HAND, 0, (uint8_t)before};
                delta->count = 2;
            }
        }
    }
    bd->side_to_move = (uint8_t)them;
    pos->ply++;
}

void nnue_shogi_unmake(nnue_shogi_pos *pos, nnue_move move)
{
    if (!pos)
        return;
    nnue_board *bd = &pos->board;
    int them = bd->side_to_move, us = them ^ 1;
    int to_sq = NNUE_SHOGI_MOVE_TO(move), to = sh_cell_of_sq(to_sq);
    int type = NNUE_SHOGI_MOVE_TYPE(move);
    bd->side_to_move = (uint8_t)us;
    pos->ply--;
    if (NNUE_SHOGI_MOVE_IS_DROP(move)) {
        bd->hand[us][type]++;
        pos->cell[to] = 0;
        bd->piece_on[to_sq] = 0;
        bd->piece_count--;
        if (type == SH_PAWN)
            pos->pawn_files[us] &= (uint16_t)~(1u << (to_sq / 9));
        return;
    }
    int from_sq = NNUE_SHOGI_MOVE_FROM(move), from = sh_cell_of_sq(from_sq);
    unsigned piece = NNUE_PIECE(us, type), captured = (unsigned)NNUE_SHOGI_MOVE_CAPTURED(move);
    if (NNUE_SHOGI_MOVE_IS_PROMOTE(move) && type == SH_PAWN)
        pos->pawn_files[us] |= (uint16_t)(1u << (from_sq / 9));
    pos->cell[from] = (uint8_t)piece;
    bd->piece_on[from_sq] = (uint8_t)piece;
    pos->cell[to] = (uint8_t)captured;
    bd->piece_on[to_sq] = (uint8_t)captured;
    if (type == SH_KING) {
        pos->king_cell[us] = (uint8_t)from;
        bd->king_sq[us] = (uint8_t)from_sq;
    }
    if (captured) {
        bd->hand[us][sh_demote[sh_type(captured)]]--;
        bd->piece_count++;
        if (sh_type(captured) == SH_PAWN)
            pos->pawn_files[them] |= (uint16_t)(1u << (to_sq / 9));
    }
}
