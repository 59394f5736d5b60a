/* games/registry.c: the games an architecture, the tool and the tests can name: the built-in
 * table below, then the games registered at run time (nnue_game_register).
 * Adding a built-in game: one adapter folder and one line below. */
#include <stddef.h>
#include <string.h>

#include "core/error.h"
#include "nnue_board.h"

extern const nnue_game nnue_game_chess;
extern const nnue_game nnue_game_shogi;
extern const nnue_game nnue_game_xiangqi;

const nnue_game *const nnue_games[] = {
    &nnue_game_chess,
    &nnue_game_shogi,
    &nnue_game_xiangqi,
    NULL,
};

#define BUILTIN_GAMES ((int)(sizeof nnue_games / sizeof nnue_games[0]) - 1)

static const nnue_game *registered[NNUE_MAX_GAMES];
static int n_registered;

int nnue_game_count(void)
{
    return BUILTIN_GAMES + n_registered;
}

const nnue_game *nnue_game_at(int index)
{
    if (index < 0 || index >= nnue_game_count())
        return NULL;
    return index < BUILTIN_GAMES ? nnue_games[index] : registered[index - BUILTIN_GAMES];
}

const nnue_game *nnue_game_find(const char *name)
{
    for (int i = 0; name && i < nnue_game_count(); i++)
        if (strcmp(nnue_game_at(i)->name, name) == 0)
            return nnue_game_at(i);
    return NULL;
}

/* The first thing wrong with a descriptor, or NULL. */
static const char *descriptor_problem(const nnue_game *g)
{
    size_t len = g->name ? strlen(g->name) : 0;
    if (len == 0 || len > 15)
        return "a name of 1 to 15 characters";
    if (nnue_game_find(g->name))
        return "a name not used by another game";
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
    nnue_error_clear(err);
    if (!game)
        return nnue_fail(err, NNUE_E_ARG, "nnue_game_register: expected a game");
    const char *problem = descriptor_problem(game);
    if (problem)
        return nnue_fail(err, NNUE_E_ARG, "nnue_game_register '%s': expected %s", game->name ? game->name : "",
                         problem);
    if (n_registered == NNUE_MAX_GAMES)
        return nnue_fail(err, NNUE_E_ARG, "nnue_game_register '%s': at most %d games can be registered",
                         game->name, NNUE_MAX_GAMES);
    registered[n_registered++] = game;
    return NNUE_OK;
}
