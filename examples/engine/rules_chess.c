/* examples/engine/rules_chess.c: what the search needs to know about chess beyond the
 * library's adapter (nnue_chess.h): capture values for move ordering, castling rights and the
 * en-passant square in the hash key, mate / stalemate, the 50-move rule, and centipawns.
 * Facts: Stockfish's internal unit has a pawn (endgame) worth 208, the unit its nets output. */
#include "engine.h"
#include "nnue_chess.h"

static const int piece_value[7] = {0, 1, 3, 3, 5, 9, 0}; /* by NNUE_CHESS_PAWN..KING */

static int tactical_value(const void *p, nnue_move m)
{
    const nnue_chess_pos *pos = p;
    int victim = NNUE_PIECE_TYPE(pos->board.piece_on[NNUE_CHESS_MOVE_TO(m)]);
    if (NNUE_CHESS_MOVE_KIND(m) == NNUE_CHESS_MOVE_EP)
        victim = NNUE_CHESS_PAWN;
    if (NNUE_CHESS_MOVE_KIND(m) == NNUE_CHESS_MOVE_CASTLE)
        victim = 0;
    int attacker = NNUE_PIECE_TYPE(pos->board.piece_on[NNUE_CHESS_MOVE_FROM(m)]);
    int value = victim ? 16 * piece_value[victim] - piece_value[attacker] + 16 : 0;
    if (NNUE_CHESS_MOVE_PROMO(m) == NNUE_CHESS_QUEEN)
        value += 16 * 8;
    return value;
}

static uint64_t key_extra(const void *p)
{
    const nnue_chess_pos *pos = p;
    uint64_t z = ((uint64_t)pos->castling | (uint64_t)(pos->ep + 1) << 4) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 29)) * 0xBF58476D1CE4E5B9ull;
    return pos->castling == 0 && pos->ep < 0 ? 0 : z ^ (z >> 32);
}

static int no_move_score(const void *pos, int in_check, int ply)
{
    (void)pos;
    return in_check ? -SCORE_MATE + ply : 0; /* checkmate or stalemate */
}

static int reversible_plies(const void *p)
{
    return (int)((const nnue_chess_pos *)p)->halfmove;
}

static int counting_draw(const void *p)
{
    return ((const nnue_chess_pos *)p)->halfmove >= 100;
}

static int to_centipawns(int value)
{
    return value * 100 / 208;
}

static void set_chess960(void *pos, int on)
{
    nnue_chess_set_chess960(pos, on);
}

static void format_move_in(const void *pos, nnue_move move, char *buf, unsigned size)
{
    nnue_chess_move_to_uci_in(pos, move, buf, size);
}

const engine_rules engine_rules_chess = {
    .protocol = "uci",
    .name = "nnue-uci",
    .game = &nnue_game_chess,
    .start_position = NNUE_CHESS_START_FEN,
    .no_move = "0000",
    .tactical_value = tactical_value,
    .key_extra = key_extra,
    .no_move_score = no_move_score,
    .reversible_plies = reversible_plies,
    .counting_draw = counting_draw,
    .to_centipawns = to_centipawns,
    .set_chess960 = set_chess960,
    .format_move_in = format_move_in,
};
