/* games/chess/binpack_moves.c: a move as the pair of indices a .binpack chain stores (rules at
 * the top of games/chess/binpack.h; nnue-pytorch binpack.h, PackedMoveScoreList::addMoveScore
 * and PackedMoveScoreListReader::nextMoveScore). The sets are pseudo-legal, so the indices of
 * a legal move never depend on checks or pins; decoding leaves the legality check to the
 * caller. */
#include "games/chess/binpack.h"
#include "games/chess/bitboard.h"

/* Square of the n-th set bit of b (n below the count). */
static int nth_bit(bb_t b, unsigned n)
{
    while (n--)
        b &= b - 1;
    return bb_lsb(b);
}

typedef struct dest_set {
    bb_t squares;      /* destinations in square order */
    int promotes;      /* a pawn on the rank before promotion: four indices a square */
    unsigned castles;  /* king: castling rights of the side, indices after the squares */
} dest_set;

static dest_set destinations(const nnue_chess_pos *pos, int from)
{
    int us = pos->board.side_to_move, type = NNUE_PIECE_TYPE(pos->board.piece_on[from]);
    bb_t own = pos->by_colour[us], occ = pos->occupied;
    dest_set d = {0, 0, 0};
    switch (type) {
    case NNUE_CHESS_PAWN: {
        int ep = chess_bp_ep(pos), up = us ? -8 : 8, ahead = from + up;
        bb_t targets = pos->by_colour[us ^ 1] | (ep >= 0 ? BB(ep) : 0);
        d.squares = chess_pawn_att[us][from] & targets;
        if (!(occ & BB(ahead))) {
            d.squares |= BB(ahead);
            if (SQ_RANK(from) == (us ? 6 : 1) && !(occ & BB(ahead + up)))
                d.squares |= BB(ahead + up);
        }
        d.promotes = SQ_RANK(from) == (us ? 1 : 6);
        break;
    }
    case NNUE_CHESS_KING:
        d.squares = chess_king[from] & ~own;
        d.castles = (unsigned)bb_count(pos->castling & (us ? 12u : 3u));
        break;
    case NNUE_CHESS_KNIGHT:
        d.squares = chess_knight[from] & ~own;
        break;
    case NNUE_CHESS_BISHOP:
        d.squares = bishop_attacks(from, occ) & ~own;
        break;
    case NNUE_CHESS_ROOK:
        d.squares = rook_attacks(from, occ) & ~own;
        break;
    default:
        d.squares = (bishop_attacks(from, occ) | rook_attacks(from, occ)) & ~own;
        break;
    }
    return d;
}

static unsigned index_count(const dest_set *d)
{
    return (unsigned)bb_count(d->squares) * (d->promotes ? 4u : 1u) + d->castles;
}

void chess_bp_move_index(const nnue_chess_pos *pos, nnue_move move, unsigned *piece, unsigned *n_pieces,
                         unsigned *index, unsigned *n_moves)
{
    int us = pos->board.side_to_move, from = NNUE_CHESS_MOVE_FROM(move), to = NNUE_CHESS_MOVE_TO(move);
    bb_t own = pos->by_colour[us];
    dest_set d = destinations(pos, from);
    *piece = (unsigned)bb_count(own & (BB(from) - 1));
    *n_pieces = (unsigned)bb_count(own);
    *n_moves = index_count(&d);
    unsigned before = (unsigned)bb_count(d.squares & (BB(to) - 1));
    if (NNUE_CHESS_MOVE_KIND(move) == NNUE_CHESS_MOVE_CASTLE) {
        /* After the squares: the queen side's index first when the side has that right. */
        unsigned has_long = (pos->castling & (us ? 8u : 2u)) != 0;
        *index = (unsigned)bb_count(d.squares) + (SQ_FILE(to) == 6 ? has_long : 0);
    } else if (d.promotes) {
        *index = before * 4 + (unsigned)(NNUE_CHESS_MOVE_PROMO(move) - NNUE_CHESS_KNIGHT);
    } else {
        *index = before;
    }
}

unsigned chess_bp_piece_count(const nnue_chess_pos *pos)
{
    return (unsigned)bb_count(pos->by_colour[pos->board.side_to_move]);
}

unsigned chess_bp_move_count(const nnue_chess_pos *pos, unsigned piece)
{
    dest_set d = destinations(pos, nth_bit(pos->by_colour[pos->board.side_to_move], piece));
    return index_count(&d);
}

nnue_move chess_bp_move_at(const nnue_chess_pos *pos, unsigned piece, unsigned index)
{
    int us = pos->board.side_to_move, from = nth_bit(pos->by_colour[us], piece);
    dest_set d = destinations(pos, from);
    unsigned squares = (unsigned)bb_count(d.squares);
    if (d.promotes)
        return NNUE_CHESS_MOVE(from, nth_bit(d.squares, index / 4), NNUE_CHESS_KNIGHT + (int)(index % 4),
                               NNUE_CHESS_MOVE_NORMAL);
    if (index >= squares) {
        int queen_side = index == squares && (pos->castling & (us ? 8u : 2u));
        return NNUE_CHESS_MOVE(from, (us ? 56 : 0) + (queen_side ? 2 : 6), 0, NNUE_CHESS_MOVE_CASTLE);
    }
    int to = nth_bit(d.squares, index);
    int ep = NNUE_PIECE_TYPE(pos->board.piece_on[from]) == NNUE_CHESS_PAWN && pos->board.piece_on[to] == 0 &&
             SQ_FILE(to) != SQ_FILE(from);
    return NNUE_CHESS_MOVE(from, to, 0, ep ? NNUE_CHESS_MOVE_EP : NNUE_CHESS_MOVE_NORMAL);
}
