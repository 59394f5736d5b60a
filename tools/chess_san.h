/* tools/chess_san.h: Standard Algebraic Notation of a chess move, for the PGN `nnue match`
 * writes. */
#ifndef NNUE_TOOLS_CHESS_SAN_H
#define NNUE_TOOLS_CHESS_SAN_H

#include <stddef.h>

#include "nnue_chess.h"

/* SAN of a legal move in pos ("Nbd7", "exd6", "O-O", "e8=Q+", "Qh4#"); pos is unchanged. */
void chess_san(nnue_chess_pos *pos, nnue_move move, char *out, size_t size);

#endif
