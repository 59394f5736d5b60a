/* tests/threat_keys.h: threat pairs (include/nnue_board.h nnue_threat) as sortable keys, for the
 * tests that check a recorder's lists against the difference of two boards' pairs (chess and
 * xiangqi), and its lists through a filter (nnue_threat_filter) against its full ones. */
#ifndef NNUE_TESTS_THREAT_KEYS_H
#define NNUE_TESTS_THREAT_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "nnue_board.h"

/* attacker, from, victim, to in one word (sorts by attacker first). */
uint32_t threat_key(const nnue_threat *t);
void threat_keys_sort(uint32_t *keys, int n);
/* The keys of sorted a not in sorted b, into out; returns their count. */
int threat_keys_minus(const uint32_t *a, int na, const uint32_t *b, int nb, uint32_t *out);
/* 0 when list (n pairs, any order) holds exactly the sorted keys want; else 1 and why in buf
 * ("3 threats removed, the boards differ by 2", or the first pair that differs). */
int threat_list_differs(const nnue_threat *list, int n, const uint32_t *want, int n_want, const char *what,
                        char *buf, size_t size);

/* f->attackers[] from f->victims[] (the same pairs by victim), as the state makes them. */
void threat_filter_transpose(nnue_threat_filter *f);
int threat_filter_passes(const nnue_threat_filter *f, const nnue_threat *t);
/* 0 when got (n_got pairs) is full (n_full) less the pairs f does not pass, in order; else 1 and
 * why in buf. */
int threat_filtered_differs(const nnue_threat *full, int n_full, const nnue_threat *got, int n_got,
                            const nnue_threat_filter *f, const char *what, char *buf, size_t size);

#endif
