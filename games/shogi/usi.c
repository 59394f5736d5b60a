/* games/shogi/usi.c: USI move strings ("7g7f", "8h2b+", "P*5e") in and out.
 * Parsing matches the string against the legal moves; a well-formed move that
 * is not among them is diagnosed so the error says why it is illegal. */
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "games/shogi/internal.h"

static const char *const type_names[] = {"?", "pawn", "lance", "knight", "silver", "gold",
                                         "bishop", "rook", "king", "promoted pawn",
                                         "promoted lance", "promoted knight", "promoted silver",
                                         "horse", "dragon"};

size_t nnue_shogi_move_to_usi(nnue_move move, char *buf, size_t size)
{
    char tmp[8];
    int to = NNUE_SHOGI_MOVE_TO(move), n = 0;
    if (NNUE_SHOGI_MOVE_IS_DROP(move)) {
        tmp[n++] = sh_letter[NNUE_SHOGI_MOVE_TYPE(move) & 7];
        tmp[n++] = '*';
    } else {
        int from = NNUE_SHOGI_MOVE_FROM(move);
        tmp[n++] = (char)('1' + from / 9);
        tmp[n++] = (char)('a' + from % 9);
    }
    tmp[n++] = (char)('1' + to / 9);
    tmp[n++] = (char)('a' + to % 9);
    if (NNUE_SHOGI_MOVE_IS_PROMOTE(move))
        tmp[n++] = '+';
    tmp[n] = 0;
    if (buf && size) {
        size_t k = (size_t)n < size - 1 ? (size_t)n : size - 1;
        memcpy(buf, tmp, k);
        buf[k] = 0;
    }
    return (size_t)n;
}

/* The move text as it may be quoted in a message (printable, bounded). */
static void quote(const char *text, char *buf, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; text[i] && n + 5 < size; i++) {
        unsigned char c = (unsigned char)text[i];
        if (i >= 16) {
            n += (size_t)snprintf(buf + n, size - n, "...");
            break;
        }
        if (c >= 0x20 && c < 0x7f && c != '\\')
            buf[n++] = (char)c;
        else
            n += (size_t)snprintf(buf + n, size - n, "\\x%02x", c);
    }
    buf[n] = 0;
}

static int square_of(char file, char rank)
{
    if (file < '1' || file > '9' || rank < 'a' || rank > 'i')
        return -1;
    return (file - '1') * 9 + (rank - 'a');
}

static int drop_type(char c)
{
    for (int t = SH_PAWN; t <= SH_ROOK; t++)
        if (sh_letter[t] == c)
            return t;
    return 0;
}

/* 1 if piece p on cell from attacks cell to on the current board. */
static int reaches(const nnue_shogi_pos *pos, unsigned p, int from, int to)
{
    unsigned m = sh_step_mask[p & 31];
    for (int i = 0; i < 12; i++)
        if (((m >> i) & 1) && from + sh_offset[i] == to)
            return 1;
    m = sh_slide_mask[p & 31];
    for (int i = 0; i < 8; i++) {
        if (!((m >> i) & 1))
            continue;
        for (int c = from + sh_offset[i];; c += sh_offset[i]) {
            if (c == to)
                return 1;
            if (pos->cell[c])
                break;
        }
    }
    return 0;
}

/* Why a well-formed move that is not in the legal list is illegal. */
static void diagnose(const nnue_shogi_pos *pos, int drop, int type, int from, int to, int promote,
                     char *why, size_t size)
{
    int us = pos->board.side_to_move;
    int to_cell = sh_cell_of_sq(to);
    char sq[3] = {(char)('1' + to / 9), (char)('a' + to % 9), 0};
    const char *check = nnue_shogi_in_check(pos) ? "does not answer the check"
                                                 : "leaves the king in check";
    if (drop) {
        int mate_cell = pos->king_cell[us ^ 1] - sh_offset[us == SH_BLACK ? 0 : 1];
        if (!pos->board.hand[us][type])
            snprintf(why, size, "no %s in hand", type_names[type]);
        else if (pos->cell[to_cell])
            snprintf(why, size, "%s is occupied", sq);
        else if (!sh_can_stand(us, type, to_cell))
            snprintf(why, size, "a %s dropped on %s could never move", type_names[type], sq);
        else if (type == SH_PAWN && ((pos->pawn_files[us] >> (to / 9)) & 1))
            snprintf(why, size, "two unpromoted pawns on file %d (nifu)", to / 9 + 1);
        else if (type == SH_PAWN && to_cell == mate_cell && sh_pawn_drop_mates(pos, to_cell))
            snprintf(why, size, "a pawn drop may not give mate (uchifuzume)");
        else
            snprintf(why, size, "%s", check);
        return;
    }
    int from_cell = sh_cell_of_sq(from);
    char fsq[3] = {(char)('1' + from / 9), (char)('a' + from % 9), 0};
    unsigned p = pos->cell[from_cell], q = pos->cell[to_cell];
    int t = sh_type(p);
    if (!p)
        snprintf(why, size, "no piece on %s", fsq);
    else if (sh_colour(p) != us)
        snprintf(why, size, "the piece on %s belongs to the opponent", fsq);
    else if (q && sh_colour(q) == us)
        snprintf(why, size, "%s is occupied by the mover's own piece", sq);
    else if (!reaches(pos, p, from_cell, to_cell))
        snprintf(why, size, "a %s on %s cannot move to %s", type_names[t], fsq, sq);
    else if (promote && !sh_promote[t])
        snprintf(why, size, "a %s cannot promote", type_names[t]);
    else if (promote && sh_rel_rank(us, from_cell) > 2 && sh_rel_rank(us, to_cell) > 2)
        snprintf(why, size, "promotion needs a move into, out of or inside the promotion zone");
    else if (!promote && !sh_can_stand(us, t, to_cell))
        snprintf(why, size, "the %s must promote on %s (it could never move again)",
                 type_names[t], sq);
    else
        snprintf(why, size, "%s", check);
}

nnue_status nnue_shogi_parse_usi(const nnue_shogi_pos *pos, const char *text, nnue_move *move,
                                 nnue_error *err)
{
    if (!pos || !text || !move)
        return nnue_fail(err, NNUE_E_ARG, "nnue_shogi_parse_usi: NULL argument");
    char q[80];
    quote(text, q, sizeof q);
    size_t len = strlen(text);
    int drop = 0, type = 0, from = 0, to, promote = 0;
    if (len == 4 && text[1] == '*') {
        drop = 1;
        type = drop_type(text[0]);
        to = square_of(text[2], text[3]);
        if (!type)
            return nnue_fail(err, NNUE_E_SYNTAX,
                             "malformed USI move '%s': drop piece must be one of P L N S G B R", q);
        if (to < 0)
            return nnue_fail(err, NNUE_E_SYNTAX,
                             "malformed USI move '%s': bad target square (files 1-9, ranks a-i)", q);
    } else if (len == 4 || (len == 5 && text[4] == '+')) {
        from = square_of(text[0], text[1]);
        to = square_of(text[2], text[3]);
        promote = len == 5;
        if (from < 0 || to < 0)
            return nnue_fail(err, NNUE_E_SYNTAX,
                             "malformed USI move '%s': bad square (files 1-9, ranks a-i)", q);
    } else {
        return nnue_fail(err, NNUE_E_SYNTAX,
                         "malformed USI move '%s': expected a move like 7g7f, 8h2b+ or P*5e", q);
    }
    nnue_move moves[NNUE_MAX_MOVES];
    int n = sh_generate(pos, moves);
    for (int i = 0; i < n; i++) {
        nnue_move m = moves[i];
        if (NNUE_SHOGI_MOVE_TO(m) != to || NNUE_SHOGI_MOVE_IS_DROP(m) != drop)
            continue;
        if (drop ? NNUE_SHOGI_MOVE_TYPE(m) == type
                 : (NNUE_SHOGI_MOVE_FROM(m) == from && NNUE_SHOGI_MOVE_IS_PROMOTE(m) == promote)) {
            *move = m;
            return NNUE_OK;
        }
    }
    char why[160];
    if (!drop && from == to)
        snprintf(why, sizeof why, "a move must change square");
    else
        diagnose(pos, drop, type, from, to, promote, why, sizeof why);
    return nnue_fail(err, NNUE_E_ILLEGAL, "illegal move '%s': %s", q, why);
}
