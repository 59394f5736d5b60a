/* games/registry.c: the games an architecture, the tool and the tests can name: the built-in
 * table below, then the games registered at run time (nnue_register_game; descriptors of an
 * earlier version as a copy of the current size: the second version's through nnue_register_game,
 * the first's through the deprecated nnue_game_register).
 * Adding a built-in game: one adapter folder and two lines below (its extern and its entry). */
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "base/error.h"
#include "base/registry.h"
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

/* Descriptors of an earlier version (nnue_game_register's first, nnue_register_game's second): the
 * library's copy of the current size (later fields empty), and the caller's descriptor it was made
 * from. */
static struct {
    const nnue_game *given;
    nnue_game copy;
} firsts[NNUE_MAX_GAMES];
static int n_firsts;
static pthread_mutex_t firsts_lock = PTHREAD_MUTEX_INITIALIZER;

/* Registers a copy of the first `bytes` bytes of game (a checked descriptor of an earlier
 * version), the current size with the later fields empty; the same descriptor again is a no-op. */
static nnue_status register_copy(const nnue_game *game, size_t bytes, nnue_error *err)
{
    if (nnue_game_find(game->name) == game) /* registered before with its size (or built in): a no-op */
        return nnue_registry_add(&games, game, NULL, err);
    pthread_mutex_lock(&firsts_lock);
    nnue_status st;
    int i = 0;
    while (i < n_firsts && firsts[i].given != game)
        i++;
    if (i < n_firsts) { /* registered before: the registry makes it a no-op */
        st = nnue_registry_add(&games, &firsts[i].copy, NULL, err);
    } else if (n_firsts == NNUE_MAX_GAMES) {
        nnue_error_clear(err);
        st = nnue_fail(err, NNUE_E_ARG, "registering game '%s': at most %d games can be registered", game->name,
                       NNUE_MAX_GAMES);
    } else {
        memset(&firsts[i].copy, 0, sizeof firsts[i].copy);
        memcpy(&firsts[i].copy, game, bytes);
        firsts[i].copy.size = sizeof(nnue_game);
        firsts[i].given = game;
        st = nnue_registry_add(&games, &firsts[i].copy, NULL, err);
        if (st == NNUE_OK)
            n_firsts++;
    }
    pthread_mutex_unlock(&firsts_lock);
    return st;
}

nnue_status nnue_register_game(const nnue_game *game, nnue_error *err)
{
    if (game && game->size != sizeof(nnue_game) && game->size != NNUE_GAME_SIZE_V2) {
        nnue_error_clear(err);
        return nnue_fail(err, NNUE_E_ARG,
                         "registering game '%s': expected a descriptor of size %zu (.size = sizeof(nnue_game)), "
                         "found size %u%s", game->name ? game->name : "", sizeof(nnue_game), (unsigned)game->size,
                         game->size > sizeof(nnue_game) ? " (built against a newer nnue_board.h than this library)"
                         : " (a first-version descriptor without size registers through nnue_game_register)");
    }
    const char *problem = game ? descriptor_problem(game) : NULL;
    if (!game || problem || game->size == sizeof(nnue_game))
        return nnue_registry_add(&games, game, problem, err);
    return register_copy(game, NNUE_GAME_SIZE_V2, err); /* a second-version descriptor: read no further */
}

/* Reads only the first NNUE_GAME_SIZE_V1 bytes of game (descriptor_problem reads no later field). */
nnue_status nnue_game_register(const nnue_game *game, nnue_error *err)
{
    const char *problem = game ? descriptor_problem(game) : NULL;
    if (!game || problem)
        return nnue_registry_add(&games, game, problem, err);
    return register_copy(game, NNUE_GAME_SIZE_V1, err);
}

/* game with every field of this version: game itself when built-in or registered with its size,
 * the copy when it was registered as an earlier version (register_copy), else NULL (a descriptor the library
 * does not know, whose size it cannot tell). The built-in games are found without a lock. */
static const nnue_game *current(const nnue_game *game)
{
    for (int i = 0; nnue_games[i]; i++)
        if (nnue_games[i] == game)
            return game;
    const nnue_game *known = nnue_game_find(game->name);
    if (known == game)
        return game;
    const nnue_game *copy = NULL;
    pthread_mutex_lock(&firsts_lock);
    for (int i = 0; i < n_firsts; i++)
        if (firsts[i].given == game && known == &firsts[i].copy)
            copy = known;
    pthread_mutex_unlock(&firsts_lock);
    return copy;
}

int nnue_game_records_threats(const nnue_game *game)
{
    const nnue_game *g = game ? current(game) : NULL;
    return g && g->make_threats;
}

int nnue_game_make_threats_filtered(const nnue_game *game, void *pos, nnue_move move, nnue_delta *delta,
                                    nnue_threats *threats, const nnue_threat_filter *filter)
{
    const nnue_game *g = current(game);
    if (g && g->make_threats_filtered && g->make_threats) {
        g->make_threats_filtered(pos, move, delta, threats, filter);
        return 1;
    }
    return nnue_game_make_threats(game, pos, move, delta, threats);
}

int nnue_game_make_threats(const nnue_game *game, void *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats)
{
    const nnue_game *g = current(game);
    if (g && g->make_threats) {
        g->make_threats(pos, move, delta, threats);
        return 1;
    }
    threats->n_removed = threats->n_added = 0;
    game->make(pos, move, delta);
    return 0;
}
