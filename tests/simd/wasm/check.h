/* tests/simd/wasm/check.h: the few Check macros test_simd_kernels.c uses, for its WebAssembly run
 * (tests/simd/wasm_kernels.sh: no Check library in the wasm build). A failed assertion prints
 * FAIL and exits 1; each test that returns prints ok. */
#ifndef NNUE_TESTS_WASM_CHECK_H
#define NNUE_TESTS_WASM_CHECK_H

#include <stdio.h>
#include <stdlib.h>

typedef int Suite;
typedef int TCase;
#define START_TEST(name) static void name(void)
#define END_TEST
#define ck_assert_msg(c, ...)                                                                                        \
    do {                                                                                                             \
        if (!(c)) {                                                                                                  \
            fprintf(stderr, "FAIL: " __VA_ARGS__);                                                                   \
            fprintf(stderr, "\n");                                                                                   \
            exit(1);                                                                                                 \
        }                                                                                                            \
    } while (0)
#define ck_assert_int_eq(a, b) ck_assert_msg((long long)(a) == (long long)(b), "%s != %s", #a, #b)
#define ck_assert_uint_eq(a, b) ck_assert_msg((unsigned long long)(a) == (unsigned long long)(b), "%s != %s", #a, #b)
#define ck_assert_int_gt(a, b) ck_assert_msg((long long)(a) > (long long)(b), "%s <= %s", #a, #b)
static Suite the_suite;
static TCase the_case;
#define suite_create(name) (&the_suite)
#define tcase_create(name) (&the_case)
#define tcase_set_timeout(tc, seconds) ((void)0)
#define tcase_add_test(tc, f) (f(), printf("ok: %s\n", #f))
#define suite_add_tcase(s, tc) ((void)0)
#define test_run(s) (printf("all passed\n"), 0)

#endif
