/* core/net/net_read.c: reading net files, the common part: the read stream with offset tracking,
 * little-endian arrays, signed LEB128 blocks, aligned allocation. It calls nothing above it:
 * the format readers (core/net/net_read_stockfish.c, core/net/net_read_raw.c) use it, and
 * core/net/net_load.c opens the file and picks the format reader.
 *
 * Format facts relied on: shared/oracle/chess/FORMATS.md section 2 (byte layout: header
 * version/hash/description, the "COMPRESSED_LEB128" blocks: 17 magic bytes, u32 payload byte
 * count, signed LEB128 values with 7 data bits per byte, low bits first, 0x80 = more bytes,
 * sign from bit 0x40 of the last byte) and shared/oracle/shogi/FORMATS.md section 1 (same
 * header). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/arch/layer.h"
#include "base/error.h"
#include "base/helper_threads.h"
#include "core/net/net_read.h"
#include "io/leb128.h"

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NR_BIG_ENDIAN 1
#else
#define NR_BIG_ENDIAN 0
#endif

typedef unsigned long long ull;

/* ---- stream ---- */

nnue_status nr_open(nr_stream *s, const char *path, nnue_error *err)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    s->err = err;
    s->f = fopen(path, "rb");
    if (!s->f)
        return nnue_fail(err, NNUE_E_IO, "%s: cannot open the net file: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(s->f), &st) != 0 || !S_ISREG(st.st_mode)) {
        nr_close(s);
        return nnue_fail(err, NNUE_E_IO, "%s: cannot read the net file: not a regular file", path);
    }
    if (st.st_size == 0) { /* say so plainly rather than "truncated at byte 0" */
        nr_close(s);
        return nnue_fail_offset(err, NNUE_E_FORMAT, path, 0, "empty file (0 bytes), not a net");
    }
    s->size = (uint64_t)st.st_size;
    setvbuf(s->f, NULL, _IOFBF, 1 << 16);
    return NNUE_OK;
}

nnue_status nr_open_memory(nr_stream *s, const char *name, const void *data, size_t size, nnue_error *err)
{
    memset(s, 0, sizeof *s);
    s->path = name;
    s->err = err;
    s->data = data;
    if (size == 0)
        return nnue_fail_offset(err, NNUE_E_FORMAT, name, 0, "the net is empty (0 bytes)");
    s->f = fmemopen((void *)data, size, "rb"); /* read-only mode: the bytes are never written */
    if (!s->f)
        return nnue_fail(err, NNUE_E_NOMEM, "%s: cannot open a %zu-byte net in memory as a stream", name, size);
    s->size = (uint64_t)size;
    return NNUE_OK;
}

void nr_close(nr_stream *s)
{
    if (s->f)
        fclose(s->f);
    s->f = NULL;
    for (int i = 0; i < s->n_prefault; i++)
        pthread_join(s->prefault[i].thread, NULL);
    s->n_prefault = 0;
}

nnue_status nr_bytes(nr_stream *s, void *buf, uint64_t n, const char *section)
{
    size_t got = n ? fread(buf, 1, (size_t)n, s->f) : 0;
    uint64_t at = s->offset;
    s->offset += got;
    if (got == n)
        return NNUE_OK;
    if (ferror(s->f))
        return nnue_fail_offset(s->err, NNUE_E_IO, s->path, (long long)s->offset, "%s: read error", section);
    return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)s->offset,
                            "%s: file truncated: expected %llu bytes from byte %llu, found %llu (the file ends at "
                            "byte %llu)",
                            section, (ull)n, (ull)at, (ull)got, (ull)s->offset);
}

nnue_status nr_skip(nr_stream *s, uint64_t n, const char *section)
{
    if (n > s->size - s->offset) {
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, (long long)s->size,
                                "%s: file truncated: expected %llu bytes from byte %llu, found %llu", section, (ull)n,
                                (ull)s->offset, (ull)(s->size - s->offset));
    }
    if (fseeko(s->f, (off_t)(s->offset + n), SEEK_SET) != 0)
        return nnue_fail_offset(s->err, NNUE_E_IO, s->path, (long long)s->offset, "%s: seek error", section);
    s->offset += n;
    return NNUE_OK;
}

uint32_t nr_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

nnue_status nr_u32(nr_stream *s, uint32_t *v, const char *section)
{
    unsigned char b[4];
    nnue_status st = nr_bytes(s, b, 4, section);
    *v = st == NNUE_OK ? nr_le32(b) : 0;
    return st;
}

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

/* ---- memory ---- */

/* Large arrays (the feature weights: tens of MB read at random rows) go on 2 MB boundaries and
 * ask for transparent huge pages: each row read would otherwise often miss the TLB. */
#define HUGE_PAGE ((uint64_t)2 << 20)

void *nr_alloc(uint64_t bytes)
{
    if (bytes > SIZE_MAX - HUGE_PAGE)
        return NULL;
    if (bytes >= HUGE_PAGE) {
        size_t rounded = (size_t)((bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE);
        void *p = aligned_alloc((size_t)HUGE_PAGE, rounded);
#ifdef MADV_HUGEPAGE
        if (p)
            madvise(p, rounded, MADV_HUGEPAGE); /* a hint: failure only costs speed */
#endif
        return p;
    }
    size_t rounded = (size_t)((bytes + 63) / 64 * 64);
    return aligned_alloc(64, rounded ? rounded : 64);
}

/* Arrays of this size or more are prefaulted on a second thread while the reader fills them. The
 * kernel zeroes a fresh page at its first write, and on a release net's 50-140 MB of rows that
 * costs as much as decoding them (half of an engine's `isready` on Stockfish 17.1's net); the
 * thread faults the pages in from the end backwards (MADV_POPULATE_WRITE) while the reader writes
 * from the front, so the two halves are zeroed at once. It changes no byte: a page already
 * written is left alone, a fresh one reads as zeros either way; on a kernel without that advice
 * the first call fails and the thread stops. */
#define PREFAULT_FROM ((uint64_t)16 << 20)

static void *prefault_backwards(void *arg)
{
#ifdef MADV_POPULATE_WRITE
    const nr_prefault *job = arg;
    for (uint64_t end = job->bytes; end > 0;) {
        uint64_t step = end < HUGE_PAGE ? end : HUGE_PAGE;
        end -= step;
        if (madvise(job->start + end, (size_t)step, MADV_POPULATE_WRITE) != 0)
            break;
    }
#else
    (void)arg;
#endif
    return NULL;
}

static void start_prefault(nr_stream *s, void *p, uint64_t bytes)
{
    if (bytes < PREFAULT_FROM || s->n_prefault == NR_PREFAULTS || !nnue_helper_threads_allowed())
        return;
    nr_prefault *job = &s->prefault[s->n_prefault];
    job->start = p;
    job->bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE; /* nr_alloc's rounding: all ours */
    if (pthread_create(&job->thread, NULL, prefault_backwards, job) == 0)
        s->n_prefault++;
}

void nr_free(nr_stream *s, void *p)
{
    /* The helper faulting p in is joined first: it must not advise a range that is given back. */
    for (int i = 0; p && i < s->n_prefault; i++)
        if (s->prefault[i].start == (char *)p) {
            pthread_join(s->prefault[i].thread, NULL);
            s->prefault[i--] = s->prefault[--s->n_prefault];
        }
    free(p);
}

nnue_status nr_alloc_for(nr_stream *s, void **out, uint64_t bytes, const char *what)
{
    *out = nr_alloc(bytes);
    if (*out)
        start_prefault(s, *out, bytes);
    if (*out)
        return NNUE_OK;
    return nnue_fail(s->err, NNUE_E_NOMEM, "%s: out of memory: cannot allocate %llu bytes for %s", s->path, (ull)bytes,
                     what);
}
