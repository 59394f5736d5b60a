/* io/atomic_file.h: writing a file so that it is never seen half-written. The bytes go to a
 * temporary file in the destination's own folder (same file system, so rename(2) is atomic);
 * commit flushes, syncs and renames it over the destination; abort (or a failed commit)
 * removes it. Until the commit succeeds, an existing destination keeps its old content.
 * Every file the library and the tool write (`nnue init`, `nnue convert`) goes through this.
 * An existing destination keeps its permission bits. A destination that is a symbolic link stays
 * one: the file it points to is the one replaced (in that file's folder). */
#ifndef NNUE_IO_ATOMIC_FILE_H
#define NNUE_IO_ATOMIC_FILE_H

#include <stdio.h>

#include "nnue_error.h"

typedef struct nnue_atomic_file {
    FILE *f;             /* write here between open and commit/abort */
    const char *path;    /* destination (the caller's string, kept until commit/abort) */
    char target[4096];   /* the file renamed onto: path, or the file a symbolic link path points to */
    char tmp[4096];      /* DIR/.BASE.tmp-PID-N, DIR the target's folder */
} nnue_atomic_file;

/* Creates the temporary file (mode 0666 less the umask, like fopen; an existing destination's
 * mode when there is one). Errors name the path. */
nnue_status nnue_atomic_open(nnue_atomic_file *af, const char *path, nnue_error *err);
/* Checks for write errors, flushes, fsyncs, closes and renames onto the destination. On any
 * failure the temporary file is removed, the destination is untouched, and err says why. */
nnue_status nnue_atomic_commit(nnue_atomic_file *af, nnue_error *err);
/* Closes and removes the temporary file; the destination is untouched. Safe after a failed open. */
void nnue_atomic_abort(nnue_atomic_file *af);

#endif
