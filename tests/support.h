/* tests/support.h: shared helpers for the Check test programs.
 *
 * Reference data lives in ../shared (next to the project root). Its location
 * comes from the environment variable NNUE_SHARED_DIR, else from the meson
 * option shared_dir baked in at build time. A test that needs data that is
 * absent exits with 77 (meson's "skipped") after saying so on stderr: it
 * never passes silently. */
#ifndef NNUE_TESTS_SUPPORT_H
#define NNUE_TESTS_SUPPORT_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

/* Root of the shared data (no trailing slash). */
const char *test_shared_dir(void);

/* Full path of a file under the shared data; static buffer rotated over 8 calls. */
const char *test_shared_path(const char *relative);

/* Exits 77 with a loud message when the shared file is missing. */
void test_require_shared(const char *relative);

/* Reference data by one name for both homes: a path starting "tests/" is the repository's own
 * copy (tests/reference/chess: the release-net goldens, corpus A, bench checksums; README.md there),
 * any other is under the shared data. test_data_path: static buffer rotated over 8 calls;
 * test_require_data: exits naming the file when it is missing (77: shared; 1: the repository's). */
const char *test_data_path(const char *relative);
void test_require_data(const char *relative);

/* Root of the source tree and of the build tree (for archs/ and generated files). */
const char *test_source_dir(void);
const char *test_build_dir(void);

/* Path under the source tree; static buffer rotated over 8 calls. */
const char *test_source_path(const char *relative);

/* Runs the suite (no fork under sanitizers is not needed: Check forks by default),
 * prints Check's summary and returns the process exit code (0 all passed, 1 otherwise). */
int test_run(Suite *suite);

/* Reads a whole text file into a NUL-terminated buffer (caller frees); NULL if unreadable. */
char *test_read_file(const char *path, size_t *size);

/* Splits a tab-separated line in place; returns the number of fields (at most max). */
int test_split_tabs(char *line, char **fields, int max);

/* A xorshift64 step of *state (never 0), reduced to 0..n-1: the tests' reproducible random
 * choices (each test keeps its own state and seed). */
unsigned test_random_below(uint64_t *state, unsigned n);

#endif
