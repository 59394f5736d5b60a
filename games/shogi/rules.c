/* games/shogi/rules.c: when a shogi game of `nnue match` is over (the descriptor's
 * adjudicate and declaration_valid). Facts: the shogi rules of sennichite and the CSA / USI
 * entering-king declaration (27-point rule).
 *  - No legal move: the side to move loses (checkmate; stalemate loses too).
 *  - Sennichite: the same SFEN without the ply number a fourth time: a draw, except that a
 *    side which gave check with every one of its moves since the first occurrence loses.
 *  - The ply cap is an impasse (a draw).
 *  - Declaration ("bestmove win"): king in the enemy camp, not in check, ten other pieces in
 *    the camp, 28 points for black and 27 for white counting rook/bishop-type pieces 5 and
 *    others 1 over the camp and the hand. */
#include "games/shogi/internal.h"

int sh_adjudicate(const void *position, const nnue_game_history *h, int *winner, const char **reason)
{
    const nnue_shogi_pos *pos = position;
    nnue_move moves[NNUE_MAX_MOVES];
    *winner = -1;
    if (sh_generate(pos, moves) == 0) {
        *winner = 1 - pos->board.side_to_move;
        *reason = nnue_shogi_in_check(pos) ? "checkmate" : "no legal move";
    } else if (h->repetitions >= 3) {
        *reason = "sennichite (fourfold repetition)";
        for (int checker = 0; checker < 2; checker++)
            if (h->always_checked[checker]) {
                *winner = 1 - checker;
                *reason = "sennichite by perpetual check";
                break;
            }
    } else if (h->plies >= h->max_plies) {
        *reason = "ply cap (impasse)";
    } else {
        return 0;
    }
    return 1;
}

static int big(int t)
{
    return t == SH_BISHOP || t == SH_ROOK || t == SH_HORSE || t == SH_DRAGON;
}

int sh_declaration_valid(const void *position)
{
    const nnue_shogi_pos *pos = position;
    if (nnue_shogi_in_check(pos))
        return 0;
    const nnue_board *b = &pos->board;
    int c = b->side_to_move;
    /* Enemy camp: ranks a-c (index 0-2) for black, g-i (6-8) for white; sq % 9 is the rank. */
#define IN_CAMP(sq) (c == 0 ? (sq) % 9 <= 2 : (sq) % 9 >= 6)
    if (!IN_CAMP(b->king_sq[c]))
        return 0;
    int pieces = 0, points = 0;
    for (int sq = 0; sq < 81; sq++) {
        uint8_t p = b->piece_on[sq];
        int t = NNUE_PIECE_TYPE(p);
        if (!p || NNUE_PIECE_COLOUR(p) != c || t == SH_KING || !IN_CAMP(sq))
            continue;
        pieces++;
        points += big(t) ? 5 : 1;
    }
#undef IN_CAMP
    for (int t = SH_PAWN; t <= SH_ROOK; t++)
        points += b->hand[c][t] * (big(t) ? 5 : 1);
    return pieces >= 10 && points >= (c == 0 ? 28 : 27);
}
