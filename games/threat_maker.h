/* games/threat_maker.h: a built-in adapter's make that also records the move's threat changes
 * (include/nnue_board.h nnue_game_make_threats), kept beside its nnue_game rather than in it (see
 * there why). An adapter folder defines one and games/registry.c lists it. */
#ifndef NNUE_GAMES_THREAT_MAKER_H
#define NNUE_GAMES_THREAT_MAKER_H

#include "nnue_board.h"

typedef struct nnue_threat_maker {
    const nnue_game *game;
    void (*make)(void *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats);
} nnue_threat_maker;

#endif
