/* io/leb128.c: see io/leb128.h. A decoder is fed byte spans in order; inside a span whole values
 * are decoded value by value (an i16 block eight values at a time), and anything unusual (a value
 * split across spans, too long, out of range, more bytes than values) goes byte by byte, which
 * reports it. */
#include "io/leb128.h"

#include <string.h>

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store(void *dst, int value_bytes, uint64_t i, int64_t v)
{
    switch (value_bytes) {
    case 1: ((int8_t *)dst)[i] = (int8_t)v; break;
    case 2: ((int16_t *)dst)[i] = (int16_t)v; break;
    default: ((int32_t *)dst)[i] = (int32_t)v; break;
    }
}

/* Where the values of an 8-byte window lie, by its continuation bits (bit k: byte k has 0x80):
 * how many whole one- and two-byte values it holds from its start, the bytes they take, and each
 * value's first byte and whether it has two. A three-byte value or one running past the window
 * ends the list there. Built once (a constructor: read-only afterwards). */
typedef struct leb_window {
    uint8_t values, bytes;
    uint8_t start[8], two[8];
} leb_window;

static leb_window leb_windows[256];

__attribute__((constructor)) static void leb_windows_build(void)
{
    for (int mask = 0; mask < 256; mask++) {
        leb_window *w = &leb_windows[mask];
        int k = 0;
        while (k < 8) {
            int more = mask >> k & 1;
            if (more && (k == 7 || (mask >> (k + 1) & 1)))
                break; /* three bytes or more, or past the window */
            w->start[w->values] = (uint8_t)k;
            w->two[w->values++] = (uint8_t)more;
            k += 1 + more;
        }
        w->bytes = (uint8_t)k;
        for (int j = w->values; j < 8; j++) /* unused slots read a byte inside the window */
            w->start[j] = 0, w->two[j] = 0;
    }
}

/* The i16 fast path: whole values from buf[*at..n) into dst[*done..count), window by window
 * while a whole window fits, with no branch that depends on the values: the window's
 * continuation bits pick its layout (leb_windows), and its eight slots are decoded alike (those
 * past its values are rewritten by the values that follow, within count). A window that starts
 * with a three-byte value stops it for the caller's checked paths (which decode or report it);
 * so does nothing else: every one- or two-byte value fits i16. Returns 1 when it decoded
 * anything. */
static int decode_i16_run(const unsigned char *buf, uint64_t n, uint64_t *at, int16_t *dst, uint64_t *done,
                          uint64_t count)
{
    uint64_t i = *at, d = *done;
    while (d + 8 <= count && i + 9 <= n) {
        uint64_t eight = (uint64_t)le32(buf + i) | (uint64_t)le32(buf + i + 4) << 32;
        /* bit 7 of each byte gathered into one byte, byte k -> bit k */
        unsigned mask = (unsigned)((((eight & 0x8080808080808080ull) >> 7) * 0x0102040810204080ull) >> 56);
        const leb_window *w = &leb_windows[mask];
        if (!w->values)
            break;
        for (int j = 0; j < 8; j++) {
            const unsigned char *v = buf + i + w->start[j];
            unsigned two = w->two[j];
            uint32_t raw = (v[0] & 0x7fu) | ((0u - two) & (v[1] & 0x7fu)) << 7;
            int unused = 32 - 7 * (1 + (int)two);
            dst[d + (uint64_t)j] = (int16_t)((int32_t)(raw << unused) >> unused); /* sign from the last bit */
        }
        d += w->values, i += w->bytes;
    }
    int progress = d > *done;
    *at = i, *done = d;
    return progress;
}

void leb128_begin(leb128_decoder *d, int value_bytes, void *dst, uint64_t count)
{
    memset(d, 0, sizeof *d);
    d->dst = dst;
    d->count = count;
    d->value_bytes = value_bytes;
}

int leb128_complete(const leb128_decoder *d)
{
    return d->done == d->count && d->nb == 0;
}

leb128_stop leb128_feed(leb128_decoder *d, const unsigned char *buf, uint64_t n)
{
    const int i16 = d->value_bytes == 2;
    const int max_bytes = i16 ? 3 : 5;
    const int64_t lo = i16 ? INT16_MIN : INT32_MIN, hi = i16 ? INT16_MAX : INT32_MAX;
    void *dst = d->dst;
    const uint64_t count = d->count;
    uint64_t done = d->done, acc = d->acc;
    int shift = d->shift, nb = d->nb;
    leb128_stop stop = LEB128_OK;
    for (uint64_t i = 0; i < n; i++) {
        /* Fast path: whole values inside the span, decoded value by value (a net holds tens of
         * millions); anything unusual falls to the byte-by-byte path below, which reports it. */
        while (nb == 0 && done < count && i + (uint64_t)max_bytes <= n) {
            if (i16 && decode_i16_run(buf, n, &i, (int16_t *)dst, &done, count))
                continue;
            uint64_t a = 0;
            int len = 0;
            unsigned c;
            do {
                c = buf[i + (uint64_t)len];
                a |= (uint64_t)(c & 0x7f) << (7 * len);
                len++;
            } while ((c & 0x80) && len < max_bytes);
            if (c & 0x80)
                break;
            if (c & 0x40)
                a |= ~(uint64_t)0 << (7 * len);
            int64_t v = (int64_t)a;
            if (v < lo || v > hi)
                break;
            if (i16)
                ((int16_t *)dst)[done++] = (int16_t)v;
            else
                store(dst, d->value_bytes, done++, v);
            i += (uint64_t)len;
        }
        if (i >= n)
            break;
        unsigned b = buf[i];
        uint64_t at = d->fed + i;
        if (done == count) {
            d->at = at, stop = LEB128_LEFT_OVER;
            break;
        }
        if (nb == 0)
            d->value_start = at;
        acc |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        nb++;
        if (b & 0x80) {
            if (nb == max_bytes) {
                d->at = d->value_start, stop = LEB128_TOO_LONG;
                break;
            }
            continue;
        }
        if (b & 0x40)
            acc |= ~(uint64_t)0 << shift;
        int64_t v = (int64_t)acc;
        if (v < lo || v > hi) {
            d->at = d->value_start, d->value = v, stop = LEB128_RANGE;
            break;
        }
        store(dst, d->value_bytes, done++, v);
        acc = 0, shift = 0, nb = 0;
    }
    d->done = done, d->acc = acc, d->shift = shift, d->nb = nb;
    d->fed += n;
    return stop;
}
