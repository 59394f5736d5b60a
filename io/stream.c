/* io/stream.c: see io/stream.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/helper_threads.h"
#include "io/stream.h"

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
