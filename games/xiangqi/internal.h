/* games/xiangqi/internal.h: the xiangqi position, move encoding and the helpers shared by
 * the adapter's files (not a public header). Facts: Pikafish's FEN and square numbering. */
#ifndef NNUE_GAMES_XIANGQI_INTERNAL_H
#define NNUE_GAMES_XIANGQI_INTERNAL_H

#include <stdint.h>

#include "nnue_board.h"

/* Squares: rank * 9 + file, file a..i = 0..8, rank 0..9 with rank 0 the back rank of colour 0
 * (red, "w" in Pikafish's FEN, upper case); colour 1 is black. Pikafish's numbering. */
#define XQ_FILES 9
#define XQ_RANKS 10
#define XQ_SQUARES 90
#define XQ_SQ(f, r) ((r) * XQ_FILES + (f))
#define XQ_FILE(s) ((s) % XQ_FILES)
#define XQ_RANK(s) ((s) / XQ_FILES)

/* Piece types in Pikafish's order (its feature indexing follows it). */
enum { XQ_ROOK = 1, XQ_ADVISOR, XQ_CANNON, XQ_PAWN, XQ_KNIGHT, XQ_BISHOP, XQ_KING };

/* A move: from, to, the captured piece and the rule-60 counter before it, so unmake needs
 * no undo stack. */
#define XQ_MOVE(from, to, cap, r60) \
    ((nnue_move)(from) | (nnue_move)(to) << 7 | (nnue_move)(cap) << 14 | (nnue_move)(r60) << 19)
#define XQ_FROM(m) ((int)((m) & 127))
#define XQ_TO(m) ((int)(((m) >> 7) & 127))
#define XQ_CAPTURED(m) ((unsigned)(((m) >> 14) & 31))
#define XQ_RULE60(m) ((unsigned)(((m) >> 19) & 127))

typedef struct xq_pos {
    nnue_board board;
    uint8_t rule60;     /* plies since the last capture (Pikafish's FEN field 5) */
    uint16_t ply;       /* plies from the FEN's move 1 */
    uint64_t occupied[2]; /* the occupied squares, bit sq % 64 of word sq / 64 (the threat
                             recorder's bitboards start from them, threats.c) */
    uint64_t by_piece[16][2]; /* the squares of each piece, as occupied, by xq_piece_slot */
} xq_pos;

static inline void xq_flip_occupied(xq_pos *pos, int sq)
{
    pos->occupied[sq >> 6] ^= (uint64_t)1 << (sq & 63);
}

/* by_piece's slot of a piece code: type, + 8 for colour 1. */
static inline int xq_piece_slot(unsigned piece)
{
    return (int)(((piece >> 4) & 1) * 8 + (piece & 7));
}

static inline void xq_flip_piece(xq_pos *pos, unsigned piece, int sq)
{
    pos->by_piece[xq_piece_slot(piece)][sq >> 6] ^= (uint64_t)1 << (sq & 63);
}

#define XQ_START_FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

/* position.c */
int xq_parse_fen(xq_pos *pos, const char *text, nnue_error *err);
void xq_format_fen(const xq_pos *pos, char *buf, unsigned size);
/* 1 if a piece of this code may stand on sq (advisors, elephants, pawns and kings are
 * confined; Pikafish refuses positions with them elsewhere). */
int xq_square_valid(unsigned piece, int sq);

/* movegen.c */
int xq_attacked(const nnue_board *b, int sq, int by);
int xq_in_check(const xq_pos *pos);
int xq_legal_moves(const xq_pos *pos, nnue_move *moves);
void xq_make(xq_pos *pos, nnue_move move, nnue_delta *delta);
void xq_unmake(xq_pos *pos, nnue_move move);

/* threats.c: xq_make with the move's threat changes (the pairs of every piece's attacks on
 * occupied squares that the move removes and adds) written into *threats first. */
void xq_make_threats(xq_pos *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats,
                     const nnue_threat_filter *filter);

/* game.c: pieces of one colour and type on the board (selector variables, features). */
int xq_count(const nnue_board *b, int colour, int type);

#endif
