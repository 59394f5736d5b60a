/* training/format.c: the table of training-data formats (name, file extension, reader and
 * writer verbs) and the public reader and writer of include/nnue_training.h, which open the
 * stream and hand each record to its format's verbs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "training/internal.h"

typedef struct train_format_entry {
    const char *name;
    const char *ext;      /* file extension that names it; NULL: the default */
    int binary;
} train_format_entry;

static const train_format_entry formats[] = {
    [NNUE_TRAIN_BULLET] = {"bullet", NULL, 0},
    [NNUE_TRAIN_PLAIN] = {"plain", ".plain", 0},
    [NNUE_TRAIN_BINPACK] = {"binpack", ".binpack", 1},
};
enum { N_FORMATS = sizeof formats / sizeof formats[0] };

static int known(nnue_train_format format)
{
    return (unsigned)format < N_FORMATS;
}

nnue_train_format nnue_train_format_of(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    for (unsigned f = 0; f < N_FORMATS; f++) {
        const char *ext = formats[f].ext;
        if (ext && n >= strlen(ext) && strcmp(path + n - strlen(ext), ext) == 0)
            return (nnue_train_format)f;
    }
    return NNUE_TRAIN_BULLET;
}

const char *nnue_train_format_name(nnue_train_format format)
{
    return known(format) ? formats[format].name : "";
}

nnue_status nnue_train_format_parse(const char *name, nnue_train_format *format, nnue_error *err)
{
    nnue_error_clear(err);
    if (!format)
        return nnue_fail(err, NNUE_E_ARG, "nnue_train_format_parse: NULL output pointer");
    for (unsigned f = 0; name && f < N_FORMATS; f++)
        if (strcmp(name, formats[f].name) == 0) {
            *format = (nnue_train_format)f;
            return NNUE_OK;
        }
    return nnue_fail(err, NNUE_E_ARG, "unknown training-data format \"%s\" (expected bullet, plain or binpack)",
                     name ? name : "(null)");
}

static nnue_status new_reader(FILE *f, int own, const char *name, nnue_train_format format,
                              nnue_train_reader **out, nnue_error *err)
{
    nnue_train_reader *r = calloc(1, sizeof *r);
    if (r && format == NNUE_TRAIN_BINPACK && !(r->bp = binpack_reader_new())) {
        free(r);
        r = NULL;
    }
    if (!r) {
        if (own)
            fclose(f);
        return nnue_fail(err, NNUE_E_NOMEM, "out of memory");
    }
    r->f = f;
    r->own = own;
    r->format = format;
    snprintf(r->name, sizeof r->name, "%s", name);
    *out = r;
    return NNUE_OK;
}

nnue_status train_open_stream(FILE *f, const char *name, nnue_train_format format, nnue_train_reader **out,
                              nnue_error *err)
{
    nnue_error_clear(err);
    *out = NULL;
    if (!known(format))
        return nnue_fail(err, NNUE_E_ARG, "nnue_train_open: format %d is not a nnue_train_format", (int)format);
    return new_reader(f, 0, name, format, out, err);
}

nnue_status nnue_train_open(const char *path, nnue_train_format format, nnue_train_reader **out, nnue_error *err)
{
    nnue_error_clear(err);
    if (out)
        *out = NULL;
    if (!path || !out)
        return nnue_fail(err, NNUE_E_ARG, "nnue_train_open: expected a path and an output pointer");
    if (!known(format))
        return nnue_fail(err, NNUE_E_ARG, "nnue_train_open: format %d is not a nnue_train_format", (int)format);
    int own = strcmp(path, "-") != 0;
    FILE *f = own ? fopen(path, formats[format].binary ? "rb" : "r") : stdin;
    if (!f)
        return nnue_fail_at(err, NNUE_E_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    return new_reader(f, own, own ? path : "(stdin)", format, out, err);
}

void nnue_train_close(nnue_train_reader *r)
{
    if (!r)
        return;
    if (r->own)
        fclose(r->f);
    binpack_reader_free(r->bp);
    free(r->buf);
    free(r);
}

int nnue_train_next(nnue_train_reader *r, nnue_train_record *rec, nnue_error *err)
{
    nnue_error_clear(err);
    if (!r || !rec)
        return nnue_fail(err, NNUE_E_ARG, "nnue_train_next: no %s (NULL)", r ? "record" : "reader"), -1;
    if (r->failed)
        return nnue_fail_at(err, NNUE_E_ARG, r->name, 0, 0, "nnue_train_next: the reader already failed"), -1;
    memset(rec, 0, sizeof *rec);
    int rc = r->format == NNUE_TRAIN_BINPACK ? binpack_next(r, rec, err) : text_next(r, rec, err);
    if (rc < 0)
        r->failed = 1;
    return rc;
}

static const char *unterminated_field(const nnue_train_record *rec, size_t *size);

size_t nnue_train_format_record(nnue_train_format format, const nnue_train_record *rec, char *buf, size_t size)
{
    size_t field_size;
    /* A string field with no NUL in its array would be read past its end: refused like the writer. */
    if (!rec || !known(format) || formats[format].binary || unterminated_field(rec, &field_size)) {
        if (buf && size)
            buf[0] = 0;
        return 0;
    }
    return text_format_record(format, rec, buf, size);
}

static nnue_status new_writer(nnue_train_format format, const char *name, nnue_train_writer **out, nnue_error *err)
{
    nnue_error_clear(err);
    *out = NULL;
    if (!known(format))
        return nnue_fail(err, NNUE_E_ARG, "nnue_train_writer_open: format %d is not a nnue_train_format",
                         (int)format);
    nnue_train_writer *w = calloc(1, sizeof *w);
    if (w && format == NNUE_TRAIN_BINPACK && !(w->bp = binpack_writer_new())) {
        free(w);
        w = NULL;
    }
    if (!w)
        return nnue_fail(err, NNUE_E_NOMEM, "out of memory");
    w->format = format;
    snprintf(w->name, sizeof w->name, "%s", name);
    *out = w;
    return NNUE_OK;
}

nnue_status train_writer_open_stream(FILE *f, const char *name, nnue_train_format format, nnue_train_writer **out,
                                     nnue_error *err)
{
    nnue_status st = new_writer(format, name, out, err);
    if (st == NNUE_OK)
        (*out)->f = f;
    return st;
}

nnue_status nnue_train_writer_open(const char *path, nnue_train_format format, nnue_train_writer **out,
                                   nnue_error *err)
{
    if (out)
        *out = NULL;
    if (!path || !out)
        return nnue_fail(err, NNUE_E_ARG, "nnue_train_writer_open: expected a path and an output pointer");
    int to_stdout = strcmp(path, "-") == 0;
    nnue_status st = new_writer(format, to_stdout ? "(stdout)" : path, out, err);
    if (st != NNUE_OK)
        return st;
    nnue_train_writer *w = *out;
    if (to_stdout) {
        w->f = stdout;
        return NNUE_OK;
    }
    if (!(w->path = strdup(path))) {
        nnue_train_writer_abort(w);
        *out = NULL;
        return nnue_fail(err, NNUE_E_NOMEM, "out of memory");
    }
    if ((st = nnue_atomic_open(&w->af, w->path, err)) != NNUE_OK) {
        nnue_train_writer_abort(w);
        *out = NULL;
        return st;
    }
    w->atomic = 1;
    w->f = w->af.f;
    return NNUE_OK;
}

/* The name of a string field of rec that does not end inside its array (*size: the array's
 * bytes), or NULL: the formatters read them as C strings. */
static const char *unterminated_field(const nnue_train_record *rec, size_t *size)
{
    const struct {
        const char *name, *v;
        size_t size;
    } fields[] = {{"position", rec->position, sizeof rec->position},
                  {"move", rec->move, sizeof rec->move},
                  {"result", rec->result, sizeof rec->result}};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (!memchr(fields[i].v, 0, fields[i].size))
            return *size = fields[i].size, fields[i].name;
    return NULL;
}

nnue_status nnue_train_write(nnue_train_writer *w, const nnue_train_record *rec, nnue_error *err)
{
    nnue_error_clear(err);
    if (!w || !rec)
        return nnue_fail(err, NNUE_E_ARG, "nnue_train_write: no %s (NULL)", w ? "record" : "writer");
    uint64_t number = w->records + 1;
    size_t size;
    const char *field = unterminated_field(rec, &size);
    if (field)
        return nnue_fail_at(err, NNUE_E_ARG, w->name, 0, 0,
                            "record %llu: the %s fills its whole array of %zu bytes (no terminating NUL)",
                            (unsigned long long)number, field, size);
    nnue_status st;
    if (w->format == NNUE_TRAIN_BINPACK) {
        st = binpack_write(w, rec, err);
    } else {
        char buf[512], why_buf[TEXT_WHY_SIZE];
        const char *why = text_check_record(w->format, rec, why_buf);
        size_t len = text_format_record(w->format, rec, buf, sizeof buf);
        if (why)
            st = nnue_fail_at(err, NNUE_E_ARG, w->name, 0, 0, "record %llu: %s", (unsigned long long)number, why);
        else if (len >= sizeof buf)
            st = nnue_fail_at(err, NNUE_E_ARG, w->name, 0, 0, "record %llu: its text is longer than %zu bytes",
                              (unsigned long long)number, sizeof buf - 1);
        else if (fwrite(buf, 1, len, w->f) != len)
            st = nnue_fail_at(err, NNUE_E_IO, w->name, 0, 0, "write error at record %llu: %s",
                              (unsigned long long)number, strerror(errno));
        else
            st = NNUE_OK;
    }
    if (st == NNUE_OK)
        w->records = number;
    return st;
}

void nnue_train_writer_abort(nnue_train_writer *w)
{
    if (!w)
        return;
    if (w->atomic)
        nnue_atomic_abort(&w->af);
    binpack_writer_free(w->bp);
    free(w->path);
    free(w);
}

nnue_status nnue_train_writer_close(nnue_train_writer *w, nnue_error *err)
{
    nnue_error_clear(err);
    if (!w)
        return nnue_fail(err, NNUE_E_ARG, "nnue_train_writer_close: NULL writer");
    nnue_status st = w->format == NNUE_TRAIN_BINPACK ? binpack_finish(w, err) : NNUE_OK;
    if (st == NNUE_OK && w->atomic) {
        st = nnue_atomic_commit(&w->af, err);
        w->atomic = 0;
    } else if (st == NNUE_OK && fflush(w->f) != 0) {
        st = nnue_fail_at(err, NNUE_E_IO, w->name, 0, 0, "write error: %s", strerror(errno));
    }
    nnue_train_writer_abort(w);
    return st;
}
