/* training/bitstream.c: the move list's bit stream (training/bitstream.h). */
#include "training/bitstream.h"

#include <stdlib.h>

unsigned bp_index_bits(unsigned n)
{
    return n <= 1 ? 0 : 32u - (unsigned)__builtin_clz(n - 1);
}

uint16_t bp_to_unsigned(int16_t v)
{
    int32_t x = v;
    return (uint16_t)(x >= 0 ? 2 * x : -2 * x - 1);
}

int16_t bp_to_signed(uint16_t u)
{
    int32_t x = (u & 1) ? -(int32_t)(u >> 1) - 1 : (int32_t)(u >> 1);
    return (int16_t)x;
}

int bp_put_bits(bp_bit_writer *w, unsigned value, unsigned count)
{
    for (unsigned i = count; i-- > 0;) {
        if (w->used == 0) {
            if (w->len == w->cap) {
                size_t cap = w->cap ? 2 * w->cap : 256;
                uint8_t *buf = realloc(w->buf, cap);
                if (!buf)
                    return -1;
                w->buf = buf;
                w->cap = cap;
            }
            w->buf[w->len++] = 0;
        }
        w->buf[w->len - 1] |= (uint8_t)(((value >> i) & 1u) << (7 - w->used));
        w->used = (w->used + 1) & 7;
    }
    return 0;
}

int bp_put_score(bp_bit_writer *w, uint16_t v)
{
    const unsigned mask = (1u << BP_SCORE_BLOCK) - 1;
    for (;;) {
        unsigned more = v > mask;
        if (bp_put_bits(w, (more << BP_SCORE_BLOCK) | (v & mask), BP_SCORE_BLOCK + 1) != 0)
            return -1;
        v >>= BP_SCORE_BLOCK;
        if (!more)
            return 0;
    }
}

void bp_bit_writer_reset(bp_bit_writer *w)
{
    w->len = 0;
    w->used = 0;
}

void bp_bit_writer_free(bp_bit_writer *w)
{
    free(w->buf);
    w->buf = NULL;
    w->len = w->cap = 0;
    w->used = 0;
}

int bp_get_bits(bp_bit_reader *r, unsigned count, unsigned *value)
{
    if (r->bit + count > 8 * r->size)
        return -1;
    unsigned v = 0;
    for (unsigned i = 0; i < count; i++, r->bit++)
        v = v << 1 | ((r->data[r->bit >> 3] >> (7 - (r->bit & 7))) & 1u);
    *value = v;
    return 0;
}

int bp_get_score(bp_bit_reader *r, uint16_t *v)
{
    const unsigned mask = (1u << BP_SCORE_BLOCK) - 1;
    unsigned out = 0;
    for (unsigned block = 0;; block++) {
        unsigned field;
        if (block == BP_SCORE_MAX_BLOCKS)
            return -2;
        if (bp_get_bits(r, BP_SCORE_BLOCK + 1, &field) != 0)
            return -1;
        out |= (field & mask) << (BP_SCORE_BLOCK * block);
        if (!(field >> BP_SCORE_BLOCK))
            break;
    }
    *v = (uint16_t)out;
    return 0;
}

size_t bp_bytes_read(const bp_bit_reader *r)
{
    return (r->bit + 7) / 8;
}
