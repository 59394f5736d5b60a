/* io/stream.h: a read stream over a file or bytes in memory, with the byte offset of the next
 * byte and the size, so every error can say where it happened; and the 64-byte aligned arrays a
 * reader fills from it, prefaulted meanwhile on a second thread. Bytes only: what they mean is
 * the reader's (formats/net_read.h reads typed arrays and LEB128 blocks from it). */
#ifndef NNUE_IO_STREAM_H
#define NNUE_IO_STREAM_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nnue_error.h"

/* An array the stream's reader is filling, prefaulted meanwhile on a second thread (nr_alloc_for). */
typedef struct nr_prefault {
    pthread_t thread;
    char *start;
    uint64_t bytes;
} nr_prefault;

#define NR_PREFAULTS 8

typedef struct nr_stream {
    FILE *f;
    const char *path;
    uint64_t offset;     /* offset of the next byte to read */
    uint64_t size;       /* file size at open time */
    nnue_error *err;
    const void *data;    /* the bytes of a stream over memory (nr_open_memory), else NULL */
    nr_prefault prefault[NR_PREFAULTS]; /* running until nr_close */
    int n_prefault;
} nr_stream;

/* Opens path for reading (NNUE_E_IO when it cannot be opened or is not a regular file). */
nnue_status nr_open(nr_stream *s, const char *path, nnue_error *err);
/* The same over size bytes in memory (not copied; they must outlive the stream); name labels
 * them in messages. An empty buffer is NNUE_E_FORMAT. */
nnue_status nr_open_memory(nr_stream *s, const char *name, const void *data, size_t size, nnue_error *err);
/* Closes the file and waits for the stream's prefault threads (nr_alloc_for). */
void nr_close(nr_stream *s);

/* Reads exactly n bytes; a short read is NNUE_E_FORMAT "<section>: file truncated ...". */
nnue_status nr_bytes(nr_stream *s, void *buf, uint64_t n, const char *section);
nnue_status nr_u32(nr_stream *s, uint32_t *v, const char *section);
/* Skips n bytes (they must exist). */
nnue_status nr_skip(nr_stream *s, uint64_t n, const char *section);

/* The little-endian u32 at p. */
uint32_t nr_le32(const unsigned char *p);

/* 64-byte aligned, size rounded up to 64; NULL on failure or overflow. Free with free(). */
void *nr_alloc(uint64_t bytes);
/* nr_alloc, or NNUE_E_NOMEM naming what could not be allocated. */
nnue_status nr_alloc_for(nr_stream *s, void **out, uint64_t bytes, const char *what);
/* Frees an array of nr_alloc_for(s, ...) before s is closed (a scratch array of the reader),
 * after joining the thread prefaulting it. NULL: nothing. */
void nr_free(nr_stream *s, void *p);

#endif
