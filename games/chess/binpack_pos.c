/* games/chess/binpack_pos.c: a chess position and a move in the 24 + 2 bytes of a .binpack
 * entry (layout at the top of games/chess/binpack.h; nnue-pytorch chess.h, CompressedPosition
 * and CompressedMove). Unpacking goes through a FEN and nnue_chess_parse_fen, so a crafted
 * entry meets every check a FEN does. */
#include <stdio.h>
#include <string.h>

#include "games/chess/binpack.h"
#include "games/chess/bitboard.h"

/* Rook square and king square of each castling right (bit order WK WQ BK BQ). */
static const int corner_rook[4] = {7, 0, 63, 56};
static const int home_king[2] = {4, 60};

int chess_bp_is_legal(const nnue_chess_pos *pos, nnue_move move)
{
    nnue_move moves[NNUE_MAX_MOVES];
    int n = nnue_chess_legal_moves(pos, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == move)
            return 1;
    return 0;
}

int chess_bp_ep(const nnue_chess_pos *pos)
{
    if (pos->ep < 0)
        return -1;
    nnue_move moves[NNUE_MAX_MOVES];
    int n = nnue_chess_legal_moves(pos, moves);
    for (int i = 0; i < n; i++)
        if (NNUE_CHESS_MOVE_KIND(moves[i]) == NNUE_CHESS_MOVE_EP)
            return pos->ep;
    return -1;
}

static uint8_t nibble_of(const nnue_chess_pos *pos, int sq, int ep)
{
    uint8_t pc = pos->board.piece_on[sq];
    int colour = NNUE_PIECE_COLOUR(pc), type = NNUE_PIECE_TYPE(pc), us = pos->board.side_to_move;
    if (type == NNUE_CHESS_PAWN && ep >= 0 && SQ_FILE(sq) == SQ_FILE(ep) && SQ_RANK(sq) == (us ? 3 : 4))
        return 12;
    if (type == NNUE_CHESS_ROOK)
        for (int k = 2 * colour; k < 2 * colour + 2; k++)
            if ((pos->castling & (1 << k)) && sq == corner_rook[k])
                return (uint8_t)(13 + colour);
    if (type == NNUE_CHESS_KING && colour == 1 && us == 1)
        return 15;
    return (uint8_t)(2 * (type - 1) + colour);
}

int chess_bp_pack_pos(const nnue_chess_pos *pos, uint8_t out[CHESS_BP_POS_BYTES], char *why, size_t why_size)
{
    for (int k = 0; k < 4; k++)
        if ((pos->castling & (1 << k)) &&
            (pos->castle_rook[k] != corner_rook[k] || pos->board.king_sq[k >> 1] != home_king[k >> 1])) {
            snprintf(why, why_size, "castling right '%c' of a Chess960 position (the format knows only "
                     "the king on e1/e8 and rooks on a1/h1/a8/h8)", "KQkq"[k]);
            return -1;
        }
    int ep = chess_bp_ep(pos);
    bb_t occ = pos->occupied;
    memset(out, 0, CHESS_BP_POS_BYTES);
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(occ >> (56 - 8 * i));
    for (int i = 0; occ; i++) {
        int sq = bb_pop(&occ);
        out[8 + i / 2] |= (uint8_t)(nibble_of(pos, sq, ep) << (4 * (i & 1)));
    }
    return 0;
}

static const char piece_chars[] = "PpNnBbRrQqKk";

/* Square name for messages. */
static const char *sq_name(int sq, char buf[3])
{
    buf[0] = (char)('a' + SQ_FILE(sq));
    buf[1] = (char)('1' + SQ_RANK(sq));
    buf[2] = 0;
    return buf;
}

int chess_bp_unpack_pos(const uint8_t in[CHESS_BP_POS_BYTES], unsigned halfmove, unsigned fullmove,
                        nnue_chess_pos *pos, char *why, size_t why_size)
{
    bb_t occ = 0;
    for (int i = 0; i < 8; i++)
        occ = occ << 8 | in[i];
    if (bb_count(occ) > 32) {
        snprintf(why, why_size, "%d occupied squares (at most 32 fit the 16 bytes of pieces)", bb_count(occ));
        return -1;
    }
    char board[64] = {0}, sq_buf[3];
    int black = 0, ep = -1;
    unsigned castling = 0;
    for (int i = 0; occ; i++) {
        int sq = bb_pop(&occ);
        unsigned nib = (in[8 + i / 2] >> (4 * (i & 1))) & 15;
        if (nib < 12) {
            board[sq] = piece_chars[nib];
        } else if (nib == 12) {
            if ((SQ_RANK(sq) != 3 && SQ_RANK(sq) != 4) || ep >= 0) {
                snprintf(why, why_size, "nibble 12 (a pawn with en passant behind it) on %s: expected one, on "
                         "rank 4 or 5", sq_name(sq, sq_buf));
                return -1;
            }
            board[sq] = SQ_RANK(sq) == 3 ? 'P' : 'p';
            ep = SQ_RANK(sq) == 3 ? sq - 8 : sq + 8;
        } else if (nib == 15) {
            board[sq] = 'k';
            black = 1;
        } else {
            int colour = nib == 14, k;
            for (k = 2 * colour; k < 2 * colour + 2 && corner_rook[k] != sq; k++)
                ;
            if (k == 2 * colour + 2) {
                snprintf(why, why_size, "nibble %u (a %s rook with its castling right) on %s: expected %s", nib,
                         colour ? "black" : "white", sq_name(sq, sq_buf), colour ? "a8 or h8" : "a1 or h1");
                return -1;
            }
            board[sq] = colour ? 'r' : 'R';
            castling |= 1u << k;
        }
    }
    char fen[128];
    size_t n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            char c = board[SQ_MAKE(file, rank)];
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                fen[n++] = (char)('0' + empty);
            empty = 0;
            fen[n++] = c;
        }
        if (empty)
            fen[n++] = (char)('0' + empty);
        fen[n++] = rank ? '/' : ' ';
    }
    fen[n++] = black ? 'b' : 'w';
    fen[n++] = ' ';
    for (int k = 0; k < 4; k++)
        if (castling & (1u << k))
            fen[n++] = "KQkq"[k];
    if (!castling)
        fen[n++] = '-';
    snprintf(fen + n, sizeof fen - n, " %s %u %u", ep >= 0 ? sq_name(ep, sq_buf) : "-", halfmove, fullmove);
    nnue_error err;
    if (nnue_chess_parse_fen(pos, fen, &err) != NNUE_OK) {
        snprintf(why, why_size, "not a legal position (%s): %s", fen, err.message);
        return -1;
    }
    if (pos->chess960) {
        snprintf(why, why_size, "castling rights without the king on e1/e8 (%s)", fen);
        return -1;
    }
    if (chess_bp_ep(pos) != ep) {
        snprintf(why, why_size, "nibble 12 on %s but no legal en-passant capture (%s)",
                 sq_name(SQ_RANK(ep) == 2 ? ep + 8 : ep - 8, sq_buf), fen);
        return -1;
    }
    return 0;
}

uint16_t chess_bp_pack_move(const nnue_chess_pos *pos, nnue_move move)
{
    int from = NNUE_CHESS_MOVE_FROM(move), to = NNUE_CHESS_MOVE_TO(move), promo = NNUE_CHESS_MOVE_PROMO(move);
    unsigned kind = NNUE_CHESS_MOVE_KIND(move), bits = 0, extra = 0;
    if (kind == NNUE_CHESS_MOVE_CASTLE) {
        bits = 2;
        to = pos->castle_rook[2 * pos->board.side_to_move + (SQ_FILE(to) == 2)];
    } else if (kind == NNUE_CHESS_MOVE_EP) {
        bits = 3;
    } else if (promo) {
        bits = 1;
        extra = (unsigned)(promo - NNUE_CHESS_KNIGHT);
    }
    return (uint16_t)(bits << 14 | (unsigned)from << 8 | (unsigned)to << 2 | extra);
}

nnue_move chess_bp_unpack_move(const nnue_chess_pos *pos, uint16_t packed)
{
    unsigned kind = packed >> 14, extra = packed & 3;
    int from = (packed >> 8) & 63, to = (packed >> 2) & 63, us = pos->board.side_to_move;
    nnue_move m;
    if (packed == 0 || (kind != 1 && extra != 0))
        return 0;
    if (kind == 0) {
        m = NNUE_CHESS_MOVE(from, to, 0, NNUE_CHESS_MOVE_NORMAL);
    } else if (kind == 1) {
        m = NNUE_CHESS_MOVE(from, to, NNUE_CHESS_KNIGHT + (int)extra, NNUE_CHESS_MOVE_NORMAL);
    } else if (kind == 2) {
        int k = 2 * us;
        while (k < 2 * us + 2 && !((pos->castling & (1 << k)) && pos->castle_rook[k] == to))
            k++;
        if (k == 2 * us + 2)
            return 0;
        m = NNUE_CHESS_MOVE(from, (us ? 56 : 0) + ((k & 1) ? 2 : 6), 0, NNUE_CHESS_MOVE_CASTLE);
    } else {
        m = NNUE_CHESS_MOVE(from, to, 0, NNUE_CHESS_MOVE_EP);
    }
    return chess_bp_is_legal(pos, m) ? m : 0;
}
