/* games/chess/uci.c: UCI move strings in and out ("e2e4", castling as the
 * king's move "e1g1", or in Chess960 mode as the king taking its own rook
 * "e1h1" (UCI_Chess960), promotion with a lower-case suffix "e7e8q"). */
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "games/chess/bitboard.h"

static const char promo_letter[] = "  nbrq";   /* index: NNUE_CHESS_KNIGHT..QUEEN */

size_t nnue_chess_move_to_uci(nnue_move move, char *buf, size_t size)
{
    char out[6];
    int from = NNUE_CHESS_MOVE_FROM(move), to = NNUE_CHESS_MOVE_TO(move);
    int promo = NNUE_CHESS_MOVE_PROMO(move);
    size_t n = 0;
    out[n++] = (char)('a' + SQ_FILE(from));
    out[n++] = (char)('1' + SQ_RANK(from));
    out[n++] = (char)('a' + SQ_FILE(to));
    out[n++] = (char)('1' + SQ_RANK(to));
    if (promo >= NNUE_CHESS_KNIGHT && promo <= NNUE_CHESS_QUEEN)
        out[n++] = promo_letter[promo];
    if (buf && size) {
        size_t copy = n < size ? n : size - 1;
        memcpy(buf, out, copy);
        buf[copy] = 0;
    }
    return n;
}

/* The square a move's UCI text names as its destination in this position's notation. */
static int notation_to(const nnue_chess_pos *pos, nnue_move move)
{
    int to = NNUE_CHESS_MOVE_TO(move);
    if (!pos->chess960 || NNUE_CHESS_MOVE_KIND(move) != NNUE_CHESS_MOVE_CASTLE)
        return to;
    int us = NNUE_CHESS_MOVE_FROM(move) >= 56;
    return pos->castle_rook[2 * us + (SQ_FILE(to) == 2)];
}

size_t nnue_chess_move_to_uci_in(const nnue_chess_pos *pos, nnue_move move, char *buf, size_t size)
{
    if (!pos) {
        if (buf && size)
            buf[0] = 0;
        return 0;
    }
    int to = notation_to(pos, move);
    nnue_move shown = NNUE_CHESS_MOVE(NNUE_CHESS_MOVE_FROM(move), to, NNUE_CHESS_MOVE_PROMO(move), 0);
    return nnue_chess_move_to_uci(shown, buf, size);
}

void nnue_chess_set_chess960(nnue_chess_pos *pos, int on)
{
    if (!pos)
        return;
    pos->chess960 = (uint8_t)(on != 0);
}

static int is_file(char c) { return c >= 'a' && c <= 'h'; }
static int is_rank(char c) { return c >= '1' && c <= '8'; }

nnue_status nnue_chess_parse_uci(const nnue_chess_pos *pos, const char *text, nnue_move *move,
                                 nnue_error *err)
{
    nnue_error_clear(err);
    if (!pos || !text || !move)
        return nnue_fail(err, NNUE_E_ARG, "nnue_chess_parse_uci: NULL argument");
    size_t len = strnlen(text, 16);
    if (len < 4 || len > 5 || !is_file(text[0]) || !is_rank(text[1]) || !is_file(text[2]) ||
        !is_rank(text[3]) || (len == 5 && !strchr("nbrq", text[4])))
        return nnue_fail(err, NNUE_E_SYNTAX, "malformed move '%.16s%s': expected a UCI move "
                         "like e2e4 or e7e8q (promotion letter n, b, r or q)", text,
                         len > 15 ? "..." : "");
    int from = SQ_MAKE(text[0] - 'a', text[1] - '1');
    int to = SQ_MAKE(text[2] - 'a', text[3] - '1');
    int promo = len == 5 ? (int)(strchr(promo_letter, text[4]) - promo_letter) : 0;
    nnue_move moves[NNUE_MAX_MOVES];
    int n = nnue_chess_legal_moves(pos, moves);
    int needs_promo = 0;
    for (int i = 0; i < n; i++) {
        if (NNUE_CHESS_MOVE_FROM(moves[i]) != from || notation_to(pos, moves[i]) != to)
            continue;
        if (NNUE_CHESS_MOVE_PROMO(moves[i]) == promo) {
            *move = moves[i];
            return NNUE_OK;
        }
        needs_promo = NNUE_CHESS_MOVE_PROMO(moves[i]) != 0;
    }
    if (needs_promo && !promo)
        return nnue_fail(err, NNUE_E_ILLEGAL, "illegal move '%s': a pawn reaching the last rank "
                         "needs a promotion letter (e.g. %sq)", text, text);
    if (promo && !needs_promo && n > 0) {
        for (int i = 0; i < n; i++)
            if (NNUE_CHESS_MOVE_FROM(moves[i]) == from && notation_to(pos, moves[i]) == to)
                return nnue_fail(err, NNUE_E_ILLEGAL, "illegal move '%s': this move is not a "
                                 "promotion", text);
    }
    return nnue_fail(err, NNUE_E_ILLEGAL, "illegal move '%s': not a legal move in this position%s",
                     text, n == 0 ? " (no legal moves: the game is over)" : "");
}
