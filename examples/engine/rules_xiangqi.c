/* examples/engine/rules_xiangqi.c: what the search needs to know about xiangqi beyond the
 * library's adapter (games/xiangqi, reached through its descriptor: there is no public
 * xiangqi header): capture values for move ordering, and that a side with no legal move has
 * lost (stalemate loses too). Simplified against Pikafish: every repetition in the search is
 * a draw (no perpetual-check or chase verdicts) and rule 60 is not counted (the counter is not
 * on nnue_board). Pikafish's nets output its internal unit; "score cp" prints it unscaled. */
#include <string.h>

#include "engine.h"

static const nnue_game *xiangqi(void)
{
    static const nnue_game *game;
    if (!game)
        game = nnue_game_find("xiangqi");
    return game;
}

/* Ordering values by the letter colour 0 writes (the descriptor's piece_names). */
static int value_of(const nnue_game *g, int type)
{
    static const char letters[] = "RCNABPK";
    static const int values[] = {9, 5, 4, 2, 2, 1, 0};
    const char *at = type >= 1 && type <= g->piece_types ? strchr(letters, g->piece_names[type - 1][0]) : NULL;
    return at ? values[at - letters] : 0;
}

/* Squares from the move's text ("h2e2": files a.., ranks 0..9; square = rank * files + file):
 * the move encoding is the adapter's own. */
static int tactical_value(const void *pos, nnue_move m)
{
    const nnue_game *g = xiangqi();
    char t[8];
    g->format_move(m, t, sizeof t);
    const nnue_board *b = g->board(pos);
    int from = (t[1] - '0') * g->files + (t[0] - 'a'), to = (t[3] - '0') * g->files + (t[2] - 'a');
    int victim = NNUE_PIECE_TYPE(b->piece_on[to]), attacker = NNUE_PIECE_TYPE(b->piece_on[from]);
    return victim ? 16 * value_of(g, victim) - value_of(g, attacker) + 16 : 0;
}

static uint64_t key_extra(const void *pos)
{
    (void)pos;
    return 0;
}

static int no_move_score(const void *pos, int in_check, int ply)
{
    (void)pos, (void)in_check;
    return -SCORE_MATE + ply; /* checkmate or stalemate: both lose */
}

static int reversible_plies(const void *pos)
{
    (void)pos;
    return MAX_GAME_PLIES; /* no counter on the board: look back over the whole game */
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

const engine_rules *engine_rules_xiangqi(void)
{
    static engine_rules rules = {
        .protocol = "uci",
        .name = "nnue-uci",
        .no_move = "0000",
        .tactical_value = tactical_value,
        .key_extra = key_extra,
        .no_move_score = no_move_score,
        .reversible_plies = reversible_plies,
        .counting_draw = counting_draw,
        .to_centipawns = to_centipawns,
    };
    if (!rules.game && (rules.game = xiangqi()) != NULL)
        rules.start_position = rules.game->start;
    return rules.game ? &rules : NULL;
}
