/* io/leb128_split.c: a large LEB128 i16 span decoded in two halves at once (io/leb128.h
 * leb128_decode_i16_halves). Decoding is the load's critical path on a net whose feature weights
 * are one big block (Stockfish 17.1's: 69 M values, ~140 ms on one thread), and the format allows
 * a split without a pass over the values: every byte without the continuation bit (0x80) ends a
 * value, so the value after byte k starts at k + 1, and the number of values before it is the
 * number of such bytes before it (a count that vectorizes). The second half goes to a second
 * thread, each half through the ordinary decoder (io/leb128.c). Anything off (a value the split
 * would cut, a half that stops or falls short, a thread refused) makes it return 0: the caller
 * then decodes the block in order and reports what is wrong at its place. */
#include <pthread.h>

#include "base/helper_threads.h"
#include "io/leb128.h"

typedef struct half {
    const unsigned char *bytes;
    uint64_t size, count;
    int16_t *dst;
    int whole;
} half;

static void *decode_half(void *arg)
{
    half *h = arg;
    leb128_decoder d;
    leb128_begin(&d, 2, h->dst, h->count);
    h->whole = leb128_feed(&d, h->bytes, h->size) == LEB128_OK && leb128_complete(&d);
    return NULL;
}

/* Values (bytes without the continuation bit) in p[0..n). */
static uint64_t values_in(const unsigned char *p, uint64_t n)
{
    uint64_t values = 0;
    for (uint64_t i = 0; i < n; i++)
        values += !(p[i] & 0x80);
    return values;
}

int leb128_decode_i16_halves(const unsigned char *p, uint64_t announced, int16_t *dst, uint64_t count)
{
    if (count < LEB128_SPLIT_FROM || !nnue_helper_threads_allowed())
        return 0;
    uint64_t mid = announced / 2;
    while (mid < announced && (p[mid - 1] & 0x80)) /* the first byte of a value */
        mid++;
    uint64_t before = values_in(p, mid);
    if (mid == announced || before == 0 || before >= count)
        return 0;
    half first = {p, mid, before, dst, 0}, second = {p + mid, announced - mid, count - before, dst + before, 0};
    pthread_t thread;
    int threaded = pthread_create(&thread, NULL, decode_half, &second) == 0;
    decode_half(&first);
    if (threaded)
        pthread_join(thread, NULL);
    else
        decode_half(&second);
    return first.whole && second.whole;
}
