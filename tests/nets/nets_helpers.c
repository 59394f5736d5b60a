/* tests/nets/nets_helpers.c: see nets_helpers.h. */
#include "nets_helpers.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

static char *rotate(void)
{
    static char bufs[8][4096];
    static int next;
    return bufs[next++ & 7];
}

const char *nets_dir(void)
{
    static char dir[4096];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s/nets", test_build_dir());
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "cannot create %s\n", dir);
            exit(1);
        }
    }
    return dir;
}

const char *nets_path(const char *name)
{
    char *buf = rotate();
    snprintf(buf, 4096, "%s/%s", nets_dir(), name);
    return buf;
}

uint64_t nets_file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* Runs a shell command that writes tmp, then renames tmp to dst. */
static void make_file(const char *command, const char *tmp, const char *dst, uint64_t size)
{
    int rc = system(command);
    if (rc != 0 || nets_file_size(tmp) != size) {
        fprintf(stderr, "FAIL: `%s` exited with %d and wrote %llu bytes, expected %llu\n", command, rc,
                (unsigned long long)nets_file_size(tmp), (unsigned long long)size);
        unlink(tmp);
        exit(1);
    }
    if (rename(tmp, dst) != 0) {
        fprintf(stderr, "FAIL: cannot rename %s to %s\n", tmp, dst);
        exit(1);
    }
}

const char *nets_shared(const char *relative, const char *name, uint64_t size)
{
    test_require_shared(relative);
    const char *src = test_shared_path(relative);
    size_t len = strlen(relative);
    if (len < 3 || strcmp(relative + len - 3, ".xz") != 0)
        return src;
    char *dst = rotate();
    snprintf(dst, 4096, "%s/%s", nets_dir(), name);
    if (nets_file_size(dst) == size)
        return dst;
    char tmp[4200], command[9000];
    snprintf(tmp, sizeof tmp, "%s.tmp%d", dst, (int)getpid());
    snprintf(command, sizeof command, "xz -dc '%s' > '%s'", src, tmp);
    make_file(command, tmp, dst, size);
    return dst;
}

const char *nets_sf151(void)
{
    const char *exe = "/usr/games/stockfish";
    const uint64_t size = 47001499;
    char *dst = rotate();
    snprintf(dst, 4096, "%s/sf151.nnue", nets_dir());
    if (nets_file_size(dst) == size)
        return dst;
    if (access(exe, X_OK) != 0) {
        fprintf(stderr, "SKIP: %s is not installed (scripts/setup.sh installs Debian's stockfish 15.1, which "
                        "exports its net); the real-net test did not run\n", exe);
        exit(77);
    }
    char tmp[4200], command[9000];
    snprintf(tmp, sizeof tmp, "%s.tmp%d", dst, (int)getpid());
    snprintf(command, sizeof command, "printf 'export_net %%s\\nquit\\n' '%s' | %s > /dev/null", tmp, exe);
    make_file(command, tmp, dst, size);
    return dst;
}

const char *nets_stockfish_release(const char *name, uint64_t size)
{
    char *dst = rotate();
    const char *dir = getenv("NNUE_NETS_DIR"), *home = getenv("HOME");
    char fallback[4096];
    if (!dir || !dir[0]) {
        snprintf(fallback, sizeof fallback, "%s/.cache/nnue-nets", home && home[0] ? home : "/tmp");
        dir = fallback;
    }
    snprintf(dst, 4096, "%s/%s", dir, name);
    if (nets_file_size(dst) == size)
        return dst;
    /* Not cached yet: the project's fetcher (sha256-pinned, holds a lock: parallel tests wait). */
    char command[9000];
    const char *python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    snprintf(command, sizeof command, "%s '%s' --dir '%s' '%s' >&2", python,
             test_source_path("scripts/fetch_nets.py"), dir, name);
    int rc = system(command);
    rc = rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    if (nets_file_size(dst) != size) {
        fprintf(stderr, "SKIP: Stockfish's release net %s is not in %s and could not be fetched (`%s` exited with %d, "
                        "its reason above; NNUE_NETS_DIR overrides the folder); this test did not run\n",
                name, dir, command, rc);
        exit(77);
    }
    return dst;
}

nnue_arch *nets_arch(const char *relative)
{
    nnue_arch *a = NULL;
    nnue_error err;
    if (nnue_arch_load(test_source_path(relative), &a, &err) != NNUE_OK) {
        char msg[1200];
        nnue_error_format(&err, msg, sizeof msg);
        ck_abort_msg("cannot load architecture %s: %s", relative, msg);
    }
    return a;
}

nnue_net *nets_load(const nnue_arch *arch, const char *path)
{
    nnue_net *net = NULL;
    nnue_error err;
    nnue_status st = nnue_net_load(arch, path, &net, &err);
    char msg[1200];
    nnue_error_format(&err, msg, sizeof msg);
    ck_assert_msg(st == NNUE_OK, "loading %s with %s: %s", path, arch->name, msg);
    ck_assert_ptr_nonnull(net);
    return net;
}

void nets_read_at(const char *path, uint64_t offset, void *buf, size_t n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    ck_assert(fseeko(f, (off_t)offset, SEEK_SET) == 0);
    size_t got = fread(buf, 1, n, f);
    fclose(f);
    ck_assert_msg(got == n, "%s: expected %zu bytes at %llu, found %zu", path, n, (unsigned long long)offset, got);
}

int64_t nets_i8_at(const char *path, uint64_t offset)
{
    unsigned char b[1];
    nets_read_at(path, offset, b, 1);
    return (int8_t)b[0];
}

int64_t nets_i16_at(const char *path, uint64_t offset)
{
    unsigned char b[2];
    nets_read_at(path, offset, b, 2);
    return (int16_t)(uint16_t)(b[0] | b[1] << 8);
}

uint32_t nets_u32_at(const char *path, uint64_t offset)
{
    unsigned char b[4];
    nets_read_at(path, offset, b, 4);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

int64_t nets_i32_at(const char *path, uint64_t offset)
{
    return (int32_t)nets_u32_at(path, offset);
}

const char *nets_copy(const char *src, const char *name, uint64_t keep)
{
    const char *dst = nets_path(name);
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    ck_assert_msg(in && out, "cannot copy %s to %s", src, dst);
    static char buf[1 << 16];
    uint64_t done = 0;
    size_t n;
    while (done < keep && (n = fread(buf, 1, sizeof buf, in)) > 0) {
        if (n > keep - done)
            n = (size_t)(keep - done);
        ck_assert(fwrite(buf, 1, n, out) == n);
        done += n;
    }
    fclose(in);
    ck_assert(fclose(out) == 0);
    return dst;
}

void nets_patch(const char *path, uint64_t offset, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "r+b");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    ck_assert(fseeko(f, (off_t)offset, SEEK_SET) == 0);
    ck_assert(fwrite(bytes, 1, n, f) == n);
    ck_assert(fclose(f) == 0);
}

void nets_append(const char *path, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "ab");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    ck_assert(fwrite(bytes, 1, n, f) == n);
    ck_assert(fclose(f) == 0);
}

void nets_expect_fail(const nnue_arch *arch, const char *path, nnue_status code, long long offset, ...)
{
    nnue_net *net = (nnue_net *)0x1;
    nnue_error err;
    nnue_status st = nnue_net_load(arch, path, &net, &err);
    char msg[1200];
    nnue_error_format(&err, msg, sizeof msg);
    if (st == NNUE_OK)
        nnue_net_free(net);
    ck_assert_msg(st == code, "%s: status %d (%s), expected %d (%s): %s", path, st, nnue_status_name(st), code,
                  nnue_status_name(code), msg);
    ck_assert_ptr_null(net);
    ck_assert_msg(offset == -2 || err.offset == offset, "error at byte %lld, expected %lld: %s", err.offset, offset,
                  msg);
    ck_assert_msg(strncmp(msg, path, strlen(path)) == 0, "message does not start with the file name: %s", msg);
    va_list ap;
    va_start(ap, offset);
    for (const char *frag; (frag = va_arg(ap, const char *)) != NULL;)
        ck_assert_msg(strstr(msg, frag) != NULL, "message lacks '%s': %s", frag, msg);
    va_end(ap);
}
