/* nnue_shogi.h: the shogi game adapter (padded-mailbox position, SFEN, USI,
 * legal move generation with all rules, make/unmake with nnue_delta reporting).
 *
 * Squares (nnue_board and moves): sq = (file-1)*9 + (rank-1), so 1a = 0,
 * 1i = 8, 9i = 80 (USI "7g" = 60). Colours: 0 = black (sente, uppercase in
 * SFEN, moves first), 1 = white (gote). Piece codes on the embedded
 * nnue_board: NNUE_PIECE(colour, NNUE_SHOGI_PAWN..NNUE_SHOGI_DRAGON); hand
 * counts in board.hand[colour][NNUE_SHOGI_PAWN..NNUE_SHOGI_ROOK].
 *
 * Delta rules (what nnue_shogi_make writes into an nnue_delta when non-NULL):
 *  - Board move: dirty[0] is the moving piece: old_sq = from, new_sq = to,
 *    old_piece = the piece before the move, new_piece = the piece after it
 *    (the promoted code on promotion, else the same code); slots 0.
 *  - Capture: dirty[1] is the captured piece: old_piece = its code (its
 *    colour, possibly a promoted type), old_sq = its square (the target),
 *    new_sq = NNUE_SQ_HAND, new_piece = NNUE_PIECE(capturer, demoted type),
 *    new_slot = number of that type in the capturer's hand BEFORE the capture
 *    (so the piece takes slot n, 0-based, i.e. the (n+1)-th piece).
 *  - Drop: dirty[0] only: old_sq = NNUE_SQ_HAND, old_slot = the hand count
 *    before the drop minus 1 (the last slot leaves the hand), old_piece =
 *    new_piece = the dropped piece code, new_sq = the target square.
 *  - count is 1 or 2; king_moved[c] = 1 iff colour c's king changed square.
 *
 * Errors: SFEN errors are NNUE_E_SYNTAX with err->file = "SFEN", err->line = 1
 * and err->column = the 1-based character position the problem was found at;
 * the message says what is wrong. Move-string errors carry no location and
 * quote the move: NNUE_E_SYNTAX when malformed, NNUE_E_ILLEGAL (with the
 * reason: nifu, pawn-drop mate, dead-end drop, forced promotion, king left in
 * check, ...) when well formed but not legal. */
#ifndef NNUE_SHOGI_H
#define NNUE_SHOGI_H

#include <stddef.h>
#include <stdint.h>

#include "nnue_board.h"
#include "nnue_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Padded mailbox: 11 columns (files 0..10, 0 and 10 are walls) of 13 cells
 * (2 wall cells above rank a, 9 ranks, 2 below rank i). */
#define NNUE_SHOGI_CELLS 143

/* Move encoding (nnue_move): bits 0-6 to square, 7-13 from square (0 for a
 * drop), bit 14 promotion, bit 15 drop, bits 16-19 the moving (or dropped)
 * piece's type before the move, bits 20-24 the captured piece code (0 if
 * none). A move therefore only makes sense in the position it was generated
 * or parsed in; that is what lets unmake work without an undo stack.
 * The value 0 is never a legal move. */
#define NNUE_SHOGI_MOVE_PROMOTE (1u << 14)
#define NNUE_SHOGI_MOVE_DROP (1u << 15)
#define NNUE_SHOGI_MOVE(from, to, flags, type, captured) \
    ((nnue_move)((unsigned)(to) | ((unsigned)(from) << 7) | (unsigned)(flags) | \
                 ((unsigned)(type) << 16) | ((unsigned)(captured) << 20)))
#define NNUE_SHOGI_MOVE_TO(m) ((int)((m) & 127u))
#define NNUE_SHOGI_MOVE_FROM(m) ((int)(((m) >> 7) & 127u))
#define NNUE_SHOGI_MOVE_IS_PROMOTE(m) (((m) & NNUE_SHOGI_MOVE_PROMOTE) != 0)
#define NNUE_SHOGI_MOVE_IS_DROP(m) (((m) & NNUE_SHOGI_MOVE_DROP) != 0)
#define NNUE_SHOGI_MOVE_TYPE(m) ((int)(((m) >> 16) & 15u))
#define NNUE_SHOGI_MOVE_CAPTURED(m) ((int)(((m) >> 20) & 31u))

typedef struct nnue_shogi_pos {
    nnue_board board;                   /* feature-set view, current after every make/unmake */
    uint8_t cell[NNUE_SHOGI_CELLS];     /* padded mailbox: piece code, 0 empty, walls 0x40 */
    uint8_t king_cell[2];               /* each king's cell in the padded mailbox */
    uint16_t pawn_files[2];             /* bit f-1 set: colour has an unpromoted pawn on file f */
    uint32_t ply;                       /* SFEN move number (YaneuraOu's game ply) */
} nnue_shogi_pos;

#define NNUE_SHOGI_START_SFEN "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

/* Parses an SFEN: board (ranks a..i separated by '/', files 9..1 inside a
 * rank, '+' before a promoted piece), side to move 'b'/'w', hands ('-' or
 * [count]letter tokens in any order, each letter at most once), and an
 * optional move number (default 1). Fields are separated by spaces; trailing
 * whitespace is ignored. Rejected (NNUE_E_SYNTAX, column of the culprit): bad
 * letters, wrong rank lengths or rank count, '+' on gold/king, more pieces of
 * a kind than the set has (board + both hands: 18 pawns, 4 lances, knights,
 * silvers, golds, 2 bishops, rooks), a missing or second king, kings in hand,
 * unpromoted pawns/lances/knights where they could never move, two unpromoted
 * pawns of a side on one file, bad side to move or move number, and the side
 * not to move being in check. Handicap positions (missing pieces) are valid.
 * "startpos" is NNUE_SHOGI_START_SFEN, as USI names it. On failure *pos is left unchanged. */
nnue_status nnue_shogi_parse_sfen(nnue_shogi_pos *pos, const char *sfen, nnue_error *err);

/* Writes the SFEN in YaneuraOu's style (hands R B G S N L P, black first,
 * count before the letter when > 1, '-' when both hands are empty). Always
 * NUL-terminated if size > 0; returns the full length like snprintf. 160
 * bytes are always enough. */
size_t nnue_shogi_to_sfen(const nnue_shogi_pos *pos, char *buf, size_t size);

/* Fills moves (room for NNUE_MAX_MOVES) with every legal move, including the
 * non-promoting version wherever promotion is optional; returns the count. */
int nnue_shogi_legal_moves(const nnue_shogi_pos *pos, nnue_move *moves);

/* Plays a legal move (from nnue_shogi_legal_moves or nnue_shogi_parse_usi in
 * this very position); fills delta if non-NULL (rules at the top of this file). */
void nnue_shogi_make(nnue_shogi_pos *pos, nnue_move move, nnue_delta *delta);

/* Takes back the most recent make, which must have been `move`. */
void nnue_shogi_unmake(nnue_shogi_pos *pos, nnue_move move);

/* Reads a USI move ("7g7f", "8h2b+", "P*5e"). NNUE_E_SYNTAX if malformed,
 * NNUE_E_ILLEGAL (naming the move and the reason) if not legal here. */
nnue_status nnue_shogi_parse_usi(const nnue_shogi_pos *pos, const char *text, nnue_move *move,
                                 nnue_error *err);

/* Writes the USI form of a move (at most 5 characters + NUL). Returns the full length. */
size_t nnue_shogi_move_to_usi(nnue_move move, char *buf, size_t size);

/* 1 if the side to move is in check. */
int nnue_shogi_in_check(const nnue_shogi_pos *pos);

/* Leaf count of the legal move tree (bulk counting at depth 1); depth <= 0 gives 1
 * (0 only if the move stack for a depth above 8 cannot be allocated). */
unsigned long long nnue_shogi_perft(nnue_shogi_pos *pos, int depth);

/* The adapter as a game vtable (also listed in games/registry.c). */
extern const nnue_game nnue_game_shogi;

#ifdef __cplusplus
}
#endif
#endif
