/* tests/nets/test_nets_stockfish.c: the random Stockfish nets (SFNNv1 .. v8, v8 small) and the
 * random shogi net load with their architectures; values spot-checked against the file bytes.
 * Sizes: shared/oracle/chess/FORMATS.md section 8, shared/oracle/shogi/FORMATS.md section 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nets_helpers.h"
#include "sf_check.h"
#include "support.h"

static void check(const char *version, uint64_t size)
{
    char rel[128], name[128], yaml[128];
    snprintf(rel, sizeof rel, "oracle/chess/sfnn%s-random.nnue%s", version, strcmp(version, "v8small") ? ".xz" : "");
    snprintf(name, sizeof name, "sfnn%s-random.nnue", version);
    snprintf(yaml, sizeof yaml, "archs/sfnn%s.yaml", version);
    sf_check_net(yaml, nets_shared(rel, name, size));
}

START_TEST(v1) { check("v1", 21022657); }
END_TEST
START_TEST(v2) { check("v2", 47721433); }
END_TEST
START_TEST(v3) { check("v3", 47001307); }
END_TEST
START_TEST(v4) { check("v4", 47001561); }
END_TEST
START_TEST(v5) { check("v5", 47001563); }
END_TEST
START_TEST(v6) { check("v6", 35133672); }
END_TEST
START_TEST(v8) { check("v8", 58335268); }
END_TEST
START_TEST(v8small) { check("v8small", 3232763); }
END_TEST

START_TEST(shogi)
{
    const char *path = nets_shared("oracle/shogi/random_halfkp_s20260101.bin.xz", "random_halfkp_s20260101.bin", 64217066);
    sf_check_net("archs/shogi_halfkp.yaml", path);
    /* FORMATS.md section 1: fixed offsets for the 178-byte description. */
    nnue_arch *a = nets_arch("archs/shogi_halfkp.yaml");
    nnue_net *net = nets_load(a, path);
    ck_assert_uint_eq(strlen(net->description), 178);
    ck_assert_int_eq(net->ft_weights[125388ull * 256 - 1], nets_i16_at(path, 706 + (125388ull * 256 - 1) * 2));
    ck_assert_int_eq(((const int32_t *)net->layer_weights[0].biases)[31], nets_i32_at(path, 64199366 + 31 * 4));
    ck_assert_int_eq(((int8_t *)net->layer_weights[0].weights)[5 * 512 + 300], nets_i8_at(path, 64199494 + 5 * 512 + 300));
    ck_assert_int_eq(((const int32_t *)net->layer_weights[4].biases)[0], nets_i32_at(path, 64217030));
    nnue_net_free(net);
    nnue_arch_free(a);
}
END_TEST

/* v4 and v5 files have the same hashes and size (FORMATS.md section 1). A v4 file loads with the
 * v5 arch (its fc1 columns 15..31 are zero); a v5 file loads with the v4 arch too, as the engine
 * would load it, and its fc1 columns 15..29 (real v5 inputs, padding to v4) are counted as
 * non-zero padding and zeroed. Which arch a file is, is told by its SHA-256 (core/net/known_nets.c). */
START_TEST(v4_v5_swap)
{
    nnue_arch *a4 = nets_arch("archs/sfnnv4.yaml"), *a5 = nets_arch("archs/sfnnv5.yaml");
    nnue_net *n = nets_load(a5, nets_shared("oracle/chess/sfnnv4-random.nnue.xz", "sfnnv4-random.nnue", 47001561));
    ck_assert_uint_eq(n->padding_nonzero, 0);
    nnue_net_free(n);
    n = nets_load(a4, nets_shared("oracle/chess/sfnnv5-random.nnue.xz", "sfnnv5-random.nnue", 47001563));
    ck_assert_uint_gt(n->padding_nonzero, 0);
    nnue_net_free(n);
    nnue_arch_free(a4);
    nnue_arch_free(a5);
}
END_TEST

START_TEST(header_only)
{
    nnue_net_header h;
    nnue_error err;
    const char *small = nets_shared("oracle/chess/sfnnv8small-random.nnue", "", 3232763);
    ck_assert_int_eq(nnue_net_read_header(small, &h, NULL, &err), NNUE_OK);
    ck_assert_uint_eq(h.version, 0x7AF32F20);
    ck_assert_uint_eq(h.file_hash, 0x1C103C92);
    ck_assert_uint_eq(h.ft_hash, 0x7F234DB8);
    ck_assert_int_eq(h.leb128, 1);
    ck_assert_uint_eq(h.file_bytes, 3232763);
    const char *v1 = nets_shared("oracle/chess/sfnnv1-random.nnue.xz", "sfnnv1-random.nnue", 21022657);
    char *desc = NULL;
    ck_assert_int_eq(nnue_net_read_header(v1, &h, &desc, &err), NNUE_OK);
    ck_assert_uint_eq(h.file_hash, 0x3E5AA6EE);
    ck_assert_uint_eq(h.ft_hash, 0x5D69D7B8);
    ck_assert_int_eq(h.leb128, 0);
    ck_assert_uint_eq(strlen(desc), h.description_bytes);
    free(desc);
    /* Errors: missing file, file shorter than a header. */
    desc = (char *)0x1;
    ck_assert_int_eq(nnue_net_read_header(nets_path("no-such-net.nnue"), &h, &desc, &err), NNUE_E_IO);
    ck_assert_ptr_null(desc);
    const char *cut = nets_copy(v1, "header-cut.nnue", 10);
    ck_assert_int_eq(nnue_net_read_header(cut, &h, NULL, &err), NNUE_E_FORMAT);
    ck_assert_int_eq(err.offset, 10);
    ck_assert_ptr_nonnull(strstr(err.message, "header description length"));
    unlink(cut);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nets_stockfish");
    TCase *tc = tcase_create("random");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, v1);
    tcase_add_test(tc, v2);
    tcase_add_test(tc, v3);
    tcase_add_test(tc, v4);
    tcase_add_test(tc, v5);
    tcase_add_test(tc, v6);
    tcase_add_test(tc, v8);
    tcase_add_test(tc, v8small);
    tcase_add_test(tc, shogi);
    tcase_add_test(tc, v4_v5_swap);
    tcase_add_test(tc, header_only);
    suite_add_tcase(s, tc);
    return test_run(s);
}
