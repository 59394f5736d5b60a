/* games/xiangqi/game.c: the xiangqi descriptor (nnue_game_xiangqi): UCI moves in Pikafish's
 * notation (files a..i, ranks 0..9: "h2e2"), perft, the selector variables. */
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "games/xiangqi/internal.h"

typedef uint8_t squares16 __attribute__((vector_size(16)));

/* Squares holding code[v][0] or code[v][1] into n[v] for v < kinds: 16 squares a step in portable
 * vectors (as the board checks), the last step the 16 squares ending at the last one with the
 * lanes already counted masked off (no square-by-square tail). A lane counts at most 6 squares, so
 * the byte sums cannot carry. */
static inline __attribute__((always_inline)) void count_kinds(const nnue_board *b, const uint8_t (*code)[2], int kinds,
                                                              int *n)
{
    enum { STEPS = XQ_SQUARES / 16, LAST = XQ_SQUARES - 16, SEEN = STEPS * 16 - LAST };
    _Static_assert(XQ_SQUARES % 16 != 0 && XQ_SQUARES >= 16, "a partial last step");
    squares16 hits[4] = {{0}, {0}, {0}, {0}};
    squares16 keep; /* the last step's lanes past the squares counted before it */
    for (int lane = 0; lane < 16; lane++)
        keep[lane] = lane < SEEN ? 0 : 0xFF;
    for (int step = 0; step <= STEPS; step++) {
        squares16 p;
        memcpy(&p, b->piece_on + (step < STEPS ? 16 * step : LAST), 16);
        squares16 mask = step < STEPS ? (squares16){0} - 1 : keep;
        for (int v = 0; v < kinds; v++)
            hits[v] -= ((squares16)(p == code[v][0]) | (squares16)(p == code[v][1])) & mask; /* -1 per hit */
    }
    for (int v = 0; v < kinds; v++) {
        uint64_t h[2];
        memcpy(h, &hits[v], 16);
        n[v] = (int)(((h[0] + h[1]) * 0x0101010101010101ull) >> 56);
    }
}

/* Squares holding piece code x or y. */
static int count_codes(const nnue_board *b, uint8_t x, uint8_t y)
{
    const uint8_t code[1][2] = {{x, y}};
    int n;
    count_kinds(b, code, 1, &n);
    return n;
}

int xq_count(const nnue_board *b, int colour, int type)
{
    return count_codes(b, (uint8_t)NNUE_PIECE(colour, type), (uint8_t)NNUE_PIECE(colour, type));
}

static unsigned long long perft_rec(xq_pos *p, int depth)
{
    nnue_move moves[NNUE_MAX_MOVES];
    int n = xq_legal_moves(p, moves);
    if (depth <= 1)
        return (unsigned long long)n;
    unsigned long long total = 0;
    for (int i = 0; i < n; i++) {
        xq_make(p, moves[i], NULL);
        total += perft_rec(p, depth - 1);
        xq_unmake(p, moves[i]);
    }
    return total;
}

static unsigned long long v_perft(void *pos, int depth)
{
    return depth <= 0 ? 1 : perft_rec(pos, depth);
}

static void v_format_move(nnue_move move, char *buf, unsigned size)
{
    int from = XQ_FROM(move), to = XQ_TO(move);
    if (size)
        snprintf(buf, size, "%c%c%c%c", 'a' + XQ_FILE(from), '0' + XQ_RANK(from), 'a' + XQ_FILE(to),
                 '0' + XQ_RANK(to));
}

static int v_parse_move(const void *pos, const char *text, nnue_move *move, nnue_error *err)
{
    nnue_error_clear(err);
    nnue_move moves[NNUE_MAX_MOVES];
    int n = xq_legal_moves(pos, moves);
    for (int i = 0; i < n; i++) {
        char buf[8];
        v_format_move(moves[i], buf, sizeof buf);
        if (strcmp(buf, text) == 0) {
            *move = moves[i];
            return 0;
        }
    }
    return (int)nnue_fail(err, NNUE_E_ARG, "xiangqi move '%s': not a legal move here (expected e.g. h2e2)",
                          text);
}

static int v_parse(void *pos, const char *text, nnue_error *err)
{
    return xq_parse_fen(pos, text, err);
}

static void v_format(const void *pos, char *buf, unsigned size)
{
    xq_format_fen(pos, buf, size);
}

static int v_legal_moves(const void *pos, nnue_move *moves)
{
    return xq_legal_moves(pos, moves);
}

static void v_make(void *pos, nnue_move move, nnue_delta *delta)
{
    xq_make(pos, move, delta);
}

static void v_make_threats(void *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats)
{
    xq_make_threats(pos, move, delta, threats, NULL);
}

static void v_make_threats_filtered(void *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats,
                                    const nnue_threat_filter *filter)
{
    xq_make_threats(pos, move, delta, threats, filter);
}

static void v_unmake(void *pos, nnue_move move)
{
    xq_unmake(pos, move);
}

static const nnue_board *v_board(const void *pos)
{
    return &((const xq_pos *)pos)->board;
}

static int v_in_check(const void *pos)
{
    return xq_in_check(pos);
}

/* No legal move loses (checkmate and stalemate alike); at the third occurrence of a position
 * the side that gave check with every one of its moves since the first loses (perpetual check),
 * else it is a draw; the ply cap is a draw. Simplified: perpetual chase and rule 60 are not
 * judged, and mutual perpetual check is a draw. */
static int v_adjudicate(const void *pos, const nnue_game_history *h, int *winner, const char **reason)
{
    nnue_move moves[NNUE_MAX_MOVES];
    *winner = -1;
    if (xq_legal_moves(pos, moves) == 0) {
        *winner = !((const xq_pos *)pos)->board.side_to_move;
        *reason = xq_in_check(pos) ? "checkmate" : "stalemate (loses)";
    } else if (h->repetitions >= 2 && h->always_checked[0] != h->always_checked[1]) {
        *winner = h->always_checked[0] ? 1 : 0;
        *reason = "perpetual check (loses)";
    } else if (h->repetitions >= 2) {
        *reason = "threefold repetition";
    } else if (h->plies >= h->max_plies) {
        *reason = "ply cap";
    } else {
        return 0;
    }
    return 1;
}

/* Selector variables: rooks and horses + cannons of each side, side to move first (the
 * counts Pikafish's layer stack is chosen from). */
#define STM(b) ((b)->side_to_move & 1)
static int32_t stm_rooks(const nnue_board *b) { return xq_count(b, STM(b), XQ_ROOK); }
static int32_t nstm_rooks(const nnue_board *b) { return xq_count(b, !STM(b), XQ_ROOK); }
/* Horses and cannons of one colour in one pass over the squares. */
static int32_t minors(const nnue_board *b, int colour)
{
    return count_codes(b, (uint8_t)NNUE_PIECE(colour, XQ_KNIGHT), (uint8_t)NNUE_PIECE(colour, XQ_CANNON));
}
static int32_t stm_minors(const nnue_board *b) { return minors(b, STM(b)); }
static int32_t nstm_minors(const nnue_board *b) { return minors(b, !STM(b)); }

static const nnue_game_var vars[] = {
    {"stm_rooks", 0, 2, stm_rooks},
    {"nstm_rooks", 0, 2, nstm_rooks},
    {"stm_minors", 0, 4, stm_minors},
    {"nstm_minors", 0, 4, nstm_minors},
};

/* All four at once (nnue_game.var_values), in one pass over the squares: the side to move's rooks,
 * the other side's, the side to move's horses and cannons, the other side's. */
static void var_values(const nnue_board *b, int32_t *values)
{
    const int us = STM(b);
    const uint8_t code[4][2] = {
        {(uint8_t)NNUE_PIECE(us, XQ_ROOK), (uint8_t)NNUE_PIECE(us, XQ_ROOK)},
        {(uint8_t)NNUE_PIECE(!us, XQ_ROOK), (uint8_t)NNUE_PIECE(!us, XQ_ROOK)},
        {(uint8_t)NNUE_PIECE(us, XQ_KNIGHT), (uint8_t)NNUE_PIECE(us, XQ_CANNON)},
        {(uint8_t)NNUE_PIECE(!us, XQ_KNIGHT), (uint8_t)NNUE_PIECE(!us, XQ_CANNON)},
    };
    int n[4];
    count_kinds(b, code, 4, n);
    for (int v = 0; v < 4; v++)
        values[v] = n[v];
}

static const char *const piece_names[] = {"R", "A", "C", "P", "N", "B", "K"};

static const char *const probes[] = {
    XQ_START_FEN,
    "r1bakab1r/9/1cn4cn/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2",
    "3k5/4a4/4b4/9/9/9/9/4B4/4A4/3AK1R2 w - - 0 60",
    NULL,
};

const nnue_game nnue_game_xiangqi = {
    .name = "xiangqi",
    .files = XQ_FILES,
    .ranks = XQ_RANKS,
    .piece_types = XQ_KING,
    .king_type = XQ_KING,
    .max_pieces = 32,
    .piece_names = piece_names,
    .vars = vars,
    .n_vars = (int)(sizeof vars / sizeof vars[0]),
    .var_values = var_values,
    .start = XQ_START_FEN,
    .position_word = "fen",
    .protocol = "uci",
    .colour_names = {"red", "black"},
    .counter_fields = 2,
    .max_plies = 400,
    .probes = probes,
    .pos_size = sizeof(xq_pos),
    .parse = v_parse,
    .format = v_format,
    .legal_moves = v_legal_moves,
    .make = v_make,
    .unmake = v_unmake,
    .parse_move = v_parse_move,
    .format_move = v_format_move,
    .board = v_board,
    .in_check = v_in_check,
    .perft = v_perft,
    .adjudicate = v_adjudicate,
    .size = sizeof(nnue_game),
    .make_threats = v_make_threats,
    .make_threats_filtered = v_make_threats_filtered,
};

