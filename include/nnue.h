/* nnue.h: public C API of the nnue library.
 *
 * Scores are integers from the side to move's point of view, in the net's
 * own internal units unless a function says otherwise. Every fallible call
 * returns an nnue_status and fills the caller's nnue_error. */
#ifndef NNUE_H
#define NNUE_H

#include "nnue_board.h"
#include "nnue_error.h"

#endif
