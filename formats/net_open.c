/* formats/net_open.c: see formats/net_open.h. */
#include "formats/net_open.h"

#include <stdio.h>

#include "io/zstd.h"

/* Opens path as a stream; a zstd frame is decompressed into *owned first (freed by the caller
 * after the stream), refused above cap bytes; keep > 0 decompresses only the first keep bytes
 * (*declared: the whole frame's size). */
nnue_status nr_open_net(nr_stream *s, const char *path, uint64_t cap, const char *cap_is, uint64_t keep,
                        void **owned, int *zstd, uint64_t *declared, nnue_error *err)
{
    *owned = NULL;
    *zstd = 0;
    nnue_status st = nr_open(s, path, err);
    unsigned char head[4];
    if (st != NNUE_OK || s->size < 4 || fread(head, 1, 4, s->f) != 4 || !nz_is_frame(head, 4)) {
        if (st == NNUE_OK)
            rewind(s->f);
        return st;
    }
    rewind(s->f);
    size_t plain_size;
    st = nz_unpack(&(nz_source){s->f, NULL, 0, path, cap_is}, cap, keep, owned, &plain_size, declared, err);
    nr_close(s);
    *zstd = 1;
    return st == NNUE_OK ? nr_open_memory(s, path, *owned, plain_size, err) : st;
}

/* A buffer as a stream, decompressed into *owned first when it is a zstd frame (as nr_open_net). */
nnue_status nr_open_net_memory(nr_stream *s, const char *name, const void *data, size_t size, uint64_t cap,
                               const char *cap_is, uint64_t keep, void **owned, int *zstd, uint64_t *declared,
                               nnue_error *err)
{
    *owned = NULL;
    *zstd = nz_is_frame(data, size);
    if (!*zstd)
        return nr_open_memory(s, name, data, size, err);
    nnue_status st = nz_unpack(&(nz_source){NULL, data, size, name, cap_is}, cap, keep, owned, &size, declared, err);
    return st == NNUE_OK ? nr_open_memory(s, name, *owned, size, err) : st;
}
