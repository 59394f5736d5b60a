/* tools/net_setup.c: architecture detection by header hash, and net loading for the tool. */
#include "tools/net_setup.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NNUE_ARCHS_DIR
#define NNUE_ARCHS_DIR "archs"
#endif

const char *tool_archs_dir(void)
{
    const char *env = getenv("NNUE_ARCHS_DIR");
    return env && *env ? env : NNUE_ARCHS_DIR;
}

void tool_print_error(const char *cmd, const nnue_error *err)
{
    char msg[1200];
    nnue_error_format(err, msg, sizeof msg);
    fprintf(stderr, "nnue %s: %s\n", cmd, msg);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int tool_archs_matching(const nnue_net_header *h, char **paths, int max)
{
    DIR *dir = opendir(tool_archs_dir());
    if (!dir)
        return 0;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        size_t len = strlen(entry->d_name);
        if (len < 6 || strcmp(entry->d_name + len - 5, ".yaml") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", tool_archs_dir(), entry->d_name);
        nnue_arch *a;
        nnue_error err;
        if (nnue_arch_load(path, &a, &err) != NNUE_OK)
            continue;
        /* The hash alone cannot tell SFNNv1 from the shogi net (same layers, same hashes):
         * an uncompressed arch must also predict the file's exact size. */
        int size_fits = a->format.leb128 || a->file_size + h->description_bytes == h->file_bytes;
        if (a->format.kind == NNUE_FORMAT_STOCKFISH && a->file_hash == h->file_hash && a->format.version == h->version &&
            size_fits) {
            if (count < max)
                paths[count] = strdup(path);
            count++;
        }
        nnue_arch_free(a);
    }
    closedir(dir);
    qsort(paths, (size_t)(count < max ? count : max), sizeof *paths, by_name);
    return count;
}

int tool_load_net(const char *cmd, const char *net_path, const char *arch_path, nnue_net **net)
{
    nnue_error err;
    char *detected = NULL;
    if (!arch_path) {
        nnue_net_header h;
        if (nnue_net_read_header(net_path, &h, NULL, &err) != NNUE_OK) {
            tool_print_error(cmd, &err);
            fprintf(stderr, "nnue %s: header-less (raw) nets need --arch FILE.yaml\n", cmd);
            return 1;
        }
        char *paths[16];
        int n = tool_archs_matching(&h, paths, 16);
        if (n == 0) {
            fprintf(stderr, "nnue %s: %s: no architecture in %s has file hash 0x%08" PRIX32 "; name one with --arch\n",
                    cmd, net_path, tool_archs_dir(), h.file_hash);
            return 1;
        }
        if (n > 1) {
            fprintf(stderr, "nnue %s: %s: file hash 0x%08" PRIX32 " fits %d architectures, which evaluate differently:",
                    cmd, net_path, h.file_hash, n);
            for (int i = 0; i < n && i < 16; i++)
                fprintf(stderr, " %s", paths[i]);
            fprintf(stderr, "\nnnue %s: the file cannot tell them apart; name one with --arch\n", cmd);
            for (int i = 0; i < n && i < 16; i++)
                free(paths[i]);
            return 1;
        }
        detected = paths[0];
        arch_path = detected;
    }
    nnue_arch *arch;
    int rc = 0;
    if (nnue_arch_load(arch_path, &arch, &err) != NNUE_OK) {
        tool_print_error(cmd, &err);
        free(detected);
        return 1;
    }
    if (nnue_net_load(arch, net_path, net, &err) != NNUE_OK) {
        tool_print_error(cmd, &err);
        rc = 1;
    }
    nnue_arch_free(arch);
    free(detected);
    return rc;
}
