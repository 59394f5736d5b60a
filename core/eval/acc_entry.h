/* core/eval/acc_entry.h: one ply of a state's accumulator stack (core/eval/state.h): the move that led
 * there, what it forces, and both perspectives' accumulators. On its own so that the refresh
 * cache (core/eval/refresh_cache.c), which fills entries, does not need the state that owns them. */
#ifndef NNUE_CORE_EVAL_ACC_ENTRY_H
#define NNUE_CORE_EVAL_ACC_ENTRY_H

#include <stdint.h>

#include "nnue_board.h"

typedef struct nnue_acc_entry {
    nnue_delta delta;              /* the move that led here (unused at the root) */
    uint8_t refresh[2];            /* the sets (bit k) whose features of perspective p the move
                                      invalidates (0xff: every set, a bad entry); nonzero forces p
                                      to refresh, or the one-move update rebuilds those sets' rows
                                      alone (core/eval/state_update.c) */
    uint8_t computed[2];
    uint8_t bad_delta;             /* the pushed board or delta did not fit the game: never applied */
    int32_t pieces[2];             /* pieces (board and hands, kings included) whose features perspective
                                      p's accumulator holds once computed: the board's count where it
                                      was refreshed, plus each applied move's net change (push bounds it) */
    int64_t tpart[2];              /* the selector's incremental table variable (slot tpart_slot): */
    uint8_t tpart_ok[2];           /* each perspective's share and whether it is up to date
                                      (core/eval/table_parts.c) */
    int16_t tpart_slot;
    uint8_t has_threats;           /* the move came with its threat changes (nnue_state_push_threats) */
    uint16_t n_threats_removed, n_threats_added;
    uint32_t threats_at;           /* where they are in the state's threat stack (removed, then added);
                                      the next entry's start in any case */
    int16_t *acc[2];               /* [width] per perspective */
    int32_t *psqt[2];              /* [psqt_buckets] per perspective */
} nnue_acc_entry;

#endif
