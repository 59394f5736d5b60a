/* features/xiangqi_threats.h: the internal check of FullThreats_xiangqi's attack tables, for
 * tests (the set itself is registered through features/registry.c). */
#ifndef NNUE_FEATURES_XIANGQI_THREATS_H
#define NNUE_FEATURES_XIANGQI_THREATS_H

#include <stdint.h>

#include "nnue_board.h"

/* Compares the table-driven attacks every move update and refresh uses with the plain ray walk
 * they were built from, for every piece type, colour and square, on `boards` occupancies drawn
 * from `seed` (every density from empty to full); returns the number of disagreements. */
long xqf_attack_tables_check(uint64_t seed, int boards);

/* Every threat pair of a board by the set's attack rules (at most 256, the set's bound), in the
 * order the active lists take them; returns the count. For tests building a move's changes. */
int xqf_board_threats(const nnue_board *board, nnue_threat *out);

#endif
