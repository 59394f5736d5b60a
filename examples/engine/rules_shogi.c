/* examples/engine/rules_shogi.c: what the search needs to know about shogi beyond the
 * library's adapter (nnue_shogi.h): capture and promotion values for move ordering, and that
 * a side with no legal move has lost (checkmated or not). Repetitions (sennichite) are scored
 * as draws in the search; the perpetual-check exception is left to the match rules. Hands are
 * part of nnue_board, so the hash key needs nothing extra. YaneuraOu's evaluation unit is
 * already close to centipawns. */
#include "engine.h"
#include "nnue_shogi.h"

/* By NNUE_SHOGI_PAWN..DRAGON: P L N S G B R K +P +L +N +S +B(horse) +R(dragon). */
static const int piece_value[15] = {0, 1, 3, 4, 5, 6, 8, 10, 0, 6, 6, 6, 6, 12, 14};

static int tactical_value(const void *pos, nnue_move m)
{
    (void)pos; /* a shogi move carries its captured piece and mover (nnue_shogi.h) */
    int victim = NNUE_PIECE_TYPE(NNUE_SHOGI_MOVE_CAPTURED(m));
    int mover = NNUE_SHOGI_MOVE_TYPE(m);
    int value = victim ? 16 * piece_value[victim] - piece_value[mover] + 16 : 0;
    if (NNUE_SHOGI_MOVE_IS_PROMOTE(m) && mover != NNUE_SHOGI_SILVER)
        value += 16 * 2;
    return value;
}

static uint64_t key_extra(const void *pos)
{
    (void)pos;
    return 0;
}

static int no_move_score(const void *pos, int in_check, int ply)
{
    (void)pos, (void)in_check;
    return -SCORE_MATE + ply;
}

static int reversible_plies(const void *pos)
{
    (void)pos;
    return MAX_GAME_PLIES;
}

static int counting_draw(const void *pos)
{
    (void)pos;
    return 0;
}

static int to_centipawns(int value)
{
    return value;
}

const engine_rules engine_rules_shogi = {
    .protocol = "usi",
    .name = "nnue-usi",
    .game = &nnue_game_shogi,
    .start_position = NNUE_SHOGI_START_SFEN,
    .no_move = "resign",
    .tactical_value = tactical_value,
    .key_extra = key_extra,
    .no_move_score = no_move_score,
    .reversible_plies = reversible_plies,
    .counting_draw = counting_draw,
    .to_centipawns = to_centipawns,
};
