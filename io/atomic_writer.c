/* io/atomic_writer.c: the public face of io/atomic_file.h (include/nnue_netfile.h
 * nnue_atomic_writer_*): the same temporary file and rename, in a handle that keeps its own copy
 * of the destination's name. */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "io/atomic_file.h"
#include "nnue.h"

struct nnue_atomic_writer {
    nnue_atomic_file af;
    char path[4096];
};

nnue_status nnue_atomic_writer_open(const char *path, nnue_atomic_writer **out, nnue_error *err)
{
    nnue_error_clear(err);
    if (out)
        *out = NULL;
    if (!path || !out)
        return nnue_fail(err, NNUE_E_ARG, "nnue_atomic_writer_open: expected a path and an output pointer");
    nnue_atomic_writer *w = calloc(1, sizeof *w);
    if (!w)
        return nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory", path);
    if (strlen(path) >= sizeof w->path) {
        free(w);
        return nnue_fail_at(err, NNUE_E_IO, path, 0, 0, "cannot create the file: name too long");
    }
    strcpy(w->path, path);
    nnue_status st = nnue_atomic_open(&w->af, w->path, err);
    if (st != NNUE_OK) {
        free(w);
        return st;
    }
    *out = w;
    return NNUE_OK;
}

void *nnue_atomic_writer_stream(nnue_atomic_writer *w)
{
    return w ? w->af.f : NULL;
}

const char *nnue_atomic_writer_temp_path(const nnue_atomic_writer *w)
{
    return w ? w->af.tmp : "";
}

nnue_status nnue_atomic_writer_commit(nnue_atomic_writer *w, nnue_error *err)
{
    if (!w)
        return nnue_fail(err, NNUE_E_ARG, "nnue_atomic_writer_commit: expected a writer");
    nnue_status st = nnue_atomic_commit(&w->af, err);
    free(w);
    return st;
}

void nnue_atomic_writer_abort(nnue_atomic_writer *w)
{
    if (!w)
        return;
    nnue_atomic_abort(&w->af);
    free(w);
}
