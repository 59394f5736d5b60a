/* tests/nets/test_nets_leb128.c: the LEB128 block reader (formats/net_read.c nr_leb128) against
 * an encoder written here from the format's rule (signed LEB128: 7 bits a byte, low first, the
 * high bit says more follows; FORMATS.md), on blocks shaped like trained weights and beyond: runs
 * of one-byte values, two- and three-byte values, the i16 extremes, values across the reader's
 * 64 KiB chunks; and a bad value deep inside a block (where the fast path runs) is reported at its
 * own byte offset, with the checked path's message. */
#include <check.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/net_read.h"
#include "io/leb128.h"
#include "nnue.h"
#include "support.h"

static size_t put_leb(unsigned char *out, int64_t v)
{
    size_t n = 0;
    for (;;) {
        unsigned char b = v & 0x7f;
        v >>= 7; /* arithmetic: the sign stays */
        if ((v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40))) {
            out[n++] = b;
            return n;
        }
        out[n++] = b | 0x80;
    }
}

/* A block: magic, payload length, payload of the values; returns its size. */
static size_t block(unsigned char *out, const int64_t *v, size_t count, size_t *offsets)
{
    size_t n = NR_LEB128_MAGIC_LEN + 4;
    memcpy(out, NR_LEB128_MAGIC, NR_LEB128_MAGIC_LEN);
    for (size_t i = 0; i < count; i++) {
        if (offsets)
            offsets[i] = n;
        n += put_leb(out + n, v[i]);
    }
    uint32_t payload = (uint32_t)(n - NR_LEB128_MAGIC_LEN - 4);
    for (int k = 0; k < 4; k++)
        out[NR_LEB128_MAGIC_LEN + k] = (unsigned char)(payload >> (8 * k));
    return n;
}

static uint64_t seed = 20261127;

static int64_t next(void)
{
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (int64_t)(seed >> 33);
}

/* Values of shape s: 0 mostly small (|v| < 64) with a few larger, 1 half two-byte, 2 every length
 * and the extremes, 3 all one-byte. */
static int64_t value(int s)
{
    int64_t x = next();
    switch (s) {
    case 0: return x % 16 ? x % 127 - 63 : x % 4001 - 2000;
    case 1: return x % 2 ? x % 127 - 63 : x % 16001 - 8000;
    case 2: {
        static const int64_t edge[] = {-32768, 32767, -8193, -8192, 8191, 8192, -65, -64, 63, 64, 0, -1};
        return x % 3 ? edge[x % 12] : x % 65536 - 32768;
    }
    default: return x % 128 - 64;
    }
}

START_TEST(blocks_decode_exactly)
{
    const size_t count = 200000; /* several 64 KiB chunks, whatever the shape */
    int64_t *v = malloc(count * sizeof *v);
    unsigned char *bytes = malloc(count * 3 + 64);
    int16_t *got = malloc(count * sizeof *got);
    int32_t *got32 = malloc(count * sizeof *got32);
    for (int s = 0; s < 4; s++) {
        for (size_t i = 0; i < count; i++)
            v[i] = value(s);
        size_t n = block(bytes, v, count, NULL);
        nr_stream st;
        nnue_error err;
        ck_assert_int_eq(nr_open_memory(&st, "block", bytes, n, &err), NNUE_OK);
        ck_assert_int_eq(nr_leb128(&st, NNUE_I16, got, count, "w"), NNUE_OK);
        ck_assert_uint_eq(st.offset, n);
        nr_close(&st);
        size_t i = 0;
        while (i < count && got[i] == v[i])
            i++;
        ck_assert_msg(i == count, "shape %d value %zu: %d, written %lld", s, i, i < count ? got[i] : 0,
                      (long long)(i < count ? v[i] : 0));
        ck_assert_int_eq(nr_open_memory(&st, "block", bytes, n, &err), NNUE_OK);
        ck_assert_int_eq(nr_leb128(&st, NNUE_I32, got32, count, "w"), NNUE_OK); /* the i32 path too */
        nr_close(&st);
        for (i = 0; i < count && got32[i] == v[i];)
            i++;
        ck_assert_msg(i == count, "shape %d value %zu (i32)", s, i);
    }
    free(v), free(bytes), free(got), free(got32);
}
END_TEST

/* A value out of range for i16 (three bytes) or too long (a fourth byte), at positions the fast
 * path reaches: the error names that value's first byte and index. */
START_TEST(bad_values_deep_in_a_block)
{
    const size_t count = 100000;
    const size_t at[] = {9, 5000, 65530, 70001, 99990};
    int64_t *v = malloc(count * sizeof *v);
    unsigned char *bytes = malloc(count * 4 + 64);
    size_t *offsets = malloc(count * sizeof *offsets);
    int16_t *got = malloc(count * sizeof *got);
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++)
        for (int kind = 0; kind < 2; kind++) {
            for (size_t i = 0; i < count; i++)
                v[i] = value((int)(i / 1000 % 3));
            v[at[k]] = kind == 0 ? 40000 : 5; /* kind 1: 5 re-encoded overlong below */
            size_t n = block(bytes, v, count, offsets);
            if (kind == 1) { /* 5 as four bytes: 0x85 0x80 0x80 0x00, the rest shifted */
                size_t o = offsets[at[k]];
                memmove(bytes + o + 4, bytes + o + 1, n - o - 1);
                memcpy(bytes + o, "\x85\x80\x80\x00", 4);
                n += 3;
                uint32_t payload = (uint32_t)(n - NR_LEB128_MAGIC_LEN - 4);
                for (int b = 0; b < 4; b++)
                    bytes[NR_LEB128_MAGIC_LEN + b] = (unsigned char)(payload >> (8 * b));
            }
            nr_stream st;
            nnue_error err;
            ck_assert_int_eq(nr_open_memory(&st, "block", bytes, n, &err), NNUE_OK);
            ck_assert_int_eq(nr_leb128(&st, NNUE_I16, got, count, "w"), NNUE_E_FORMAT);
            nr_close(&st);
            ck_assert_int_eq(err.offset, (long long)offsets[at[k]]);
            char want[64];
            snprintf(want, sizeof want, "LEB128 value %zu ", at[k]);
            ck_assert_msg(strstr(err.message, want) != NULL, "%s", err.message);
            ck_assert_msg(strstr(err.message, kind == 0 ? "is 40000, out of range for i16" : "longer than 3 bytes"),
                          "%s", err.message);
        }
    free(v), free(bytes), free(offsets), free(got);
}
END_TEST

/* Blocks of 8M values or more are decoded in two halves on two threads (io/leb128_split.c), from
 * memory or from a mapped file: the same values, the stream standing right after the block (a
 * marker written there reads back), and a bad value in either half still reported at its own
 * byte offset and index (the halves give up; the block is decoded again in order). */
START_TEST(large_blocks_in_halves)
{
    const size_t count = (9u << 20) + 77;
    int64_t *v = malloc(count * sizeof *v);
    unsigned char *bytes = malloc(count * 3 + 64);
    size_t *offsets = malloc(count * sizeof *offsets);
    int16_t *got = malloc(count * sizeof *got);
    const char *path = "test_nets_leb128_large.bin";
    for (int bad = -1; bad < 2; bad++) {
        for (size_t i = 0; i < count; i++)
            v[i] = value((int)(i / 100000 % 4));
        size_t at = bad < 0 ? 0 : bad == 0 ? count / 3 : count - 1000;
        if (bad >= 0)
            v[at] = 40000;
        size_t n = block(bytes, v, count, offsets);
        memcpy(bytes + n, "MARK", 4);
        FILE *f = fopen(path, "wb");
        ck_assert_ptr_nonnull(f);
        ck_assert_uint_eq(fwrite(bytes, 1, n + 4, f), n + 4);
        fclose(f);
        for (int from_file = 0; from_file < 2; from_file++) {
            nr_stream st;
            nnue_error err;
            memset(got, 0, count * sizeof *got);
            ck_assert_int_eq(from_file ? nr_open(&st, path, &err) : nr_open_memory(&st, "block", bytes, n + 4, &err),
                             NNUE_OK);
            nnue_status status = nr_leb128(&st, NNUE_I16, got, count, "w");
            if (bad < 0) {
                ck_assert_int_eq(status, NNUE_OK);
                ck_assert_uint_eq(st.offset, n);
                unsigned char mark[4];
                ck_assert_int_eq(nr_bytes(&st, mark, 4, "mark"), NNUE_OK);
                ck_assert_int_eq(memcmp(mark, "MARK", 4), 0);
                size_t i = 0;
                while (i < count && got[i] == v[i])
                    i++;
                ck_assert_msg(i == count, "file %d value %zu: %d, written %lld", from_file, i, i < count ? got[i] : 0,
                              (long long)(i < count ? v[i] : 0));
            } else {
                ck_assert_int_eq(status, NNUE_E_FORMAT);
                ck_assert_int_eq(err.offset, (long long)offsets[at]);
                char want[64];
                snprintf(want, sizeof want, "LEB128 value %zu is 40000", at);
                ck_assert_msg(strstr(err.message, want) != NULL, "%s", err.message);
            }
            nr_close(&st);
        }
    }
    remove(path);
    free(v), free(bytes), free(offsets), free(got);
}
END_TEST

/* The byte decoder alone (io/leb128.h), fed the payload in spans of 1 to 13 bytes, so values run
 * across spans at every byte of them: the same values; and a value too long for i16 stops it at
 * that value's first byte counted over all spans, with its index. */
START_TEST(spans_of_any_size)
{
    const size_t count = 30000;
    int64_t *v = malloc(count * sizeof *v);
    size_t *offsets = malloc(count * sizeof *offsets);
    unsigned char *bytes = malloc(count * 3 + 64);
    int16_t *got = malloc(count * sizeof *got);
    for (size_t i = 0; i < count; i++)
        v[i] = value((int)(i / 1000 % 4));
    const size_t head = NR_LEB128_MAGIC_LEN + 4;
    for (int bad = 0; bad < 2; bad++) {
        if (bad)
            v[20000] = 1 << 20; /* four bytes: more than an i16 takes */
        size_t n = block(bytes, v, count, offsets) - head;
        for (size_t span = 1; span <= 13; span++) {
            leb128_decoder d;
            leb128_begin(&d, 2, got, count);
            leb128_stop stop = LEB128_OK;
            for (size_t at = 0; at < n && stop == LEB128_OK; at += span)
                stop = leb128_feed(&d, bytes + head + at, n - at < span ? n - at : span);
            if (!bad) {
                ck_assert_int_eq(stop, LEB128_OK);
                ck_assert_int_eq(leb128_complete(&d), 1);
                size_t i = 0;
                while (i < count && got[i] == v[i])
                    i++;
                ck_assert_msg(i == count, "spans of %zu: value %zu", span, i);
            } else {
                ck_assert_int_eq(stop, LEB128_TOO_LONG);
                ck_assert_uint_eq(d.at, offsets[20000] - head);
                ck_assert_uint_eq(d.done, 20000);
            }
        }
    }
    free(v), free(offsets), free(bytes), free(got);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("leb128");
    TCase *tc = tcase_create("leb128");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, blocks_decode_exactly);
    tcase_add_test(tc, bad_values_deep_in_a_block);
    tcase_add_test(tc, large_blocks_in_halves);
    tcase_add_test(tc, spans_of_any_size);
    suite_add_tcase(s, tc);
    return test_run(s);
}
