/* tests/nets/test_nets_containers.c: the raw format's containers on the engines' own nets.
 *  - cbnf (formats/net_read_cbnf.c, shared/oracle/third/stormphrax/FACTS.md "File layout"): the
 *    same payload as one zstd frame (header flag bit 0) evaluates the same; a wrong magic,
 *    version, hidden size or output bucket count is refused at its header offset; a cut payload
 *    is refused.
 *  - varint (formats/net_read_varint.c, shared/oracle/third/plentychess/FACTS.md "File format"):
 *    a file cut inside its last value, a byte too many, and an overlong varint are refused at
 *    their offsets. */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "../eval/eval_nets.h"
#include "core/arch/arch_api.h"
#include "support.h"

static const char *sp_path, *pc_path;

static nnue_arch *arch_of(const char *name)
{
    nnue_arch *a;
    nnue_error err;
    ck_assert_msg(nnue_arch_load(test_source_path(eval_net_find(name)->arch), &a, &err) == NNUE_OK, "%s",
                  err.message);
    return a;
}

static int32_t startpos_total(const nnue_net *net)
{
    const nnue_game *g = nnue_game_find(net->arch->game);
    void *pos = eval_parse(g, "startpos");
    nnue_eval_detail d;
    eval_fresh(net, g->board(pos), &d);
    free(pos);
    return d.total;
}

/* Loading size bytes fails with NNUE_E_FORMAT at offset `at`, its message holding `fragment`. */
static void refused(const nnue_arch *a, const void *data, size_t size, long long at, const char *fragment)
{
    nnue_net *net = NULL;
    nnue_error err;
    nnue_status st = nnue_net_load_memory(a, data, size, "net", &net, &err);
    ck_assert_msg(st == NNUE_E_FORMAT, "expected a format error (%s), found status %d: %s", fragment, st, err.message);
    ck_assert_msg(strstr(err.message, fragment), "message '%s' lacks '%s'", err.message, fragment);
    ck_assert_msg(err.offset == at, "offset %lld, expected %lld (%s)", err.offset, at, err.message);
}

START_TEST(cbnf_zstd_and_header)
{
    nnue_arch *a = arch_of("stormphrax");
    size_t size;
    unsigned char *plain = (unsigned char *)test_read_file(sp_path, &size);
    ck_assert_ptr_nonnull(plain);
    nnue_net *net;
    nnue_error err;
    ck_assert_int_eq(nnue_net_load_memory(a, plain, size, "plain", &net, &err), NNUE_OK);
    int32_t want = startpos_total(net);
    nnue_net_free(net);
    ck_assert_int_eq(want, 11225119); /* goldensA.tsv, first row */

    size_t bound = ZSTD_compressBound(size - 64);
    unsigned char *packed = malloc(64 + bound);
    ck_assert_ptr_nonnull(packed);
    memcpy(packed, plain, 64);
    packed[6] |= 1; /* flag bit 0: the payload is one zstd frame */
    size_t z = ZSTD_compress(packed + 64, bound, plain + 64, size - 64, 1);
    ck_assert(!ZSTD_isError(z));
    ck_assert_msg(nnue_net_load_memory(a, packed, 64 + z, "zstd", &net, &err) == NNUE_OK, "%s", err.message);
    ck_assert_int_eq(startpos_total(net), want);
    nnue_net_free(net);
    /* a cut frame: the offset is the payload's (the name says "zstd payload from byte 64") */
    refused(a, packed, 64 + z / 2, (long long)(z / 2), "zstd frame cut short");

    static const struct { int at; unsigned char value; const char *fragment; } bad[] = {
        {0, 'X', "magic"}, {4, 2, "version"}, {9, 4, "arch"}, {11, 1, "hidden size"}, {14, 7, "output buckets"},
        {6, 0x0C, "flags"}, {15, 49, "name length"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        unsigned char keep = plain[bad[i].at];
        plain[bad[i].at] = bad[i].value;
        refused(a, plain, size, bad[i].at, bad[i].fragment);
        plain[bad[i].at] = keep;
    }
    refused(a, plain, size - 1, size - 1, "file size");
    free(packed);
    free(plain);
    nnue_arch_free(a);
}
END_TEST

START_TEST(varint_errors)
{
    nnue_arch *a = arch_of("plentychess");
    size_t size;
    unsigned char *data = (unsigned char *)test_read_file(pc_path, &size);
    ck_assert_ptr_nonnull(data);
    /* The last value (an L3 bias, a float's bits) ends the file: cut its last byte. */
    refused(a, data, size - 1, (long long)size - 1, "truncated inside a varint");
    unsigned char *more = malloc(size + 1);
    ck_assert_ptr_nonnull(more);
    memcpy(more, data, size);
    more[size] = 0;
    refused(a, more, size + 1, (long long)size, "bytes more");
    /* The first value (an i16 psq weight) made 4 bytes long: 0x80 0x80 0x80 0x00. */
    unsigned char *over = malloc(size + 4);
    ck_assert_ptr_nonnull(over);
    memcpy(over, "\x80\x80\x80\x00", 4);
    int first = 1;
    while (data[first - 1] & 0x80)
        first++;
    memcpy(over + 4, data + first, size - (size_t)first);
    refused(a, over, size + 4 - (size_t)first, 0, "longer than a i16");
    free(over);
    free(more);
    free(data);
    nnue_arch_free(a);
}
END_TEST

int main(void)
{
    sp_path = eval_net_file(eval_net_find("stormphrax"));
    pc_path = eval_net_file(eval_net_find("plentychess"));
    Suite *s = suite_create("nets_containers");
    TCase *tc = tcase_create("containers");
    tcase_add_test(tc, cbnf_zstd_and_header);
    tcase_add_test(tc, varint_errors);
    suite_add_tcase(s, tc);
    return test_run(s);
}
