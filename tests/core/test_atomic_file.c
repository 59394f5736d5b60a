/* tests/core/test_atomic_file.c: files we write never appear half-written (io/atomic_file.h):
 * a committed write replaces the file at once, an aborted or failed one leaves the old content
 * and no temporary file behind; `nnue init` (nnue_net_write_random) goes through it, shown by
 * making its writes fail part-way with a file size limit (RLIMIT_FSIZE). */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/arch/arch_api.h"
#include "io/atomic_file.h"
#include "core/net/net.h"
#include "support.h"

static char dir[4096];

/* A fresh empty folder per test (Check forks each test; the pid keeps them apart). */
static void fresh_dir(void)
{
    snprintf(dir, sizeof dir, "%s/atomic-%d", test_build_dir(), (int)getpid());
    char cmd[2 * sizeof dir + 32];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    ck_assert_int_eq(system(cmd), 0);
}

static int entries(void)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static const char *in_dir(const char *name)
{
    static char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* A fresh folder with out.txt = "old", and an atomic write of `text` to it, not committed. */
static const char *open_over_old(nnue_atomic_file *af, const char *text)
{
    fresh_dir();
    const char *path = in_dir("out.txt");
    write_text(path, "old");
    nnue_error err;
    ck_assert_int_eq(nnue_atomic_open(af, path, &err), NNUE_OK);
    fputs(text, af->f);
    return path;
}

START_TEST(commit_replaces_only_at_the_end)
{
    nnue_atomic_file af;
    nnue_error err;
    const char *path = open_over_old(&af, "new content");
    fflush(af.f);
    /* Before the commit the destination still has the old bytes; the temporary file is beside it. */
    char *now = test_read_file(path, NULL);
    ck_assert_str_eq(now, "old");
    free(now);
    ck_assert_int_eq(entries(), 2);
    ck_assert_int_eq(nnue_atomic_commit(&af, &err), NNUE_OK);
    now = test_read_file(path, NULL);
    ck_assert_str_eq(now, "new content");
    free(now);
    ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(abort_keeps_the_old_file)
{
    nnue_atomic_file af;
    const char *path = open_over_old(&af, "partial");
    nnue_atomic_abort(&af);
    char *now = test_read_file(path, NULL);
    ck_assert_str_eq(now, "old");
    free(now);
    ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(missing_folder_is_named)
{
    fresh_dir();
    nnue_atomic_file af;
    nnue_error err;
    const char *path = in_dir("no/such/folder/out.nnue");
    ck_assert_int_eq(nnue_atomic_open(&af, path, &err), NNUE_E_IO);
    char msg[1200];
    nnue_error_format(&err, msg, sizeof msg);
    ck_assert_msg(strstr(msg, path) && strstr(msg, "cannot create"), "%s", msg);
    nnue_atomic_abort(&af); /* harmless after a failed open */
}
END_TEST

/* nnue init's writer: a write that fails part-way (file size limit) leaves the previous net
 * intact and no temporary file; without the limit the same call replaces it. */
START_TEST(init_never_leaves_a_half_written_net)
{
    fresh_dir();
    nnue_arch *arch;
    nnue_error err;
    ck_assert_int_eq(nnue_arch_load(test_source_path("tests/nets/tiny_sf.yaml"), &arch, &err), NNUE_OK);
    const char *path = in_dir("tiny.nnue");
    ck_assert_int_eq(nnue_net_write_random(arch, path, 1, &err), NNUE_OK);
    size_t full_len;
    char *full = test_read_file(path, &full_len);
    ck_assert_uint_gt(full_len, 8192);

    signal(SIGXFSZ, SIG_IGN); /* writes past the limit then fail with EFBIG instead of killing us */
    struct rlimit old, small = {4096, 4096};
    getrlimit(RLIMIT_FSIZE, &old);
    small.rlim_max = old.rlim_max;
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
    nnue_status st = nnue_net_write_random(arch, path, 2, &err);
    setrlimit(RLIMIT_FSIZE, &old);
    char msg[1200];
    nnue_error_format(&err, msg, sizeof msg);
    ck_assert_msg(st == NNUE_E_IO && strstr(msg, path) && strstr(msg, "write error"), "%d: %s", st, msg);
    size_t len;
    char *now = test_read_file(path, &len);
    ck_assert_uint_eq(len, full_len);
    ck_assert_int_eq(memcmp(now, full, len), 0);
    free(now);
    ck_assert_int_eq(entries(), 1);

    ck_assert_int_eq(nnue_net_write_random(arch, path, 2, &err), NNUE_OK);
    now = test_read_file(path, &len);
    ck_assert_uint_eq(len, full_len);
    ck_assert_int_ne(memcmp(now, full, len), 0); /* seed 2's weights */
    free(now);
    free(full);
    ck_assert_int_eq(entries(), 1);
    nnue_arch_free(arch);
}
END_TEST

/* The destination's permission bits survive the replacement (a 0600 file once became 0644). */
START_TEST(commit_keeps_the_mode)
{
    fresh_dir();
    char path[4200];
    snprintf(path, sizeof path, "%s", in_dir("private.txt"));
    write_text(path, "old");
    ck_assert_int_eq(chmod(path, 0600), 0);
    nnue_atomic_file af;
    nnue_error err;
    ck_assert_int_eq(nnue_atomic_open(&af, path, &err), NNUE_OK);
    fputs("new", af.f);
    ck_assert_int_eq(nnue_atomic_commit(&af, &err), NNUE_OK);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0600);
    char *text = test_read_file(path, NULL);
    ck_assert_str_eq(text, "new");
    free(text);
}
END_TEST

/* A symbolic link stays a link; the file it points to gets the new bytes (the link itself was
 * once replaced by a regular file). A dangling link and a folder are refused by name. */
START_TEST(commit_writes_through_a_symlink)
{
    fresh_dir();
    char target[4200], link_path[4200];
    snprintf(target, sizeof target, "%s", in_dir("real.txt"));
    snprintf(link_path, sizeof link_path, "%s", in_dir("link.txt"));
    write_text(target, "old");
    ck_assert_int_eq(symlink("real.txt", link_path), 0);
    nnue_atomic_file af;
    nnue_error err;
    ck_assert_int_eq(nnue_atomic_open(&af, link_path, &err), NNUE_OK);
    fputs("new", af.f);
    ck_assert_int_eq(nnue_atomic_commit(&af, &err), NNUE_OK);
    struct stat st;
    ck_assert_int_eq(lstat(link_path, &st), 0);
    ck_assert_msg(S_ISLNK(st.st_mode), "the symbolic link was replaced");
    char *text = test_read_file(target, NULL);
    ck_assert_str_eq(text, "new");
    free(text);
    ck_assert_int_eq(entries(), 2);
    ck_assert_int_eq(symlink("missing.txt", in_dir("dangling.txt")), 0);
    ck_assert_int_eq(nnue_atomic_open(&af, in_dir("dangling.txt"), &err), NNUE_E_IO);
    ck_assert_msg(strstr(err.message, "symbolic link"), "%s", err.message);
    ck_assert_int_eq(nnue_atomic_open(&af, dir, &err), NNUE_E_IO);
    ck_assert_msg(strstr(err.message, "not a regular file"), "%s", err.message);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("atomic_file");
    TCase *tc = tcase_create("atomic_file");
    tcase_add_test(tc, commit_replaces_only_at_the_end);
    tcase_add_test(tc, abort_keeps_the_old_file);
    tcase_add_test(tc, missing_folder_is_named);
    tcase_add_test(tc, init_never_leaves_a_half_written_net);
    tcase_add_test(tc, commit_keeps_the_mode);
    tcase_add_test(tc, commit_writes_through_a_symlink);
    suite_add_tcase(s, tc);
    return test_run(s);
}
