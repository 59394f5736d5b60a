/* tests/core/test_arch.c: every shipped architecture loads and has the hashes, sizes and
 * description strings of the reference (shared/oracle/chess/FORMATS.md sections 1 and 9 and
 * shared/oracle/shogi/FORMATS.md section 1; values copied from those tables). */
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "support.h"

typedef struct expected {
    const char *file;
    uint32_t version, file_hash, ft_hash, network_hash;
    unsigned inputs, width, stacks, psqt;
} expected;

/* FORMATS.md sections 1 and 9 (chess), docs/formats-sfnnv16.md (v16: the file hash is the one
 * nn-1a298aa575a0 carries) and section 1 (shogi). SFNNv7 has no reference row: its
 * values follow from the same rules and are checked for consistency only. */
static const expected table[] = {
    {"archs/sfnnv1.yaml", 0x7AF32F16, 0x3E5AA6EE, 0x5D69D7B8, 0x63337156, 41024, 256, 1, 0},
    {"archs/sfnnv2.yaml", 0x7AF32F20, 0x3C103E72, 0x5F2348B8, 0x633376CA, 45056, 512, 8, 8},
    {"archs/sfnnv3.yaml", 0x7AF32F20, 0x1C102EEC, 0x7F2344B8, 0x63336A54, 22528, 1024, 8, 8},
    {"archs/sfnnv4.yaml", 0x7AF32F20, 0x1C102EF2, 0x7F2344B8, 0x63336A4A, 22528, 1024, 8, 8},
    {"archs/sfnnv5.yaml", 0x7AF32F20, 0x1C102EF2, 0x7F2344B8, 0x63336A4A, 22528, 1024, 8, 8},
    {"archs/sfnnv6.yaml", 0x7AF32F20, 0x1C102B72, 0x7F2340B8, 0x63336BCA, 22528, 1536, 8, 8},
    {"archs/sfnnv8.yaml", 0x7AF32F20, 0x1C103072, 0x7F2358B8, 0x633368CA, 22528, 2560, 8, 8},
    {"archs/sfnnv8small.yaml", 0x7AF32F20, 0x1C103C92, 0x7F234DB8, 0x6333712A, 22528, 128, 8, 8},
    {"archs/sfnnv9.yaml", 0x7AF32F20, 0x1C1020F2, 0x7F2354B8, 0x6333744A, 22528, 3072, 8, 8},
    {"archs/sfnnv10.yaml", 0x7AF32F20, 0xEC102EF2, 0x8F2344B8, 0x63336A4A, 22528, 1024, 8, 8},
    {"archs/sfnnv16.yaml", 0x6A448AFA, 0xA85B2205, 0xCB685313, 0x63337116, 22528, 1024, 8, 8},
    {"archs/shogi_halfkp.yaml", 0x7AF32F16, 0x3E5AA6EE, 0x5D69D7B8, 0x63337156, 125388, 256, 1, 0},
};

static nnue_arch *load(const char *relative)
{
    nnue_arch *a = NULL;
    nnue_error err;
    nnue_status st = nnue_arch_load(test_source_path(relative), &a, &err);
    if (st != NNUE_OK) {
        char msg[1200];
        nnue_error_format(&err, msg, sizeof msg);
        ck_abort_msg("%s", msg);
    }
    return a;
}

START_TEST(hashes_match_the_reference_table)
{
    const expected *e = &table[_i];
    nnue_arch *a = load(e->file);
    ck_assert_msg(a->format.version == e->version, "%s version %08X", e->file, a->format.version);
    ck_assert_msg(a->file_hash == e->file_hash, "%s file hash %08X, expected %08X", e->file, a->file_hash,
                  e->file_hash);
    ck_assert_msg(a->ft_hash == e->ft_hash, "%s ft hash %08X, expected %08X", e->file, a->ft_hash, e->ft_hash);
    ck_assert_msg(a->network_hash == e->network_hash, "%s network hash %08X, expected %08X", e->file,
                  a->network_hash, e->network_hash);
    ck_assert_uint_eq(a->ft.inputs, e->inputs);
    ck_assert_uint_eq(a->ft.width, e->width);
    ck_assert_uint_eq(a->stacks, e->stacks);
    ck_assert_uint_eq(a->ft.psqt_buckets, e->psqt);
    nnue_arch_free(a);
}
END_TEST

/* FORMATS.md section 2: the real sf 15.1 net is 47,001,499 bytes with its 75-byte description. */
START_TEST(sfnnv5_file_size_matches_the_real_net)
{
    nnue_arch *a = load("archs/sfnnv5.yaml");
    ck_assert_uint_eq(a->file_size + 75, 47001499);
    nnue_arch_free(a);
}
END_TEST

/* shogi FORMATS.md section 1: total size 64,217,066 bytes with the 178-byte string. */
START_TEST(shogi_file_size_matches_the_format)
{
    nnue_arch *a = load("archs/shogi_halfkp.yaml");
    ck_assert_uint_eq(a->file_size, 64217066);
    nnue_arch_free(a);
}
END_TEST

/* The random nets' sizes (FORMATS.md section 8) minus their description lengths must be
 * what the uncompressed archs predict; v1: 21,022,657 bytes incl. its description. The
 * description length is read from the net header itself when the data is present. */
START_TEST(v1_random_net_size_is_consistent)
{
    nnue_arch *a = load("archs/sfnnv1.yaml");
    /* 12 header bytes + description + sections; the random net's description is 137 bytes. */
    ck_assert_uint_eq(a->file_size, 21022657 - 137);
    nnue_arch_free(a);
}
END_TEST

static const char *classic_shogi =
    "Features=HalfKP(Friend)[125388->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32]("
    "ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))";
static const char *classic_chess =
    "Features=HalfKP(Friend)[41024->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32]("
    "ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))";

static void check_description(const char *file, const char *want)
{
    nnue_arch *a = load(file);
    char buf[4096];
    size_t n = nnue_arch_describe(a, buf, sizeof buf);
    ck_assert_uint_eq(n, strlen(want));
    ck_assert_str_eq(buf, want);
    nnue_arch_free(a);
}

START_TEST(classic_description_strings)
{
    check_description("archs/shogi_halfkp.yaml", classic_shogi);
    check_description("archs/sfnnv1.yaml", classic_chess);
    /* The shogi string is 178 bytes (FORMATS.md section 1). */
    ck_assert_uint_eq(strlen(classic_shogi), 178);
}
END_TEST

/* A truncated buffer still reports the full length and stays NUL-terminated. */
START_TEST(description_into_small_buffer)
{
    nnue_arch *a = load("archs/sfnnv5.yaml");
    char small[16];
    size_t n = nnue_arch_describe(a, small, sizeof small);
    ck_assert_uint_gt(n, sizeof small);
    ck_assert_uint_eq(strlen(small), sizeof small - 1);
    char *full = malloc(n + 1);
    ck_assert_uint_eq(nnue_arch_describe(a, full, n + 1), n);
    ck_assert_int_eq(strncmp(full, small, sizeof small - 1), 0);
    ck_assert_ptr_nonnull(strstr(full, "LayerStack[8;(pieces - 1) / 4]"));
    ck_assert_ptr_nonnull(strstr(full, "SqrClippedReLU[15]"));
    free(full);
    nnue_arch_free(a);
}
END_TEST

/* v4 and v5 differ only in the squared activation, which the hash does not see. */
START_TEST(v4_and_v5_differ_but_share_hashes)
{
    nnue_arch *v4 = load("archs/sfnnv4.yaml"), *v5 = load("archs/sfnnv5.yaml");
    char d4[4096], d5[4096];
    nnue_arch_describe(v4, d4, sizeof d4);
    nnue_arch_describe(v5, d5, sizeof d5);
    ck_assert_str_ne(d4, d5);
    ck_assert_uint_eq(v4->file_hash, v5->file_hash);
    ck_assert_uint_eq(v4->file_size, v5->file_size);
    nnue_arch_free(v4);
    nnue_arch_free(v5);
}
END_TEST

/* SFNNv7 has L1 2048 and v6's shape: its FT hash follows the rule featureset ^ 2*L1. */
/* FORMATS.md section 9: Full_Threats (79,856 inputs, i8 rows) then HalfKAv2_hm (22,528, i16). */
START_TEST(v10_lists_two_feature_sets)
{
    nnue_arch *a = load("archs/sfnnv10.yaml");
    ck_assert_int_eq(a->ft.n_sets, 2);
    ck_assert_str_eq(a->ft.sets[0].features->name, "Full_Threats");
    ck_assert_uint_eq(a->ft.sets[0].inputs, 79856);
    ck_assert_int_eq(a->ft.sets[0].weight_type, NNUE_I8);
    ck_assert_str_eq(a->ft.sets[1].features->name, "HalfKAv2_hm");
    ck_assert_int_eq(a->ft.sets[1].weight_type, NNUE_I16);
    ck_assert_uint_eq(a->ft.total_inputs, 79856 + 22528);
    nnue_arch_free(a);
}
END_TEST

/* docs/formats-sfnnv16.md: Full_Threats (59,808), PP_3Wide (4,560), both i8, then HalfKAv2_hm. */
START_TEST(v16_lists_three_feature_sets)
{
    nnue_arch *a = load("archs/sfnnv16.yaml");
    ck_assert_int_eq(a->ft.n_sets, 3);
    ck_assert_str_eq(a->ft.sets[0].features->name, "Full_Threats");
    ck_assert_uint_eq(a->ft.sets[0].inputs, 59808);
    ck_assert_str_eq(a->ft.sets[1].features->name, "PP_3Wide");
    ck_assert_uint_eq(a->ft.sets[1].inputs, 4560);
    ck_assert_int_eq(a->ft.sets[1].weight_type, NNUE_I8);
    ck_assert_uint_eq(a->ft.total_inputs, 59808 + 4560 + 22528);
    ck_assert(a->format.ft_hash_combined && a->format.psqt_per_set);
    nnue_arch_free(a);
}
END_TEST

START_TEST(v7_follows_the_hash_rules)
{
    nnue_arch *v7 = load("archs/sfnnv7.yaml"), *v6 = load("archs/sfnnv6.yaml");
    ck_assert_uint_eq(v7->ft.width, 2048);
    ck_assert_uint_eq(v7->ft_hash, 0x7F234CB8u ^ 4096u);
    ck_assert_uint_eq(v7->file_hash, v7->ft_hash ^ v7->network_hash);
    ck_assert_uint_eq(v7->n_layers, v6->n_layers);
    nnue_arch_free(v7);
    nnue_arch_free(v6);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("arch");
    TCase *tc = tcase_create("shipped");
    tcase_add_loop_test(tc, hashes_match_the_reference_table, 0, (int)(sizeof table / sizeof table[0]));
    tcase_add_test(tc, sfnnv5_file_size_matches_the_real_net);
    tcase_add_test(tc, shogi_file_size_matches_the_format);
    tcase_add_test(tc, v1_random_net_size_is_consistent);
    tcase_add_test(tc, classic_description_strings);
    tcase_add_test(tc, description_into_small_buffer);
    tcase_add_test(tc, v4_and_v5_differ_but_share_hashes);
    tcase_add_test(tc, v7_follows_the_hash_rules);
    tcase_add_test(tc, v10_lists_two_feature_sets);
    tcase_add_test(tc, v16_lists_three_feature_sets);
    suite_add_tcase(s, tc);
    return test_run(s);
}
