/* tests/eval/test_row_requests.c: how much of an added row a several-set update requests ahead
 * (nnue_acc_whole_row_requests, core/eval/accumulator.h): NNUE_ROW_REQUESTS chooses, else whole
 * rows on AMD CPUs with AVX-512 only; the vendor CPUID reports is the one /proc/cpuinfo names.
 * That the values are the same either way: the incremental tests run under both settings
 * (tests/eval/meson.build). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpu_x86.h"
#include "core/eval/accumulator.h"
#include "support.h"

START_TEST(the_environment_chooses)
{
    setenv("NNUE_ROW_REQUESTS", "whole", 1);
    ck_assert_int_eq(nnue_acc_whole_row_requests(), 1);
    setenv("NNUE_ROW_REQUESTS", "lines", 1);
    ck_assert_int_eq(nnue_acc_whole_row_requests(), 0);
    /* anything else: the CPU's default, as when unset */
    setenv("NNUE_ROW_REQUESTS", "all", 1);
    const int other = nnue_acc_whole_row_requests();
    unsetenv("NNUE_ROW_REQUESTS");
    ck_assert_int_eq(other, nnue_acc_whole_row_requests());
}
END_TEST

START_TEST(whole_rows_only_on_amd_with_avx512)
{
    unsetenv("NNUE_ROW_REQUESTS");
    const int whole = nnue_acc_whole_row_requests();
    printf("vendor AMD: %d, avx512f: %d, whole added rows: %d\n", nnue_cpu_is_amd(), nnue_cpu_supports("avx512f"),
           whole);
    if (!nnue_cpu_is_amd() || !nnue_cpu_supports("avx512f"))
        ck_assert_int_eq(whole, 0);
    else
        ck_assert_int_eq(whole, 1);
    /* a CPU (or VM) without AVX-512 never gets them, whatever its vendor */
    setenv("NNUE_CPU_MASK", "avx512f", 1);
    ck_assert_int_eq(nnue_acc_whole_row_requests(), 0);
    unsetenv("NNUE_CPU_MASK");
}
END_TEST

START_TEST(the_vendor_is_the_one_linux_names)
{
#if !defined(__x86_64__)
    /* never AMD off x86-64 (under qemu-user, /proc/cpuinfo may be the host's) */
    ck_assert_int_eq(nnue_cpu_is_amd(), 0);
#else
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) {
        printf("no /proc/cpuinfo: the vendor not cross-checked\n");
        return;
    }
    char line[256];
    int named = -1;
    while (named < 0 && fgets(line, sizeof line, f))
        if (strncmp(line, "vendor_id", 9) == 0)
            named = strstr(line, "AuthenticAMD") != NULL;
    fclose(f);
    if (named < 0) { /* a kernel that names no vendor */
        printf("no vendor_id in /proc/cpuinfo: the vendor not cross-checked\n");
        return;
    }
    ck_assert_int_eq(nnue_cpu_is_amd(), named);
#endif
}
END_TEST

int main(void)
{
    Suite *s = suite_create("row_requests");
    TCase *tc = tcase_create("row_requests");
    tcase_add_test(tc, the_environment_chooses);
    tcase_add_test(tc, whole_rows_only_on_amd_with_avx512);
    tcase_add_test(tc, the_vendor_is_the_one_linux_names);
    suite_add_tcase(s, tc);
    return test_run(s);
}
