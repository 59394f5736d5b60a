/* tools/cmd_arch.c: `nnue arch [--json | --dot] FILE.yaml...`: name, description string,
 * the three hashes, parameter count and expected net file size of each architecture. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue.h"
#include "tools/commands.h"
#include "tools/json_out.h"

static void print_size(const nnue_arch *arch)
{
    nnue_arch_layout a;
    nnue_arch_layout_get(arch, &a, sizeof a);
    if (!a.raw && a.leb128)
        printf("  file size     variable (LEB128-compressed feature transformer); %" PRIu64
               " bytes uncompressed%s\n",
               a.file_size, a.description_bytes < 0 ? " + description" : "");
    else if (!a.raw && a.description_bytes < 0)
        printf("  file size     %" PRIu64 " bytes + description length\n", a.file_size);
    else
        printf("  file size     %" PRIu64 " bytes\n", a.file_size);
}

static void print_text(const char *path, const nnue_arch *a, const char *desc, size_t desc_len)
{
    nnue_arch_layout l;
    uint32_t file_hash, ft_hash, network_hash;
    nnue_arch_layout_get(a, &l, sizeof l);
    nnue_arch_hashes(a, &file_hash, &ft_hash, &network_hash);
    printf("%s\n", path);
    printf("  name          %s\n", nnue_arch_name(a));
    printf("  game          %s\n", nnue_arch_game(a)->name);
    /* fwrite, not %s: printf fails on strings over INT_MAX bytes. */
    fputs("  description   ", stdout);
    fwrite(desc, 1, desc_len, stdout);
    putchar('\n');
    if (!l.raw) {
        printf("  version       0x%08" PRIX32 "\n", l.version);
        printf("  file hash     0x%08" PRIX32 "\n", file_hash);
        printf("  ft hash       0x%08" PRIX32 "\n", ft_hash);
        printf("  network hash  0x%08" PRIX32 "\n", network_hash);
    } else {
        printf("  hashes        none in the file (raw format); by the Stockfish rules: file 0x%08" PRIX32
               ", ft 0x%08" PRIX32 ", network 0x%08" PRIX32 "\n",
               file_hash, ft_hash, network_hash);
    }
    printf("  parameters    %" PRIu64 "\n", l.parameters);
    print_size(a);
}

static void print_json(const char *path, const nnue_arch *a, const char *desc, int first)
{
    nnue_arch_layout l;
    uint32_t file_hash, ft_hash, network_hash;
    nnue_arch_layout_get(a, &l, sizeof l);
    nnue_arch_hashes(a, &file_hash, &ft_hash, &network_hash);
    printf("%s\n  {", first ? "" : ",");
    json_key_string("path", path, 1);
    json_key_string("name", nnue_arch_name(a), 0);
    json_key_string("game", nnue_arch_game(a)->name, 0);
    json_key_string("format", !l.raw ? "stockfish" : "raw", 0);
    json_key_string("description", desc, 0);
    json_key_hex32("version", l.version);
    json_key_hex32("file_hash", file_hash);
    json_key_hex32("ft_hash", ft_hash);
    json_key_hex32("network_hash", network_hash);
    printf(", \"parameters\": %" PRIu64, l.parameters);
    printf(", \"file_size\": %" PRIu64, l.file_size);
    printf(", \"file_size_exact\": %s", (l.raw || (!l.leb128 && l.description_bytes >= 0)) ? "true" : "false");
    printf("}");
}

int cmd_arch(int argc, char **argv)
{
    int json = 0, dot = 0, files = 0, failures = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (strcmp(argv[i], "--dot") == 0)
            dot = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "nnue arch: unknown option '%s'\n", argv[i]);
            return 2;
        } else
            files++;
    }
    if (!files || (json && dot)) {
        fprintf(stderr, "usage: nnue arch [--json | --dot] FILE.yaml...\n");
        return 2;
    }
    if (json)
        printf("[");
    int first = 1;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-')
            continue;
        nnue_arch *a;
        nnue_error err;
        if (nnue_arch_load_named(argv[i], &a, &err) != NNUE_OK) {
            char msg[1200];
            nnue_error_format(&err, msg, sizeof msg);
            fprintf(stderr, "nnue arch: %s\n", msg);
            failures++;
            continue;
        }
        if (dot) {
            nnue_arch_write_dot(a, stdout);
            nnue_arch_free(a);
            continue;
        }
        size_t len = nnue_arch_describe(a, NULL, 0);
        char *desc = len < SIZE_MAX ? malloc(len + 1) : NULL;
        if (!desc) {
            fprintf(stderr, "nnue arch: %s: out of memory for the %zu-byte description string\n", argv[i], len);
            nnue_arch_free(a);
            failures++;
            continue;
        }
        nnue_arch_describe(a, desc, len + 1);
        if (json)
            print_json(argv[i], a, desc, first);
        else
            print_text(argv[i], a, desc, len);
        first = 0;
        free(desc);
        nnue_arch_free(a);
    }
    if (json)
        printf("\n]\n");
    return failures ? 1 : 0;
}
