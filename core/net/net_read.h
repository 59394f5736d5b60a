/* core/net/net_read.h: the common net reader (core/net/net_read.c), used by the format readers
 * (core/net/net_formats.h) and by core/net/net_load.c; not a public API.
 *
 * It calls none of them. A read stream is a buffered FILE with the byte offset of the next
 * byte and the file size, so every error can say where it happened. All multi-byte values in
 * net files are little-endian; nr_from_le() converts arrays in place (identity on
 * little-endian hosts). */
#ifndef NNUE_CORE_NET_NET_READ_H
#define NNUE_CORE_NET_NET_READ_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "core/net/net.h"

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

/* Reads count values stored as file_type into dst of mem_type (equal or wider signed type:
 * i8 -> i16/i32, i16 -> i32). */
nnue_status nr_array(nr_stream *s, nnue_dtype file_type, nnue_dtype mem_type, void *dst, uint64_t count,
                     const char *section);

/* A "COMPRESSED_LEB128" block (magic, u32 payload bytes, signed LEB128 values) decoded into
 * count values of mem_type (i16 or i32). Checks the payload against the file size before
 * decoding; rejects a payload that ends early, has bytes left over, or a value out of range. */
nnue_status nr_leb128(nr_stream *s, nnue_dtype mem_type, void *dst, uint64_t count, const char *section);
/* A LEB128 block's payload of `announced` bytes from the stream's offset, decoded into count values
 * (nr_leb128 after the magic and the length; errors as nr_leb128's). */
nnue_status nr_leb128_payload(nr_stream *s, nnue_dtype mem_type, void *dst, uint64_t count, uint64_t announced,
                              const char *section);
/* Little-endian arrays to host order, in place. */
void nr_from_le(void *data, nnue_dtype type, uint64_t count);
uint32_t nr_le32(const unsigned char *p);

/* 64-byte aligned, size rounded up to 64; NULL on failure or overflow. Free with free(). */
void *nr_alloc(uint64_t bytes);
/* nr_alloc, or NNUE_E_NOMEM naming what could not be allocated. */
nnue_status nr_alloc_for(nr_stream *s, void **out, uint64_t bytes, const char *what);
/* Frees an array of nr_alloc_for(s, ...) before s is closed (a scratch array of the reader),
 * after joining the thread prefaulting it. NULL: nothing. */
void nr_free(nr_stream *s, void *p);

#define NR_LEB128_MAGIC "COMPRESSED_LEB128"
#define NR_LEB128_MAGIC_LEN 17

#endif
