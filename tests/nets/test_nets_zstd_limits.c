/* tests/nets/test_nets_zstd_limits.c: zstd-compressed nets cost what their architecture needs,
 * not what a frame declares (io/zstd.h). Before this, a frame of zeros declaring
 * 600 MB was decompressed whole by every load and header read (a 32 KB file cost 1.19 GB and
 * 11.5 s), `nnue convert --to unzstd` malloc'ed whatever a 16-byte frame declared (2 TiB), and a
 * load without an architecture decompressed twice. Memory is judged by the process's peak RSS
 * (getrusage), which the bomb's 600 MB would raise. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <zstd.h>

#include "core/net/net.h"
#include "nnue.h"
#include "support.h"

#define BOMB_BYTES 600000000ull

static char bomb_path[4096], liar_path[4096], net_path[4096], packed_path[4096], unsized_path[4096],
    unsized_bomb_path[4096];
static nnue_arch *tiny;

static long peak_kb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

/* BOMB_BYTES of zeros as one frame (a few KB), made in 1 MB steps; it records its size when
 * pledged, none otherwise (as Viridithas's nets). */
static void write_bomb(const char *path, int pledged)
{
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    if (pledged && ZSTD_isError(ZSTD_CCtx_setPledgedSrcSize(cc, BOMB_BYTES))) {
        fprintf(stderr, "FAIL: zstd refused the pledged size\n");
        exit(1);
    }
    size_t step = 1 << 20, out_cap = ZSTD_CStreamOutSize();
    char *zeros = calloc(1, step), *out = malloc(out_cap);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    for (unsigned long long done = 0; done < BOMB_BYTES;) {
        size_t n = BOMB_BYTES - done < step ? (size_t)(BOMB_BYTES - done) : step;
        done += n;
        int last = done == BOMB_BYTES;
        ZSTD_inBuffer in = {zeros, n, 0};
        size_t left;
        do {
            ZSTD_outBuffer ob = {out, out_cap, 0};
            left = ZSTD_compressStream2(cc, &ob, &in, last ? ZSTD_e_end : ZSTD_e_continue);
            if (ZSTD_isError(left)) {
                fprintf(stderr, "FAIL: zstd: %s\n", ZSTD_getErrorName(left));
                exit(1);
            }
            fwrite(out, 1, ob.pos, f);
        } while (last ? left != 0 : in.pos < in.size);
    }
    fclose(f);
    free(zeros);
    free(out);
    ZSTD_freeCCtx(cc);
}

/* The file src as one zstd frame that records no size (fed in 1 KB pieces, none pledged). */
static void write_unsized(const char *src, const char *dst)
{
    size_t size, out_cap = ZSTD_CStreamOutSize();
    char *bytes = test_read_file(src, &size), *out = malloc(out_cap);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    FILE *f = fopen(dst, "wb");
    if (!bytes || !f || size < 2048) {
        fprintf(stderr, "FAIL: cannot pack %s into %s\n", src, dst);
        exit(1);
    }
    for (size_t done = 0; done < size;) {
        size_t n = size - done < 1024 ? size - done : 1024;
        int last = done + n == size;
        ZSTD_inBuffer in = {bytes + done, n, 0};
        size_t left;
        do {
            ZSTD_outBuffer ob = {out, out_cap, 0};
            left = ZSTD_compressStream2(cc, &ob, &in, last ? ZSTD_e_end : ZSTD_e_continue);
            if (ZSTD_isError(left)) {
                fprintf(stderr, "FAIL: zstd: %s\n", ZSTD_getErrorName(left));
                exit(1);
            }
            fwrite(out, 1, ob.pos, f);
        } while (last ? left != 0 : in.pos < in.size);
        done += n;
    }
    fclose(f);
    free(bytes);
    free(out);
    ZSTD_freeCCtx(cc);
}

/* 16 bytes: a frame header declaring 2 TiB (single segment, 8-byte size) and one empty last block. */
static void write_liar(const char *path)
{
    unsigned char b[16] = {0x28, 0xB5, 0x2F, 0xFD, 0xE0};
    unsigned long long size = 1ull << 41;
    for (int i = 0; i < 8; i++)
        b[5 + i] = (unsigned char)(size >> (8 * i));
    b[13] = 0x01; /* last block, raw, 0 bytes */
    FILE *f = fopen(path, "wb");
    fwrite(b, 1, sizeof b, f);
    fclose(f);
}

static void expect_refused(nnue_status st, const nnue_error *err, const char *fragment)
{
    ck_assert_int_ne(st, NNUE_OK);
    ck_assert_msg(strstr(err->message, fragment), "expected '%s' in: %s", fragment, err->message);
}

START_TEST(bomb_load_is_refused_before_decompressing)
{
    long before = peak_kb();
    nnue_error err;
    nnue_net *net = (nnue_net *)1;
    expect_refused(nnue_net_load(tiny, bomb_path, &net, &err), &err, "declares 600000000 decompressed bytes");
    ck_assert_ptr_null(net);
    ck_assert_int_eq(err.offset, 0);
    size_t size;
    char *bytes = test_read_file(bomb_path, &size);
    expect_refused(nnue_net_load_memory(tiny, bytes, size, "bomb", &net, &err), &err, "declares 600000000");
    free(bytes);
    ck_assert_msg(peak_kb() - before < 100 * 1024, "peak RSS grew by %ld KB", peak_kb() - before);
}
END_TEST

START_TEST(bomb_header_reads_only_its_head)
{
    long before = peak_kb();
    nnue_net_header h;
    nnue_error err;
    char *description = NULL;
    /* Zeros: a header of version 0 and no description; the size is the frame's declared one. */
    ck_assert_msg(nnue_net_read_header(bomb_path, &h, &description, &err) == NNUE_OK, "%s", err.message);
    ck_assert_int_eq(h.zstd, 1);
    ck_assert_uint_eq(h.file_bytes, BOMB_BYTES);
    ck_assert_uint_eq(h.version, 0);
    free(description);
    nnue_net *net;
    ck_assert_int_ne(nnue_net_load_auto(bomb_path, &net, &err), NNUE_OK); /* no architecture fits */
    ck_assert_msg(peak_kb() - before < 100 * 1024, "peak RSS grew by %ld KB", peak_kb() - before);
}
END_TEST

START_TEST(frame_declaring_two_tebibytes_is_refused)
{
    nnue_net_header h;
    nnue_error err;
    expect_refused(nnue_net_read_header(liar_path, &h, NULL, &err), &err, "declares 2199023255552");
    nnue_net *net;
    expect_refused(nnue_net_load(tiny, liar_path, &net, &err), &err, "at most");
    char args[16384];
    snprintf(args, sizeof args, "'%s' convert --arch '%s' --to unzstd '%s' '%s.out' 2>&1", getenv("NNUE_TOOL"),
             test_source_path("tests/nets/tiny_sf.yaml"), liar_path, liar_path);
    FILE *p = popen(args, "r");
    char buf[4096] = "";
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = 0;
    ck_assert_int_ne(pclose(p), 0);
    ck_assert_msg(strstr(buf, "declares 2199023255552"), "%s", buf);
}
END_TEST

/* A real net compressed: loads; cut short or followed by other bytes: refused at a byte offset. */
START_TEST(cut_or_padded_frames_are_refused)
{
    nnue_error err;
    nnue_net *net;
    ck_assert_msg(nnue_net_load(tiny, packed_path, &net, &err) == NNUE_OK, "%s", err.message);
    nnue_net_free(net);
    size_t size;
    char *bytes = test_read_file(packed_path, &size);
    char *padded = malloc(size + 3);
    memcpy(padded, bytes, size);
    memcpy(padded + size, "xyz", 3);
    expect_refused(nnue_net_load_memory(tiny, bytes, size - 5, "cut", &net, &err), &err, "zstd");
    ck_assert_int_ge(err.offset, 0);
    expect_refused(nnue_net_load_memory(tiny, padded, size + 3, "padded", &net, &err), &err,
                   "bytes after the zstd frame");
    ck_assert_int_eq(err.offset, (long long)size);
    free(bytes);
    free(padded);
}
END_TEST

/* A frame that records no size (Viridithas ships its nets so): a net loads, from a file and from
 * memory, equal to the plain one; cut short it is refused; zeros past what the architecture can
 * take are refused once the cap is passed, with the memory bounded by the cap, not the frame. */
START_TEST(unsized_frames_load_within_the_cap)
{
    size_t size;
    char *bytes = test_read_file(unsized_path, &size);
    ck_assert_uint_eq(ZSTD_getFrameContentSize(bytes, size), ZSTD_CONTENTSIZE_UNKNOWN);
    nnue_error err;
    nnue_net *plain, *net;
    ck_assert_msg(nnue_net_load(tiny, net_path, &plain, &err) == NNUE_OK, "%s", err.message);
    ck_assert_msg(nnue_net_load(tiny, unsized_path, &net, &err) == NNUE_OK, "%s", err.message);
    ck_assert_uint_eq(net->file_bytes, plain->file_bytes);
    ck_assert_int_eq(memcmp(net->ft_biases, plain->ft_biases, tiny->ft.width * sizeof(int16_t)), 0);
    nnue_net_free(net);
    ck_assert_msg(nnue_net_load_memory(tiny, bytes, size, "unsized", &net, &err) == NNUE_OK, "%s", err.message);
    nnue_net_free(net);
    nnue_net_free(plain);
    expect_refused(nnue_net_load_memory(tiny, bytes, size - 5, "cut", &net, &err), &err, "zstd");
    free(bytes);
    long before = peak_kb();
    expect_refused(nnue_net_load(tiny, unsized_bomb_path, &net, &err), &err, "no recorded size");
    ck_assert_ptr_null(net);
    ck_assert_msg(peak_kb() - before < 100 * 1024, "peak RSS grew by %ld KB", peak_kb() - before);
}
END_TEST

int main(void)
{
    if (!getenv("NNUE_TOOL")) {
        fprintf(stderr, "SKIP: NNUE_TOOL is not set (run through meson test)\n");
        return 77;
    }
    const char *dir = test_build_dir();
    snprintf(bomb_path, sizeof bomb_path, "%s/zstd_bomb_600MB.zst", dir);
    snprintf(liar_path, sizeof liar_path, "%s/zstd_liar_2TiB.zst", dir);
    snprintf(net_path, sizeof net_path, "%s/zstd_tiny.nnue", dir);
    snprintf(packed_path, sizeof packed_path, "%s/zstd_tiny.nnue.zst", dir);
    snprintf(unsized_path, sizeof unsized_path, "%s/zstd_tiny_unsized.nnue.zst", dir);
    snprintf(unsized_bomb_path, sizeof unsized_bomb_path, "%s/zstd_bomb_unsized.zst", dir);
    nnue_error err;
    if (nnue_arch_load(test_source_path("tests/nets/tiny_sf.yaml"), &tiny, &err) != NNUE_OK ||
        nnue_net_write_random(tiny, net_path, 9, &err) != NNUE_OK) {
        fprintf(stderr, "FAIL: %s\n", err.message);
        return 1;
    }
    write_bomb(bomb_path, 1);
    write_bomb(unsized_bomb_path, 0);
    write_unsized(net_path, unsized_path);
    write_liar(liar_path);
    char args[16384];
    snprintf(args, sizeof args, "'%s' convert --arch '%s' --to zstd '%s' '%s' >/dev/null", getenv("NNUE_TOOL"),
             test_source_path("tests/nets/tiny_sf.yaml"), net_path, packed_path);
    if (system(args) != 0) {
        fprintf(stderr, "FAIL: %s\n", args);
        return 1;
    }
    Suite *s = suite_create("nets_zstd_limits");
    TCase *tc = tcase_create("zstd");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, bomb_load_is_refused_before_decompressing);
    tcase_add_test(tc, bomb_header_reads_only_its_head);
    tcase_add_test(tc, frame_declaring_two_tebibytes_is_refused);
    tcase_add_test(tc, cut_or_padded_frames_are_refused);
    tcase_add_test(tc, unsized_frames_load_within_the_cap);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    nnue_arch_free(tiny);
    remove(bomb_path);
    remove(unsized_bomb_path);
    return rc;
}
