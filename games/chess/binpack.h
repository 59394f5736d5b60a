/* games/chess/binpack.h: the chess half of Stockfish's .binpack training format (internal; the
 * container, chunks, chains and the bit stream are training/binpack_*.c). Facts from
 * nnue-pytorch's data_loader/cpp/lib (binpack.h, chess.h, training_data_entry.h at 9f72946).
 *
 * Why here and not in training/: every piece of this is a chess bitboard fact (the position's
 * nibbles, the castling rooks on a1/h1/a8/h8, the reference's en-passant rule, the move index as
 * a piece's attack set), and the chess room owns the bitboards and attack tables
 * (games/chess/bitboard.h). training/ holds what is not chess: the file's chunks, the chains of
 * records and the bit stream; it calls these functions directly, as the format is chess-only.
 *
 * Position (24 bytes): the occupied squares as a big-endian 64-bit bitboard (bit sq = square
 * a1 = 0 .. h8 = 63), then one nibble per occupied square in square order, two a byte (the
 * first in the low half), 16 bytes in all (so at most 32 pieces). Nibbles: 2 * type + colour
 * with type pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5 (0..11); 12 a pawn that just
 * made a double step with an en-passant capture legal behind it; 13 / 14 a white / black rook
 * on a1/h1 / a8/h8 with its castling right; 15 the black king with black to move (else white
 * is to move).
 *
 * En passant: the reference keeps an en-passant square only when a legal en-passant capture
 * exists (a pinned capturer does not count), stricter than our FEN rule (include/nnue_chess.h);
 * the packed position and the pawn move indices use the reference's rule (chess_bp_ep).
 *
 * Move (16 bits, big-endian): kind << 14 | from << 8 | to << 2 | promotion, kind 0 normal,
 * 1 promotion (promotion = knight 0 .. queen 3), 2 castling (to = the rook's square), 3 en
 * passant; 0 is the null move.
 *
 * Move index in a chain: the moving piece's index among the side to move's pieces in square
 * order, then the destination's index in that piece's destination set, in square order:
 * knight, bishop, rook, queen: its attacks minus own pieces; king: its steps minus own pieces,
 * then one index per castling right of the side (queen side first); pawn: captures onto enemy
 * pieces or the en-passant square, a free square ahead and, from its start rank, the one after;
 * from the rank before promotion each destination counts four times (knight, bishop, rook,
 * queen). Pseudo-legal sets: a decoded move is checked against the legal moves by the caller. */
#ifndef NNUE_GAMES_CHESS_BINPACK_H
#define NNUE_GAMES_CHESS_BINPACK_H

#include <stddef.h>
#include <stdint.h>

#include "nnue_chess.h"

enum { CHESS_BP_POS_BYTES = 24 };

/* The en-passant square under the reference's rule (a legal en-passant capture exists), or -1. */
int chess_bp_ep(const nnue_chess_pos *pos);

/* Packs pos into 24 bytes. Returns 0, or -1 with why filled when the format cannot hold it
 * (Chess960 castling: the format knows only the rooks of a1/h1/a8/h8 and the king on e1/e8). */
int chess_bp_pack_pos(const nnue_chess_pos *pos, uint8_t out[CHESS_BP_POS_BYTES], char *why, size_t why_size);

/* Unpacks 24 bytes into pos with these clocks (through a FEN, so the parser's checks apply).
 * Returns 0, or -1 with why naming what is wrong (a nibble out of place, a king missing...). */
int chess_bp_unpack_pos(const uint8_t in[CHESS_BP_POS_BYTES], unsigned halfmove, unsigned fullmove,
                        nnue_chess_pos *pos, char *why, size_t why_size);

/* The 16-bit form of a legal move of pos, and back (0 when the bits name no legal move of pos). */
uint16_t chess_bp_pack_move(const nnue_chess_pos *pos, nnue_move move);
nnue_move chess_bp_unpack_move(const nnue_chess_pos *pos, uint16_t packed);

/* 1 if move is one of pos's legal moves. */
int chess_bp_is_legal(const nnue_chess_pos *pos, nnue_move move);

/* Encoding a legal move of pos as indices: the piece's index among n_pieces, the move's among
 * n_moves (the counts fix how many bits each index takes). */
void chess_bp_move_index(const nnue_chess_pos *pos, nnue_move move, unsigned *piece, unsigned *n_pieces,
                         unsigned *index, unsigned *n_moves);

/* Decoding: the side to move's piece count; the index count of its piece number `piece` (which
 * must be below the piece count); the move of (piece, index), index below that count (the move
 * may still be illegal: check it with chess_bp_is_legal). */
unsigned chess_bp_piece_count(const nnue_chess_pos *pos);
unsigned chess_bp_move_count(const nnue_chess_pos *pos, unsigned piece);
nnue_move chess_bp_move_at(const nnue_chess_pos *pos, unsigned piece, unsigned index);

#endif
