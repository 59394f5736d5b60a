/* tests/extend/test_extend_hostile.c: extensions that misbehave (issue 49). An init that leaves its
 * error without a NUL (bad_init_extension.c, loaded from argv[1]). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue.h"
#include "nnue_extend.h"
#include "support.h"

static const char *bad_init_path;

START_TEST(init_error_without_nul)
{
    nnue_error err;
    ck_assert_int_eq(nnue_ext_load(bad_init_path, &err), NNUE_E_ARG);
    const char *at = strstr(err.message, "nnue_extension_init failed: ");
    ck_assert_msg(at != NULL, "%s", err.message);
    at += strlen("nnue_extension_init failed: ");
    size_t run = strspn(at, "x");
    /* the file as the extension left it: its 255 first bytes, then the line (0x78787878) */
    ck_assert_msg(run == 255 && strncmp(at + run, ":2021161080:", 12) == 0, "read %zu bytes of the file: %.300s",
                  run, at);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_extend_hostile BAD_INIT_EXTENSION.so\n");
        return 2;
    }
    bad_init_path = argv[1];
    Suite *s = suite_create("extend_hostile");
    TCase *t = tcase_create("hostile");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, init_error_without_nul);
    suite_add_tcase(s, t);
    return test_run(s);
}
