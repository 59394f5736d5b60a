/* tests/nets/test_nets_v10_bad.c: an SFNNv10 file (Stockfish 18's layout, FORMATS.md section 9)
 * that is truncated or laid out differently gets a located error (NNUE_E_FORMAT, the byte offset,
 * the section named), never a crash. The sections are found by walking the reference net here,
 * independently of the loader: header, FT hash, biases (LEB128 block), Full_Threats weights
 * (79,856 x 1024 plain i8), HalfKAv2_hm weights (LEB128 block), one PSQT block (LEB128), stacks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../eval/eval_nets.h"
#include "core/arch/arch_api.h"
#include "support.h"

#define MAGIC_LEN 17

static nnue_arch *arch;
static unsigned char *data;
static size_t size;
/* Section starts: biases, threat weights, piece-square weights, PSQT, first stack. */
static uint64_t at_biases, at_threats, at_psq, at_psqt, at_stacks;

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* End of the LEB128 block at `at` (0 when there is none: the reference net is not as expected). */
static uint64_t leb_block_end(uint64_t at)
{
    if (at == 0 || at + MAGIC_LEN + 4 > size || memcmp(data + at, "COMPRESSED_LEB128", MAGIC_LEN) != 0)
        return 0;
    return at + MAGIC_LEN + 4 + le32(data + at + MAGIC_LEN);
}

/* Loads a variant from memory (no disk traffic: the net is 106 MB) and expects a located format
 * error whose message holds `fragment`, at byte `offset` (any offset when -1). */
static void expect_error(const unsigned char *bytes, uint64_t n, long long offset, const char *fragment)
{
    nnue_net *net = NULL;
    nnue_error err;
    nnue_status st = nnue_net_load_memory(arch, bytes, (size_t)n, "v10-variant", &net, &err);
    char msg[1200];
    nnue_error_format(&err, msg, sizeof msg);
    ck_assert_msg(st == NNUE_E_FORMAT, "status %d, message %s", st, msg);
    ck_assert_ptr_null(net);
    ck_assert_msg(strstr(err.message, fragment) != NULL, "expected '%s' in: %s", fragment, msg);
    if (offset >= 0)
        ck_assert_msg(err.offset == offset, "offset %lld, expected %lld (%s)", err.offset, offset, msg);
    else
        ck_assert_msg(err.offset >= 0, "no byte offset in: %s", msg);
}

START_TEST(truncated_in_every_section)
{
    static const struct {
        const char *where;
        uint64_t *start;
        int64_t into;
        const char *fragment;
    } cuts[] = {
        {"biases", &at_biases, 30, "feature transformer biases"},
        {"threat weights, at start", &at_threats, 0, "feature transformer weights (Full_Threats): file truncated"},
        {"threat weights", &at_threats, 1000000, "feature transformer weights (Full_Threats): file truncated"},
        {"piece-square weights", &at_psq, 100000, "feature transformer weights (HalfKAv2_hm)"},
        {"PSQT", &at_psqt, 5000, "feature transformer PSQT weights"},
        {"stacks", &at_stacks, 100, "stack 0"},
    };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        expect_error(data, *cuts[i].start + (uint64_t)cuts[i].into, -1, cuts[i].fragment);
    }
}
END_TEST

/* A v9-style file (no threat block) under v10's hashes: the threat block cannot fit. */
START_TEST(missing_threat_block)
{
    unsigned char *copy = malloc(size);
    memcpy(copy, data, at_threats);
    memcpy(copy + at_threats, data + at_psq, size - at_psq);
    expect_error(copy, at_threats + (size - at_psq), -1, "feature transformer weights (Full_Threats): file truncated");
    free(copy);
}
END_TEST

/* Threat weights stored as a LEB128 block (like the other FT arrays): the piece-square block's
 * magic is then not where the layout puts it. */
START_TEST(threats_as_leb128_block)
{
    unsigned char head[MAGIC_LEN + 4];
    memcpy(head, "COMPRESSED_LEB128", MAGIC_LEN);
    uint32_t n = (uint32_t)(at_psq - at_threats);
    for (int i = 0; i < 4; i++)
        head[MAGIC_LEN + i] = (unsigned char)(n >> (8 * i));
    unsigned char *copy = malloc(size + sizeof head);
    memcpy(copy, data, at_threats);
    memcpy(copy + at_threats, head, sizeof head);
    memcpy(copy + at_threats + sizeof head, data + at_threats, size - at_threats);
    expect_error(copy, size + sizeof head, (long long)at_psq, "feature transformer weights (HalfKAv2_hm)");
    free(copy);
}
END_TEST

/* Two PSQT blocks (one per set) instead of one combined block: the combined block's announced
 * size is too small for every set's rows. */
START_TEST(psqt_split_per_set)
{
    unsigned char *copy = malloc(size);
    memcpy(copy, data, size);
    uint32_t half = le32(data + at_psqt + MAGIC_LEN) / 2;
    for (int i = 0; i < 4; i++)
        copy[at_psqt + MAGIC_LEN + i] = (unsigned char)(half >> (8 * i));
    expect_error(copy, size, -1, "feature transformer PSQT weights");
    free(copy);
}
END_TEST

int main(void)
{
    const char *net_path = eval_net_file(eval_net_find("sfnnv10"));
    char *text = test_read_file(net_path, &size);
    if (!text) {
        fprintf(stderr, "FAIL: cannot read %s\n", net_path);
        return 1;
    }
    data = (unsigned char *)text;
    nnue_error err;
    if (nnue_arch_load(test_source_path("archs/sfnnv10.yaml"), &arch, &err) != NNUE_OK) {
        fprintf(stderr, "FAIL: %s\n", err.message);
        return 1;
    }
    at_biases = 12 + le32(data + 8) + 4;
    at_threats = leb_block_end(at_biases);
    at_psq = at_threats + 79856ull * 1024;
    at_psqt = leb_block_end(at_psq);
    at_stacks = leb_block_end(at_psqt);
    if (!at_stacks) {
        fprintf(stderr, "FAIL: %s is not laid out as FORMATS.md section 9 says\n", net_path);
        return 1;
    }
    Suite *s = suite_create("nets_v10_bad");
    TCase *tc = tcase_create("v10");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, truncated_in_every_section);
    tcase_add_test(tc, missing_threat_block);
    tcase_add_test(tc, threats_as_leb128_block);
    tcase_add_test(tc, psqt_split_per_set);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    nnue_arch_free(arch);
    free(text);
    return rc;
}
