/* games/perft.h: leaf count of the legal move tree, for any registered game. */
#ifndef NNUE_GAMES_PERFT_H
#define NNUE_GAMES_PERFT_H

#include "nnue_board.h"

/* Uses game->perft when the adapter has a fast path, else make/unmake via the vtable.
 * depth <= 0 returns 1. */
unsigned long long nnue_perft(const nnue_game *game, void *pos, int depth);

#endif
