/* io/atomic_file.c: see atomic_file.h. Relies on POSIX: open(O_CREAT|O_EXCL) for a fresh
 * temporary name, fsync before rename, and rename(2) replacing the destination atomically
 * within one file system. */
#include "io/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"

static atomic_uint counter;

nnue_status nnue_atomic_open(nnue_atomic_file *af, const char *path, nnue_error *err)
{
    af->f = NULL;
    af->path = path;
    af->tmp[0] = af->target[0] = 0;
    if (!path || !*path)
        return nnue_fail(err, NNUE_E_ARG, "expected a file name to write");
    struct stat st;
    int exists = lstat(path, &st) == 0;
    if (exists && S_ISLNK(st.st_mode)) { /* keep the link: replace what it points to */
        char resolved[PATH_MAX];
        if (!realpath(path, resolved) || stat(resolved, &st) != 0)
            return nnue_fail_at(err, NNUE_E_IO, path, 0, 0,
                                "cannot write through this symbolic link: its target cannot be resolved (%s)",
                                strerror(errno));
        if (snprintf(af->target, sizeof af->target, "%s", resolved) >= (int)sizeof af->target)
            return nnue_fail_at(err, NNUE_E_IO, path, 0, 0, "cannot create the file: name too long");
    } else {
        snprintf(af->target, sizeof af->target, "%s", path);
    }
    if (exists && !S_ISREG(st.st_mode)) {
        af->target[0] = 0;
        return nnue_fail_at(err, NNUE_E_IO, path, 0, 0, "cannot replace it: not a regular file");
    }
    const char *target = af->target, *slash = strrchr(target, '/');
    int dir_len = slash ? (int)(slash - target + 1) : 0;
    const char *base = slash ? slash + 1 : target;
    for (int attempt = 0; attempt < 100; attempt++) {
        int n = snprintf(af->tmp, sizeof af->tmp, "%.*s.%s.tmp-%ld-%u", dir_len, target, base, (long)getpid(),
                         atomic_fetch_add(&counter, 1));
        if (n < 0 || (size_t)n >= sizeof af->tmp) {
            af->tmp[0] = 0;
            return nnue_fail_at(err, NNUE_E_IO, path, 0, 0, "cannot create the file: name too long");
        }
        int fd = open(af->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0) {
            int e = errno;
            af->tmp[0] = 0;
            return nnue_fail_at(err, NNUE_E_IO, path, 0, 0, "cannot create the file (a temporary file in its folder): %s",
                                strerror(e));
        }
        if (exists)
            (void)fchmod(fd, st.st_mode & 07777); /* the file keeps its permissions (a 0600 net stays private) */
        af->f = fdopen(fd, "wb");
        if (!af->f) {
            close(fd);
            nnue_atomic_abort(af);
            return nnue_fail_at(err, NNUE_E_NOMEM, path, 0, 0, "cannot create the file: out of memory");
        }
        return NNUE_OK;
    }
    af->tmp[0] = 0;
    return nnue_fail_at(err, NNUE_E_IO, path, 0, 0, "cannot create the file: no free temporary name in its folder");
}

nnue_status nnue_atomic_commit(nnue_atomic_file *af, nnue_error *err)
{
    if (!af->f) {
        nnue_atomic_abort(af);
        return nnue_fail_at(err, NNUE_E_ARG, af->path, 0, 0, "write error: the file was not opened");
    }
    int failed = ferror(af->f) != 0, e = failed ? EIO : 0;
    if (!failed && fflush(af->f) != 0)
        failed = 1, e = errno;
    if (!failed && fsync(fileno(af->f)) != 0)
        failed = 1, e = errno;
    if (fclose(af->f) != 0 && !failed)
        failed = 1, e = errno;
    af->f = NULL;
    if (!failed && rename(af->tmp, af->target) != 0)
        failed = 1, e = errno;
    if (failed) {
        nnue_atomic_abort(af);
        return nnue_fail_at(err, NNUE_E_IO, af->path, 0, 0, "write error (the file was left as it was): %s",
                            strerror(e));
    }
    af->tmp[0] = 0;
    return NNUE_OK;
}

void nnue_atomic_abort(nnue_atomic_file *af)
{
    if (af->f)
        fclose(af->f);
    af->f = NULL;
    if (af->tmp[0])
        unlink(af->tmp);
    af->tmp[0] = 0;
}
