/* core/net/net_leb128_split.c: a large LEB128 i16 block decoded in two halves at once (see
 * net_read.h nr_leb128_split). Decoding is the load's critical path on a net whose feature
 * weights are one big block (Stockfish 17.1's: 69 M values, ~140 ms on one thread), and the
 * format allows a split without a pass over the values: every byte without the continuation bit
 * (0x80) ends a value, so the value after byte k starts at k + 1, and the number of values before
 * it is the number of such bytes before it (a count that vectorizes). The second half goes to a
 * second thread, each half through the ordinary decoder on a stream over its bytes. Anything off
 * (a value the split would cut, a half whose decode fails, a mapping or a thread refused) makes it
 * give up having read nothing: the caller then decodes the block in order and reports what is
 * wrong with the byte offset and value index of the whole file. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/helper_threads.h"
#include "core/net/net_read.h"

/* Blocks of at least this many values are split (smaller ones cost less than a thread). */
#define SPLIT_FROM (8u << 20)

typedef struct half {
    const unsigned char *bytes;
    uint64_t size, count;
    int16_t *dst;
    nnue_status status;
} half;

static void *decode_half(void *arg)
{
    half *h = arg;
    nr_stream s;
    nnue_error err; /* a failed half is decoded again, in order, by the caller: its message is not kept */
    h->status = nr_open_memory(&s, "half", h->bytes, (size_t)h->size, &err);
    if (h->status == NNUE_OK)
        h->status = nr_leb128_payload(&s, NNUE_I16, h->dst, h->count, h->size, "half");
    nr_close(&s);
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

/* Decodes the payload at p (its `announced` bytes) in two halves; 1 when both decoded whole. */
static int decode_in_halves(const unsigned char *p, uint64_t announced, int16_t *dst, uint64_t count)
{
    uint64_t mid = announced / 2;
    while (mid < announced && (p[mid - 1] & 0x80)) /* the first byte of a value */
        mid++;
    uint64_t before = values_in(p, mid);
    if (mid == announced || before == 0 || before >= count)
        return 0;
    half first = {p, mid, before, dst, NNUE_OK}, second = {p + mid, announced - mid, count - before, dst + before, NNUE_OK};
    pthread_t thread;
    int threaded = pthread_create(&thread, NULL, decode_half, &second) == 0;
    decode_half(&first);
    if (threaded)
        pthread_join(thread, NULL);
    else
        decode_half(&second);
    return first.status == NNUE_OK && second.status == NNUE_OK;
}

int nr_leb128_split(nr_stream *s, nnue_dtype mem_type, void *dst, uint64_t count, uint64_t announced)
{
    if (mem_type != NNUE_I16 || count < SPLIT_FROM || !nnue_helper_threads_allowed())
        return 0;
    uint64_t pstart = s->offset;
    int done;
    if (s->data) {
        done = decode_in_halves((const unsigned char *)s->data + pstart, announced, dst, count);
    } else {
        /* A file: its payload mapped read-only (page cache, no copy), from the page holding its start. */
        long page = sysconf(_SC_PAGESIZE);
        uint64_t from = page > 0 ? pstart / (uint64_t)page * (uint64_t)page : pstart;
        size_t length = (size_t)(pstart - from + announced);
        void *map = mmap(NULL, length, PROT_READ, MAP_PRIVATE, fileno(s->f), (off_t)from);
        if (map == MAP_FAILED)
            return 0;
        done = decode_in_halves((const unsigned char *)map + (pstart - from), announced, dst, count);
        munmap(map, length);
    }
    if (!done || fseeko(s->f, (off_t)(pstart + announced), SEEK_SET) != 0)
        return 0; /* nothing read from the stream: the caller decodes in order */
    s->offset = pstart + announced;
    return 1;
}
