/* nnue_board.h: the game-neutral contract between game adapters and feature sets.
 *
 * A game adapter (games/chess, games/shogi, or an engine's own board code)
 * keeps an nnue_board up to date and reports, for every move it makes, an
 * nnue_delta listing the pieces that changed. Feature sets read only these two
 * structs, never a game's internals, so chess and shogi share all machinery.
 *
 * Conventions
 *  - Colours: 0 = the side that moves first (white in chess, black/sente in
 *    shogi), 1 = the other side.
 *  - Piece code: NNUE_PIECE(colour, type), 0 = empty square. Types are
 *    game-specific, listed below; both start at 1.
 *  - Squares: chess a1=0, b1=1 .. h8=63. Shogi (file-1)*9 + (rank-1), so
 *    1a=0, 1i=8, 9i=80 (the layout of shogi FORMATS.md section 2).
 */
#ifndef NNUE_BOARD_H
#define NNUE_BOARD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NNUE_MAX_SQUARES 81
#define NNUE_MAX_HAND_TYPES 8   /* hand[colour][type], type 1..7 used in shogi */
#define NNUE_MAX_DIRTY 3        /* pieces one move can change (chess: 2, shogi: 2) */
#define NNUE_MAX_MOVES 600      /* legal moves in any position (shogi max is 593) */

#define NNUE_PIECE(colour, type) ((uint8_t)(((colour) << 4) | (type)))
#define NNUE_PIECE_COLOUR(p) ((p) >> 4)
#define NNUE_PIECE_TYPE(p) ((p) & 15)

enum nnue_chess_type {
    NNUE_CHESS_PAWN = 1, NNUE_CHESS_KNIGHT, NNUE_CHESS_BISHOP,
    NNUE_CHESS_ROOK, NNUE_CHESS_QUEEN, NNUE_CHESS_KING
};

enum nnue_shogi_type {
    NNUE_SHOGI_PAWN = 1, NNUE_SHOGI_LANCE, NNUE_SHOGI_KNIGHT, NNUE_SHOGI_SILVER,
    NNUE_SHOGI_GOLD, NNUE_SHOGI_BISHOP, NNUE_SHOGI_ROOK, NNUE_SHOGI_KING,
    NNUE_SHOGI_PRO_PAWN, NNUE_SHOGI_PRO_LANCE, NNUE_SHOGI_PRO_KNIGHT,
    NNUE_SHOGI_PRO_SILVER, NNUE_SHOGI_HORSE, NNUE_SHOGI_DRAGON
};

/* The board as feature sets see it. Adapters keep it current on make/unmake. */
typedef struct nnue_board {
    uint8_t num_squares;                     /* 64 or 81 */
    uint8_t side_to_move;                    /* colour 0 or 1 */
    uint8_t king_sq[2];                      /* square of each colour's king */
    uint8_t piece_count;                     /* pieces on the board, kings included */
    uint8_t piece_on[NNUE_MAX_SQUARES];      /* piece code or 0 */
    uint8_t hand[2][NNUE_MAX_HAND_TYPES];    /* shogi: pieces in hand by unpromoted type */
} nnue_board;

/* Location of a piece before or after a move. */
#define NNUE_SQ_NONE (-1)   /* the piece does not exist on this side of the move */
#define NNUE_SQ_HAND (-2)   /* the piece is in a hand, at slot old_slot/new_slot */

/* One changed piece. A moving piece is one entry (even when it promotes: the
 * piece code changes); a captured chess piece has new_sq = NNUE_SQ_NONE; a
 * captured shogi piece goes to the capturer's hand (new_piece has the
 * capturer's colour and the demoted type, new_slot = count in hand before);
 * a drop comes from old_slot = count in hand before the drop, minus 1. */
typedef struct nnue_dirty {
    uint8_t old_piece, new_piece;
    int8_t old_sq, new_sq;
    uint8_t old_slot, new_slot;
} nnue_dirty;

typedef struct nnue_delta {
    uint8_t count;                  /* number of valid entries in dirty[] */
    uint8_t king_moved[2];          /* colour c's king changed square */
    nnue_dirty dirty[NNUE_MAX_DIRTY];
} nnue_delta;

/* Moves are opaque 32-bit values chosen by each adapter. */
typedef uint32_t nnue_move;

struct nnue_error;

/* What the tool and the generic tests need from a game. Positions are opaque
 * blobs of pos_size bytes; an adapter's own header offers typed functions. */
typedef struct nnue_game {
    const char *name;           /* "chess", "shogi" */
    unsigned pos_size;          /* bytes of one position object */
    int (*parse)(void *pos, const char *text, struct nnue_error *err);       /* FEN/SFEN, 0 = ok */
    void (*format)(const void *pos, char *buf, unsigned size);               /* FEN/SFEN */
    int (*legal_moves)(const void *pos, nnue_move *moves);                   /* returns count */
    void (*make)(void *pos, nnue_move move, nnue_delta *delta);              /* delta may be NULL */
    void (*unmake)(void *pos, nnue_move move);
    int (*parse_move)(const void *pos, const char *text, nnue_move *move,
                      struct nnue_error *err);                              /* 0 = ok, legal */
    void (*format_move)(nnue_move move, char *buf, unsigned size);          /* UCI/USI */
    const nnue_board *(*board)(const void *pos);
    int (*in_check)(const void *pos);                                        /* side to move in check */
    unsigned long long (*perft)(void *pos, int depth);  /* optional fast path; NULL = generic */
    const char *start;          /* FEN/SFEN of the start position ("startpos") */
} nnue_game;

/* Registered games (games/registry.c); NULL-terminated list, lookup by name. */
extern const nnue_game *const nnue_games[];
const nnue_game *nnue_game_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
