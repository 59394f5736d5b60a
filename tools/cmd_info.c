/* tools/cmd_info.c: `nnue info [--json] NET`: header facts of a Stockfish-format net file and
 * which shipped architectures match its hash. v4 and v5 nets share every hash: the tool lists
 * both and says that the caller must choose. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/commands.h"
#include "tools/json_out.h"
#include "tools/net_setup.h"

int cmd_info(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else {
            fprintf(stderr, "usage: nnue info [--json] NET\n");
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: nnue info [--json] NET\n");
        return 2;
    }
    nnue_net_header h;
    char *desc = NULL;
    nnue_error err;
    if (nnue_net_read_header(path, &h, &desc, &err) != NNUE_OK) {
        tool_print_error("info", &err);
        fprintf(stderr, "nnue info: (header-less bullet-style nets have no header to inspect; use nnue eval --arch)\n");
        return 1;
    }
    char *matches[16];
    int n = tool_archs_matching(&h, matches, 16);
    int shown = n < 16 ? n : 16;
    if (json) {
        char hex[16];
        printf("{");
        json_key_string("path", path, 1);
        snprintf(hex, sizeof hex, "0x%08" PRIX32, h.version);
        json_key_string("version", hex, 0);
        snprintf(hex, sizeof hex, "0x%08" PRIX32, h.file_hash);
        json_key_string("file_hash", hex, 0);
        snprintf(hex, sizeof hex, "0x%08" PRIX32, h.ft_hash);
        json_key_string("ft_hash", hex, 0);
        json_key_string("description", desc ? desc : "", 0);
        printf(", \"size\": %" PRIu64 ", \"leb128\": %s, \"matches\": [", h.file_bytes, h.leb128 ? "true" : "false");
        for (int i = 0; i < shown; i++) {
            if (i)
                printf(", ");
            json_string(matches[i]);
        }
        printf("], \"ambiguous\": %s}\n", n > 1 ? "true" : "false");
    } else {
        printf("file          %s\n", path);
        printf("size          %" PRIu64 " bytes\n", h.file_bytes);
        printf("version       0x%08" PRIX32 "\n", h.version);
        printf("file hash     0x%08" PRIX32 "\n", h.file_hash);
        printf("ft hash       0x%08" PRIX32 "\n", h.ft_hash);
        printf("description   %s\n", desc ? desc : "");
        printf("leb128        %s\n", h.leb128 ? "yes (compressed feature transformer)" : "no");
        if (n == 0)
            printf("architecture  none of %s matches this hash\n", tool_archs_dir());
        for (int i = 0; i < shown; i++)
            printf("architecture  %s\n", matches[i]);
        if (n > 1)
            printf("note          %d architectures share this hash and evaluate differently; the file cannot tell "
                   "them apart: pass --arch to eval\n",
                   n);
    }
    for (int i = 0; i < shown; i++)
        free(matches[i]);
    free(desc);
    return 0;
}
