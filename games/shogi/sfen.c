/* games/shogi/sfen.c: SFEN parsing (strict, every error with its column) and
 * SFEN output in YaneuraOu's style. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "games/shogi/internal.h"

static const char letters[] = "?PLNSGBRK";
static const char *const kind_names[] = {"?", "pawn", "lance", "knight", "silver", "gold",
                                         "bishop", "rook", "king"};
static const char *const kind_plurals[] = {"?", "pawns", "lances", "knights", "silvers", "golds",
                                           "bishops", "rooks", "kings"};
static const char *const colour_names[] = {"black", "white"};

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int field_end(char c)
{
    return c == '\0' || is_ws(c);
}

/* Type (1..8 with the king) of an SFEN letter in either case, 0 if none. */
static int letter_type(char c)
{
    if (c >= 'a' && c <= 'z')
        c = (char)(c - 'a' + 'A');
    for (int t = 1; t <= 8; t++)
        if (letters[t] == c)
            return t;
    return 0;
}

/* "'x'", "byte 0x07" or "the end of the text". */
static const char *show(char c, char *buf, size_t size)
{
    unsigned char u = (unsigned char)c;
    if (c == '\0')
        snprintf(buf, size, "the end of the text");
    else if (u >= 0x20 && u < 0x7f)
        snprintf(buf, size, "'%c'", c);
    else
        snprintf(buf, size, "byte 0x%02x", u);
    return buf;
}

static nnue_status fail(nnue_error *err, int column, const char *fmt, ...) NNUE_PRINTF(3, 4);
static nnue_status fail(nnue_error *err, int column, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return nnue_fail_at(err, NNUE_E_SYNTAX, "SFEN", 1, column, "%s", msg);
}

typedef struct parse_state {
    nnue_shogi_pos pos;
    int count[9];       /* pieces of each unpromoted kind seen, board and hands */
    int kings[2];
} parse_state;

static nnue_status parse_board(parse_state *st, const char *s, size_t *at, nnue_error *err)
{
    nnue_shogi_pos *pos = &st->pos;
    char shown[32];
    size_t i = 0;
    int rank = 0, filled = 0;
    if (field_end(s[0]))
        return fail(err, 1, "missing board: found %s", show(s[0], shown, sizeof shown));
    for (; !field_end(s[i]); i++) {
        char c = s[i];
        int col = (int)i + 1, plus_col = 0;
        if (c == '/') {
            if (filled != 9)
                return fail(err, col, "rank %c has %d squares, expected 9", 'a' + rank, filled);
            if (++rank > 8)
                return fail(err, col, "more than 9 ranks");
            filled = 0;
            continue;
        }
        if (c >= '1' && c <= '9') {
            filled += c - '0';
            if (filled > 9)
                return fail(err, col, "rank %c has more than 9 squares", 'a' + rank);
            continue;
        }
        if (c == '+') {
            plus_col = col;
            c = s[++i];
            col = (int)i + 1;
        }
        int type = letter_type(c);
        if (!type) {
            if (plus_col)
                return fail(err, col, "'+' must be followed by a piece letter, found %s",
                            show(c, shown, sizeof shown));
            return fail(err, col, "bad piece letter %s", show(c, shown, sizeof shown));
        }
        int colour = c >= 'a' ? SH_WHITE : SH_BLACK;
        if (plus_col && !sh_promote[type])
            return fail(err, plus_col, "'+%c': a %s cannot promote", c, kind_names[type]);
        if (filled >= 9)
            return fail(err, col, "rank %c has more than 9 squares", 'a' + rank);
        int f = 8 - filled, cell = sh_cell(f, rank);
        if (plus_col)
            type = sh_promote[type];
        if (type == SH_KING) {
            if (st->kings[colour]++)
                return fail(err, col, "second %s king", colour_names[colour]);
            pos->king_cell[colour] = (uint8_t)cell;
            pos->board.king_sq[colour] = (uint8_t)(f * 9 + rank);
        } else {
            int kind = sh_demote[type];
            if (++st->count[kind] > sh_max_count[kind])
                return fail(err, col, "too many %s: a set has %d (board and both hands)",
                            kind_plurals[kind], sh_max_count[kind]);
        }
        if (!sh_can_stand(colour, type, cell))
            return fail(err, col, "%s %s on %d%c could never move", colour_names[colour],
                        kind_names[type], f + 1, 'a' + rank);
        if (type == SH_PAWN) {
            if ((pos->pawn_files[colour] >> f) & 1)
                return fail(err, col, "two unpromoted %s pawns on file %d (nifu)",
                            colour_names[colour], f + 1);
            pos->pawn_files[colour] |= (uint16_t)(1u << f);
        }
        sh_put(pos, cell, NNUE_PIECE(colour, type));
        pos->board.piece_count++;
        filled++;
    }
    int col = (int)i + 1;
    if (filled != 9)
        return fail(err, col, "rank %c has %d squares, expected 9", 'a' + rank, filled);
    if (rank != 8)
        return fail(err, col, "board has %d ranks, expected 9", rank + 1);
    for (int c = 0; c < 2; c++)
        if (!st->kings[c])
            return fail(err, 1, "board has no %s king", colour_names[c]);
    *at = i;
    return NNUE_OK;
}

static nnue_status parse_hands(parse_state *st, const char *s, size_t *at, nnue_error *err)
{
    char shown[32];
    size_t i = *at;
    if (s[i] == '-' && field_end(s[i + 1])) {
        *at = i + 1;
        return NNUE_OK;
    }
    int seen[2][8] = {{0}};
    while (!field_end(s[i])) {
        int tok_col = (int)i + 1, n = 0, digits = 0;
        while (s[i] >= '0' && s[i] <= '9') {
            n = n * 10 + (s[i] - '0');
            digits++;
            i++;
            if (n > sh_max_count[SH_PAWN])
                return fail(err, tok_col, "hand count %d is more than any piece kind has", n);
        }
        if (digits && n == 0)
            return fail(err, tok_col, "hand count 0");
        if (!digits)
            n = 1;
        char c = s[i];
        int col = (int)i + 1, type = letter_type(c);
        if (!type)
            return fail(err, col, "bad piece letter %s in hands", show(c, shown, sizeof shown));
        if (type == SH_KING)
            return fail(err, col, "a king cannot be in hand");
        int colour = c >= 'a' ? SH_WHITE : SH_BLACK;
        if (seen[colour][type]++)
            return fail(err, col, "'%c' appears twice in hands", c);
        st->count[type] += n;
        if (st->count[type] > sh_max_count[type])
            return fail(err, tok_col, "too many %s: a set has %d (board and both hands)",
                        kind_plurals[type], sh_max_count[type]);
        st->pos.board.hand[colour][type] = (uint8_t)n;
        i++;
    }
    *at = i;
    return NNUE_OK;
}

nnue_status nnue_shogi_parse_sfen(nnue_shogi_pos *out, const char *s, nnue_error *err)
{
    if (!out || !s)
        return nnue_fail(err, NNUE_E_ARG, "nnue_shogi_parse_sfen: NULL argument");
    if (strcmp(s, "startpos") == 0) /* USI's name, which the tool and the engines accept too */
        s = NNUE_SHOGI_START_SFEN;
    parse_state st;
    memset(&st, 0, sizeof st);
    nnue_shogi_pos *pos = &st.pos;
    memset(pos->cell, SH_WALL, sizeof pos->cell);
    for (int f = 0; f < 9; f++)
        for (int r = 0; r < 9; r++)
            pos->cell[sh_cell(f, r)] = 0;
    pos->board.num_squares = 81;

    char shown[32];
    size_t i = 0;
    nnue_status rc = parse_board(&st, s, &i, err);
    if (rc)
        return rc;

    while (s[i] == ' ' || s[i] == '\t')
        i++;
    int side_col = (int)i + 1;
    if (field_end(s[i]))
        return fail(err, side_col, "missing side to move after the board");
    if ((s[i] != 'b' && s[i] != 'w') || !field_end(s[i + 1]))
        return fail(err, side_col, "side to move must be 'b' or 'w', found %s",
                    show(s[i] == 'b' || s[i] == 'w' ? s[i + 1] : s[i], shown, sizeof shown));
    pos->board.side_to_move = s[i] == 'w' ? SH_WHITE : SH_BLACK;
    i++;

    while (s[i] == ' ' || s[i] == '\t')
        i++;
    if (field_end(s[i]))
        return fail(err, (int)i + 1, "missing hands after the side to move ('-' when both are empty)");
    if ((rc = parse_hands(&st, s, &i, err)))
        return rc;

    while (s[i] == ' ' || s[i] == '\t')
        i++;
    pos->ply = 1;
    if (!field_end(s[i])) {
        int num_col = (int)i + 1;
        unsigned long long n = 0;
        if (s[i] < '0' || s[i] > '9')
            return fail(err, num_col, "move number must be a positive integer, found %s",
                        show(s[i], shown, sizeof shown));
        for (; s[i] >= '0' && s[i] <= '9'; i++) {
            n = n * 10 + (unsigned)(s[i] - '0');
            if (n > 1000000000ull)
                return fail(err, num_col, "move number is too large");
        }
        if (!field_end(s[i]))
            return fail(err, (int)i + 1, "move number must be a positive integer, found %s",
                        show(s[i], shown, sizeof shown));
        if (n == 0)
            return fail(err, num_col, "move number must be at least 1");
        pos->ply = (uint32_t)n;
    }
    while (is_ws(s[i]))
        i++;
    if (s[i])
        return fail(err, (int)i + 1, "unexpected text after the SFEN, starting with %s",
                    show(s[i], shown, sizeof shown));

    int them = pos->board.side_to_move ^ 1;
    if (sh_attacked(pos, pos->king_cell[them], them ^ 1))
        return fail(err, side_col, "the side not to move (%s) is in check", colour_names[them]);
    *out = *pos;
    return NNUE_OK;
}

size_t nnue_shogi_to_sfen(const nnue_shogi_pos *pos, char *buf, size_t size)
{
    if (!pos) {
        if (buf && size)
            buf[0] = 0;
        return 0;
    }
    char tmp[256];
    size_t n = 0;
    const nnue_board *bd = &pos->board;
    for (int r = 0; r < 9; r++) {
        int empty = 0;
        for (int f = 8; f >= 0; f--) {
            unsigned p = bd->piece_on[f * 9 + r];
            if (!p) {
                empty++;
                continue;
            }
            if (empty)
                tmp[n++] = (char)('0' + empty);
            empty = 0;
            int t = sh_type(p), kind = sh_demote[t];
            if (kind != t)
                tmp[n++] = '+';
            char c = letters[kind];
            tmp[n++] = sh_colour(p) ? (char)(c - 'A' + 'a') : c;
        }
        if (empty)
            tmp[n++] = (char)('0' + empty);
        if (r < 8)
            tmp[n++] = '/';
    }
    tmp[n++] = ' ';
    tmp[n++] = bd->side_to_move ? 'w' : 'b';
    tmp[n++] = ' ';
    size_t hand_start = n;
    static const int order[7] = {SH_ROOK, SH_BISHOP, SH_GOLD, SH_SILVER, SH_KNIGHT, SH_LANCE, SH_PAWN};
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 7; k++) {
            int cnt = bd->hand[c][order[k]];
            if (!cnt)
                continue;
            if (cnt > 1)
                n += (size_t)snprintf(tmp + n, sizeof tmp - n, "%d", cnt);
            char l = letters[order[k]];
            tmp[n++] = c ? (char)(l - 'A' + 'a') : l;
        }
    if (n == hand_start)
        tmp[n++] = '-';
    n += (size_t)snprintf(tmp + n, sizeof tmp - n, " %u", (unsigned)pos->ply);
    if (buf && size) {
        size_t k = n < size - 1 ? n : size - 1;
        memcpy(buf, tmp, k);
        buf[k] = 0;
    }
    return n;
}
