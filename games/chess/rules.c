/* games/chess/rules.c: when a chess game of `nnue match` is over (the descriptor's
 * adjudicate). Facts: FIDE Laws of Chess, articles 5 and 9: checkmate, stalemate, threefold
 * repetition (the same FEN without the move counters: board, side, castling, en passant),
 * the 50-move rule (100 plies without capture or pawn move), insufficient material (bare
 * kings, or a single minor piece). */
#include "games/chess/bitboard.h"

static int insufficient(const nnue_board *b)
{
    int minors = 0;
    for (int sq = 0; sq < 64; sq++) {
        int t = NNUE_PIECE_TYPE(b->piece_on[sq]);
        if (t == NNUE_CHESS_KNIGHT || t == NNUE_CHESS_BISHOP)
            minors++;
        else if (t && t != NNUE_CHESS_KING)
            return 0;
    }
    return minors <= 1;
}

int chess_adjudicate(const void *position, const nnue_game_history *h, int *winner, const char **reason)
{
    const nnue_chess_pos *pos = position;
    nnue_move moves[NNUE_MAX_MOVES];
    *winner = -1;
    if (nnue_chess_legal_moves(pos, moves) == 0) {
        int mated = nnue_chess_in_check(pos);
        *winner = mated ? 1 - pos->board.side_to_move : -1;
        *reason = mated ? "checkmate" : "stalemate";
    } else if (h->repetitions >= 2) {
        *reason = "threefold repetition";
    } else if (pos->halfmove >= 100) {
        *reason = "50-move rule";
    } else if (insufficient(&pos->board)) {
        *reason = "insufficient material";
    } else {
        return 0;
    }
    return 1;
}
