/* formats/net_read.c: reading net files, the common part: little-endian typed arrays and signed
 * LEB128 blocks, from a byte stream (io/stream.h; the values decoded by io/leb128.h). It calls
 * nothing above it:
 * the format readers (formats/net_read_stockfish.c, formats/net_read_raw.c) use it, and
 * core/net/net_load.c opens the file and picks the format reader.
 *
 * Format facts relied on: shared/oracle/chess/FORMATS.md section 2 (byte layout: header
 * version/hash/description, the "COMPRESSED_LEB128" blocks: 17 magic bytes, u32 payload byte
 * count, signed LEB128 values with 7 data bits per byte, low bits first, 0x80 = more bytes,
 * sign from bit 0x40 of the last byte) and shared/oracle/shogi/FORMATS.md section 1 (same
 * header). */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/arch/layer.h"
#include "base/error.h"
#include "base/helper_threads.h"
#include "formats/net_read.h"
#include "io/leb128.h"

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NR_BIG_ENDIAN 1
#else
#define NR_BIG_ENDIAN 0
#endif

typedef unsigned long long ull;

void nr_from_le(void *data, nnue_dtype type, uint64_t count)
{
#if NR_BIG_ENDIAN
    if (type == NNUE_I16) {
        uint16_t *p = data;
        for (uint64_t i = 0; i < count; i++)
            p[i] = __builtin_bswap16(p[i]);
    } else if (type == NNUE_I32 || type == NNUE_F32) {
        uint32_t *p = data;
        for (uint64_t i = 0; i < count; i++)
            p[i] = __builtin_bswap32(p[i]);
    }
#else
    (void)data, (void)type, (void)count;
#endif
}

/* Value i of a little-endian array of type t, sign-extended (u8 zero-extended). */
static int64_t load_le(const unsigned char *p, nnue_dtype t)
{
    switch (t) {
    case NNUE_I8: return (int8_t)p[0];
    case NNUE_U8: return p[0];
    case NNUE_I16: return (int16_t)(uint16_t)(p[0] | p[1] << 8);
    default: return (int32_t)nr_le32(p);
    }
}

static void store(void *dst, nnue_dtype t, uint64_t i, int64_t v)
{
    switch (t) {
    case NNUE_I8: ((int8_t *)dst)[i] = (int8_t)v; break;
    case NNUE_U8: ((uint8_t *)dst)[i] = (uint8_t)v; break;
    case NNUE_I16: ((int16_t *)dst)[i] = (int16_t)v; break;
    default: ((int32_t *)dst)[i] = (int32_t)v; break;
    }
}

nnue_status nr_array(nr_stream *s, nnue_dtype file_type, nnue_dtype mem_type, void *dst, uint64_t count,
                     const char *section)
{
    size_t fsize = nnue_dtype_size(file_type);
    if (file_type == mem_type) {
        nnue_status st = nr_bytes(s, dst, count * fsize, section);
        if (st == NNUE_OK)
            nr_from_le(dst, mem_type, count);
        return st;
    }
    unsigned char buf[1 << 14];
    uint64_t per = sizeof buf / fsize;
    for (uint64_t done = 0; done < count;) {
        uint64_t n = count - done < per ? count - done : per;
        nnue_status st = nr_bytes(s, buf, n * fsize, section);
        if (st != NNUE_OK)
            return st;
        for (uint64_t i = 0; i < n; i++)
            store(dst, mem_type, done + i, load_le(buf + i * fsize, file_type));
        done += n;
    }
    return NNUE_OK;
}

/* ---- LEB128 ---- */

static void printable(const unsigned char *in, size_t n, char *out, size_t size)
{
    size_t j = 0;
    for (size_t i = 0; i < n && j + 5 < size; i++)
        j += (size_t)snprintf(out + j, size - j, in[i] >= 32 && in[i] < 127 && in[i] != '\\' ? "%c" : "\\x%02x",
                              in[i]);
    out[j] = 0;
}

/* The payload decoded in two halves at once (io/leb128.h leb128_decode_i16_halves) over the
 * stream's bytes in memory, or its file's pages mapped read-only (page cache, no copy): 1 when
 * done (the stream then stands past the payload), 0 when the block is small, its bytes cannot be
 * mapped, or anything is off (nothing was read then: the caller decodes it in order, and reports
 * what is wrong at its place). */
static int leb128_split(nr_stream *s, nnue_dtype mem_type, void *dst, uint64_t count, uint64_t announced)
{
    if (mem_type != NNUE_I16 || count < LEB128_SPLIT_FROM || !nnue_helper_threads_allowed())
        return 0;
    uint64_t pstart = s->offset;
    int done;
    if (s->data) {
        done = leb128_decode_i16_halves((const unsigned char *)s->data + pstart, announced, dst, count);
    } else {
        long page = sysconf(_SC_PAGESIZE);
        uint64_t from = page > 0 ? pstart / (uint64_t)page * (uint64_t)page : pstart;
        size_t length = (size_t)(pstart - from + announced);
        void *map = mmap(NULL, length, PROT_READ, MAP_PRIVATE, fileno(s->f), (off_t)from);
        if (map == MAP_FAILED)
            return 0;
        done = leb128_decode_i16_halves((const unsigned char *)map + (pstart - from), announced, dst, count);
        munmap(map, length);
    }
    if (!done || fseeko(s->f, (off_t)(pstart + announced), SEEK_SET) != 0)
        return 0; /* nothing read from the stream: the caller decodes in order */
    s->offset = pstart + announced;
    return 1;
}

nnue_status nr_leb128(nr_stream *s, nnue_dtype mem_type, void *dst, uint64_t count, const char *section)
{
    unsigned char magic[NR_LEB128_MAGIC_LEN];
    uint64_t start = s->offset;
    nnue_status st = nr_bytes(s, magic, sizeof magic, section);
    if (st != NNUE_OK)
        return st;
    if (memcmp(magic, NR_LEB128_MAGIC, sizeof magic) != 0) {
        char shown[100];
        printable(magic, sizeof magic, shown, sizeof shown);
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)start,
                                "%s: expected a LEB128 block starting with \"%s\", found \"%s\"", section,
                                NR_LEB128_MAGIC, shown);
    }
    uint32_t announced;
    if ((st = nr_u32(s, &announced, section)) != NNUE_OK)
        return st;
    uint64_t pstart = s->offset, left = s->size - s->offset;
    if (announced > left)
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)s->size,
                                "%s: file truncated: the LEB128 block announces %u payload bytes from byte %llu, "
                                "found %llu",
                                section, announced, (ull)pstart, (ull)left);
    if (announced < count)
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)pstart,
                                "%s: LEB128 payload of %u bytes is too short for %llu values (at least 1 byte each)",
                                section, announced, (ull)count);
    if (leb128_split(s, mem_type, dst, count, announced))
        return NNUE_OK;
    return nr_leb128_payload(s, mem_type, dst, count, announced, section);
}

nnue_status nr_leb128_payload(nr_stream *s, nnue_dtype mem_type, void *dst, uint64_t count, uint64_t announced,
                              const char *section)
{
    nnue_status st;
    uint64_t pstart = s->offset;
    leb128_decoder d;
    leb128_begin(&d, (int)nnue_dtype_size(mem_type), dst, count);
    unsigned char buf[1 << 16];
    for (uint64_t pos = 0; pos < announced;) {
        uint64_t n = announced - pos < sizeof buf ? announced - pos : sizeof buf;
        if ((st = nr_bytes(s, buf, n, section)) != NNUE_OK)
            return st;
        switch (leb128_feed(&d, buf, n)) {
        case LEB128_OK: break;
        case LEB128_LEFT_OVER:
            return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)(pstart + d.at),
                                    "%s: LEB128 payload has %llu bytes left over after the %llu values (it "
                                    "announces %llu bytes)",
                                    section, (ull)(announced - d.at), (ull)count, (ull)announced);
        case LEB128_TOO_LONG:
            return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)(pstart + d.at),
                                    "%s: LEB128 value %llu is longer than %d bytes, out of range for %s", section,
                                    (ull)d.done, mem_type == NNUE_I16 ? 3 : 5, nnue_dtype_name(mem_type));
        case LEB128_RANGE:
            return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)(pstart + d.at),
                                    "%s: LEB128 value %llu is %lld, out of range for %s", section, (ull)d.done,
                                    (long long)d.value, nnue_dtype_name(mem_type));
        }
        pos += n;
    }
    if (!leb128_complete(&d))
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)(pstart + announced),
                                "%s: LEB128 payload of %llu bytes ends after %llu of %llu values%s", section, (ull)announced,
                                (ull)d.done, (ull)count, d.nb ? " (in the middle of a value)" : "");
    return NNUE_OK;
}
