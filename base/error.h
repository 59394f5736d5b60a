/* base/error.h: internal helpers to fill an nnue_error (see include/nnue_error.h). */
#ifndef NNUE_BASE_ERROR_H
#define NNUE_BASE_ERROR_H

#include "nnue_error.h"

#define NNUE_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Resets err to "no error" (code NNUE_OK, no location). err may be NULL. */
void nnue_error_clear(nnue_error *err);

/* Sets code and message without location. Returns code, so callers can
 * `return nnue_fail(err, NNUE_E_ARG, "...")`. err may be NULL. */
nnue_status nnue_fail(nnue_error *err, nnue_status code, const char *fmt, ...) NNUE_PRINTF(3, 4);

/* Text position: file and 1-based line/column. */
nnue_status nnue_fail_at(nnue_error *err, nnue_status code, const char *file, int line,
                         int column, const char *fmt, ...) NNUE_PRINTF(6, 7);

/* Binary position: file and byte offset. */
nnue_status nnue_fail_offset(nnue_error *err, nnue_status code, const char *file,
                             long long offset, const char *fmt, ...) NNUE_PRINTF(5, 6);

#endif
