/* games/chess/san.c: the chess descriptor's human notation, SAN (PGN standard, section 8.2.3): piece letter (none for pawns), the
 * origin file, rank or square when another piece of the same type could reach the same square,
 * 'x' for captures (a pawn capture names its file), "=Q" for promotions, "O-O" / "O-O-O",
 * then '+' for check or '#' for mate. */
#include <stdio.h>
#include <string.h>

#include "games/chess/bitboard.h"

/* SAN of a legal move in pos ("Nbd7", "exd6", "O-O", "e8=Q+", "Qh4#"); pos is unchanged
 * (a copy is made and unmade to see check and mate). */
void chess_san(const void *position, nnue_move m, char *out, unsigned size)
{
    nnue_chess_pos copy = *(const nnue_chess_pos *)position, *pos = &copy;
    static const char letters[] = " PNBRQK";
    int from = NNUE_CHESS_MOVE_FROM(m), to = NNUE_CHESS_MOVE_TO(m);
    int type = NNUE_PIECE_TYPE(pos->board.piece_on[from]);
    int capture = pos->board.piece_on[to] != 0 || NNUE_CHESS_MOVE_KIND(m) == NNUE_CHESS_MOVE_EP;
    char text[16];
    size_t n = 0;
    if (NNUE_CHESS_MOVE_KIND(m) == NNUE_CHESS_MOVE_CASTLE) {
        n = (size_t)snprintf(text, sizeof text, "%s", (to & 7) == 6 ? "O-O" : "O-O-O");
    } else {
        if (type != NNUE_CHESS_PAWN) {
            text[n++] = letters[type];
            nnue_move moves[NNUE_MAX_MOVES];
            int count = nnue_chess_legal_moves(pos, moves), same_file = 0, same_rank = 0, others = 0;
            for (int i = 0; i < count; i++) {
                int f = NNUE_CHESS_MOVE_FROM(moves[i]);
                if (moves[i] == m || NNUE_CHESS_MOVE_TO(moves[i]) != to || f == from ||
                    NNUE_PIECE_TYPE(pos->board.piece_on[f]) != type)
                    continue;
                others++;
                same_file += (f & 7) == (from & 7);
                same_rank += (f >> 3) == (from >> 3);
            }
            if (others && (!same_file || same_rank))
                text[n++] = (char)('a' + (from & 7));
            if (others && same_file)
                text[n++] = (char)('1' + (from >> 3));
        } else if (capture) {
            text[n++] = (char)('a' + (from & 7));
        }
        if (capture)
            text[n++] = 'x';
        text[n++] = (char)('a' + (to & 7));
        text[n++] = (char)('1' + (to >> 3));
        if (NNUE_CHESS_MOVE_PROMO(m)) {
            text[n++] = '=';
            text[n++] = letters[NNUE_CHESS_MOVE_PROMO(m)];
        }
    }
    nnue_chess_make(pos, m, NULL);
    if (nnue_chess_in_check(pos)) {
        nnue_move replies[NNUE_MAX_MOVES];
        text[n++] = nnue_chess_legal_moves(pos, replies) == 0 ? '#' : '+';
    }
    nnue_chess_unmake(pos, m);
    text[n] = 0;
    snprintf(out, size, "%s", text);
}
