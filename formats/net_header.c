/* formats/net_header.c: the Stockfish header of a net file or buffer without its weights
 * (formats/net_header.h). Header facts: shared/oracle/chess/FORMATS.md section 2 (version,
 * hash, description length and bytes, then the FT hash). A zstd frame is decompressed only as far
 * as the header needs. */
#include "formats/net_header.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "formats/net_open.h"
#include "formats/net_read.h"
#include "nnue.h"

typedef unsigned long long ull;

/* Bytes kept of a zstd net when only its header is read: the header, its description and the
 * feature transformer's first bytes fit (descriptions are short). */
#define HEADER_HEAD_BYTES (1u << 20)

/* Reads the header from an opened stream (closed here). */
static nnue_status read_header_stream(nr_stream *s, nnue_net_header *h, char **description, nnue_error *err)
{
    const char *path = s->path;
    nnue_status st;
    h->file_bytes = s->size;
    if ((st = nr_u32(s, &h->version, "header version")) != NNUE_OK ||
        (st = nr_u32(s, &h->file_hash, "header file hash")) != NNUE_OK ||
        (st = nr_u32(s, &h->description_bytes, "header description length")) != NNUE_OK)
        goto done;
    if (h->description_bytes > s->size - s->offset) {
        st = nnue_fail_offset(err, NNUE_E_FORMAT, path, 8,
                              "header: description length %u exceeds the %llu bytes left in the file", h->description_bytes,
                              (ull)(s->size - s->offset));
        goto done;
    }
    if (description) {
        *description = malloc((size_t)h->description_bytes + 1);
        if (!*description) {
            st = nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory for a %u-byte description", path, h->description_bytes);
            goto done;
        }
        if ((st = nr_bytes(s, *description, h->description_bytes, "header description")) != NNUE_OK)
            goto done;
        (*description)[h->description_bytes] = 0;
    } else if ((st = nr_skip(s, h->description_bytes, "header description")) != NNUE_OK) {
        goto done;
    }
    if ((st = nr_u32(s, &h->ft_hash, "feature transformer hash")) != NNUE_OK)
        goto done;
    unsigned char magic[NR_LEB128_MAGIC_LEN];
    if (s->size - s->offset >= sizeof magic && nr_bytes(s, magic, sizeof magic, "feature transformer") == NNUE_OK)
        h->leb128 = memcmp(magic, NR_LEB128_MAGIC, sizeof magic) == 0;
done:
    nr_close(s);
    if (st != NNUE_OK && description) {
        free(*description);
        *description = NULL;
    }
    return st;
}

nnue_status nnue_net_read_header(const char *path, nnue_net_header *h, char **description, nnue_error *err)
{
    nnue_error_clear(err);
    if (description)
        *description = NULL;
    if (!path || !h)
        return nnue_fail(err, NNUE_E_ARG, "nnue_net_read_header: expected a path and a header pointer");
    memset(h, 0, sizeof *h);
    nr_stream s;
    void *owned;
    uint64_t declared = 0;
    nnue_status st =
        nr_open_net(&s, path, NNUE_MAX_NET_BYTES, NULL, HEADER_HEAD_BYTES, &owned, &h->zstd, &declared, err);
    st = st == NNUE_OK ? read_header_stream(&s, h, description, err) : st;
    if (h->zstd)
        h->file_bytes = declared; /* the net's size is the decompressed frame's */
    free(owned);
    return st;
}

nnue_status nnue_net_read_header_memory(const void *data, size_t size, const char *name, nnue_net_header *h,
                                        nnue_error *err)
{
    nnue_error_clear(err);
    if (!data || !h)
        return nnue_fail(err, NNUE_E_ARG, "nnue_net_read_header_memory: expected the bytes and a header pointer");
    memset(h, 0, sizeof *h);
    nr_stream s;
    void *owned;
    uint64_t declared = 0;
    nnue_status st = nr_open_net_memory(&s, name ? name : "<memory>", data, size, NNUE_MAX_NET_BYTES, NULL,
                                        HEADER_HEAD_BYTES, &owned, &h->zstd, &declared, err);
    st = st == NNUE_OK ? read_header_stream(&s, h, NULL, err) : st;
    if (h->zstd)
        h->file_bytes = declared;
    free(owned);
    return st;
}
