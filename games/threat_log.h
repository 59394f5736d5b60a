/* games/threat_log.h: the threat lists a recorder writes while it makes a move step by step
 * (include/nnue_board.h nnue_threats; games/chess/threats.c, games/xiangqi/threats.c).
 *
 * A step (a piece lifted, put, or replaced on one square) lists pairs holding its own square
 * (direct) and pairs of other pieces whose attacks run through that square (discovered or
 * blocked: indirect). Two steps' direct pairs never coincide (each holds its own square and
 * piece, and a moved piece ends on another square), so a pair listed in both lists always has
 * an indirect entry: those are remembered, and nnue_threat_log_cancel pairs them off at the end,
 * leaving no pair in both lists, as the feature sets' own difference of two boards lists them. */
#ifndef NNUE_GAMES_THREAT_LOG_H
#define NNUE_GAMES_THREAT_LOG_H

#include <stdint.h>

#include "nnue_board.h"

#define NNUE_THREAT_LOG_XRAYS 64 /* indirect pairs of one move (chess and xiangqi stay below) */

typedef struct nnue_threat_log {
    nnue_threats *t;
    int n_xray;
    uint16_t xray[NNUE_THREAT_LOG_XRAYS]; /* list (bit 15: added) and index of each indirect pair */
} nnue_threat_log;

static inline void nnue_threat_log_start(nnue_threat_log *l, nnue_threats *t)
{
    l->t = t;
    l->n_xray = 0;
    t->n_removed = t->n_added = 0;
}

/* A direct pair: added (1) or removed (0). */
static inline void nnue_threat_log_pair(nnue_threat_log *l, int added, uint8_t x, int from, uint8_t y, int to)
{
    uint16_t *n = added ? &l->t->n_added : &l->t->n_removed;
    nnue_threat *list = added ? l->t->added : l->t->removed;
    if (*n < NNUE_MAX_THREATS)
        list[(*n)++] = (nnue_threat){x, (uint8_t)from, y, (uint8_t)to};
}

/* An indirect pair (a discovered or blocked threat), remembered for the cancelling. */
static inline void nnue_threat_log_xray(nnue_threat_log *l, int added, uint8_t x, int from, uint8_t y, int to)
{
    uint16_t n = added ? l->t->n_added : l->t->n_removed;
    nnue_threat_log_pair(l, added, x, from, y, to);
    if (l->n_xray < NNUE_THREAT_LOG_XRAYS && n < NNUE_MAX_THREATS)
        l->xray[l->n_xray++] = (uint16_t)((added ? 0x8000u : 0) | n);
}

/* Drops each indirect pair together with an equal pair of the other list, closing the gaps. */
void nnue_threat_log_cancel(nnue_threat_log *l);

#endif
