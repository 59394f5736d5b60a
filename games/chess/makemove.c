/* games/chess/makemove.c: make and unmake. Keeps bitboards, the nnue_board
 * view, castling rights, en passant, clocks and the undo ring in step, and
 * reports the changed pieces as an nnue_delta (rules in include/nnue_chess.h). */
#include "games/chess/bitboard.h"

/* Castling rights lost by a move from `from` to `to`: those of a rook square touched, both of a
 * king that moves (works for Chess960 squares as for the standard ones). */
static uint8_t rights_lost(const nnue_chess_pos *p, int from, int to, int king_moves, int us)
{
    uint8_t lost = king_moves ? (uint8_t)(3u << (2 * us)) : 0;
    for (int k = 0; k < 4; k++)
        if (p->castle_rook[k] == from || p->castle_rook[k] == to)
            lost |= (uint8_t)(1u << k);
    return lost;
}

/* Rook squares of a castling move, from the king's destination (g or c file). */
static void castle_rook(const nnue_chess_pos *p, int us, int king_to, int *rook_from, int *rook_to)
{
    int kingside = SQ_FILE(king_to) == 6;
    *rook_from = p->castle_rook[2 * us + !kingside];
    *rook_to = (king_to & 56) + (kingside ? 5 : 3);
}

/* Castling: lift king and rook, then place both (in Chess960 their squares may overlap). */
static void castle(nnue_chess_pos *p, int us, int king_from, int king_to, int rook_from, int rook_to)
{
    uint8_t king = NNUE_PIECE(us, NNUE_CHESS_KING), rook = NNUE_PIECE(us, NNUE_CHESS_ROOK);
    chess_remove(p, king_from);
    chess_remove(p, rook_from);
    chess_put(p, king_to, king);
    chess_put(p, rook_to, rook);
    p->board.king_sq[us] = (uint8_t)king_to;
}

static inline void move_piece(nnue_chess_pos *p, int from, int to)
{
    uint8_t pc = p->board.piece_on[from];
    bb_t fromto = BB(from) | BB(to);
    p->by_type[NNUE_PIECE_TYPE(pc)] ^= fromto;
    p->by_colour[NNUE_PIECE_COLOUR(pc)] ^= fromto;
    p->occupied ^= fromto;
    p->board.piece_on[from] = 0;
    p->board.piece_on[to] = pc;
}

static inline void set_dirty(nnue_dirty *d, uint8_t old_piece, uint8_t new_piece, int old_sq,
                             int new_sq)
{
    d->old_piece = old_piece;
    d->new_piece = new_piece;
    d->old_sq = (int8_t)old_sq;
    d->new_sq = (int8_t)new_sq;
    d->old_slot = 0;
    d->new_slot = 0;
}

void nnue_chess_make(nnue_chess_pos *p, nnue_move move, nnue_delta *delta)
{
    if (!p)
        return;
    int from = NNUE_CHESS_MOVE_FROM(move), to = NNUE_CHESS_MOVE_TO(move);
    int promo = NNUE_CHESS_MOVE_PROMO(move);
    unsigned kind = NNUE_CHESS_MOVE_KIND(move);
    int us = p->board.side_to_move, them = us ^ 1;
    uint8_t piece = p->board.piece_on[from];
    int type = NNUE_PIECE_TYPE(piece);
    int cap_sq = kind == NNUE_CHESS_MOVE_EP ? to ^ 8 : to;
    uint8_t captured = kind == NNUE_CHESS_MOVE_CASTLE ? 0 : p->board.piece_on[cap_sq];

    nnue_chess_undo *u = &p->undo[p->ply++ % NNUE_CHESS_MAX_PLY];
    u->halfmove = p->halfmove;
    u->captured = captured;
    u->castling = p->castling;
    u->ep = p->ep;

    if (delta) {
        delta->count = 1;
        delta->king_moved[us] = type == NNUE_CHESS_KING && from != to;
        delta->king_moved[them] = 0;
        set_dirty(&delta->dirty[0], piece, promo ? NNUE_PIECE(us, promo) : piece, from, to);
    }
    if (kind == NNUE_CHESS_MOVE_CASTLE) {
        int rf, rt;
        castle_rook(p, us, to, &rf, &rt);
        castle(p, us, from, to, rf, rt);
        if (delta) {
            uint8_t rook = NNUE_PIECE(us, NNUE_CHESS_ROOK);
            set_dirty(&delta->dirty[delta->count++], rook, rook, rf, rt);
        }
    } else {
        if (captured) {
            chess_remove(p, cap_sq);
            p->board.piece_count--;
            if (delta)
                set_dirty(&delta->dirty[delta->count++], captured, 0, cap_sq, NNUE_SQ_NONE);
        }
        move_piece(p, from, to);
        if (promo) {
            chess_remove(p, to);
            chess_put(p, to, NNUE_PIECE(us, promo));
        }
        if (type == NNUE_CHESS_KING)
            p->board.king_sq[us] = (uint8_t)to;
    }
    if (p->castling)
        p->castling &= (uint8_t)~rights_lost(p, from, to, type == NNUE_CHESS_KING, us);
    p->ep = -1;
    if (type == NNUE_CHESS_PAWN && (from ^ to) == 16 && chess_ep_usable(p, (from + to) / 2, them))
        p->ep = (int8_t)((from + to) / 2);
    p->halfmove = (type == NNUE_CHESS_PAWN || captured) ? 0 : p->halfmove + 1;
    p->fullmove += (uint32_t)us;
    p->board.side_to_move = (uint8_t)them;
}

void nnue_chess_unmake(nnue_chess_pos *p, nnue_move move)
{
    if (!p)
        return;
    int from = NNUE_CHESS_MOVE_FROM(move), to = NNUE_CHESS_MOVE_TO(move);
    unsigned kind = NNUE_CHESS_MOVE_KIND(move);
    int them = p->board.side_to_move, us = them ^ 1;
    const nnue_chess_undo *u = &p->undo[--p->ply % NNUE_CHESS_MAX_PLY];

    p->board.side_to_move = (uint8_t)us;
    p->fullmove -= (uint32_t)us;
    p->halfmove = u->halfmove;
    p->castling = u->castling;
    p->ep = u->ep;

    if (kind == NNUE_CHESS_MOVE_CASTLE) {
        int rf, rt;
        castle_rook(p, us, to, &rf, &rt);
        castle(p, us, to, from, rt, rf);
        return;
    }
    if (NNUE_CHESS_MOVE_PROMO(move)) {
        chess_remove(p, to);
        chess_put(p, to, NNUE_PIECE(us, NNUE_CHESS_PAWN));
    }
    move_piece(p, to, from);
    if (p->board.piece_on[from] == NNUE_PIECE(us, NNUE_CHESS_KING))
        p->board.king_sq[us] = (uint8_t)from;
    if (u->captured) {
        chess_put(p, kind == NNUE_CHESS_MOVE_EP ? to ^ 8 : to, u->captured);
        p->board.piece_count++;
    }
}
