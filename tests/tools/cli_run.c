/* tests/tools/cli_run.c: runs the `nnue` tool for the tool tests (see cli_run.h). */
#include "cli_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "support.h"

static int run_shell(const char *args, const char *redirect, char **output)
{
    char command[8192];
    snprintf(command, sizeof command, "cd '%s' && '%s' %s %s", test_source_dir(), getenv("NNUE_TOOL"), args, redirect);
    FILE *p = popen(command, "r");
    ck_assert_ptr_nonnull(p);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (len + 1 >= cap)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = 0;
    int status = pclose(p);
    *output = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int cli_run(const char *args, char **output)
{
    return run_shell(args, "2>&1", output);
}

int cli_run_stdout(const char *args, char **output)
{
    return run_shell(args, "", output);
}

void cli_expect_contains(const char *text, const char *fragment)
{
    ck_assert_msg(strstr(text, fragment) != NULL, "output lacks '%s':\n%s", fragment, text);
}

void cli_use_source_archs(void)
{
    setenv("NNUE_ARCHS_DIR", test_source_path("archs"), 1);
}
