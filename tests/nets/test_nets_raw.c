/* tests/nets/test_nets_raw.c: the two bullet nets (shared/oracle/third/{cwtch,obsidian}/FACTS.md, "Byte
 * layout") load with test-local raw-format architectures: output biases as listed in FACTS.md,
 * FT values and output weights where the (bucket-major or input-major) layout puts them. */
#include <string.h>

#include "nets_helpers.h"
#include "support.h"

static const int16_t *out_weights(const nnue_net *net, uint32_t stack)
{
    return net->layer_weights[(size_t)stack * net->arch->n_layers].weights;
}

START_TEST(cwtch)
{
    const char *path = nets_shared("oracle/third/cwtch/cwtch6-quantised.bin", "", 3163200);
    nnue_arch *a = nets_arch("tests/nets/cwtch6_test.yaml");
    ck_assert_uint_eq(a->ft.inputs, 3072);
    ck_assert_uint_eq(a->file_size, 3163200);
    nnue_net *net = nets_load(a, path);
    static const int32_t biases[8] = {83, 75, 403, 593, 335, 41, -159, -310};
    for (int b = 0; b < 8; b++) {
        ck_assert_int_eq(((const int32_t *)net->layer_weights[b].biases)[0], biases[b]);
        ck_assert_int_eq(((const int32_t *)net->layer_weights[b].biases)[0], nets_i16_at(path, 3163136 + b * 2));
    }
    ck_assert_str_eq(net->description, "");
    ck_assert_uint_eq(net->version, 0);
    ck_assert_ptr_null(net->ft_psqt);
    /* l0w [feature][512] at 0, l0b at 3,145,728, l1w [bucket][1024] at 3,146,752. */
    ck_assert_int_eq(net->ft_weights[0], nets_i16_at(path, 0));
    ck_assert_int_eq(net->ft_weights[3072 * 512 - 1], nets_i16_at(path, 3145728 - 2));
    ck_assert_int_eq(net->ft_weights[1000 * 512 + 17], nets_i16_at(path, (1000 * 512 + 17) * 2));
    ck_assert_int_eq(net->ft_biases[0], nets_i16_at(path, 3145728));
    ck_assert_int_eq(net->ft_biases[511], nets_i16_at(path, 3145728 + 511 * 2));
    for (int b = 0; b < 8; b++)
        for (int j = 0; j < 1024; j += 341)
            ck_assert_int_eq(out_weights(net, b)[j], nets_i16_at(path, 3146752 + (b * 1024 + j) * 2));
    ck_assert_int_eq(out_weights(net, 7)[1023], nets_i16_at(path, 3163136 - 2));
    nnue_net_free(net);
    nnue_arch_free(a);
}
END_TEST

START_TEST(obsidian)
{
    const char *path = nets_shared("oracle/third/obsidian/obsidian-nn.net", "", 2411584);
    nnue_arch *a = nets_arch("tests/nets/obsidian_test.yaml");
    ck_assert_uint_eq(a->ft.inputs, 768);
    nnue_net *net = nets_load(a, path);
    static const int32_t biases[8] = {401, 744, 1141, 1082, 399, -34, -193, -92};
    for (int b = 0; b < 8; b++)
        ck_assert_int_eq(((const int32_t *)net->layer_weights[b].biases)[0], biases[b]);
    /* Output weights input-major in the file: (j, bucket) at 2,362,368 + (j * 8 + bucket) * 2. */
    for (int b = 0; b < 8; b++)
        for (int j = 0; j < 3072; j += 127) {
            ck_assert_int_eq(out_weights(net, b)[j], nets_i16_at(path, 2362368 + (j * 8 + b) * 2));
        }
    ck_assert_int_eq(out_weights(net, 0)[1], nets_i16_at(path, 2362368 + 8 * 2));
    ck_assert_int_eq(out_weights(net, 1)[0], nets_i16_at(path, 2362368 + 1 * 2));
    ck_assert_int_eq(out_weights(net, 7)[3071], nets_i16_at(path, 2411520 - 2));
    ck_assert_int_eq(net->ft_weights[768 * 1536 - 1], nets_i16_at(path, 2359296 - 2));
    ck_assert_int_eq(net->ft_biases[1535], nets_i16_at(path, 2362368 - 2));
    nnue_net_free(net);
    nnue_arch_free(a);
}
END_TEST

/* The shipped bullet example arch rejects cwtch (wrong size), naming its YAML fields. */
START_TEST(wrong_arch)
{
    const char *path = nets_shared("oracle/third/cwtch/cwtch6-quantised.bin", "", 3163200);
    nnue_arch *a = nets_arch("archs/bullet_768x256_screlu.yaml");
    nets_expect_fail(a, path, NNUE_E_FORMAT, -2, "expected 394816 bytes", "found 3163200 bytes",
                     "feature_transformer.width 256 x inputs 768 x 2 bytes", "format.pad_to 64", NULL);
    nnue_arch_free(a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nets_raw");
    TCase *tc = tcase_create("bullet");
    tcase_add_test(tc, cwtch);
    tcase_add_test(tc, obsidian);
    tcase_add_test(tc, wrong_arch);
    suite_add_tcase(s, tc);
    return test_run(s);
}
