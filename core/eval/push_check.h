/* core/eval/push_check.h: what push checks of a move handed in (its delta, its threat changes), in
 * one pass each, from tables built once per state from the net's game and feature sets. The
 * verdicts are those of core/eval/board_check.c (codes, squares, hand slots, counts) and of the
 * sets' threat_is_attack; when something does not fit, board_check.c's and the sets' own checks
 * run again to name it, with the same messages. */
#ifndef NNUE_CORE_EVAL_PUSH_CHECK_H
#define NNUE_CORE_EVAL_PUSH_CHECK_H

#include "core/arch/arch.h"
#include "core/eval/board_check.h"

typedef struct nnue_push_check {
    uint8_t code[256];             /* piece code -> colour << 3 | (type & 7) when it fits the game,
                                      else 0x80 */
    int squares, hand_types;
    uint8_t king[2];               /* each colour's king code */
    /* The one set of the net that maps handed-in threats and refuses non-attacks: its attack table
     * (features/feature_set.h threat_attacks), or NULL when no set refuses any. */
    const uint64_t *attacks;
    uint8_t threats_fast;          /* 1: the one pass below decides every threat check */
    uint8_t king_only;             /* sets (bit k) whose needs_refresh() is 0 unless the own king moved */
} nnue_push_check;

/* The tables for a net (its game's shape and its feature transformer's sets). */
void nnue_push_check_init(nnue_push_check *c, const nnue_board_shape *shape, const nnue_ft_desc *ft);

/* What a fitting delta does: pieces put on minus taken off, the first entry that puts one on (-1:
 * none), and whether each colour's king moved (nnue_fs_own_king_moved: the flag or an entry taking
 * that king from one square to another). */
typedef struct nnue_delta_scan {
    int change, adds;
    uint8_t king_moved[2];
} nnue_delta_scan;

/* 0 with *scan when the delta fits the game (nnue_delta_check's verdict); else -1 with err. */
int nnue_push_delta_scan(const nnue_push_check *c, const nnue_board_shape *shape, const nnue_delta *delta,
                         nnue_delta_scan *scan, nnue_error *err);

/* 0 when the threat lists fit the game (nnue_threats_check) and, for the net's sets that map
 * threats and refuse non-attacks, every pair is an attack (threat_is_attack); else -1 with err
 * naming the first that is not. When out is not NULL the lists are copied to it (removed, then
 * added) as they are checked. */
int nnue_push_threats_check(const nnue_push_check *c, const nnue_board_shape *shape, const nnue_ft_desc *ft,
                            const nnue_threats *threats, nnue_threat *out, nnue_error *err);

#endif
