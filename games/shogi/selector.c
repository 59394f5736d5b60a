/* games/shogi/selector.c: the board facts shogi offers to YAML stack selectors (the shogi
 * descriptor's vars; docs/arch-yaml.md has the table).
 *
 * Facts (shared/oracle/shogi/FORMATS.md section 2 and YaneuraOu's SFNN bucket rules,
 * source/eval/nnue/architectures/README.md "King Buckets"): squares are (file-1)*9 + (rank-1);
 * a king's rank and file are taken from its own side, i.e. black's as is and white's rotated
 * (80 - sq), so rank 0 is the far rank (rank 1 for black) and 8 the own back rank, file 0 is
 * file 1 for black and file 9 for white. Hand counts are bounded by the pieces of a set. */
#include "games/shogi/internal.h"

static int king_from_own_side(const nnue_board *b, int colour)
{
    return colour ? 80 - b->king_sq[colour] : b->king_sq[colour];
}

#define STM(b) ((b)->side_to_move & 1)
#define KING_VAR(fn, who, div_or_mod)                                  \
    static int32_t fn(const nnue_board *b)                             \
    {                                                                  \
        return king_from_own_side(b, who) div_or_mod 9;                \
    }
KING_VAR(stm_king_rank, STM(b), %)
KING_VAR(stm_king_file, STM(b), /)
KING_VAR(nstm_king_rank, !STM(b), %)
KING_VAR(nstm_king_file, !STM(b), /)

#define HAND_VAR(fn, who, type)                                        \
    static int32_t fn(const nnue_board *b)                             \
    {                                                                  \
        return b->hand[who][type];                                     \
    }
HAND_VAR(stm_hand_pawn, STM(b), SH_PAWN)
HAND_VAR(stm_hand_lance, STM(b), SH_LANCE)
HAND_VAR(stm_hand_knight, STM(b), SH_KNIGHT)
HAND_VAR(stm_hand_silver, STM(b), SH_SILVER)
HAND_VAR(stm_hand_gold, STM(b), SH_GOLD)
HAND_VAR(stm_hand_bishop, STM(b), SH_BISHOP)
HAND_VAR(stm_hand_rook, STM(b), SH_ROOK)
HAND_VAR(nstm_hand_pawn, !STM(b), SH_PAWN)
HAND_VAR(nstm_hand_lance, !STM(b), SH_LANCE)
HAND_VAR(nstm_hand_knight, !STM(b), SH_KNIGHT)
HAND_VAR(nstm_hand_silver, !STM(b), SH_SILVER)
HAND_VAR(nstm_hand_gold, !STM(b), SH_GOLD)
HAND_VAR(nstm_hand_bishop, !STM(b), SH_BISHOP)
HAND_VAR(nstm_hand_rook, !STM(b), SH_ROOK)

#define VAR(fn, lo, hi) {#fn, lo, hi, fn}
const nnue_game_var sh_selector_vars[SH_SELECTOR_VARS] = {
    VAR(stm_king_rank, 0, 8),   VAR(stm_king_file, 0, 8),
    VAR(nstm_king_rank, 0, 8),  VAR(nstm_king_file, 0, 8),
    VAR(stm_hand_pawn, 0, 18),  VAR(stm_hand_lance, 0, 4),  VAR(stm_hand_knight, 0, 4),
    VAR(stm_hand_silver, 0, 4), VAR(stm_hand_gold, 0, 4),   VAR(stm_hand_bishop, 0, 2),
    VAR(stm_hand_rook, 0, 2),
    VAR(nstm_hand_pawn, 0, 18),  VAR(nstm_hand_lance, 0, 4),  VAR(nstm_hand_knight, 0, 4),
    VAR(nstm_hand_silver, 0, 4), VAR(nstm_hand_gold, 0, 4),   VAR(nstm_hand_bishop, 0, 2),
    VAR(nstm_hand_rook, 0, 2),
};

/* Every variable above at once, in the table's order (nnue_game.var_values): the kings' squares
 * turned once, the hands read in a row. */
void sh_selector_values(const nnue_board *b, int32_t *values)
{
    static const uint8_t hand_order[7] = {SH_PAWN, SH_LANCE, SH_KNIGHT, SH_SILVER, SH_GOLD, SH_BISHOP, SH_ROOK};
    const int us = STM(b), them = !us;
    const int ours = king_from_own_side(b, us), theirs = king_from_own_side(b, them);
    values[0] = ours % 9;
    values[1] = ours / 9;
    values[2] = theirs % 9;
    values[3] = theirs / 9;
    for (int t = 0; t < 7; t++) {
        values[4 + t] = b->hand[us][hand_order[t]];
        values[11 + t] = b->hand[them][hand_order[t]];
    }
}
