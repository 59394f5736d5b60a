/* nnue_training.h: training-data text formats, read and written by one reader shared by the
 * CLI (`nnue rescore`) and the Python package (docs/python.md):
 *   NNUE_TRAIN_BULLET  bullet's text, one line "FEN | score | result": score in white's view,
 *                      result 1.0 / 0.5 / 0.0 for white
 *   NNUE_TRAIN_PLAIN   Stockfish's .plain: lines "fen FEN", "move M", "score N", "ply N",
 *                      "result R" (side to move's view: 1, 0, -1), then "e"
 * Writing a record read from a file gives back its text (scores as integers). */
#ifndef NNUE_TRAINING_H
#define NNUE_TRAINING_H

#include <stdint.h>

#include "nnue_error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nnue_train_format { NNUE_TRAIN_BULLET, NNUE_TRAIN_PLAIN } nnue_train_format;

typedef struct nnue_train_record {
    char position[256];   /* FEN */
    char move[16];        /* plain: the move played ("" for bullet) */
    int32_t score;        /* as the format holds it (bullet: white's view; plain: side to move's) */
    int32_t ply;          /* plain: ply; bullet: -1 */
    char result[8];       /* as written: "1.0", "0.5" / "1", "0", "-1" */
    uint64_t line;        /* 1-based line where the record starts */
} nnue_train_record;

typedef struct nnue_train_reader nnue_train_reader;

/* The format a file name says: ".plain" is NNUE_TRAIN_PLAIN, anything else bullet text. */
nnue_train_format nnue_train_format_of(const char *path);

/* Opens path ("-": standard input). Free with nnue_train_close. */
nnue_status nnue_train_open(const char *path, nnue_train_format format, nnue_train_reader **out, nnue_error *err);
/* The next record: 1, 0 at the end, -1 on a malformed record (err: file, line, column). */
int nnue_train_next(nnue_train_reader *reader, nnue_train_record *record, nnue_error *err);
void nnue_train_close(nnue_train_reader *reader);

/* The record's text in the format (with its final newline). Returns the length it needs, like
 * snprintf. */
size_t nnue_train_format_record(nnue_train_format format, const nnue_train_record *record, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
