/* io/zstd.h: whole-file zstd nets (Pikafish and Viridithas ship their nets as one zstd
 * frame), read with a bounded cost: the compressed bytes are streamed in chunks (never held
 * whole), a recorded size is refused above a cap before anything is allocated (the
 * caller's: core/net/net.h nz_cap_for_arch; NNUE_MAX_NET_BYTES otherwise), and a
 * frame that records no size (Viridithas's) is decompressed into a buffer that grows with the
 * output up to that cap, past which it is refused. A 32 KB file declaring gigabytes costs a
 * header read, not gigabytes. Not a public API. */
#ifndef NNUE_IO_ZSTD_H
#define NNUE_IO_ZSTD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nnue_error.h"

/* 1 when the first bytes are zstd's frame magic (n >= 4). */
int nz_is_frame(const void *head, size_t n);

/* Where a frame comes from: f (read from its current position, which must be the frame's
 * start) when non-NULL, else size bytes at data. name labels it in messages. */
typedef struct nz_source {
    FILE *f;
    const void *data;
    size_t size;
    const char *name;
    const char *limit;  /* what the cap max is, for the message; NULL: NNUE_MAX_NET_BYTES */
} nz_source;

/* Decompresses the frame into *out (malloc'ed, the caller frees) and *out_size. A recorded size
 * (*declared, when non-NULL; 0 when the frame records none) is at most max bytes and the frame
 * must produce exactly that many; a frame without one at most max; nothing may follow it. keep > 0 stops after the first keep bytes (a header read):
 * *out_size is then min(keep, declared) and the rest of the frame is not decompressed. */
nnue_status nz_unpack(const nz_source *src, uint64_t max, uint64_t keep, void **out, size_t *out_size,
                      uint64_t *declared, nnue_error *err);

/* The same frame streamed into out (nothing held whole: `nnue convert --to unzstd`). */
nnue_status nz_unpack_to_file(const nz_source *src, uint64_t max, FILE *out, nnue_error *err);

/* The frame's decompressed size, counted through a small buffer and dropped (the bytes are not
 * kept); refused past max as nz_unpack refuses (*size then says how far it got). */
nnue_status nz_measure(const nz_source *src, uint64_t max, uint64_t *size, nnue_error *err);

/* in (a whole file, read from its start) compressed into one zstd frame that records its size,
 * written to out in pieces (io/zstd_pack.c); name labels in in messages. */
nnue_status nz_pack_file(FILE *in, const char *name, FILE *out, nnue_error *err);

#endif
