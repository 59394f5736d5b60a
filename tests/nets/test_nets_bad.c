/* tests/nets/test_nets_bad.c: every class of bad net file gets the right status code, the byte
 * offset and a message naming the section, what was expected and what was found.
 *
 * Most files are tiny nets for test-local architectures (tiny_sf.yaml, tiny_sf_leb128.yaml,
 * tiny_raw.yaml) written here by an independent writer that records each section's name and
 * place (layout: shared/oracle/chess/FORMATS.md section 2); the rest are copies of reference
 * nets, truncated or patched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/arch/layer.h"
#include "nnue.h"
#include "nets_helpers.h"
#include "support.h"

/* ---- tiny Stockfish-format writer ---- */

typedef struct { char name[64]; uint64_t start, bytes; } section;
static section secs[64];
static int n_secs;
static unsigned char *buf;
static size_t len, cap;

enum { W_BIG_BIAS = 1, W_OVERLONG_BIAS = 2 };

static void put(const void *p, size_t n)
{
    if (len + n > cap) {
        cap = (len + n) * 2;
        buf = realloc(buf, cap);
    }
    memcpy(buf + len, p, n);
    len += n;
}

static void put_le(int64_t v, int bytes)
{
    unsigned char b[4];
    for (int i = 0; i < bytes; i++)
        b[i] = (unsigned char)((uint64_t)v >> (8 * i));
    put(b, (size_t)bytes);
}

static void put_leb(int64_t v)
{
    for (;;) {
        unsigned char b = (unsigned char)(v & 0x7f);
        v >>= 7; /* arithmetic shift on the platforms we build for */
        int done = (v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40));
        if (!done)
            b |= 0x80;
        put(&b, 1);
        if (done)
            return;
    }
}

static void begin(const char *name)
{
    snprintf(secs[n_secs].name, sizeof secs[0].name, "%s", name);
    secs[n_secs].start = len;
}

static void end(void)
{
    secs[n_secs].bytes = len - secs[n_secs].start;
    n_secs++;
}

/* Deterministic values; the loader's arrays are compared with these. */
static int64_t ft_bias(uint64_t i) { return (int64_t)i * 3 - 5; }
static int64_t ft_weight(uint64_t i) { return (int64_t)(i % 301) - 150; }
static int64_t ft_psqt(uint64_t i) { return ((int64_t)(i % 7) - 3) * 40000 + (int64_t)i; }
static int64_t l_bias(uint32_t k, int layer, uint32_t o) { return (int64_t)k * 1000 - layer * 100 + o; }
static int64_t l_weight(uint32_t k, int layer, uint32_t o, uint32_t c) { return (int64_t)((k * 7 + layer * 5 + o * 3 + c) % 255) - 127; }

static void ft_array(const char *name, uint64_t n, int bytes, int64_t (*value)(uint64_t), int leb, int flags)
{
    begin(name);
    if (!leb) {
        for (uint64_t i = 0; i < n; i++)
            put_le(value(i), bytes);
    } else {
        put("COMPRESSED_LEB128", 17);
        size_t count_at = len;
        put_le(0, 4);
        size_t payload = len;
        for (uint64_t i = 0; i < n; i++) {
            if (i == 0 && (flags & W_BIG_BIAS))
                put_leb(40000);
            else if (i == 0 && (flags & W_OVERLONG_BIAS))
                put("\x80\x80\x80\x00", 4);
            else
                put_leb(value(i));
        }
        uint32_t c = (uint32_t)(len - payload);
        for (int i = 0; i < 4; i++)
            buf[count_at + i] = (unsigned char)(c >> (8 * i));
    }
    end();
}

/* Writes a net for the tiny arch to BUILD/nets/<name>; returns its path. */
static const char *write_tiny(const nnue_arch *a, const char *name, int flags)
{
    len = 0;
    n_secs = 0;
    int leb = a->format.leb128;
    begin("header version"), put_le(a->format.version, 4), end();
    begin("header file hash"), put_le(a->file_hash, 4), end();
    begin("header description length"), put_le(5, 4), end();
    begin("header description"), put("tiny!", 5), end();
    begin("feature transformer hash"), put_le(a->ft_hash, 4), end();
    const nnue_ft_desc *ft = &a->ft;
    ft_array("feature transformer biases", ft->width, 2, ft_bias, leb, flags);
    ft_array("feature transformer weights", (uint64_t)ft->inputs * ft->width, 2, ft_weight, leb, 0);
    ft_array("feature transformer PSQT weights", (uint64_t)ft->inputs * ft->psqt_buckets, 4, ft_psqt, leb, 0);
    char s[64];
    for (uint32_t k = 0; k < a->stacks; k++) {
        snprintf(s, sizeof s, "stack %u hash", k);
        begin(s), put_le(a->network_hash, 4), end();
        for (int i = 0; i < a->n_layers; i++) {
            const nnue_layer *l = &a->layers[i];
            if (!l->type->is_affine)
                continue;
            snprintf(s, sizeof s, "stack %u %s biases", k, l->name);
            begin(s);
            for (uint32_t o = 0; o < l->out_size; o++)
                put_le(l_bias(k, i, o), 4);
            end();
            snprintf(s, sizeof s, "stack %u %s weights", k, l->name);
            begin(s);
            for (uint32_t o = 0; o < l->out_size; o++)
                for (uint32_t c = 0; c < l->p.affine.padded_in; c++)
                    put_le(c < l->in_size ? l_weight(k, i, o, c) : 0, 1);
            end();
        }
    }
    const char *path = nets_path(name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert(fwrite(buf, 1, len, f) == len);
    ck_assert(fclose(f) == 0);
    return path;
}

static const section *find(const char *name)
{
    for (int i = 0; i < n_secs; i++)
        if (strcmp(secs[i].name, name) == 0)
            return &secs[i];
    ck_abort_msg("no section %s", name);
    return NULL;
}

static void patch_u32(const char *path, uint64_t at, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    nets_patch(path, at, b, 4);
}

/* ---- tests ---- */

static void check_tiny_values(const char *yaml, const char *name)
{
    nnue_arch *a = nets_arch(yaml);
    nnue_net *net = nets_load(a, write_tiny(a, name, 0));
    const nnue_ft_desc *ft = &a->ft;
    ck_assert_str_eq(net->description, "tiny!");
    for (uint32_t i = 0; i < ft->width; i++)
        ck_assert_int_eq(net->ft_biases[i], ft_bias(i));
    for (uint64_t i = 0; i < (uint64_t)ft->inputs * ft->width; i++)
        ck_assert_int_eq(net->ft_weights[i], ft_weight(i));
    for (uint64_t i = 0; i < (uint64_t)ft->inputs * ft->psqt_buckets; i++)
        ck_assert_int_eq(net->ft_psqt[i], ft_psqt(i));
    for (uint32_t k = 0; k < a->stacks; k++)
        for (int i = 0; i < a->n_layers; i++) {
            const nnue_layer *l = &a->layers[i];
            if (!l->type->is_affine)
                continue;
            const nnue_layer_weights *lw = &net->layer_weights[k * a->n_layers + i];
            for (uint32_t o = 0; o < l->out_size; o++) {
                ck_assert_int_eq(((const int32_t *)lw->biases)[o], l_bias(k, i, o));
                for (uint32_t c = 0; c < l->p.affine.padded_in; c++)
                    ck_assert_int_eq(((int8_t *)lw->weights)[o * l->p.affine.padded_in + c],
                                     c < l->in_size ? l_weight(k, i, o, c) : 0);
            }
        }
    nnue_net_free(net);
    nnue_arch_free(a);
}

START_TEST(tiny_good)
{
    check_tiny_values("tests/nets/tiny_sf.yaml", "tiny-good.nnue");
    check_tiny_values("tests/nets/tiny_sf_leb128.yaml", "tiny-good-leb.nnue");
}
END_TEST

/* Truncated at every section boundary and in the middle of every section. */
static void truncations(const char *yaml, const char *name)
{
    nnue_arch *a = nets_arch(yaml);
    char good[4096];
    snprintf(good, sizeof good, "%s", write_tiny(a, name, 0));
    char cut_name[128];
    snprintf(cut_name, sizeof cut_name, "cut-%s", name);
    for (int i = 0; i < n_secs; i++) {
        uint64_t points[2] = {secs[i].start, secs[i].start + secs[i].bytes / 2};
        for (int j = 0; j < (secs[i].bytes > 1 ? 2 : 1); j++) {
            const char *cut = nets_copy(good, cut_name, points[j]);
            if (points[j] == 0) /* nothing left: said as such, not as a truncated header */
                nets_expect_fail(a, cut, NNUE_E_FORMAT, 0, "empty file (0 bytes)", NULL);
            else if (strcmp(secs[i].name, "header description") == 0)
                nets_expect_fail(a, cut, NNUE_E_FORMAT, 8, "description length 5 exceeds", NULL);
            else
                nets_expect_fail(a, cut, NNUE_E_FORMAT, (long long)points[j], secs[i].name, "truncated", NULL);
        }
    }
    unlink(nets_path(cut_name));
    nnue_arch_free(a);
}

START_TEST(truncated)
{
    truncations("tests/nets/tiny_sf.yaml", "tiny-trunc.nnue");
}
END_TEST

START_TEST(truncated_leb128)
{
    truncations("tests/nets/tiny_sf_leb128.yaml", "tiny-trunc-leb.nnue");
}
END_TEST

START_TEST(wrong_version)
{
    nnue_arch *a = nets_arch("tests/nets/tiny_sf.yaml");
    const char *p = write_tiny(a, "bad-version.nnue", 0);
    patch_u32(p, 0, 0x7AF32F16);
    nets_expect_fail(a, p, NNUE_E_FORMAT, 0, "header", "expected version 0x7AF32F20", "found 0x7AF32F16", NULL);
    nnue_arch_free(a);
}
END_TEST

START_TEST(wrong_hashes)
{
    nnue_arch *a = nets_arch("tests/nets/tiny_sf.yaml");
    const char *p = write_tiny(a, "bad-hash.nnue", 0);
    char want[32];
    patch_u32(p, 4, a->file_hash ^ 0x100);
    snprintf(want, sizeof want, "expected 0x%08X", a->file_hash);
    nets_expect_fail(a, p, NNUE_E_HASH, 4, "header file hash", want, "may be for another architecture", NULL);

    p = write_tiny(a, "bad-hash.nnue", 0);
    const section *s = find("feature transformer hash");
    patch_u32(p, s->start, 0xDEADBEEF);
    snprintf(want, sizeof want, "expected 0x%08X", a->ft_hash);
    nets_expect_fail(a, p, NNUE_E_HASH, (long long)s->start, "feature transformer hash", want, "found 0xDEADBEEF",
                     "another architecture", NULL);

    p = write_tiny(a, "bad-hash.nnue", 0);
    s = find("stack 1 hash");
    patch_u32(p, s->start, 0x12345678);
    snprintf(want, sizeof want, "expected 0x%08X", a->network_hash);
    nets_expect_fail(a, p, NNUE_E_HASH, (long long)s->start, "stack 1 hash", want, "found 0x12345678", NULL);
    nnue_arch_free(a);
}
END_TEST

START_TEST(wrong_arch)
{
    /* sf 16.1 small net given the sf 16 architecture. */
    nnue_arch *a = nets_arch("archs/sfnnv6.yaml");
    const char *small = nets_shared("oracle/chess/sfnnv8small-random.nnue", "", 3232763);
    nets_expect_fail(a, small, NNUE_E_HASH, 4, "expected 0x1C102B72", "found 0x1C103C92", "another architecture",
                     NULL);
    nnue_arch_free(a);
    /* Compressed FT where the arch expects plain arrays, and the other way round. */
    nnue_arch *plain = nets_arch("tests/nets/tiny_sf.yaml"), *leb = nets_arch("tests/nets/tiny_sf_leb128.yaml");
    const char *p = write_tiny(leb, "leb-for-plain.nnue", 0);
    uint64_t at = find("feature transformer biases")->start;
    nets_expect_fail(plain, p, NNUE_E_FORMAT, (long long)at, "COMPRESSED_LEB128", "leb128: false", NULL);
    p = write_tiny(plain, "plain-for-leb.nnue", 0);
    nets_expect_fail(leb, p, NNUE_E_FORMAT, (long long)at, "feature transformer biases",
                     "expected a LEB128 block starting with \"COMPRESSED_LEB128\"", NULL);
    nnue_arch_free(plain);
    nnue_arch_free(leb);
}
END_TEST

START_TEST(trailing)
{
    static const char *yamls[] = {"tests/nets/tiny_sf.yaml", "tests/nets/tiny_sf_leb128.yaml"};
    for (int i = 0; i < 2; i++) {
        nnue_arch *a = nets_arch(yamls[i]);
        const char *p = write_tiny(a, "trailing.nnue", 0);
        uint64_t size = nets_file_size(p);
        nets_append(p, "\0\0\0", 3);
        nets_expect_fail(a, p, NNUE_E_FORMAT, (long long)size, "end of file", "3 trailing bytes", NULL);
        nnue_arch_free(a);
    }
}
END_TEST

START_TEST(leb128_sizes)
{
    nnue_arch *a = nets_arch("tests/nets/tiny_sf_leb128.yaml");
    /* Announced 1 byte more than the payload: the next block's first magic byte is left over. */
    const char *p = write_tiny(a, "leb-size.nnue", 0);
    const section *s = find("feature transformer weights");
    uint32_t real = (uint32_t)(s->bytes - 21);
    patch_u32(p, s->start + 17, real + 1);
    nets_expect_fail(a, p, NNUE_E_FORMAT, (long long)(s->start + 21 + real), "feature transformer weights",
                     "1 bytes left over after the 6144 values", NULL);
    /* Announced 1 byte less: the payload ends before the last value. */
    p = write_tiny(a, "leb-size.nnue", 0);
    patch_u32(p, s->start + 17, real - 1);
    nets_expect_fail(a, p, NNUE_E_FORMAT, (long long)(s->start + 21 + real - 1), "feature transformer weights",
                     "ends after 6143 of 6144 values", NULL);
    /* Announced fewer bytes than values. */
    p = write_tiny(a, "leb-size.nnue", 0);
    s = find("feature transformer biases");
    patch_u32(p, s->start + 17, 3);
    nets_expect_fail(a, p, NNUE_E_FORMAT, (long long)(s->start + 21), "feature transformer biases",
                     "too short for 8 values", NULL);
    /* Announced more than the file holds. */
    p = write_tiny(a, "leb-size.nnue", 0);
    patch_u32(p, s->start + 17, 1u << 30);
    nets_expect_fail(a, p, NNUE_E_FORMAT, (long long)nets_file_size(p), "feature transformer biases", "truncated",
                     "announces 1073741824 payload bytes", NULL);
    /* Bad magic. */
    p = write_tiny(a, "leb-size.nnue", 0);
    nets_patch(p, find("feature transformer PSQT weights")->start + 9, "X", 1);
    nets_expect_fail(a, p, NNUE_E_FORMAT, (long long)find("feature transformer PSQT weights")->start,
                     "feature transformer PSQT weights", "found \"COMPRESSEX_LEB128\"", NULL);
    nnue_arch_free(a);
}
END_TEST

START_TEST(leb128_range)
{
    nnue_arch *a = nets_arch("tests/nets/tiny_sf_leb128.yaml");
    const char *p = write_tiny(a, "leb-range.nnue", W_BIG_BIAS);
    uint64_t at = find("feature transformer biases")->start + 21;
    nets_expect_fail(a, p, NNUE_E_FORMAT, (long long)at, "feature transformer biases", "is 40000, out of range for i16",
                     NULL);
    p = write_tiny(a, "leb-range.nnue", W_OVERLONG_BIAS);
    nets_expect_fail(a, p, NNUE_E_FORMAT, (long long)at, "longer than 3 bytes", NULL);
    nnue_arch_free(a);
}
END_TEST

/* A value in a padding column is never read by the engine (its input is always zero), and
 * Stockfish's trainer leaves such values (17.1's net has four): the net loads, the value is
 * zeroed, counted, and reported by the range report `nnue info` prints. */
START_TEST(padding_weight)
{
    nnue_arch *a = nets_arch("tests/nets/tiny_sf.yaml");
    nnue_net *clean = nets_load(a, write_tiny(a, "good-padding.nnue", 0));
    const char *p = write_tiny(a, "bad-padding.nnue", 0);
    uint64_t at = find("stack 1 fc0 weights")->start + 2 * 32 + 20;
    nets_patch(p, at, "\x05", 1);
    nnue_net *net = nets_load(a, p);
    ck_assert_uint_eq(clean->padding_nonzero, 0);
    ck_assert_uint_eq(net->padding_nonzero, 1);
    const nnue_layer *l = &a->layers[0];
    ck_assert(l->type->is_affine);
    size_t bytes = (size_t)l->out_size * l->p.affine.padded_in * nnue_dtype_size(l->p.affine.weight_type);
    const nnue_layer_weights *w = &net->layer_weights[1 * a->n_layers], *cw = &clean->layer_weights[1 * a->n_layers];
    ck_assert_int_eq(((const int8_t *)w->weights)[2 * 32 + 20], 0);
    ck_assert_int_eq(memcmp(w->weights, cw->weights, bytes), 0);
    char report[4096];
    nnue_net_range_report(net, report, sizeof report);
    ck_assert_msg(strstr(report, "padding       1 weights in padding columns are non-zero") != NULL, "%s", report);
    nnue_net_range_report(clean, report, sizeof report);
    ck_assert_ptr_null(strstr(report, "padding "));
    nnue_net_free(net);
    nnue_net_free(clean);
    nnue_arch_free(a);
}
END_TEST

/* ---- raw format ---- */

static const char *write_tiny_raw(const char *name)
{
    len = 0;
    for (int i = 0; i < 768 * 4; i++)
        put_le(i % 100 - 50, 2);
    for (int i = 0; i < 4; i++)
        put_le(i - 2, 2);
    for (int i = 0; i < 2 * 8; i++)
        put_le(i * 3 - 20, 2);
    put_le(-70000, 4);
    put_le(70000, 4);
    size_t data = len;
    while (len % 128)
        put("", 1);
    ck_assert_uint_eq(data, 6192);
    const char *path = nets_path(name);
    FILE *f = fopen(path, "wb");
    ck_assert(f && fwrite(buf, 1, len, f) == len && fclose(f) == 0);
    return path;
}

START_TEST(raw_good_and_zero_padding)
{
    nnue_arch *a = nets_arch("tests/nets/tiny_raw.yaml");
    const char *p = write_tiny_raw("tiny-raw.bin");
    nnue_net *net = nets_load(a, p);
    ck_assert_int_eq(((const int32_t *)net->layer_weights[0].biases)[0], -70000);
    ck_assert_int_eq(((const int32_t *)net->layer_weights[1].biases)[0], 70000);
    ck_assert_int_eq(((int16_t *)net->layer_weights[1].weights)[7], 15 * 3 - 20);
    ck_assert_int_eq(net->ft_weights[768 * 4 - 1], (768 * 4 - 1) % 100 - 50);
    nnue_net_free(net);
    nets_patch(p, 6192 + 30, "z", 1);
    nets_expect_fail(a, p, NNUE_E_FORMAT, 6192 + 30, "padding", "expected zero bytes", "found \"z", NULL);
    nnue_arch_free(a);
}
END_TEST

START_TEST(raw_wrong_size)
{
    nnue_arch *a = nets_arch("tests/nets/cwtch6_test.yaml");
    const char *src = nets_shared("oracle/third/cwtch/cwtch6-quantised.bin", "", 3163200);
    const char *fields = "feature_transformer.width 512 x inputs 3072 x 2 bytes + feature_transformer.width 512 x 2 "
                         "bytes + out.weights 1 x 1024 x stacks.count 8 x 2 bytes + out.biases 1 x 1 x stacks.count 8 x "
                         "2 bytes = 3163152 bytes, rounded up to format.pad_to 64";
    const char *p = nets_copy(src, "cwtch-short.bin", 3163200 - 64);
    nets_expect_fail(a, p, NNUE_E_FORMAT, 3163136, "expected 3163200 bytes", "found 3163136 bytes", fields, NULL);
    p = nets_copy(src, "cwtch-long.bin", UINT64_MAX);
    nets_append(p, "bullet", 6);
    nets_expect_fail(a, p, NNUE_E_FORMAT, 3163200, "expected 3163200 bytes", "found 3163206 bytes", fields, NULL);
    unlink(nets_path("cwtch-short.bin"));
    unlink(p);
    nnue_arch_free(a);
}
END_TEST

START_TEST(raw_pad_text)
{
    nnue_arch *a = nets_arch("tests/nets/cwtch6_test.yaml");
    const char *src = nets_shared("oracle/third/cwtch/cwtch6-quantised.bin", "", 3163200);
    const char *p = nets_copy(src, "cwtch-pad.bin", UINT64_MAX);
    nets_patch(p, 3163152 + 9, "X", 1);
    nets_expect_fail(a, p, NNUE_E_FORMAT, 3163152 + 9, "padding", "\"bullet\" repeated", "format.pad_text",
                     "found \"Xetbulletbullet", NULL);
    unlink(p);
    nnue_arch_free(a);
}
END_TEST

/* ---- files that cannot be read, memory ---- */

START_TEST(unreadable)
{
    nnue_arch *a = nets_arch("tests/nets/tiny_sf.yaml");
    nets_expect_fail(a, nets_path("does-not-exist.nnue"), NNUE_E_IO, -1, "cannot open the net file: No such file or "
                     "directory", NULL);
    nets_expect_fail(a, nets_dir(), NNUE_E_IO, -1, "not a regular file", NULL);
    nnue_net *net = (nnue_net *)0x1;
    nnue_error err;
    ck_assert_int_eq(nnue_net_load(NULL, "x", &net, &err), NNUE_E_ARG);
    ck_assert_ptr_null(net);
    nnue_arch_free(a);
}
END_TEST

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NETS_SANITIZED 1
#endif
#endif
#if !defined(NETS_SANITIZED) && defined(__SANITIZE_ADDRESS__) /* gcc's name */
#define NETS_SANITIZED 1
#endif
#ifndef NETS_SANITIZED
#define NETS_SANITIZED 0
#endif

/* An address-space limit just above what the process uses: the FT weights cannot be allocated. */
START_TEST(out_of_memory)
{
    if (NETS_SANITIZED) {
        fprintf(stderr, "note: out_of_memory is not checked under AddressSanitizer (it reserves the address space)\n");
        return;
    }
    nnue_arch *a = nets_arch("archs/sfnnv8small.yaml");
    const char *small = nets_shared("oracle/chess/sfnnv8small-random.nnue", "", 3232763);
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) {
        fprintf(stderr, "note: no /proc/self/statm; out_of_memory not checked\n");
        return;
    }
    unsigned long pages = 0;
    ck_assert(fscanf(f, "%lu", &pages) == 1);
    fclose(f);
    struct rlimit rl = {pages * (unsigned long)sysconf(_SC_PAGESIZE) + (2u << 20), RLIM_INFINITY};
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &rl), 0);
    nets_expect_fail(a, small, NNUE_E_NOMEM, -1, "out of memory", "5767168 bytes for feature transformer weights",
                     NULL);
    nnue_arch_free(a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nets_bad");
    TCase *tc = tcase_create("bad");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, tiny_good);
    tcase_add_test(tc, truncated);
    tcase_add_test(tc, truncated_leb128);
    tcase_add_test(tc, wrong_version);
    tcase_add_test(tc, wrong_hashes);
    tcase_add_test(tc, wrong_arch);
    tcase_add_test(tc, trailing);
    tcase_add_test(tc, leb128_sizes);
    tcase_add_test(tc, leb128_range);
    tcase_add_test(tc, padding_weight);
    tcase_add_test(tc, raw_good_and_zero_padding);
    tcase_add_test(tc, raw_wrong_size);
    tcase_add_test(tc, raw_pad_text);
    tcase_add_test(tc, unreadable);
    tcase_add_test(tc, out_of_memory);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    free(buf);
    return rc;
}
