/* tests/nets/test_nets_real.c: the real Stockfish 15.1 net (nn-ad9b42354671), exported by
 * Debian's stockfish 15.1 (`export_net`) and cached in the build tree, loads with
 * archs/sfnnv5.yaml; its size and description are FORMATS.md section 1/2 facts. The load time
 * is printed for information only: speed is judged by benchmarks, never by a timed test (a
 * wall-clock bound failed on a busy machine). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "nets_helpers.h"
#include "sf_check.h"
#include "support.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

START_TEST(sf151)
{
    const char *path = nets_sf151();
    ck_assert_uint_eq(nets_file_size(path), 47001499);
    sf_check_net("archs/sfnnv5.yaml", path);

    nnue_arch *a = nets_arch("archs/sfnnv5.yaml");
    double t0 = now();
    nnue_net *net = nets_load(a, path);
    double t = now() - t0;
    fprintf(stderr, "sf 15.1 net (47,001,499 bytes) loaded in %.3f s\n", t);
    ck_assert_str_eq(net->description, "Network trained with the https://github.com/glinscott/nnue-pytorch trainer.");
    ck_assert_uint_eq(net->version, 0x7AF32F20);
    ck_assert_uint_eq(net->file_hash, 0x1C102EF2);
    nnue_net_free(net);
    nnue_arch_free(a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nets_real");
    TCase *tc = tcase_create("sf151");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, sf151);
    suite_add_tcase(s, tc);
    return test_run(s);
}
