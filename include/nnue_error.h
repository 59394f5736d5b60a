/* nnue_error.h: status codes and the error value every fallible call fills.
 *
 * Errors are values: a library call returns an nnue_status and, when it fails,
 * describes what went wrong in the caller's nnue_error. The library never
 * prints and never exits; the caller decides how to show the error.
 *
 * Rules of every call of the public headers (tests/core/test_api_null.c checks each function):
 * - NULL: any pointer argument may be NULL. Where a call needs it (a handle, an input, an output
 *   pointer or buffer), it does nothing and returns its failure value: NNUE_E_ARG with the
 *   nnue_error filled, -1, 0, NULL, or nothing for a void call; *out is set to NULL first
 *   whenever out is given. A NULL nnue_error * is allowed everywhere (no details then). Free
 *   calls (nnue_arch_free, nnue_net_free, nnue_state_free, nnue_train_close, ...) take NULL.
 *   Text outputs follow snprintf: buf may be NULL when size is 0, the length needed is returned.
 * - Lifetimes: an nnue_arch may be freed once a net is loaded from it (the net copies it). A
 *   net must outlive its states: free the states, then the net. A state whose net was freed
 *   anyway is detected: its calls fail (NNUE_E_ARG naming nnue_net_free) and the net's memory
 *   stays until its last state is freed. A reader or writer is gone after its close (like
 *   fclose): using it again is undefined, as with any freed handle. Texts a call returns
 *   (names, descriptions, warnings) live as long as the object they came from.
 * - Threads: a net is read-only after loading and may be shared; a state, reader or writer
 *   belongs to one thread at a time. Read-only calls on a position (legal moves, checks,
 *   formatting) may run on one position from several threads at once. */
#ifndef NNUE_ERROR_H
#define NNUE_ERROR_H

#include <stddef.h>

/* Marks a call kept for callers of an older name (it still works and stays exported; the
 * compiler warns and names the call to use instead). Define NNUE_NO_DEPRECATED to leave the
 * marks out (a C parser that knows no attributes: cffi, binding generators). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(NNUE_NO_DEPRECATED)
#define NNUE_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define NNUE_DEPRECATED(msg)
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nnue_status {
    NNUE_OK = 0,
    NNUE_E_IO,          /* file could not be opened or read */
    NNUE_E_SYNTAX,      /* malformed text: YAML, FEN, SFEN, move string */
    NNUE_E_SCHEMA,      /* well-formed text with unknown/duplicate/missing keys or wrong types */
    NNUE_E_SHAPE,       /* sizes that do not chain, zero or absurd sizes */
    NNUE_E_FORMAT,      /* net file: bad version, truncated, trailing bytes, bad padding */
    NNUE_E_HASH,        /* net file hash does not match the architecture */
    NNUE_E_AMBIGUOUS,   /* several architectures fit; the caller must choose */
    NNUE_E_ILLEGAL,     /* a well-formed move that is not legal in the position */
    NNUE_E_NOMEM,       /* allocation failed or a size exceeds what memory allows */
    NNUE_E_ARG          /* invalid argument from the caller */
} nnue_status;

/* Where and what. Fields that do not apply are 0 (line, column) or -1 (offset). */
typedef struct nnue_error {
    nnue_status code;
    char file[256];      /* file name the error is about, "" if none */
    int line;            /* 1-based line, 0 if not applicable */
    int column;          /* 1-based column, 0 if not applicable */
    long long offset;    /* byte offset in a binary file, -1 if not applicable */
    char message[768];   /* what was expected, what was found */
} nnue_error;

/* Human-readable one-liner: "file:line:col: message", "file: byte N: message"
 * or "file: message". Always NUL-terminates buf (if size > 0). */
void nnue_error_format(const nnue_error *err, char *buf, size_t size);

/* Name of a status code, e.g. "syntax error". */
const char *nnue_status_name(nnue_status code);

#ifdef __cplusplus
}
#endif
#endif
