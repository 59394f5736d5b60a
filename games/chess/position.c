/* games/chess/position.c: FEN input (strict: six fields, or four without the
 * clocks as EPD and many tools write them; every error with field and column)
 * and FEN output with Stockfish 15.1's en-passant rule (shared/oracle/chess/
 * FORMATS.md section 6). Castling rights as KQkq, X-FEN or
 * Shredder-FEN (Chess960; see include/nnue_chess.h); Chess960 positions are
 * written with rook files, as Stockfish writes them with UCI_Chess960. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "games/chess/bitboard.h"

#define FEN_FIELDS 6

static const char *const field_name[FEN_FIELDS + 1] = {
    "", "piece placement", "side to move", "castling", "en passant", "halfmove clock",
    "fullmove number",
};

static const char piece_letters[] = " PNBRQK";

typedef struct fen_reader {
    const char *text;
    int start[FEN_FIELDS + 1];   /* 0-based offset of each field */
    int len[FEN_FIELDS + 1];
    int fields;                  /* 6, or 4 without the clocks */
    nnue_error *err;
} fen_reader;

static nnue_status fen_fail(fen_reader *r, int field, int at, const char *fmt, ...)
    NNUE_PRINTF(4, 5);

/* Fails with the field's number and name (field 0: none) and the 1-based
 * column of text offset `at`; always NNUE_E_SYNTAX. */
static nnue_status fen_fail(fen_reader *r, int field, int at, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (field > 0)
        return nnue_fail_at(r->err, NNUE_E_SYNTAX, "FEN", 1, at + 1, "field %d (%s): %s", field,
                            field_name[field], what);
    return nnue_fail_at(r->err, NNUE_E_SYNTAX, "FEN", 1, at + 1, "%s", what);
}

/* Printable form of a character for messages. */
static const char *show_char(char c, char buf[8])
{
    if (c >= 0x21 && c < 0x7f)
        snprintf(buf, 8, "'%c'", c);
    else
        snprintf(buf, 8, "0x%02x", (unsigned char)c);
    return buf;
}

static nnue_status split_fields(fen_reader *r)
{
    const char *t = r->text;
    int n = 0, i = 0;
    for (;;) {
        if (t[i] == ' ' || t[i] == 0) {
            if (t[i] == ' ' && (i == 0 || t[i - 1] == ' '))
                return fen_fail(r, 0, i, "empty field: fields must be separated by one space");
            if (t[i] == 0 && (i == 0 || t[i - 1] == ' '))
                return fen_fail(r, 0, i, "expected 6 fields (or 4, without the clocks), found %d "
                                "(empty or trailing space)", n);
        } else if (i == 0 || t[i - 1] == ' ') {
            if (n == FEN_FIELDS)
                return fen_fail(r, 0, i, "expected 6 fields, found more (extra text here)");
            n++;
            r->start[n] = i;
        }
        if (t[i] != ' ' && t[i] != 0)
            r->len[n]++;
        if (t[i] == 0)
            break;
        i++;
    }
    if (n != FEN_FIELDS && n != FEN_FIELDS - 2)
        return fen_fail(r, 0, i, "expected 6 fields (or 4, without the clocks) separated by single "
                        "spaces, found %d", n);
    r->fields = n;
    return NNUE_OK;
}

static int letter_type(char c)
{
    const char *p = c ? strchr(piece_letters + 1, c >= 'a' ? c - 32 : c) : NULL;
    return p ? (int)(p - piece_letters) : 0;
}

static nnue_status parse_placement(fen_reader *r, nnue_chess_pos *pos)
{
    const char *t = r->text;
    int rank = 7, file = 0, kings[2] = {0, 0}, count[2] = {0, 0}, pawns[2] = {0, 0};
    int end = r->start[1] + r->len[1];
    char cb[8];
    for (int i = r->start[1]; i < end; i++) {
        char c = t[i];
        if (c == '/') {
            if (file != 8)
                return fen_fail(r, 1, i, "rank %d has %d squares, expected 8", rank + 1, file);
            if (rank == 0)
                return fen_fail(r, 1, i, "more than 8 ranks");
            rank--;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            if (i > r->start[1] && t[i - 1] >= '1' && t[i - 1] <= '8')
                return fen_fail(r, 1, i, "two digits in a row");
            file += c - '0';
            if (file > 8)
                return fen_fail(r, 1, i, "rank %d has more than 8 squares", rank + 1);
        } else {
            int type = letter_type(c);
            if (!type)
                return fen_fail(r, 1, i, "%s is not a piece letter (PNBRQK, pnbrqk), a digit 1-8 "
                                "or '/'", show_char(c, cb));
            int colour = c >= 'a';
            const char *cname = colour ? "black" : "white";
            if (file >= 8)
                return fen_fail(r, 1, i, "rank %d has more than 8 squares", rank + 1);
            if (type == NNUE_CHESS_PAWN && (rank == 0 || rank == 7))
                return fen_fail(r, 1, i, "%s pawn on rank %d", cname, rank + 1);
            if (type == NNUE_CHESS_PAWN && ++pawns[colour] > 8)
                return fen_fail(r, 1, i, "%s has more than 8 pawns", cname);
            if (++count[colour] > 16)
                return fen_fail(r, 1, i, "%s has more than 16 pieces", cname);
            int sq = SQ_MAKE(file, rank);
            if (type == NNUE_CHESS_KING) {
                if (kings[colour]++)
                    return fen_fail(r, 1, i, "second %s king", cname);
                pos->board.king_sq[colour] = (uint8_t)sq;
            }
            chess_put(pos, sq, NNUE_PIECE(colour, type));
            file++;
        }
    }
    if (file != 8)
        return fen_fail(r, 1, end, "rank %d has %d squares, expected 8", rank + 1, file);
    if (rank != 0)
        return fen_fail(r, 1, end, "found %d ranks, expected 8", 8 - rank);
    for (int colour = 0; colour < 2; colour++)
        if (!kings[colour])
            return fen_fail(r, 1, r->start[1], "no %s king", colour ? "black" : "white");
    pos->board.piece_count = (uint8_t)(count[0] + count[1]);
    return NNUE_OK;
}

static nnue_status parse_side(fen_reader *r, nnue_chess_pos *pos)
{
    const char *f = r->text + r->start[2];
    if (r->len[2] != 1 || (f[0] != 'w' && f[0] != 'b'))
        return fen_fail(r, 2, r->start[2], "expected 'w' or 'b', found \"%.*s\"", r->len[2], f);
    pos->board.side_to_move = f[0] == 'b';
    return NNUE_OK;
}

/* The rook square of a castling right given as X-FEN KQkq: the outermost rook of that colour on
 * that side of the king on its first rank; -1 if none. */
static int outermost_rook(const nnue_chess_pos *pos, int colour, int kingside)
{
    int base = colour ? 56 : 0, kfile = SQ_FILE(pos->board.king_sq[colour]);
    uint8_t rook = NNUE_PIECE(colour, NNUE_CHESS_ROOK);
    if (kingside) {
        for (int f = 7; f > kfile; f--)
            if (pos->board.piece_on[base + f] == rook)
                return base + f;
    } else {
        for (int f = 0; f < kfile; f++)
            if (pos->board.piece_on[base + f] == rook)
                return base + f;
    }
    return -1;
}

/* Castling rights: '-', KQkq (standard or X-FEN) or rook files (Shredder-FEN, A-H white, a-h
 * black). Right k = 2 * colour + (queen side); its rook square goes to castle_rook[k]. */
static nnue_status parse_castling(fen_reader *r, nnue_chess_pos *pos)
{
    static const char letters[] = "KQkq";
    const char *f = r->text + r->start[3];
    pos->castling = 0;
    memset(pos->castle_rook, -1, sizeof pos->castle_rook);
    if (r->len[3] == 1 && f[0] == '-')
        return NNUE_OK;
    int next = 0;
    char cb[8];
    for (int i = 0; i < r->len[3]; i++) {
        const char *p = f[i] ? strchr(letters, f[i]) : NULL;
        int colour, file = -1, std = p ? (int)(p - letters) : -1;
        if (std >= 0) {
            if (std < next)
                return fen_fail(r, 3, r->start[3] + i, "'%c' repeated or out of order (expected the "
                                "order KQkq)", f[i]);
            next = std + 1;
            colour = std >= 2;
        } else if (f[i] >= 'A' && f[i] <= 'H') {
            colour = 0, file = f[i] - 'A';
        } else if (f[i] >= 'a' && f[i] <= 'h') {
            colour = 1, file = f[i] - 'a';
        } else {
            return fen_fail(r, 3, r->start[3] + i, "%s is not a castling right (expected '-', KQkq "
                            "or rook files A-H / a-h)", show_char(f[i], cb));
        }
        int ksq = pos->board.king_sq[colour], back = colour ? 7 : 0, kfile = SQ_FILE(ksq);
        const char *name = colour ? "black" : "white";
        if (SQ_RANK(ksq) != back || kfile == 0 || kfile == 7)
            return fen_fail(r, 3, r->start[3] + i, "right '%c' needs the %s king on e%d (Chess960: on "
                            "rank %d between its rooks)", f[i], name, back + 1, back + 1);
        int kingside = std >= 0 ? !(std & 1) : file > kfile;
        int rsq = std >= 0 ? outermost_rook(pos, colour, kingside) : SQ_MAKE(file, back);
        if (rsq < 0 || pos->board.piece_on[rsq] != NNUE_PIECE(colour, NNUE_CHESS_ROOK) || file == kfile) {
            if (std >= 0)
                return fen_fail(r, 3, r->start[3] + i, "right '%c' needs the %s king on e%d and a rook on "
                                "%c%d (Chess960: a %s rook on rank %d on that side of the king)", f[i], name,
                                back + 1, kingside ? 'h' : 'a', back + 1, name, back + 1);
            return fen_fail(r, 3, r->start[3] + i, "right '%c' needs a %s rook on %c%d, beside the king's "
                            "file", f[i], name, 'a' + file, back + 1);
        }
        int k = 2 * colour + !kingside;
        if (pos->castling & (1 << k))
            return fen_fail(r, 3, r->start[3] + i, "'%c' repeated: that castling right is already given", f[i]);
        pos->castling |= (uint8_t)(1 << k);
        pos->castle_rook[k] = (int8_t)rsq;
        if (std < 0 || kfile != 4 || SQ_FILE(rsq) != (kingside ? 7 : 0))
            pos->chess960 = 1;
    }
    return NNUE_OK;
}

static nnue_status parse_ep(fen_reader *r, nnue_chess_pos *pos)
{
    const char *f = r->text + r->start[4];
    int at = r->start[4];
    pos->ep = -1;
    if (r->len[4] == 1 && f[0] == '-')
        return NNUE_OK;
    if (r->len[4] != 2 || f[0] < 'a' || f[0] > 'h' || f[1] < '1' || f[1] > '8')
        return fen_fail(r, 4, at, "expected '-' or a square like e3, found \"%.*s\"", r->len[4], f);
    int us = pos->board.side_to_move, them = us ^ 1;
    int want_rank = us == 0 ? 6 : 3;
    if (f[1] - '0' != want_rank)
        return fen_fail(r, 4, at + 1, "square %.2s is on the wrong rank: with %s to move it must "
                        "be on rank %d", f, us ? "black" : "white", want_rank);
    int ep = SQ_MAKE(f[0] - 'a', want_rank - 1);
    int forward = them == 0 ? 8 : -8;    /* direction the pawn of `them` moves */
    int pawn_sq = ep + forward, origin = ep - forward;
    if (pos->board.piece_on[pawn_sq] != NNUE_PIECE(them, NNUE_CHESS_PAWN) ||
        pos->board.piece_on[ep] || pos->board.piece_on[origin])
        return fen_fail(r, 4, at, "square %.2s does not follow a %s double step (needs a %s pawn "
                        "on %c%d and %.2s, %c%d empty)", f, them ? "black" : "white",
                        them ? "black" : "white", f[0], SQ_RANK(pawn_sq) + 1, f, f[0],
                        SQ_RANK(origin) + 1);
    if (chess_ep_usable(pos, ep, us))
        pos->ep = (int8_t)ep;
    return NNUE_OK;
}

/* Reads a clock: digits only, at most 9 of them. */
static nnue_status parse_number(fen_reader *r, int field, uint32_t *out, uint32_t min)
{
    const char *f = r->text + r->start[field];
    int at = r->start[field];
    if (f[0] == '-')
        return fen_fail(r, field, at, "negative number \"%.*s\"", r->len[field], f);
    uint32_t v = 0;
    for (int i = 0; i < r->len[field]; i++) {
        if (f[i] < '0' || f[i] > '9')
            return fen_fail(r, field, at + i, "\"%.*s\" is not a non-negative integer",
                            r->len[field], f);
        if (i == 9)
            return fen_fail(r, field, at, "number \"%.*s\" is too large (at most 9 digits)",
                            r->len[field], f);
        v = v * 10 + (uint32_t)(f[i] - '0');
    }
    if (v < min)
        return fen_fail(r, field, at, "must be at least %u, found %u", min, v);
    *out = v;
    return NNUE_OK;
}

nnue_status nnue_chess_parse_fen(nnue_chess_pos *pos, const char *fen, nnue_error *err)
{
    nnue_chess_init();
    nnue_error_clear(err);
    if (!pos || !fen)
        return nnue_fail(err, NNUE_E_ARG, "nnue_chess_parse_fen: NULL argument");
    if (strcmp(fen, "startpos") == 0) /* UCI's name, which the tool and the engines accept too */
        fen = NNUE_CHESS_START_FEN;
    fen_reader r = {.text = fen, .err = err};
    memset(pos, 0, offsetof(nnue_chess_pos, undo));
    pos->board.num_squares = 64;
    pos->ep = -1;
    nnue_status st;
    if ((st = split_fields(&r)) || (st = parse_placement(&r, pos)) || (st = parse_side(&r, pos)) ||
        (st = parse_castling(&r, pos)) || (st = parse_ep(&r, pos)))
        return st;
    pos->halfmove = 0; /* four fields: the clocks of a fresh game, as EPD readers take them */
    pos->fullmove = 1;
    if (r.fields == FEN_FIELDS &&
        ((st = parse_number(&r, 5, &pos->halfmove, 0)) || (st = parse_number(&r, 6, &pos->fullmove, 1))))
        return st;
    int us = pos->board.side_to_move, them = us ^ 1;
    if (chess_attacked(pos, pos->board.king_sq[them], us, pos->occupied))
        return fen_fail(&r, 2, r.start[2], "%s is to move but %s, the side not to move, is in "
                        "check", us ? "black" : "white", them ? "black" : "white");
    return NNUE_OK;
}

size_t nnue_chess_to_fen(const nnue_chess_pos *pos, char *buf, size_t size)
{
    if (!pos) {
        if (buf && size)
            buf[0] = 0;
        return 0;
    }
    char out[160];
    size_t n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            uint8_t pc = pos->board.piece_on[SQ_MAKE(file, rank)];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                out[n++] = (char)('0' + empty);
            empty = 0;
            char c = piece_letters[NNUE_PIECE_TYPE(pc)];
            out[n++] = NNUE_PIECE_COLOUR(pc) ? (char)(c + 32) : c;
        }
        if (empty)
            out[n++] = (char)('0' + empty);
        if (rank)
            out[n++] = '/';
    }
    out[n++] = ' ';
    out[n++] = pos->board.side_to_move ? 'b' : 'w';
    out[n++] = ' ';
    if (!pos->castling)
        out[n++] = '-';
    for (int k = 0; k < 4; k++)
        if (pos->castling & (1 << k))
            out[n++] = pos->chess960 ? (char)((k >= 2 ? 'a' : 'A') + SQ_FILE(pos->castle_rook[k])) : "KQkq"[k];
    out[n++] = ' ';
    if (pos->ep < 0) {
        out[n++] = '-';
    } else {
        out[n++] = (char)('a' + SQ_FILE(pos->ep));
        out[n++] = (char)('1' + SQ_RANK(pos->ep));
    }
    int tail = snprintf(out + n, sizeof out - n, " %u %u", pos->halfmove, pos->fullmove);
    n += (size_t)tail;
    if (buf && size) {
        size_t copy = n < size ? n : size - 1;
        memcpy(buf, out, copy);
        buf[copy] = 0;
    }
    return n;
}
