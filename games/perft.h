/* games/perft.h: leaf count of the legal move tree, for any registered game. */
#ifndef NNUE_GAMES_PERFT_H
#define NNUE_GAMES_PERFT_H

#include "nnue_board.h"

/* nnue_perft is public: include/nnue_board.h. */

#endif
