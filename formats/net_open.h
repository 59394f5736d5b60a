/* formats/net_open.h: a net file or buffer opened as a read stream (io/stream.h), a file or
 * buffer that is one zstd frame (Pikafish and Viridithas ship their nets so) decompressed first,
 * within a cap (io/zstd.h). Used by nnue_net_load (core/net/net_load.c) and the header reader
 * (formats/net_header.c). */
#ifndef NNUE_CORE_FORMATS_NET_OPEN_H
#define NNUE_CORE_FORMATS_NET_OPEN_H

#include <stddef.h>
#include <stdint.h>

#include "io/stream.h"

/* Opens path as a stream; a zstd frame is decompressed into *owned first (freed by the caller
 * after the stream), refused above cap bytes (cap_is says what the cap is in messages; NULL:
 * NNUE_MAX_NET_BYTES); keep > 0 decompresses only the first keep bytes (*declared, when
 * non-NULL: the whole frame's size). *zstd: 1 when the file was a frame. */
nnue_status nr_open_net(nr_stream *s, const char *path, uint64_t cap, const char *cap_is, uint64_t keep,
                        void **owned, int *zstd, uint64_t *declared, nnue_error *err);
/* A buffer as a stream, decompressed into *owned first when it is a zstd frame (as nr_open_net). */
nnue_status nr_open_net_memory(nr_stream *s, const char *name, const void *data, size_t size, uint64_t cap,
                               const char *cap_is, uint64_t keep, void **owned, int *zstd, uint64_t *declared,
                               nnue_error *err);

#endif
