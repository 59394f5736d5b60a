/* tests/nets/test_nets_amplification.c: detection costs what the candidate architectures can use
 * (issue 49). `nnue info` on a few KB of zstd used to inflate whatever the frame held up to the
 * largest raw net's cap (196 MB for 5.5 KB), and a CBNF file's compressed payload up to twice its
 * architecture's size (188 MB for 6.2 KB). Each file here is 160 MB of zeros in one frame, with
 * and without a recorded size; `nnue info` must refuse it, naming why, and its peak RSS
 * (wait4) stay far below what was inflated before. */
#include <check.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

extern char **environ;

#include "../eval/eval_nets.h"
#include "support.h"

#define BOMB_BYTES 160000000ull

/* A sanitizer's allocator keeps freed blocks (quarantine) and moves what realloc grows: a buffer
 * grown to 89 MB peaks past twice that there. Only the bounds of what is never inflated hold. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#endif
#ifdef UNDER_SANITIZER
#define GROWN_LIMIT_MB 100000 /* not judged */
#else
#define GROWN_LIMIT_MB 128
#endif

/* head[0..head_size) then BOMB_BYTES of zeros as one frame, its size recorded when pledged. */
static void write_bomb(const char *path, const unsigned char *head, size_t head_size, int pledged)
{
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    if (pledged)
        ck_assert(!ZSTD_isError(ZSTD_CCtx_setPledgedSrcSize(cc, BOMB_BYTES)));
    size_t step = 1 << 20, out_cap = ZSTD_CStreamOutSize();
    char *zeros = calloc(1, step), *out = malloc(out_cap);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fwrite(head, 1, head_size, f);
    for (unsigned long long done = 0; done < BOMB_BYTES;) {
        size_t n = BOMB_BYTES - done < step ? (size_t)(BOMB_BYTES - done) : step;
        done += n;
        int last = done == BOMB_BYTES;
        ZSTD_inBuffer in = {zeros, n, 0};
        size_t left;
        do {
            ZSTD_outBuffer ob = {out, out_cap, 0};
            left = ZSTD_compressStream2(cc, &ob, &in, last ? ZSTD_e_end : ZSTD_e_continue);
            ck_assert(!ZSTD_isError(left));
            fwrite(out, 1, ob.pos, f);
        } while (last ? left != 0 : in.pos < in.size);
    }
    fclose(f);
    free(zeros);
    free(out);
    ZSTD_freeCCtx(cc);
}

/* Runs `nnue info path`; its output into out, its peak RSS in MB as the result. posix_spawn: a
 * forked copy of this process would count its own pages into the child's peak. */
static long info_peak_mb(const char *path, char *out, size_t size)
{
    const char *tool = getenv("NNUE_TOOL");
    ck_assert_msg(tool != NULL, "NNUE_TOOL is not set");
    char log[4200]; /* path (< 4096) and ".log" */
    snprintf(log, sizeof log, "%s.log", path);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    char *argv[] = {(char *)tool, "info", (char *)path, NULL};
    pid_t pid;
    ck_assert_int_eq(posix_spawn(&pid, tool, &fa, NULL, argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    int status;
    struct rusage u;
    ck_assert_int_eq(wait4(pid, &status, 0, &u), pid);
    FILE *f = fopen(log, "r");
    size_t n = f ? fread(out, 1, size - 1, f) : 0;
    out[n] = 0;
    if (f)
        fclose(f);
    remove(log);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) != 0, "nnue info took %s: %s", path, out);
    return u.ru_maxrss / 1024;
}

static void check(const char *name, const unsigned char *head, size_t head_size, int pledged, long max_mb,
                  const char *why)
{
    char path[4096], out[8192];
    snprintf(path, sizeof path, "%s/amplification-%s.bin", test_build_dir(), name);
    write_bomb(path, head, head_size, pledged);
    long mb = info_peak_mb(path, out, sizeof out);
    fprintf(stderr, "%s: peak %ld MB: %.300s\n", name, mb, out);
    ck_assert_msg(strstr(out, why), "%s: expected '%s' in: %s", name, why, out);
    ck_assert_msg(mb <= max_mb, "%s: nnue info peaked at %ld MB (at most %ld expected)", name, mb, max_mb);
    remove(path);
}

START_TEST(headerless_frames_are_not_inflated)
{
    /* no candidate has its size: the recorded one decides without inflating; an unrecorded one
     * is counted, never held */
    check("sized", NULL, 0, 1, 64, "No built-in raw architecture has its decompressed size (160000000 bytes)");
    check("unsized", NULL, 0, 0, 64, "No built-in raw architecture has its decompressed size (more than 89315360 bytes)");
}
END_TEST

START_TEST(cbnf_payload_stops_at_the_architecture)
{
    unsigned char head[64];
    FILE *f = fopen(eval_net_file(eval_net_find("stormphrax")), "rb");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fread(head, 1, sizeof head, f), sizeof head);
    fclose(f);
    head[6] |= 1; /* flag bit 0: the payload is one zstd frame */
    /* 160 MB recorded against a payload of 89,381,920 bytes: refused from the frame header */
    check("cbnf-sized", head, 64, 1, 64, "at most 89381920 expected (the architecture's payload size)");
    /* unrecorded: inflated as far as the payload goes (89 MB), no further */
    check("cbnf-unsized", head, 64, 0, GROWN_LIMIT_MB, "gives more than 89381920 bytes");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nets_amplification");
    TCase *tc = tcase_create("amplification");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, headerless_frames_are_not_inflated);
    tcase_add_test(tc, cbnf_payload_stops_at_the_architecture);
    suite_add_tcase(s, tc);
    return test_run(s);
}
