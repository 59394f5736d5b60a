/* tests/tools/cli_run.h: running the `nnue` tool as a user does, for the tool tests. */
#ifndef NNUE_TESTS_TOOLS_CLI_RUN_H
#define NNUE_TESTS_TOOLS_CLI_RUN_H

/* Runs `cd SOURCE && $NNUE_TOOL ARGS` through the shell (ARGS may redirect), captures stdout and
 * stderr together (2>&1 appended) and returns the exit status (-1 if killed). *output: malloc'ed. */
int cli_run(const char *args, char **output);

/* The same, capturing stdout only (stderr goes to the test's own stderr). */
int cli_run_stdout(const char *args, char **output);

/* Fails the test when text lacks fragment (shows the text). */
void cli_expect_contains(const char *text, const char *fragment);

/* Points $NNUE_ARCHS_DIR at the source tree's archs/ (the tool never looks there by itself). */
void cli_use_source_archs(void);

#endif
