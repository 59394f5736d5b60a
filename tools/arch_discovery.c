/* tools/arch_discovery.c: the folders of the tool's architecture search (order in arch_discovery.h).
 * The installed folder is found relative to the executable (/proc/self/exe, so a relocated or
 * DESTDIR install works), then at the configured datadir. */
#include "tools/arch_discovery.h"

#include "nnue.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef NNUE_BIN_TO_ARCHS
#define NNUE_BIN_TO_ARCHS "../share/nnue/archs"
#endif
#ifndef NNUE_INSTALLED_ARCHS_DIR
#define NNUE_INSTALLED_ARCHS_DIR "/usr/local/share/nnue/archs"
#endif

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Adds path when it is a folder not already listed (compared by real path). */
static void add_dir(const char **dirs, char store[][PATH_MAX], int *n, int max, const char *path)
{
    char real[PATH_MAX];
    if (*n >= max || !path || !*path || !is_dir(path) || !realpath(path, real))
        return;
    for (int i = 0; i < *n; i++)
        if (strcmp(store[i], real) == 0)
            return;
    snprintf(store[*n], PATH_MAX, "%s", real);
    dirs[*n] = store[*n];
    (*n)++;
}

int arch_dirs(const char **dirs, int max)
{
    static char store[3][PATH_MAX];
    int n = 0;
    if (max > 3)
        max = 3;
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = 0;
        char near[PATH_MAX + 64];
        snprintf(near, sizeof near, "%s/%s", dirname(exe), NNUE_BIN_TO_ARCHS);
        add_dir(dirs, store, &n, max, near);
    }
    add_dir(dirs, store, &n, max, NNUE_INSTALLED_ARCHS_DIR);
    add_dir(dirs, store, &n, max, getenv("NNUE_ARCHS_DIR"));
    return n;
}

const char *arch_dirs_summary(void)
{
    static char text[3 * PATH_MAX + 64];
    const char *dirs[3];
    int n = arch_dirs(dirs, 3);
    snprintf(text, sizeof text, "the built-in architectures");
    for (int i = 0; i < n; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), ", %s", dirs[i]);
    if (n == 0)
        snprintf(text + strlen(text), sizeof text - strlen(text), " (no installed share/nnue/archs, $NNUE_ARCHS_DIR "
                 "unset)");
    return text;
}
