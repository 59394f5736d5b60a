/* games/threat_log.c: the end of a recorder's move (games/threat_log.h): indirect pairs listed
 * in both lists are dropped from both, and the lists handed to the caller. */
#include <string.h>

#include "games/threat_log.h"

const nnue_threat_filter nnue_threat_log_every_pair = {
    .victims = {[0 ... 31] = 0xFFFFFFFFu},
    .attackers = {[0 ... 31] = 0xFFFFFFFFu},
};

/* A dropped pair's word is 0: its attacker byte is 0, which no piece code is, so it matches
 * nothing later and is left out of the copy. */
void nnue_threat_log_end(nnue_threat_log *l)
{
    for (int i = 0; i < l->n_xray; i++) {
        int added = l->xray[i] >> 15, at = l->xray[i] & 0x7FFF;
        uint32_t key = l->word[added][at], *other = l->word[!added];
        if (!key)
            continue;
        for (int j = 0, n = l->n[!added]; j < n; j++)
            if (other[j] == key) {
                l->word[added][at] = other[j] = 0;
                break;
            }
    }
    nnue_threats *t = l->t;
    nnue_threat *lists[2] = {t->removed, t->added};
    uint16_t counts[2];
    for (int k = 0; k < 2; k++) { /* each word written, kept when not dropped: no branch */
        int n = 0;
        for (int j = 0; j < l->n[k]; j++) {
            uint32_t w = l->word[k][j];
            memcpy(&lists[k][n], &w, sizeof w);
            n += w != 0;
        }
        counts[k] = (uint16_t)n;
    }
    t->n_removed = counts[0];
    t->n_added = counts[1];
}
