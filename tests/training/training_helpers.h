/* tests/training/training_helpers.h: records in and out of files for the training-data tests
 * (include/nnue_training.h), files under BUILD/training, and crafted byte files. */
#ifndef NNUE_TESTS_TRAINING_HELPERS_H
#define NNUE_TESTS_TRAINING_HELPERS_H

#include <stddef.h>

#include "nnue_training.h"

typedef struct rec_list {
    nnue_train_record *r;
    size_t n, cap;
} rec_list;

void recs_add(rec_list *l, const nnue_train_record *rec);
void recs_free(rec_list *l);
/* Every record of path in the format; fails the test on an error. */
void recs_read(const char *path, nnue_train_format format, rec_list *out);
/* Writes every record with the public writer; fails the test on an error. */
void recs_write(const char *path, nnue_train_format format, const rec_list *in);
/* The records as .plain text (malloc'ed). */
char *recs_plain_text(const rec_list *l);

/* BUILD/training/<name> (the folder made on demand); static buffer rotated over 8 calls. */
const char *train_tmp(const char *name);
void write_bytes(const char *path, const void *data, size_t n);

/* Reading path (binpack) must fail on some record with this code, byte offset and a message
 * containing fragment; the formatted error must name the file and the offset. */
void expect_read_error(const char *path, nnue_status code, long long offset, const char *fragment);

#endif
