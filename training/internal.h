/* training/internal.h: the reader and writer objects of include/nnue_training.h and the verbs
 * each format provides (training/format.c is the table that picks them; training/text.c the
 * text formats; training/binpack_read.c and training/binpack_write.c Stockfish's binpack). */
#ifndef NNUE_TRAINING_INTERNAL_H
#define NNUE_TRAINING_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "io/atomic_file.h"
#include "nnue_training.h"

struct binpack_reader;
struct binpack_writer;

struct nnue_train_reader {
    FILE *f;
    int own;                     /* f was opened here (not standard input, not the caller's) */
    int failed;                  /* a malformed record was met: no more records */
    nnue_train_format format;
    char name[256];              /* for errors: the path, or "(stdin)" */
    uint64_t line;               /* text: lines read */
    char *buf;                   /* text: the current line */
    size_t cap;
    const char *line_problem;    /* text: why the last line could not be read (NULL: none) */
    long long line_column;       /* its 1-based column, 0 for the whole line */
    struct binpack_reader *bp;   /* binpack: the chunk and chain being read */
};

struct nnue_train_writer {
    nnue_atomic_file af;         /* a named file: written through a temporary file */
    FILE *f;                     /* af.f, standard output, or the caller's stream */
    char *path;                  /* af's destination (af keeps a pointer to it) */
    int atomic;                  /* f is af.f */
    nnue_train_format format;
    char name[256];
    uint64_t records;            /* records written, for errors */
    struct binpack_writer *bp;
};

/* Readers and writers on a stream the caller owns and closes (the fuzz target reads memory
 * through fmemopen); name is what errors say. */
nnue_status train_open_stream(FILE *f, const char *name, nnue_train_format format, nnue_train_reader **out,
                              nnue_error *err);
nnue_status train_writer_open_stream(FILE *f, const char *name, nnue_train_format format, nnue_train_writer **out,
                                     nnue_error *err);

/* Text formats (training/text.c). */
int text_next(nnue_train_reader *r, nnue_train_record *rec, nnue_error *err);
size_t text_format_record(nnue_train_format format, const nnue_train_record *rec, char *buf, size_t size);
/* Why the text reader could not give the record back as written (an empty field, a line break,
 * bullet: a '|' or a leading '#'), or NULL when it can. */
#define TEXT_WHY_SIZE 96
/* NULL when the record's text reads back as it is, else why not (written into why[TEXT_WHY_SIZE]). */
const char *text_check_record(nnue_train_format format, const nnue_train_record *rec, char *why);

/* Binpack (training/binpack_read.c, training/binpack_write.c). */
struct binpack_reader *binpack_reader_new(void);
void binpack_reader_free(struct binpack_reader *b);
int binpack_next(nnue_train_reader *r, nnue_train_record *rec, nnue_error *err);
struct binpack_writer *binpack_writer_new(void);
void binpack_writer_free(struct binpack_writer *b);
nnue_status binpack_write(nnue_train_writer *w, const nnue_train_record *rec, nnue_error *err);
nnue_status binpack_finish(nnue_train_writer *w, nnue_error *err);

#endif
