/* games/registry.c: the games an architecture, the tool and the tests can name: the built-in
 * table below, then the games registered at run time (nnue_game_register).
 * Adding a built-in game: one adapter folder and two lines below (its extern and its entry). */
#include <stddef.h>
#include <string.h>

#include "base/error.h"
#include "base/registry.h"
#include "games/threat_maker.h"
#include "nnue_board.h"

extern const nnue_game nnue_game_chess;
extern const nnue_game nnue_game_shogi;
extern const nnue_game nnue_game_xiangqi;
extern const nnue_threat_maker nnue_game_chess_threats;
extern const nnue_threat_maker nnue_game_xiangqi_threats;

const nnue_game *const nnue_games[] = {
    &nnue_game_chess,
    &nnue_game_shogi,
    &nnue_game_xiangqi,
    NULL,
};

/* The built-in adapters that record a move's threat changes at make time, NULL-terminated. */
static const nnue_threat_maker *const threat_makers[] = {
    &nnue_game_chess_threats,
    &nnue_game_xiangqi_threats,
    NULL,
};

static const char *game_name(const void *entry)
{
    return ((const nnue_game *)entry)->name;
}

static nnue_registry games = {.kind = "game", .builtin = (const void *const *)nnue_games, .name_of = game_name,
                              .capacity = NNUE_MAX_GAMES};

int nnue_game_count(void)
{
    return nnue_registry_count(&games);
}

const nnue_game *nnue_game_at(int index)
{
    return nnue_registry_at(&games, index);
}

const nnue_game *nnue_game_find(const char *name)
{
    return nnue_registry_find(&games, name);
}

/* The first thing wrong with a descriptor, or NULL. */
static const char *descriptor_problem(const nnue_game *g)
{
    size_t len = g->name ? strlen(g->name) : 0;
    if (len == 0 || len > 15)
        return "a name of 1 to 15 characters";
    if (!g->files || !g->ranks || g->files * g->ranks > NNUE_MAX_SQUARES)
        return "files * ranks between 1 and NNUE_MAX_SQUARES";
    if (!g->piece_types || g->piece_types > 15 || !g->king_type || g->king_type > g->piece_types)
        return "piece_types 1..15 and king_type among them";
    if (g->hand_types > g->piece_types || g->hand_types >= NNUE_MAX_HAND_TYPES)
        return "hand_types below NNUE_MAX_HAND_TYPES and within piece_types";
    if (g->max_pieces < 2 || !g->piece_names)
        return "max_pieces of at least 2 (the kings) and piece_names";
    if (!g->start || !g->position_word || !g->protocol || !g->colour_names[0] || !g->colour_names[1])
        return "the texts start, position_word, protocol and colour_names";
    if (!g->pos_size || !g->parse || !g->format || !g->legal_moves || !g->make || !g->unmake ||
        !g->parse_move || !g->format_move || !g->board || !g->in_check)
        return "pos_size and the functions parse .. in_check";
    for (int v = 0; v < g->n_vars; v++)
        if (!g->vars || !g->vars[v].name || !g->vars[v].value || g->vars[v].lo > g->vars[v].hi)
            return "selector variables with a name, a value function and lo <= hi";
    return NULL;
}

nnue_status nnue_game_register(const nnue_game *game, nnue_error *err)
{
    return nnue_registry_add(&games, game, game ? descriptor_problem(game) : NULL, err);
}

static const nnue_threat_maker *threat_maker_of(const nnue_game *game)
{
    for (int i = 0; threat_makers[i]; i++)
        if (threat_makers[i]->game == game)
            return threat_makers[i];
    return NULL;
}

int nnue_game_records_threats(const nnue_game *game)
{
    return threat_maker_of(game) != NULL;
}

int nnue_game_make_threats(const nnue_game *game, void *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats)
{
    const nnue_threat_maker *m = threat_maker_of(game);
    if (m) {
        m->make(pos, move, delta, threats);
        return 1;
    }
    threats->n_removed = threats->n_added = 0;
    game->make(pos, move, delta);
    return 0;
}
