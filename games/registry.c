/* games/registry.c: the list of game adapters the tool and tests can name.
 * Adding a game: one adapter folder and one line below. */
#include <stddef.h>
#include <string.h>

#include "nnue_board.h"

extern const nnue_game nnue_game_chess;
extern const nnue_game nnue_game_shogi;

const nnue_game *const nnue_games[] = {
    &nnue_game_chess,
    &nnue_game_shogi,
    NULL,
};

const nnue_game *nnue_game_find(const char *name)
{
    for (size_t i = 0; nnue_games[i]; i++)
        if (strcmp(nnue_games[i]->name, name) == 0)
            return nnue_games[i];
    return NULL;
}
