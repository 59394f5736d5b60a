/* formats/net_read_varint.c: PlentyChess's net file (format kind raw, container varint): the
 * raw blocks (formats/net_read_raw.c) in their order with every value a LEB128 varint; no
 * header, padding or trailer.
 *
 * Facts: shared/oracle/third/plentychess/FACTS.md, "File format": 7 bits a byte, low group first,
 * bit 0x80 = more bytes follow. Integer blocks are signed (bit 0x40 of the last byte gives the
 * sign); float blocks hold the float32's bit pattern as an unsigned varint of 1 to 5 bytes. The
 * engine narrows a value to its block's type by truncation; here a value outside the type, an
 * encoding longer than the type needs (more than 2, 3 or 5 bytes for i8, i16 and i32/f32), a
 * non-finite float, a file that ends inside a value, or bytes after the last value are errors
 * at the value's byte offset. The decoded blocks (plain little-endian) go to the raw reader. */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "core/arch/layer.h"
#include "formats/net_formats.h"

typedef unsigned long long ull;

/* A buffered byte source over the stream, with the file offset of the next byte. */
typedef struct vsrc {
    nr_stream *s;
    unsigned char buf[1 << 16];
    size_t pos, len;
} vsrc;

static int next_byte(vsrc *v, const char *section, nnue_status *st)
{
    if (v->pos == v->len) {
        uint64_t left = v->s->size - v->s->offset;
        size_t n = left < sizeof v->buf ? (size_t)left : sizeof v->buf;
        if (n == 0) {
            *st = nnue_fail_offset(v->s->err, NNUE_E_FORMAT, v->s->path, (long long)v->s->offset,
                                   "%s: file truncated inside a varint (the file ends at byte %llu)", section,
                                   (ull)v->s->size);
            return -1;
        }
        if ((*st = nr_bytes(v->s, v->buf, n, section)) != NNUE_OK)
            return -1;
        v->pos = 0;
        v->len = n;
    }
    return v->buf[v->pos++];
}

static uint64_t offset_of(const vsrc *v)
{
    return v->s->offset - (v->len - v->pos);
}

/* One value of dtype t into out (little-endian, nnue_dtype_size(t) bytes). */
static nnue_status decode(vsrc *v, nnue_dtype t, unsigned char *out, const char *section)
{
    static const int max_bytes[] = {[NNUE_I8] = 2, [NNUE_U8] = 2, [NNUE_I16] = 3, [NNUE_I32] = 5, [NNUE_F32] = 5};
    uint64_t at = offset_of(v), u = 0;
    nnue_status st = NNUE_OK;
    int shift = 0, b, n = 0;
    do {
        if ((b = next_byte(v, section, &st)) < 0)
            return st;
        if (++n > max_bytes[t])
            return nnue_fail_offset(v->s->err, NNUE_E_FORMAT, v->s->path, (long long)at,
                                    "%s: a varint longer than a %s value needs (%d bytes at most)", section,
                                    nnue_dtype_name(t), max_bytes[t]);
        u |= (uint64_t)(b & 0x7F) << shift;
        shift += 7;
    } while (b & 0x80);
    int64_t value;
    if (t == NNUE_F32) {
        if (u > 0xFFFFFFFFu || (u & 0x7F800000u) == 0x7F800000u)
            return nnue_fail_offset(v->s->err, NNUE_E_FORMAT, v->s->path, (long long)at,
                                    "%s: expected the bits of a finite float32, found 0x%llx", section, (ull)u);
        value = (int64_t)u;
    } else {
        value = (b & 0x40) && shift < 64 ? (int64_t)(u | ~0ull << shift) : (int64_t)u;
        int bits = (int)nnue_dtype_size(t) * 8;
        int64_t lo = -((int64_t)1 << (bits - 1)), hi = ((int64_t)1 << (bits - 1)) - 1;
        if (value < lo || value > hi)
            return nnue_fail_offset(v->s->err, NNUE_E_FORMAT, v->s->path, (long long)at,
                                    "%s: expected a %s value (%lld..%lld), found %lld", section, nnue_dtype_name(t),
                                    (long long)lo, (long long)hi, (long long)value);
    }
    for (size_t i = 0; i < nnue_dtype_size(t); i++)
        out[i] = (unsigned char)((uint64_t)value >> (8 * i));
    return NNUE_OK;
}

nnue_status nnue_net_read_varint(nnue_weights *w, nr_stream *s)
{
    const nnue_format *f = &w->arch->format;
    char why[1600];
    uint64_t plain = 0;
    for (int i = 0; i < f->n_blocks; i++)
        plain += nnue_net_raw_block_values(w->arch, &f->blocks[i], why, sizeof why) *
                 nnue_dtype_size(f->blocks[i].dtype);
    unsigned char *out = NULL;
    vsrc *v = malloc(sizeof *v);
    nnue_status st = nr_alloc_for(s, (void **)&out, plain ? plain : 1, "the decoded varint blocks");
    if (st == NNUE_OK && !v)
        st = nnue_fail(s->err, NNUE_E_NOMEM, "%s: out of memory", s->path);
    if (st != NNUE_OK) {
        free(v);
        nr_free(s, out);
        return st;
    }
    v->s = s;
    v->pos = v->len = 0;
    unsigned char *p = out;
    for (int i = 0; i < f->n_blocks && st == NNUE_OK; i++) {
        const nnue_block *b = &f->blocks[i];
        uint64_t n = nnue_net_raw_block_values(w->arch, b, why, sizeof why);
        size_t size = nnue_dtype_size(b->dtype);
        char section[NNUE_NAME_MAX * 2 + 40];
        snprintf(section, sizeof section, "block %d (%s%s%s)", i + 1, b->name, b->set_name[0] ? " of " : "",
                 b->set_name);
        for (uint64_t k = 0; k < n && st == NNUE_OK; k++, p += size)
            st = decode(v, b->dtype, p, section);
    }
    if (st == NNUE_OK && offset_of(v) != s->size)
        st = nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)offset_of(v),
                              "end of file: expected the file to end after the last block's values, found %llu bytes "
                              "more",
                              (ull)(s->size - offset_of(v)));
    free(v);
    nr_stream inner;
    if (st == NNUE_OK && (st = nr_open_memory(&inner, s->path, out, plain, s->err)) == NNUE_OK) {
        st = nnue_net_read_raw(w, &inner);
        nr_close(&inner);
    }
    nr_free(s, out);
    return st;
}
