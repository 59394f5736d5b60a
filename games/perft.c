/* games/perft.c: game-neutral perft (count leaf nodes of the legal move tree). */
#include "games/perft.h"

#include <stdlib.h>

static unsigned long long perft_rec(const nnue_game *game, void *pos, int depth,
                                    nnue_move *stack)
{
    int n = game->legal_moves(pos, stack);
    if (depth == 1)
        return (unsigned long long)n;
    unsigned long long total = 0;
    for (int i = 0; i < n; i++) {
        game->make(pos, stack[i], NULL);
        total += perft_rec(game, pos, depth - 1, stack + NNUE_MAX_MOVES);
        game->unmake(pos, stack[i]);
    }
    return total;
}

unsigned long long nnue_perft(const nnue_game *game, void *pos, int depth)
{
    if (depth <= 0)
        return 1;
    if (game->perft)
        return game->perft(pos, depth);
    nnue_move *stack = malloc(sizeof(nnue_move) * NNUE_MAX_MOVES * (size_t)depth);
    if (!stack)
        return 0;
    unsigned long long n = perft_rec(game, pos, depth, stack);
    free(stack);
    return n;
}
