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
 *    1a=0, 1i=8, 9i=80 (the layout of shogi FORMATS.md section 2). Another
 *    game numbers its files x ranks squares 0..files*ranks-1 as its
 *    descriptor (nnue_game below) documents.
 *
 * ABI: NNUE_MAX_SQUARES is 90 since soversion 1 (9x10 boards; it was 81), so
 * nnue_board changed size and nnue_game grew a descriptor: rebuild engines
 * that embed them (CHANGELOG.md).
 */
#ifndef NNUE_BOARD_H
#define NNUE_BOARD_H

#include <stddef.h>
#include <stdint.h>

#include "nnue_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NNUE_MAX_SQUARES 90     /* up to 9x10 boards; 81 before soversion 1 */
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
    uint8_t num_squares;                     /* files * ranks: 64, 81, 90 */
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
 * a drop comes from old_slot = count in hand before the drop, minus 1.
 * An entry may also only take a piece off (new_sq = NNUE_SQ_NONE) or only put one on (old_sq =
 * NNUE_SQ_NONE): a chess promotion written as the pawn leaving and the promoted piece arriving,
 * two entries, as Stockfish's DirtyPiece has it, changes the same features as the one entry
 * whose piece code changes (examples/stockfish pushes Stockfish's entries as they are). */
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

/* Threat changes of a move, for threat feature sets (chess Full_Threats, xiangqi's threats):
 * optional, handed to nnue_state_push_threats (nnue.h) beside the delta. A threat is a piece
 * `attacker` on square `from` attacking the occupied square `to`, which holds `victim` (piece
 * codes and squares as above), by the game's attack rules alone: every such pair, of either
 * colour against either colour, kings included (or every pair a nnue_threat_filter passes, below:
 * the others are features of no set); each set keeps the pairs that are features in its own
 * tables and maps them per perspective. `removed` lists the threats of the board before
 * the move that the board after does not have, `added` the reverse. A pair in both lists
 * cancels (it costs two weight rows, nothing else); lists that do not describe the move give a
 * defined value of no meaning, as a wrong delta does (push checks codes, squares and counts).
 * The chess and xiangqi adapters write them at make time (nnue_chess_make_threats,
 * nnue_game_make_threats); engines with their own board can write them from their attack
 * bitboards (docs/engines.md).
 * Added in 0.1 without an ABI change: a new struct and new functions only. */
#define NNUE_MAX_THREATS 256    /* threats one list holds (a chess move changes at most 192) */

typedef struct nnue_threat {
    uint8_t attacker, from;     /* attacking piece code and its square */
    uint8_t victim, to;         /* attacked piece code and its square */
} nnue_threat;

typedef struct nnue_threats {
    uint16_t n_removed, n_added;
    nnue_threat removed[NNUE_MAX_THREATS];
    nnue_threat added[NNUE_MAX_THREATS];
} nnue_threats;

/* Which threat pairs a net can read, by piece code (codes below 32): bit y of victims[x] is set
 * when attacker code x on victim code y is a feature of the net for some perspective, king square
 * and pair of squares; attackers[] holds the same pairs by victim (bit x of attackers[y]). A
 * recorder handed a filter may leave out the pairs it does not pass (they map to no feature, so
 * the evaluation is the same), and may keep them. The state's filter: nnue_state_threat_filter
 * (nnue.h); nnue_game_make_threats_filtered and nnue_chess_make_threats_filtered record through
 * one. Added without an ABI change (a new struct and new functions). */
typedef struct nnue_threat_filter {
    uint32_t victims[32];
    uint32_t attackers[32];
} nnue_threat_filter;

/* A selector variable a game offers to YAML stack selectors (core/arch/expr.c): a board fact by
 * name, with the range of its values over every legal board (the loader proves a selector
 * stays in 0..stacks-1 from these bounds). "pieces" (pieces on the board, kings included,
 * 2..max_pieces) exists for every game and is not listed. */
typedef struct nnue_game_var {
    const char *name;
    int32_t lo, hi;
    int32_t (*value)(const nnue_board *board);
} nnue_game_var;

/* What `nnue match` knows about the game so far, for a game's adjudicate() rule. The
 * position key is the position text without its last counter_fields fields. */
typedef struct nnue_game_history {
    int plies;                  /* moves played from the start position */
    int max_plies;              /* the match's ply cap */
    int repetitions;            /* earlier occurrences of the current key, same side to move */
    uint8_t always_checked[2];  /* colour c gave check with each of its moves since the first
                                   of those occurrences (0 when repetitions == 0) */
} nnue_game_history;

/* A finished game, for a game's record writer (`nnue match --out`). */
typedef struct nnue_game_record {
    const char *start;             /* position text the moves start from */
    const char *const *moves;      /* protocol text of each move */
    int plies;
    const char *names[2];          /* the players of colour 0 and colour 1 */
    int winner;                    /* colour, or -1 for a draw */
    int repetition, declared;      /* ended by repetition / by a winning declaration */
    const char *reason;
} nnue_game_record;

/* A game: its descriptor (shape, pieces, texts, selector variables) and its rules as a
 * vtable. Core reads the shape to check boards and deltas and the variables for selectors;
 * the tool reads the texts and rules; nothing outside games/ compares game names.
 * Positions are opaque blobs of pos_size bytes; an adapter's own header offers typed
 * functions. Fields marked optional may be NULL / 0.
 * Versioned by its size, as the extension descriptors by their abi number (nnue_extend.h): a
 * descriptor sets `size = sizeof(nnue_game)` and registers with nnue_register_game; a later
 * field is appended after the last one, so a library keeps accepting the sizes it accepted
 * before. The first version ended at write_record (NNUE_GAME_SIZE_V1, no size field: registered
 * through the deprecated nnue_game_register), the second at material (NNUE_GAME_SIZE_V2). */
typedef struct nnue_game {
    const char *name;           /* YAML 'game' and `--game` word, at most 15 characters */
    /* Shape */
    uint8_t files, ranks;       /* num_squares = files * ranks <= NNUE_MAX_SQUARES */
    uint8_t piece_types;        /* piece types 1..piece_types (at most 15) */
    uint8_t king_type;          /* one king per colour, always on the board */
    uint8_t hand_types;         /* types 1..hand_types may be held in hand; 0 = no hands */
    uint8_t max_hand;           /* bound of one hand count */
    const uint8_t *hand_caps;   /* optional: [t] = most pieces of type t one hand holds (a full
                                   set: shogi pawns 18, lances 4, ...); NULL = max_hand each */
    uint8_t max_pieces;         /* pieces on the board, kings included */
    const char *const *piece_names; /* piece_types entries: type t is piece_names[t - 1],
                                       as colour 0 writes it in the position text */
    const nnue_game_var *vars;  /* selector variables beyond "pieces"; optional */
    int n_vars;
    /* Texts */
    const char *start;          /* position text of the start position ("startpos") */
    const char *position_word;  /* "fen" / "sfen": the header of eval tables */
    const char *protocol;       /* engine protocol of `nnue match`: "uci" or "usi" */
    const char *colour_names[2];/* "white", "black" / "black", "white" */
    uint8_t counter_fields;     /* trailing move-counter fields of the position text */
    int max_plies;              /* `nnue match` default ply cap */
    const char *const *probes;  /* NULL-terminated positions `nnue convert` compares nets on */
    /* Rules */
    unsigned pos_size;          /* bytes of one position object */
    int (*parse)(void *pos, const char *text, struct nnue_error *err);       /* 0 = ok */
    void (*format)(const void *pos, char *buf, unsigned size);
    int (*legal_moves)(const void *pos, nnue_move *moves);                   /* returns count */
    void (*make)(void *pos, nnue_move move, nnue_delta *delta);              /* delta may be NULL */
    void (*unmake)(void *pos, nnue_move move);
    int (*parse_move)(const void *pos, const char *text, nnue_move *move,
                      struct nnue_error *err);                              /* 0 = ok, legal */
    void (*format_move)(nnue_move move, char *buf, unsigned size);          /* protocol notation */
    const nnue_board *(*board)(const void *pos);
    int (*in_check)(const void *pos);                                        /* side to move in check */
    unsigned long long (*perft)(void *pos, int depth);  /* optional fast path; NULL = generic */
    /* Optional, for `nnue match`: whether the game is over (1, *winner = colour or -1 for a
     * draw, *reason a static text) given the position and the history; NULL = over only when
     * the side to move has no legal move (in check: it loses; else a draw) or at the cap. */
    int (*adjudicate)(const void *pos, const nnue_game_history *h, int *winner, const char **reason);
    /* Optional: a win declaration ("bestmove win") by the side to move is valid. NULL = the
     * game has none. */
    int (*declaration_valid)(const void *pos);
    /* Optional: the move in the game's human notation (SAN); the match record is then PGN. */
    void (*human_move)(const void *pos, nnue_move move, char *buf, unsigned size);
    /* Optional: writes a finished game in the game's standard record format (shogi: CSA) to f
     * (a FILE *); 0 or -1. NULL: the tool writes PGN (with human_move) or position lines. */
    int (*write_record)(void *f, const nnue_game_record *game);
    /* ---- Version 2 (ABI addition; every field above is version 1, unchanged) ---- */
    uint32_t size;              /* sizeof(nnue_game) of the header the descriptor was built with */
    /* Optional: make(pos, move, delta), also writing the move's threat changes into *threats
     * (never NULL), for threat feature sets (nnue_game_make_threats); NULL: the game records none
     * (the feature sets then compute them from the boards). */
    void (*make_threats)(void *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats);
    /* Optional: the material of a board in the units of the game's centipawn models (chess: a
     * pawn 1, knight and bishop 3, rook 5, queen 9, both sides counted; Stockfish 17+'s measure,
     * nnue.h NNUE_CP_MATERIAL). NULL: the game has no material rule, and an architecture of it
     * with a material centipawn model gets none (nnue_cp_rule_for says why). */
    int (*material)(const nnue_board *board);
    /* ---- Version 3 (ABI addition; every field above is version 2, unchanged) ---- */
    /* Optional: every selector variable of a board at once, values[v] = vars[v].value(board) for v
     * in 0..n_vars-1 (equal, on every board: tests/games/test_game_versions.c checks the built-in
     * games). A selector over several variables (YaneuraOu's hands and kings: 17) then costs one
     * call an evaluation instead of one a variable. NULL: each value() is called. */
    void (*var_values)(const nnue_board *board, int32_t *values);
    /* Optional, with make_threats: the same, leaving out pairs the filter does not pass (it may
     * keep some; filter NULL: every pair, as make_threats). Fewer pairs to find, hand in and map
     * where a net reads only some (Stockfish 19's: no king pairs, pawns only onto knights and
     * rooks). NULL: nnue_game_make_threats_filtered calls make_threats. */
    void (*make_threats_filtered)(void *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats,
                                  const nnue_threat_filter *filter);
} nnue_game;

/* Bytes of the first version of nnue_game (through write_record), the descriptors of
 * nnue_game_register. */
#define NNUE_GAME_SIZE_V1 offsetof(nnue_game, size)
/* Bytes of the second version (through material): nnue_register_game still accepts them. */
#define NNUE_GAME_SIZE_V2 offsetof(nnue_game, var_values)

/* The built-in games (games/registry.c), NULL-terminated. */
extern const nnue_game *const nnue_games[];

/* Adds a game at run time (an engine's or a test's own adapter), after the built-in ones.
 * Its descriptor must outlive every use (a static const object). Checks the descriptor: its
 * size (sizeof(nnue_game) of this header, or NNUE_GAME_SIZE_V2 of a descriptor built against the
 * second version's header; another size is refused, naming both), a name of 1..15 characters not
 * used by another game, files * ranks <= NNUE_MAX_SQUARES, king_type and hand_types within
 * piece_types <= 15, the required functions, texts and piece names. Returns NNUE_OK, or
 * NNUE_E_ARG with err filled. Registering the same descriptor again is a no-op (NNUE_OK).
 * Thread-safe. At most NNUE_MAX_GAMES registered games. The lookups below then return this very
 * descriptor (of a second-version one: a copy of the current size with the later fields empty,
 * as nnue_game_register makes). */
#define NNUE_MAX_GAMES 16
nnue_status nnue_register_game(const nnue_game *game, nnue_error *err);

/* The older name, for descriptors of the first version (NNUE_GAME_SIZE_V1 bytes: no size
 * field; only those bytes are read). The library registers a copy with the later fields empty
 * (no threat maker, no material rule), which the lookups below return; registering the same
 * descriptor again is a no-op. Deprecated: a descriptor of this header registers with
 * nnue_register_game. */
nnue_status nnue_game_register(const nnue_game *game, nnue_error *err) NNUE_DEPRECATED("use nnue_register_game");

/* Every game, built-in then registered: index 0..nnue_game_count()-1. */
int nnue_game_count(void);
const nnue_game *nnue_game_at(int index);

/* Lookup by name among every game; NULL when unknown. */
const nnue_game *nnue_game_find(const char *name);

/* game->make(pos, move, delta), and the move's threat changes into *threats when the game
 * records them at make time (its make_threats: built-in chess and xiangqi): returns 1 then, else
 * 0 with *threats emptied (push without them: the feature sets compute them from the boards).
 * delta and threats must not be NULL. game: a built-in or registered descriptor (the later
 * fields of a descriptor the library does not know are not read: it makes plainly). */
int nnue_game_make_threats(const nnue_game *game, void *pos, nnue_move move, nnue_delta *delta,
                           nnue_threats *threats);
/* nnue_game_make_threats through a filter (nnue_threat_filter: usually the state's,
 * nnue_state_threat_filter): pairs it does not pass may be left out. filter NULL: every pair. */
int nnue_game_make_threats_filtered(const nnue_game *game, void *pos, nnue_move move, nnue_delta *delta,
                                    nnue_threats *threats, const nnue_threat_filter *filter);
/* 1 when nnue_game_make_threats records threat changes for this game, else 0. */
int nnue_game_records_threats(const nnue_game *game);

/* Leaf count of the legal move tree under pos, depth plies deep (`nnue perft`), for any game:
 * game->perft when the adapter has a fast path, else make/unmake through the descriptor. pos is
 * restored. depth <= 0 returns 1. */
unsigned long long nnue_perft(const nnue_game *game, void *pos, int depth);

#ifdef __cplusplus
}
#endif
#endif
