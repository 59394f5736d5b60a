/* tests/threat_keys.c: see threat_keys.h. */
#include "threat_keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t threat_key(const nnue_threat *t)
{
    return (uint32_t)t->attacker << 24 | (uint32_t)t->from << 16 | (uint32_t)t->victim << 8 | t->to;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

void threat_keys_sort(uint32_t *keys, int n)
{
    qsort(keys, (size_t)n, sizeof *keys, cmp_u32);
}

int threat_keys_minus(const uint32_t *a, int na, const uint32_t *b, int nb, uint32_t *out)
{
    int n = 0, j = 0;
    for (int i = 0; i < na; i++) {
        while (j < nb && b[j] < a[i])
            j++;
        if (j >= nb || b[j] != a[i])
            out[n++] = a[i];
    }
    return n;
}

int threat_list_differs(const nnue_threat *list, int n, const uint32_t *want, int n_want, const char *what,
                        char *buf, size_t size)
{
    uint32_t got[NNUE_MAX_THREATS];
    if (n != n_want || n > NNUE_MAX_THREATS) {
        snprintf(buf, size, "%d threats %s, the boards differ by %d", n, what, n_want);
        return 1;
    }
    for (int i = 0; i < n; i++)
        got[i] = threat_key(&list[i]);
    threat_keys_sort(got, n);
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            snprintf(buf, size, "threat %s %08x, the boards' difference has %08x", what, got[i], want[i]);
            return 1;
        }
    return 0;
}

void threat_filter_transpose(nnue_threat_filter *f)
{
    for (int y = 0; y < 32; y++) {
        f->attackers[y] = 0;
        for (int x = 0; x < 32; x++)
            f->attackers[y] |= (f->victims[x] >> y & 1u) << x;
    }
}

int threat_filter_passes(const nnue_threat_filter *f, const nnue_threat *t)
{
    return t->attacker < 32 && t->victim < 32 && (f->victims[t->attacker] >> t->victim & 1);
}

int threat_filtered_differs(const nnue_threat *full, int n_full, const nnue_threat *got, int n_got,
                            const nnue_threat_filter *f, const char *what, char *buf, size_t size)
{
    int k = 0;
    for (int i = 0; i < n_full; i++) {
        if (!threat_filter_passes(f, &full[i]))
            continue;
        if (k >= n_got || memcmp(&full[i], &got[k], sizeof got[k]) != 0) {
            snprintf(buf, size, "filtered %s list differs at pair %d of %d", what, k, n_got);
            return 1;
        }
        k++;
    }
    if (k != n_got) {
        snprintf(buf, size, "filtered %s list has %d pairs, the full one passes %d", what, n_got, k);
        return 1;
    }
    return 0;
}
