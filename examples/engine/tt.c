/* examples/engine/tt.c: the transposition table, one entry per slot, shared by every search
 * thread without locks. Each entry stores (key ^ data, data) with relaxed atomic loads and
 * stores: an entry torn by two threads writing at once fails the key check and is a miss, and
 * there is no data race (ThreadSanitizer-clean). data = move (32 bits) | score (16) | depth (8)
 * | bound (2). */
#include <stdlib.h>

#include "engine.h"

int tt_resize(tt_table *tt, int megabytes)
{
    uint64_t bytes = (uint64_t)(megabytes < 1 ? 1 : megabytes) << 20;
    uint64_t count = 1;
    while (count * 2 * sizeof(tt_entry) <= bytes)
        count *= 2;
    tt_entry *e = calloc(count, sizeof *e);
    if (!e)
        return -1;
    free(tt->entries);
    tt->entries = e;
    tt->mask = count - 1;
    return 0;
}

void tt_clear(tt_table *tt)
{
    for (uint64_t i = 0; tt->entries && i <= tt->mask; i++) {
        atomic_store_explicit(&tt->entries[i].check, 0, memory_order_relaxed);
        atomic_store_explicit(&tt->entries[i].data, 0, memory_order_relaxed);
    }
}

void tt_free(tt_table *tt)
{
    free(tt->entries);
    tt->entries = NULL;
}

int tt_hashfull(const tt_table *tt)
{
    uint64_t n = tt->mask + 1 < 1000 ? tt->mask + 1 : 1000, used = 0;
    for (uint64_t i = 0; i < n; i++)
        used += atomic_load_explicit(&tt->entries[i].data, memory_order_relaxed) != 0;
    return (int)(used * 1000 / n);
}

int tt_probe(const tt_table *tt, uint64_t key, tt_hit *hit)
{
    tt_entry *e = &tt->entries[key & tt->mask];
    uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
    uint64_t check = atomic_load_explicit(&e->check, memory_order_relaxed);
    if ((check ^ data) != key || data == 0)
        return 0;
    hit->move = (nnue_move)(data & 0xFFFFFFFFu);
    hit->score = (int16_t)(uint16_t)(data >> 32);
    hit->depth = (int)((data >> 48) & 0xFF);
    hit->bound = (int)((data >> 56) & 3);
    return 1;
}

void tt_store(tt_table *tt, uint64_t key, nnue_move move, int score, int depth, int bound)
{
    tt_entry *e = &tt->entries[key & tt->mask];
    uint64_t old = atomic_load_explicit(&e->data, memory_order_relaxed);
    uint64_t old_key = atomic_load_explicit(&e->check, memory_order_relaxed) ^ old;
    /* Keep a deeper result of the same position, and its move when the new one has none. */
    if (old_key == key && bound != BOUND_EXACT && (int)((old >> 48) & 0xFF) > depth + 2)
        return;
    if (old_key == key && move == 0)
        move = (nnue_move)(old & 0xFFFFFFFFu);
    if (depth < 0)
        depth = 0;
    uint64_t data = (uint64_t)move | (uint64_t)(uint16_t)(int16_t)score << 32 | (uint64_t)(depth & 0xFF) << 48 |
                    (uint64_t)bound << 56;
    atomic_store_explicit(&e->data, data, memory_order_relaxed);
    atomic_store_explicit(&e->check, key ^ data, memory_order_relaxed);
}
