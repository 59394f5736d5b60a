/* games/threat_log.c: the end of a recorder's move (games/threat_log.h): indirect pairs listed
 * in both lists are dropped from both. */
#include <string.h>

#include "games/threat_log.h"

static inline uint32_t pair_key(const nnue_threat *t)
{
    uint32_t k;
    memcpy(&k, t, sizeof k);
    return k;
}

/* A dropped entry's attacker is 0, which no piece code is (so it matches nothing later). */
void nnue_threat_log_cancel(nnue_threat_log *l)
{
    int dropped = 0;
    nnue_threats *t = l->t;
    for (int i = 0; i < l->n_xray; i++) {
        int added = l->xray[i] >> 15, at = l->xray[i] & 0x7FFF;
        nnue_threat *self = added ? &t->added[at] : &t->removed[at];
        if (!self->attacker)
            continue;
        uint32_t key = pair_key(self);
        nnue_threat *other = added ? t->removed : t->added;
        int n = added ? t->n_removed : t->n_added;
        for (int j = 0; j < n; j++)
            if (pair_key(&other[j]) == key) {
                self->attacker = other[j].attacker = 0;
                dropped = 1;
                break;
            }
    }
    if (!dropped)
        return;
    uint16_t *counts[2] = {&t->n_removed, &t->n_added};
    nnue_threat *lists[2] = {t->removed, t->added};
    for (int k = 0; k < 2; k++) {
        int n = 0;
        for (int j = 0; j < *counts[k]; j++)
            if (lists[k][j].attacker)
                lists[k][n++] = lists[k][j];
        *counts[k] = (uint16_t)n;
    }
}
