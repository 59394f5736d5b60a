/* games/threat_log.h: the threat lists a recorder writes while it makes a move step by step
 * (include/nnue_board.h nnue_threats; games/chess/threats.c, games/xiangqi/threats.c).
 *
 * A step (a piece lifted, put, or replaced on one square) lists pairs holding its own square
 * (direct) and pairs of other pieces whose attacks run through that square (discovered or
 * blocked: indirect). Two steps' direct pairs never coincide (each holds its own square and
 * piece, and a moved piece ends on another square), so a pair listed in both lists always has
 * an indirect entry: those are remembered, and nnue_threat_log_end pairs them off, leaving no
 * pair in both lists, as the feature sets' own difference of two boards lists them.
 *
 * The log keeps its pairs as 32-bit words (the bytes of an nnue_threat) in its own arrays with
 * 16-bit counts, and copies them into the caller's nnue_threats at the end: a pair written byte
 * by byte into the caller's struct may alias anything, so every pair reloaded the list pointer
 * and count through memory (chess's make with threats spent a fifth of its time there).
 *
 * Through a filter (nnue_threat_filter) a pair it does not pass is written and not counted (no
 * branch: the next pair overwrites it), and an indirect one is not remembered: the filter depends
 * on the codes alone, so a pair is left out of both lists or of neither and the pairing off holds.
 * Filtering pair by pair costs a few instructions a pair; masking the steps' square sets by the
 * filter's codes cost more than the pairs it saved downstream (callgrind, sf19). */
#ifndef NNUE_GAMES_THREAT_LOG_H
#define NNUE_GAMES_THREAT_LOG_H

#include <stdint.h>

#include "nnue_board.h"

#define NNUE_THREAT_LOG_XRAYS 64 /* indirect pairs of one move (chess and xiangqi stay below) */

typedef struct nnue_threat_log {
    nnue_threats *t;
    const uint32_t *victims;                    /* the filter's pairs by attacker code */
    uint16_t n[2], n_xray;                      /* pairs in word[0] (removed) and word[1] (added) */
    uint16_t xray[NNUE_THREAT_LOG_XRAYS];       /* list (bit 15: added) and index of each indirect pair */
    uint32_t word[2][NNUE_MAX_THREATS];
} nnue_threat_log;

/* The word of a pair: the bytes attacker, from, victim, to in memory order (as nnue_threat). */
static inline uint32_t nnue_threat_word(uint8_t x, int from, uint8_t y, int to)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return (uint32_t)x << 24 | (uint32_t)(uint8_t)from << 16 | (uint32_t)y << 8 | (uint8_t)to;
#else
    return x | (uint32_t)(uint8_t)from << 8 | (uint32_t)y << 16 | (uint32_t)(uint8_t)to << 24;
#endif
}

/* Every pair: a log without a filter. */
extern const nnue_threat_filter nnue_threat_log_every_pair;

static inline void nnue_threat_log_start(nnue_threat_log *l, nnue_threats *t, const nnue_threat_filter *filter)
{
    l->t = t;
    l->victims = (filter ? filter : &nnue_threat_log_every_pair)->victims;
    l->n[0] = l->n[1] = l->n_xray = 0;
}

/* A direct pair: added (1) or removed (0); returns 1 when the filter passes it (piece codes below
 * 32, as every game's are). */
static inline unsigned nnue_threat_log_pair(nnue_threat_log *l, int added, uint8_t x, int from, uint8_t y, int to)
{
    uint16_t n = l->n[added];
    unsigned keep = l->victims[x & 31] >> (y & 31) & 1;
    if (n < NNUE_MAX_THREATS) {
        l->word[added][n] = nnue_threat_word(x, from, y, to);
        l->n[added] = (uint16_t)(n + keep);
    }
    return keep;
}

/* An indirect pair (a discovered or blocked threat), remembered for the cancelling. */
static inline void nnue_threat_log_xray(nnue_threat_log *l, int added, uint8_t x, int from, uint8_t y, int to)
{
    uint16_t n = l->n[added];
    if (nnue_threat_log_pair(l, added, x, from, y, to) && l->n_xray < NNUE_THREAT_LOG_XRAYS && n < NNUE_MAX_THREATS)
        l->xray[l->n_xray++] = (uint16_t)((added ? 0x8000u : 0) | n);
}

/* Drops each indirect pair together with an equal pair of the other list, and writes the lists
 * into the nnue_threats given to nnue_threat_log_start. */
void nnue_threat_log_end(nnue_threat_log *l);

#endif
