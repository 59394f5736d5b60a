/* io/zstd.c: see io/zstd.h. libzstd's streaming decompressor, fed in chunks
 * from the file or the buffer; the output goes into one buffer of the declared size or, for a
 * file, through a small one. */
#include "io/zstd.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "base/error.h"
#include "nnue.h"

typedef unsigned long long ull;

enum { CHUNK = 1 << 17 };

int nz_is_frame(const void *head, size_t n)
{
    static const unsigned char magic[4] = {0x28, 0xB5, 0x2F, 0xFD};
    return n >= 4 && memcmp(head, magic, 4) == 0;
}

/* The input side: the next piece of the frame, from the file or the buffer. */
typedef struct feed {
    const nz_source *src;
    unsigned char *chunk; /* file only */
    size_t used;          /* buffer: bytes handed out so far */
    ull consumed;         /* bytes of the source read so far (for offsets in messages) */
    int failed;           /* a read error */
} feed;

/* Fills in with the next piece; 0 when the source has no more bytes. */
static int refill(feed *fd, ZSTD_inBuffer *in)
{
    size_t n;
    if (fd->src->f) {
        n = fread(fd->chunk, 1, CHUNK, fd->src->f);
        fd->failed = ferror(fd->src->f) != 0;
        in->src = fd->chunk;
    } else {
        n = fd->src->size - fd->used;
        if (n > CHUNK)
            n = CHUNK;
        in->src = (const unsigned char *)fd->src->data + fd->used;
        fd->used += n;
    }
    in->size = n;
    in->pos = 0;
    fd->consumed += n;
    return n > 0;
}

/* The decompression shared by the outputs: into dst[cap] (sink NULL, not through), or through
 * dst[cap] into sink, or through dst[cap] and dropped (through, sink NULL: only counted). Stops at
 * keep bytes when keep > 0. *produced = bytes output. */
static nnue_status run(const nz_source *src, uint64_t max, uint64_t keep, unsigned char **dst, size_t *cap,
                       FILE *sink, int through, uint64_t *declared_out, ull *produced, nnue_error *err)
{
    const char *name = src->name;
    feed fd = {src, NULL, 0, 0, 0};
    if (src->f && !(fd.chunk = malloc(CHUNK)))
        return nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory reading the zstd frame", name);
    ZSTD_inBuffer in = {NULL, 0, 0};
    nnue_status st = NNUE_OK;
    ZSTD_DCtx *dc = NULL;
    *produced = 0;
    /* The declared size is in the frame header, within its first ZSTD_FRAMEHEADERSIZE_MAX bytes.
     * A frame that does not record it (Viridithas's nets) may give up to max bytes: the buffer
     * then grows as the bytes come, never past max. */
    int have = refill(&fd, &in);
    ull declared = have ? ZSTD_getFrameContentSize(in.src, in.size) : ZSTD_CONTENTSIZE_ERROR;
    int unknown = declared == ZSTD_CONTENTSIZE_UNKNOWN;
    if (declared == ZSTD_CONTENTSIZE_ERROR || declared == 0) {
        st = nnue_fail_offset(err, NNUE_E_FORMAT, name, 0, "zstd: expected one frame with a valid header");
        goto done;
    }
    if (!unknown && declared > max) {
        st = nnue_fail_offset(err, NNUE_E_FORMAT, name, 0,
                              "zstd frame declares %llu decompressed bytes; at most %llu expected (%s)", declared,
                              (ull)max, src->limit ? src->limit : "NNUE_MAX_NET_BYTES");
        goto done;
    }
    if (unknown)
        declared = max; /* a bound from here on, not a promise */
    if (declared_out)
        *declared_out = unknown ? 0 : declared;
    ull want = keep && keep < declared ? keep : declared;
    if (!through) {
        *cap = (size_t)(unknown && want > CHUNK * 64ull ? CHUNK * 64ull : want);
        if (!(*dst = malloc(*cap))) {
            st = nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory for %llu decompressed bytes", name, (ull)*cap);
            goto done;
        }
    }
    if (!(dc = ZSTD_createDCtx())) {
        st = nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory for the zstd decoder", name);
        goto done;
    }
    size_t left = 1; /* ZSTD_decompressStream's hint: 0 once the frame is complete */
    while (left != 0 && !(keep && *produced >= want)) {
        if (in.pos == in.size && !refill(&fd, &in))
            break;
        size_t in_before = in.pos;
        if (!through && *produced == *cap && *cap < want) { /* unknown size: grow, at most to want */
            size_t grown = *cap > want / 2 ? (size_t)want : 2 * *cap;
            unsigned char *p = realloc(*dst, grown);
            if (!p) {
                st = nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory for %zu decompressed bytes", name, grown);
                goto done;
            }
            *dst = p, *cap = grown;
        }
        ZSTD_outBuffer ob = through ? (ZSTD_outBuffer){*dst, *cap, 0}
                                 : (ZSTD_outBuffer){*dst + *produced, (size_t)(*cap - *produced), 0};
        left = ZSTD_decompressStream(dc, &ob, &in);
        if (ZSTD_isError(left)) {
            st = nnue_fail_offset(err, NNUE_E_FORMAT, name, (long long)(fd.consumed - (in.size - in.pos)),
                                  "zstd frame: %s", ZSTD_getErrorName(left));
            goto done;
        }
        *produced += ob.pos;
        if (*produced > declared || (left != 0 && ob.pos == 0 && in.pos == in_before)) {
            if (unknown)
                st = nnue_fail_offset(err, NNUE_E_FORMAT, name, (long long)fd.consumed,
                                      "zstd frame (no recorded size) gives more than %llu bytes (%s)", declared,
                                      src->limit ? src->limit : "NNUE_MAX_NET_BYTES");
            else
                st = nnue_fail_offset(err, NNUE_E_FORMAT, name, (long long)fd.consumed,
                                      "zstd frame gives more than the %llu bytes it declares", declared);
            goto done;
        }
        if (sink && ob.pos && fwrite(*dst, 1, ob.pos, sink) != ob.pos) {
            st = nnue_fail(err, NNUE_E_IO, "%s: write error while decompressing", name);
            goto done;
        }
    }
    if (fd.failed) {
        st = nnue_fail_offset(err, NNUE_E_IO, name, (long long)fd.consumed, "read error inside the zstd frame");
    } else if (keep && *produced >= want) {
        st = NNUE_OK; /* the head was all that was asked for */
    } else if (unknown && left != 0) {
        st = nnue_fail_offset(err, NNUE_E_FORMAT, name, (long long)fd.consumed,
                              "zstd frame cut short after %llu decompressed bytes (it records no size)", *produced);
    } else if (!unknown && (left != 0 || *produced != declared)) {
        st = nnue_fail_offset(err, NNUE_E_FORMAT, name, (long long)fd.consumed,
                              "zstd frame cut short: %llu of the %llu bytes it declares", *produced, declared);
    } else if (in.pos < in.size || refill(&fd, &in)) {
        st = nnue_fail_offset(err, NNUE_E_FORMAT, name, (long long)(fd.consumed - (in.size - in.pos)),
                              "bytes after the zstd frame (a net is one frame)");
    }
done:
    ZSTD_freeDCtx(dc);
    free(fd.chunk);
    return st;
}

nnue_status nz_unpack(const nz_source *src, uint64_t max, uint64_t keep, void **out, size_t *out_size,
                      uint64_t *declared, nnue_error *err)
{
    unsigned char *dst = NULL;
    size_t cap = 0;
    ull produced;
    nnue_status st = run(src, max, keep, &dst, &cap, NULL, 0, declared, &produced, err);
    if (st != NNUE_OK) {
        free(dst);
        dst = NULL;
    }
    *out = dst;
    *out_size = st == NNUE_OK ? (size_t)produced : 0;
    return st;
}

nnue_status nz_unpack_to_file(const nz_source *src, uint64_t max, FILE *out, nnue_error *err)
{
    size_t cap = ZSTD_DStreamOutSize();
    unsigned char *buf = malloc(cap);
    if (!buf)
        return nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory", src->name);
    ull produced;
    nnue_status st = run(src, max, 0, &buf, &cap, out, 1, NULL, &produced, err);
    free(buf);
    return st;
}

nnue_status nz_measure(const nz_source *src, uint64_t max, uint64_t *size, nnue_error *err)
{
    size_t cap = ZSTD_DStreamOutSize();
    unsigned char *buf = malloc(cap);
    if (!buf)
        return nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory", src->name);
    ull produced;
    nnue_status st = run(src, max, 0, &buf, &cap, NULL, 1, NULL, &produced, err);
    free(buf);
    *size = produced;
    return st;
}
