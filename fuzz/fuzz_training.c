/* fuzz/fuzz_training.c: libFuzzer target for the training-data readers and writers
 * (include/nnue_training.h, training/). Input: one byte, then a file. The byte's bits 0-1 pick
 * the format (0 bullet, 1 plain, 2 and 3 binpack), bit 2 reads the file as a stream of unknown
 * size (fmemopen) instead of a file on disk. Any input must give records or a clean error that
 * says where (binpack: a byte offset; text: a line). The
 * records read (before any error) are written back in the same format; when every one is
 * accepted, reading that output must give records that write the very same bytes again (our
 * writer's output is a fixed point: a binpack's chains as long as they can be). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "training/internal.h"

enum { MAX_RECORDS = 2000 };

/* Reads up to MAX_RECORDS records of f; returns how many (an error just ends the list). */
static size_t read_all(FILE *f, nnue_train_format format, nnue_train_record *recs, int must_succeed)
{
    nnue_train_reader *r;
    nnue_error err;
    size_t n = 0;
    if (train_open_stream(f, "fuzz", format, &r, &err) != NNUE_OK)
        abort();
    int rc = 1;
    while (n < MAX_RECORDS && (rc = nnue_train_next(r, &recs[n], &err)) == 1)
        n++;
    if (rc < 0 && must_succeed)
        abort(); /* our own output must read back */
    if (rc < 0 && err.code != NNUE_E_NOMEM && !(err.file[0] && (format == NNUE_TRAIN_BINPACK ? err.offset >= 0
                                                                                            : err.line > 0)))
        abort(); /* every error says where */
    nnue_train_close(r);
    return n;
}

/* Writes the records to memory; returns the bytes (malloc'ed, *size) or NULL when a record was
 * refused. */
static char *write_all(nnue_train_format format, const nnue_train_record *recs, size_t n, size_t *size)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, size);
    nnue_train_writer *w;
    nnue_error err;
    if (!f || train_writer_open_stream(f, "fuzz-out", format, &w, &err) != NNUE_OK)
        abort();
    int ok = 1;
    for (size_t i = 0; ok && i < n; i++)
        ok = nnue_train_write(w, &recs[i], &err) == NNUE_OK;
    if (ok)
        ok = nnue_train_writer_close(w, &err) == NNUE_OK;
    else
        nnue_train_writer_abort(w);
    fclose(f);
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    nnue_train_format format = (data[0] & 3) == 0 ? NNUE_TRAIN_BULLET
                               : (data[0] & 3) == 1 ? NNUE_TRAIN_PLAIN : NNUE_TRAIN_BINPACK;
    nnue_train_record *recs = malloc(sizeof *recs * MAX_RECORDS);
    if (!recs)
        abort();
    FILE *f;
    if (data[0] & 4) {
        f = size > 1 ? fmemopen((void *)(data + 1), size - 1, "rb") : fopen("/dev/null", "rb");
    } else {
        const char *path = fuzz_temp_file(0, "training", data + 1, size - 1);
        f = path ? fopen(path, "rb") : NULL;
    }
    if (!f)
        abort();
    size_t n = read_all(f, format, recs, 0);
    fclose(f);
    size_t n1, n2;
    char *first = write_all(format, recs, n, &n1);
    if (first) {
        f = n1 ? fmemopen(first, n1, "rb") : fopen("/dev/null", "rb");
        if (!f)
            abort();
        size_t again = read_all(f, format, recs, 1);
        fclose(f);
        if (again != n)
            abort();
        char *second = write_all(format, recs, again, &n2);
        if (!second || n2 != n1 || memcmp(first, second, n1) != 0)
            abort();
        free(second);
    }
    free(first);
    free(recs);
    return 0;
}
