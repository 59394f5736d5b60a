/* games/xiangqi/position.c: FEN as Pikafish reads and writes it: ranks 9 down to 0, letters
 * RACPNBK (red, moves first, "w") and racpnbk (black, "b"), then side, two "-" fields, the
 * rule-60 counter and the move number. */
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "games/xiangqi/internal.h"

static const char letters[] = " RACPNBK";

/* Rank counted from the colour's own back rank. */
static int rel_rank(int colour, int sq)
{
    return colour ? 9 - XQ_RANK(sq) : XQ_RANK(sq);
}

int xq_square_valid(unsigned piece, int sq)
{
    int c = NNUE_PIECE_COLOUR(piece), f = XQ_FILE(sq), r = rel_rank(c, sq);
    switch (NNUE_PIECE_TYPE(piece)) {
    case XQ_KING:
        return f >= 3 && f <= 5 && r <= 2;
    case XQ_ADVISOR:
        return f >= 3 && f <= 5 && r <= 2 && (f == 4) == (r == 1);
    case XQ_BISHOP:
        return ((r == 0 || r == 4) && (f == 2 || f == 6)) || (r == 2 && (f == 0 || f == 4 || f == 8));
    case XQ_PAWN:
        return r >= 5 || ((r == 3 || r == 4) && f % 2 == 0);
    default:
        return 1;
    }
}

static const int max_count[8] = {0, 2, 2, 2, 5, 2, 2, 1};

int xq_parse_fen(xq_pos *pos, const char *text, nnue_error *err)
{
    nnue_error_clear(err);
    memset(pos, 0, sizeof *pos);
    nnue_board *b = &pos->board;
    b->num_squares = XQ_SQUARES;
    const char *p = text;
    int file = 0, rank = 9, kings[2] = {0, 0}, counts[2][8] = {{0}};
    for (; *p && *p != ' '; p++) {
        if (*p >= '1' && *p <= '9') {
            file += *p - '0';
        } else if (*p == '/') {
            if (file != XQ_FILES || rank == 0)
                return nnue_fail(err, NNUE_E_ARG, "xiangqi FEN '%s': rank %d has %d files", text, rank, file);
            rank--, file = 0;
            continue;
        } else {
            const char *l = strchr(letters, *p >= 'a' ? *p - 32 : *p);
            if (!l || *p == ' ' || l == letters)
                return nnue_fail(err, NNUE_E_ARG, "xiangqi FEN '%s': unknown piece '%c'", text, *p);
            int colour = *p >= 'a', type = (int)(l - letters);
            if (file >= XQ_FILES)
                return nnue_fail(err, NNUE_E_ARG, "xiangqi FEN '%s': rank %d is too long", text, rank);
            int sq = XQ_SQ(file, rank);
            unsigned piece = NNUE_PIECE(colour, type);
            if (++counts[colour][type] > max_count[type] || !xq_square_valid(piece, sq))
                return nnue_fail(err, NNUE_E_ARG, "xiangqi FEN '%s': '%c' too many or on an invalid square",
                                 text, *p);
            b->piece_on[sq] = (uint8_t)piece;
            b->piece_count++;
            xq_flip_occupied(pos, sq);
            xq_flip_piece(pos, piece, sq);
            if (type == XQ_KING)
                b->king_sq[colour] = (uint8_t)sq, kings[colour]++;
            file++;
        }
        if (file > XQ_FILES)
            return nnue_fail(err, NNUE_E_ARG, "xiangqi FEN '%s': rank %d is too long", text, rank);
    }
    if (rank != 0 || file != XQ_FILES)
        return nnue_fail(err, NNUE_E_ARG, "xiangqi FEN '%s': expected 10 ranks of 9 files", text);
    if (kings[0] != 1 || kings[1] != 1)
        return nnue_fail(err, NNUE_E_ARG, "xiangqi FEN '%s': expected one king of each colour", text);
    while (*p == ' ')
        p++;
    if (*p != 'w' && *p != 'b')
        return nnue_fail(err, NNUE_E_ARG, "xiangqi FEN '%s': expected side 'w' or 'b'", text);
    b->side_to_move = *p++ == 'b';
    /* Two unused fields ("- -"), then the counters; all four optional. */
    int rule60 = 0, moveno = 1, skipped = 0;
    while (skipped < 2) {
        while (*p == ' ')
            p++;
        if (*p != '-')
            break;
        p++, skipped++;
    }
    if (*p && sscanf(p, "%d %d", &rule60, &moveno) < 1)
        return nnue_fail(err, NNUE_E_ARG, "xiangqi FEN '%s': bad counters", text);
    if (rule60 < 0 || rule60 > 119 || moveno < 0 || moveno > 30000)
        return nnue_fail(err, NNUE_E_ARG, "xiangqi FEN '%s': counters out of range", text);
    pos->rule60 = (uint8_t)rule60;
    pos->ply = (uint16_t)((moveno > 1 ? 2 * (moveno - 1) : 0) + b->side_to_move);
    if (xq_attacked(b, b->king_sq[!b->side_to_move], b->side_to_move))
        return nnue_fail(err, NNUE_E_ARG, "xiangqi FEN '%s': the side not to move is in check", text);
    return 0;
}

void xq_format_fen(const xq_pos *pos, char *buf, unsigned size)
{
    char out[128];
    int n = 0;
    const nnue_board *b = &pos->board;
    for (int r = 9; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < XQ_FILES; f++) {
            unsigned pc = b->piece_on[XQ_SQ(f, r)];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                out[n++] = (char)('0' + empty), empty = 0;
            char l = letters[NNUE_PIECE_TYPE(pc)];
            out[n++] = NNUE_PIECE_COLOUR(pc) ? (char)(l + 32) : l;
        }
        if (empty)
            out[n++] = (char)('0' + empty);
        if (r)
            out[n++] = '/';
    }
    snprintf(out + n, sizeof out - (size_t)n, " %c - - %d %d", b->side_to_move ? 'b' : 'w', pos->rule60,
             1 + (pos->ply - b->side_to_move) / 2);
    if (size)
        snprintf(buf, size, "%s", out);
}
