/* nnue_training.h: training-data formats, read and written by one reader and one writer shared
 * by the CLI (`nnue rescore`, `nnue eval --file`) and the Python package (docs/training.md):
 *   NNUE_TRAIN_BULLET   bullet's text, one line "FEN | score | result": score in white's view,
 *                       result 1.0 / 0.5 / 0.0 for white
 *   NNUE_TRAIN_PLAIN    Stockfish's .plain: lines "fen FEN", "move M", "score N", "ply N",
 *                       "result R" (side to move's view: 1, 0, -1), then "e"
 *   NNUE_TRAIN_BINPACK  Stockfish's .binpack (nnue-pytorch's data_loader/cpp/lib/binpack.h):
 *                       the .plain records (standard chess only) in chunks "BINP" + 32-bit
 *                       little-endian size; a chunk holds chains: a 32-byte entry (packed
 *                       position, packed move, score, ply and result, halfmove clock), a 16-bit
 *                       big-endian count, then that many following records of the same game as
 *                       a bit stream of move indices and score deltas
 * Writing a record read from a text file gives back its text (scores as integers).
 *
 * Binpack records: the fields of a .plain record. The FEN's halfmove clock is the stored one
 * (for a chained record: counted on by the moves, as the reference reader does); its fullmove
 * number is ply / 2 + 1, the real FEN number of a game that started at move 1 (the reference
 * reader writes (ply + 1) / 2 there instead; the binpack holds no fullmove number). The
 * en-passant square: a chain's first position has one only when an en-passant capture is legal
 * (all the format stores); the following positions follow include/nnue_chess.h, as games.plain
 * does. A record's `line` is the byte offset in the file of its data (its 32-byte entry, or the
 * byte holding the first bit of its move). The score of a chained record is the previous
 * score's negation plus the stored delta, in 16-bit arithmetic (as the reference).
 *
 * The binpack writer chains a record to the one before exactly as the reference writer does
 * (nnue-pytorch CompressedTrainingDataEntryWriter): when its result is the negation of the
 * previous one's, its ply is one more and its position is the previous position after the
 * previous move (board, side to move, castling rights and en passant as the format stores them;
 * clocks are not compared). Anything else starts a new chain (a chain also ends at 65535
 * chained records, the count's limit, which the 14-bit ply keeps it from reaching). A chunk is written when a new chain starts and the
 * chunk holds at least 1 MiB (1048576 bytes), and at close. So the reference writer and this
 * one give the same bytes for the same records. Limits of the format, errors when writing: the
 * position must be standard chess (no Chess960 castling), the move legal, the score within
 * -32768..32767, the ply within 0..16383 (14 bits), the result "-1", "0" or "1". The halfmove
 * clock is stored in 16 bits (the reference stores 8: it is 0..255 in its files).
 *
 * Reading errors name the file and the byte offset and say what was expected: a chunk that is
 * not "BINP", a chunk header or chunk cut short by the end of the file, a chunk size past
 * 100 MiB (the reference reader's limit) or past the file's end, an entry that does not fit in
 * the rest of its chunk (leftover bytes included), a packed position that is not a legal chess
 * position, a packed move that is not legal, a piece or move index out of the range the
 * position allows or a decoded move that is not legal, a move list that runs past its chunk, a
 * score delta of more than 16 bits, a result other than -1, 0, 1. */
#ifndef NNUE_TRAINING_H
#define NNUE_TRAINING_H

#include <stddef.h>
#include <stdint.h>

#include "nnue_error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nnue_train_format { NNUE_TRAIN_BULLET, NNUE_TRAIN_PLAIN, NNUE_TRAIN_BINPACK } nnue_train_format;

typedef struct nnue_train_record {
    char position[256];   /* FEN */
    char move[16];        /* plain, binpack: the move played, UCI ("" for bullet) */
    int32_t score;        /* as the format holds it (bullet: white's view; plain, binpack: side to move's) */
    int32_t ply;          /* plain, binpack: ply; bullet: -1 */
    char result[8];       /* as written: "1.0", "0.5" / "1", "0", "-1" */
    uint64_t line;        /* text: 1-based line where the record starts; binpack: byte offset */
} nnue_train_record;

typedef struct nnue_train_reader nnue_train_reader;
typedef struct nnue_train_writer nnue_train_writer;

/* The format a file name says: ".plain" is NNUE_TRAIN_PLAIN, ".binpack" NNUE_TRAIN_BINPACK,
 * anything else bullet text. */
nnue_train_format nnue_train_format_of(const char *path);

/* The format's name: "bullet", "plain", "binpack" ("" for a value out of the enum). */
const char *nnue_train_format_name(nnue_train_format format);

/* The format of a name as nnue_train_format_name gives it: NNUE_OK, or NNUE_E_ARG naming the
 * formats known. */
nnue_status nnue_train_format_parse(const char *name, nnue_train_format *format, nnue_error *err);

/* Opens path ("-": standard input). Free with nnue_train_close; the reader is gone after it
 * (like fclose: no call may use it again). */
nnue_status nnue_train_open(const char *path, nnue_train_format format, nnue_train_reader **out, nnue_error *err);
/* The next record: 1, 0 at the end, -1 on a malformed record (err: file and line and column for
 * text, file and byte offset for binpack). After -1 the reader gives no more records. */
int nnue_train_next(nnue_train_reader *reader, nnue_train_record *record, nnue_error *err);
void nnue_train_close(nnue_train_reader *reader);

/* The record's text in a text format (with its final newline). Returns the length it needs,
 * like snprintf. NNUE_TRAIN_BINPACK is binary: writes "" and returns 0 (use the writer). A
 * string field with no NUL inside its array (which the writer refuses too) or a NULL record:
 * writes "" and returns 0. */
size_t nnue_train_format_record(nnue_train_format format, const nnue_train_record *record, char *buf, size_t size);

/* A writer of path in the format ("-": standard output). The file appears whole, at
 * nnue_train_writer_close, through a temporary file beside it (an existing file keeps its
 * content until then). */
nnue_status nnue_train_writer_open(const char *path, nnue_train_format format, nnue_train_writer **out,
                                   nnue_error *err);
/* Adds one record: text formats write nnue_train_format_record's text (refusing a record the
 * reader could not give back: an empty position or result, plain's empty move, a line break or
 * a leading or trailing space in a field, in bullet a '|' in a field or a position starting
 * with '#'); binpack checks the record (limits at the top of this file) and chains or packs it. An error names the output
 * file and the record's number (1-based, among those written) and leaves the writer usable:
 * the bad record is not written. */
nnue_status nnue_train_write(nnue_train_writer *writer, const nnue_train_record *record, nnue_error *err);
/* Writes what is pending, then makes the file appear; frees the writer, whatever happens. */
nnue_status nnue_train_writer_close(nnue_train_writer *writer, nnue_error *err);
/* Frees the writer without making the file appear (a destination that existed is untouched;
 * standard output keeps what was already written). NULL is allowed. */
void nnue_train_writer_abort(nnue_train_writer *writer);

#ifdef __cplusplus
}
#endif
#endif
