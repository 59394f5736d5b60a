/* base/error.c: filling and formatting nnue_error values. */
#include "base/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void nnue_error_clear(nnue_error *err)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->offset = -1;
}

static void set_message(nnue_error *err, const char *fmt, va_list ap)
{
    vsnprintf(err->message, sizeof err->message, fmt, ap);
}

static void set_file(nnue_error *err, const char *file)
{
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
}

nnue_status nnue_fail(nnue_error *err, nnue_status code, const char *fmt, ...)
{
    if (!err)
        return code;
    nnue_error_clear(err);
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    set_message(err, fmt, ap);
    va_end(ap);
    return code;
}

nnue_status nnue_fail_at(nnue_error *err, nnue_status code, const char *file, int line,
                         int column, const char *fmt, ...)
{
    if (!err)
        return code;
    nnue_error_clear(err);
    err->code = code;
    set_file(err, file);
    err->line = line;
    err->column = column;
    va_list ap;
    va_start(ap, fmt);
    set_message(err, fmt, ap);
    va_end(ap);
    return code;
}

nnue_status nnue_fail_offset(nnue_error *err, nnue_status code, const char *file,
                             long long offset, const char *fmt, ...)
{
    if (!err)
        return code;
    nnue_error_clear(err);
    err->code = code;
    set_file(err, file);
    err->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    set_message(err, fmt, ap);
    va_end(ap);
    return code;
}

void nnue_error_format(const nnue_error *err, char *buf, size_t size)
{
    if (!buf || size == 0)
        return;
    if (!err) {
        snprintf(buf, size, "(no error)");
        return;
    }
    if (err->file[0] && err->line > 0)
        snprintf(buf, size, "%s:%d:%d: %s", err->file, err->line, err->column, err->message);
    else if (err->file[0] && err->offset >= 0)
        snprintf(buf, size, "%s: byte %lld: %s", err->file, err->offset, err->message);
    else if (err->file[0])
        snprintf(buf, size, "%s: %s", err->file, err->message);
    else
        snprintf(buf, size, "%s", err->message);
}

const char *nnue_status_name(nnue_status code)
{
    switch (code) {
    case NNUE_OK: return "ok";
    case NNUE_E_IO: return "i/o error";
    case NNUE_E_SYNTAX: return "syntax error";
    case NNUE_E_SCHEMA: return "schema error";
    case NNUE_E_SHAPE: return "shape error";
    case NNUE_E_FORMAT: return "format error";
    case NNUE_E_HASH: return "hash mismatch";
    case NNUE_E_AMBIGUOUS: return "ambiguous";
    case NNUE_E_ILLEGAL: return "illegal move";
    case NNUE_E_NOMEM: return "out of memory";
    case NNUE_E_ARG: return "invalid argument";
    }
    return "unknown error";
}
