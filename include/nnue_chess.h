/* nnue_chess.h: the standard-chess game adapter (bitboard position, FEN, UCI,
 * legal move generation, make/unmake with nnue_delta reporting).
 *
 * Squares: a1 = 0, b1 = 1 .. h8 = 63. Colours: 0 = white, 1 = black. Piece
 * codes on the embedded nnue_board: NNUE_PIECE(colour, NNUE_CHESS_PAWN..KING).
 * Chess960 / Double Fischer Random: castling rights in the FEN may be KQkq
 * (X-FEN: the outermost rook on that side of the king; a file letter names an
 * inner one) or rook files (Shredder-FEN: A-H white, a-h black). A FEN whose
 * rights need a non-standard king or rook square, or that uses file letters,
 * puts the position in Chess960 mode (nnue_chess_set_chess960 sets it as an
 * engine's UCI_Chess960 option does): castling moves are then written and read
 * as "king takes own rook" (e1h1), FEN output uses file letters, and castling
 * follows the Chess960 rules (king to g/c, rook to f/d, every square between
 * empty but those two pieces, the king's path not attacked).
 *
 * Delta rules (what nnue_chess_make writes into an nnue_delta when non-NULL):
 *  - dirty[0] is always the moving piece: old_sq = from, new_sq = to,
 *    old_piece = the piece before the move, new_piece = the piece after it
 *    (differs only on promotion: pawn -> promoted piece). For castling the
 *    moving piece is the king (e1 -> g1 etc.).
 *  - dirty[1], if present, is either the captured piece (old_sq = the square
 *    it stood on, which for en passant is the victim pawn's own square, not
 *    the target square; new_sq = NNUE_SQ_NONE; new_piece = 0) or, for
 *    castling, the rook (old_sq = its square, new_sq = f1/d1/f8/d8,
 *    old_piece = new_piece = the rook). In Chess960 the king may castle
 *    without changing square (old_sq = new_sq).
 *  - count is 1 or 2 (never above NNUE_MAX_DIRTY); old_slot/new_slot are 0.
 *  - king_moved[c] = 1 iff colour c's king changed square (king moves and
 *    castling), else 0.
 *
 * En passant: the position stores an en-passant square only when a pawn of
 * the side to move stands next to the pawn that just made a double step
 * (legality, e.g. pins, is not checked). This is the rule Stockfish uses when
 * printing a FEN, so nnue_chess_to_fen matches its output byte for byte. On
 * input any en-passant square consistent with the board is accepted and then
 * kept only under that rule.
 *
 * Errors: FEN errors use err->file = "FEN", err->line = 1 and err->column =
 * the 1-based character position in the FEN string; the message names the
 * field (1..6). Move-string errors carry no location (file "", line 0) and
 * the message quotes the move. */
#ifndef NNUE_CHESS_H
#define NNUE_CHESS_H

#include <stddef.h>
#include <stdint.h>

#include "nnue_board.h"
#include "nnue_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Moves kept for unmake. Deeper make sequences wrap around: only the most
 * recent NNUE_CHESS_MAX_PLY makes can be undone. */
#define NNUE_CHESS_MAX_PLY 1024

/* Castling-right bits. */
#define NNUE_CHESS_CASTLE_WK 1  /* K: white king side */
#define NNUE_CHESS_CASTLE_WQ 2  /* Q: white queen side */
#define NNUE_CHESS_CASTLE_BK 4  /* k */
#define NNUE_CHESS_CASTLE_BQ 8  /* q */

/* Move encoding (nnue_move): bits 0-5 from square, 6-11 to square, 12-14 the
 * promotion piece type (0 = none, else NNUE_CHESS_KNIGHT..QUEEN), 15-16 kind.
 * Castling is encoded as the king's move to its g/c-file square (e1g1), kind
 * CASTLE, also in Chess960. The value 0 is never a legal move. */
#define NNUE_CHESS_MOVE_NORMAL 0u
#define NNUE_CHESS_MOVE_CASTLE 1u
#define NNUE_CHESS_MOVE_EP 2u
#define NNUE_CHESS_MOVE(from, to, promo, kind) \
    ((nnue_move)((unsigned)(from) | ((unsigned)(to) << 6) | ((unsigned)(promo) << 12) | \
                 ((unsigned)(kind) << 15)))
#define NNUE_CHESS_MOVE_FROM(m) ((int)((m) & 63u))
#define NNUE_CHESS_MOVE_TO(m) ((int)(((m) >> 6) & 63u))
#define NNUE_CHESS_MOVE_PROMO(m) ((int)(((m) >> 12) & 7u))
#define NNUE_CHESS_MOVE_KIND(m) ((unsigned)(((m) >> 15) & 3u))

/* State restored by unmake. */
typedef struct nnue_chess_undo {
    uint32_t halfmove;
    uint8_t captured;   /* piece code taken by the move, 0 if none */
    uint8_t castling;
    int8_t ep;
    uint8_t pad_;
} nnue_chess_undo;

typedef struct nnue_chess_pos {
    nnue_board board;            /* feature-set view, current after every make/unmake */
    uint64_t by_type[7];         /* [NNUE_CHESS_PAWN..KING]: both colours; [0] unused */
    uint64_t by_colour[2];
    uint64_t occupied;
    uint8_t castling;            /* NNUE_CHESS_CASTLE_* bits */
    int8_t castle_rook[4];       /* rook square of each right (bit order WK WQ BK BQ), -1 none */
    uint8_t chess960;            /* Chess960 notation (see the top of this file) */
    int8_t ep;                   /* en-passant target square, -1 if none */
    uint32_t halfmove;           /* FEN field 5 */
    uint32_t fullmove;           /* FEN field 6 */
    uint32_t ply;                /* makes not yet undone (index into undo, mod MAX_PLY) */
    nnue_chess_undo undo[NNUE_CHESS_MAX_PLY];
} nnue_chess_pos;

#define NNUE_CHESS_START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* Builds the attack tables once (thread-safe). Called by nnue_chess_parse_fen,
 * so only needed before using a position that was not parsed in this process. */
void nnue_chess_init(void);

/* Parses a six-field FEN strictly (single spaces, no extra text), or a
 * four-field one without the clocks (EPD's position part: halfmove clock 0,
 * fullmove number 1), or "startpos" (NNUE_CHESS_START_FEN, as UCI names it). Every
 * failure, malformed text or an impossible board (king count, more than 16
 * pieces or 8 pawns a side, pawns on rank 1/8, castling rights or en passant
 * that contradict the board, side not to move in check), returns
 * NNUE_E_SYNTAX with the field and column (see the top of this file); pos is
 * then unspecified. */
nnue_status nnue_chess_parse_fen(nnue_chess_pos *pos, const char *fen, nnue_error *err);

/* Writes the FEN (always NUL-terminated if size > 0, truncated if too small).
 * Returns the full length, like snprintf. 128 bytes are always enough. */
size_t nnue_chess_to_fen(const nnue_chess_pos *pos, char *buf, size_t size);

/* Fills moves (room for NNUE_MAX_MOVES) with the legal moves; returns the count. */
int nnue_chess_legal_moves(const nnue_chess_pos *pos, nnue_move *moves);

/* Plays a legal move (from nnue_chess_legal_moves or nnue_chess_parse_uci);
 * fills delta if non-NULL (rules at the top of this file). */
void nnue_chess_make(nnue_chess_pos *pos, nnue_move move, nnue_delta *delta);

/* nnue_chess_make, and the move's threat changes (nnue_board.h nnue_threats: the exact
 * difference of the two boards' attacker-victim pairs, none in both lists), computed from the
 * position's bitboards while the move is made, for nnue_state_push_threats. threats must not
 * be NULL; delta may be. */
void nnue_chess_make_threats(nnue_chess_pos *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats);
/* The same, leaving out the pairs `filter` does not pass (nnue_board.h nnue_threat_filter; the
 * state's: nnue_state_threat_filter); filter NULL: every pair, as nnue_chess_make_threats. */
void nnue_chess_make_threats_filtered(nnue_chess_pos *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats,
                                      const nnue_threat_filter *filter);

/* Takes back the most recent make, which must have been `move`. */
void nnue_chess_unmake(nnue_chess_pos *pos, nnue_move move);

/* Chess960 notation on (1) or off (0): UCI_Chess960 of an engine. Castling
 * rights and rules do not depend on it, only how moves and FENs are written. */
void nnue_chess_set_chess960(nnue_chess_pos *pos, int on);

/* Reads a UCI move ("e2e4", "e1g1", "e7e8q"; castling in Chess960 mode as the
 * king taking its own rook, "e1h1"). NNUE_E_SYNTAX if malformed,
 * NNUE_E_ILLEGAL if well formed but not legal here. */
nnue_status nnue_chess_parse_uci(const nnue_chess_pos *pos, const char *text, nnue_move *move,
                                 nnue_error *err);

/* Writes the UCI form of a move (at most 5 characters + NUL; needs size >= 6
 * to be complete), castling as the king's move (e1g1). Returns the full length. */
size_t nnue_chess_move_to_uci(nnue_move move, char *buf, size_t size);

/* The same in the position's notation: in Chess960 mode castling is written
 * as the king taking its own rook (e1h1). pos is the position before the move. */
size_t nnue_chess_move_to_uci_in(const nnue_chess_pos *pos, nnue_move move, char *buf, size_t size);

/* 1 if the side to move is in check. */
int nnue_chess_in_check(const nnue_chess_pos *pos);

/* Leaf count of the legal move tree (bulk counting at depth 1); depth <= 0 gives 1. */
unsigned long long nnue_chess_perft(nnue_chess_pos *pos, int depth);

/* The adapter as a game vtable (also listed in games/registry.c). */
extern const nnue_game nnue_game_chess;

#ifdef __cplusplus
}
#endif
#endif
