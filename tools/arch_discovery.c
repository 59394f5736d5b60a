/* tools/arch_discovery.c: the architecture search of the tool (order in arch_discovery.h).
 * The installed folder is found relative to the executable (/proc/self/exe, so a relocated or
 * DESTDIR install works), then at the configured datadir. */
#include "tools/arch_discovery.h"

#include "nnue.h"

#include <dirent.h>
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

static int by_name(const void *a, const void *b)
{
    return strcmp(((const arch_candidate *)a)->arch->name, ((const arch_candidate *)b)->arch->name);
}

/* 1 when name is listed already; a listed one whose size does not fit gives way to one that does
 * (two YAMLs of one name beside a net). */
static int seen(arch_candidate *list, int n, nnue_arch *a, const char *source, int size_fits)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i].arch->name, a->name) == 0) {
            if (size_fits && !list[i].size_fits) {
                nnue_arch_free(list[i].arch);
                list[i].arch = a;
                list[i].size_fits = 1;
                snprintf(list[i].source, sizeof list[i].source, "%s", source);
                return 2;
            }
            return 1;
        }
    return 0;
}

uint64_t arch_expected_bytes(const nnue_arch *a, const nnue_net_header *h)
{
    return a->file_size + (a->format.description_bytes > 0 ? 0 : h->description_bytes);
}

/* A file of the expected layout: hash and version agree, and an uncompressed file has exactly the
 * size the arch predicts (that is what tells SFNNv1 from the shogi net, which shares its hashes). */
static int header_fits(const nnue_arch *a, const nnue_net_header *h, int *size_fits)
{
    if (a->format.kind != NNUE_FORMAT_STOCKFISH || a->file_hash != h->file_hash || a->format.version != h->version)
        return 0;
    *size_fits = h->leb128 || arch_expected_bytes(a, h) == h->file_bytes;
    return 1;
}

/* Keeps a (owned) when it fits the header and its name is new; frees it otherwise. */
static void consider(nnue_arch *a, const char *source, const nnue_net_header *h, arch_candidate **list, int *n,
                     int *cap)
{
    int size_fits = 0;
    if (!header_fits(a, h, &size_fits)) {
        nnue_arch_free(a);
        return;
    }
    int was_seen = seen(*list, *n, a, source, size_fits);
    if (was_seen == 2)
        return; /* a took the place of a same-named arch that did not fit */
    if (was_seen) {
        nnue_arch_free(a);
        return;
    }
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 8;
        arch_candidate *grown = realloc(*list, (size_t)*cap * sizeof *grown);
        if (!grown) {
            nnue_arch_free(a);
            return;
        }
        *list = grown;
    }
    arch_candidate *c = &(*list)[(*n)++];
    snprintf(c->source, sizeof c->source, "%s", source);
    c->arch = a;
    c->size_fits = size_fits;
}

/* The architectures compiled into the library (the archs/ folder at build time). */
static void scan_builtin(const nnue_net_header *h, arch_candidate **list, int *n, int *cap)
{
    for (int i = 0; i < nnue_arch_builtin_count(); i++) {
        const char *name = nnue_arch_builtin_name(i);
        nnue_arch *a;
        nnue_error err;
        char source[300];
        snprintf(source, sizeof source, "built-in (archs/%s.yaml)", name);
        if (nnue_arch_load_builtin(name, &a, &err) == NNUE_OK)
            consider(a, source, h, list, n, cap);
    }
}

/* Appends the fitting archs of one folder to *list. */
static void scan_dir(const char *dir, const nnue_net_header *h, arch_candidate **list, int *n, int *cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *entry;
    while ((entry = readdir(d))) {
        size_t len = strlen(entry->d_name);
        if (len < 6 || strcmp(entry->d_name + len - 5, ".yaml") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        nnue_arch *a;
        nnue_error err;
        if (nnue_arch_load(path, &a, &err) == NNUE_OK)
            consider(a, path, h, list, n, cap);
    }
    closedir(d);
}

int arch_candidates_for(const nnue_net_header *h, const char *beside_net, arch_candidate **out)
{
    arch_candidate *list = NULL;
    int n = 0, cap = 0;
    scan_builtin(h, &list, &n, &cap);
    const char *dirs[3];
    int n_dirs = arch_dirs(dirs, 3);
    for (int i = 0; i < n_dirs; i++)
        scan_dir(dirs[i], h, &list, &n, &cap);
    if (beside_net) {
        char copy[PATH_MAX];
        snprintf(copy, sizeof copy, "%s", beside_net);
        scan_dir(dirname(copy), h, &list, &n, &cap);
    }
    if (n > 1)
        qsort(list, (size_t)n, sizeof *list, by_name);
    *out = list;
    return n;
}

void arch_candidates_free(arch_candidate *list, int count)
{
    for (int i = 0; i < count; i++)
        nnue_arch_free(list[i].arch);
    free(list);
}
