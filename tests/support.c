/* tests/support.c: data paths, skipping, and the Check runner wrapper. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NNUE_DEFAULT_SHARED_DIR
#define NNUE_DEFAULT_SHARED_DIR "../shared"
#endif

const char *test_shared_dir(void)
{
    const char *env = getenv("NNUE_SHARED_DIR");
    return env && *env ? env : NNUE_DEFAULT_SHARED_DIR;
}

static const char *join(const char *root, const char *relative)
{
    static char bufs[8][4096];
    static int next;
    char *buf = bufs[next++ & 7];
    snprintf(buf, sizeof bufs[0], "%s/%s", root, relative);
    return buf;
}

const char *test_shared_path(const char *relative)
{
    return join(test_shared_dir(), relative);
}

void test_require_shared(const char *relative)
{
    const char *path = test_shared_path(relative);
    if (access(path, R_OK) != 0) {
        fprintf(stderr,
                "SKIP: reference data %s is missing (NNUE_SHARED_DIR=%s); "
                "this test did not run\n",
                path, test_shared_dir());
        exit(77);
    }
}

static int in_repository(const char *relative)
{
    return strncmp(relative, "tests/", 6) == 0;
}

const char *test_data_path(const char *relative)
{
    return in_repository(relative) ? test_source_path(relative) : test_shared_path(relative);
}

void test_require_data(const char *relative)
{
    if (!in_repository(relative)) {
        test_require_shared(relative);
    } else if (access(test_source_path(relative), R_OK) != 0) {
        /* the repository's own data: its absence is a broken checkout, not a skip */
        fprintf(stderr, "FAIL: %s is missing from the source tree\n", test_source_path(relative));
        exit(1);
    }
}

const char *test_source_dir(void)
{
    return NNUE_SOURCE_DIR;
}

const char *test_build_dir(void)
{
    return NNUE_BUILD_DIR;
}

const char *test_source_path(const char *relative)
{
    return join(NNUE_SOURCE_DIR, relative);
}

int test_run(Suite *suite)
{
    SRunner *runner = srunner_create(suite);
    /* Without the shared data, run in-process so that the first test needing it ends the whole
     * program with exit 77 (meson: skipped) and its one SKIP line, not a forked child's error. */
    if (access(test_shared_dir(), R_OK) != 0)
        srunner_set_fork_status(runner, CK_NOFORK);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}

char *test_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (len + 1 >= cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        if (n == 0)
            break;
        len += n;
    }
    fclose(f);
    buf[len] = 0;
    if (size)
        *size = len;
    return buf;
}

int test_split_tabs(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        fields[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab)
            break;
        *tab = 0;
        p = tab + 1;
    }
    size_t len = strlen(fields[n - 1]);
    while (len && (fields[n - 1][len - 1] == '\n' || fields[n - 1][len - 1] == '\r'))
        fields[n - 1][--len] = 0;
    return n;
}

unsigned test_random_below(uint64_t *state, unsigned n)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (unsigned)(*state % n);
}
