/* tools/cmd_arch.c: `nnue arch [--json | --dot] FILE.yaml...`: name, description string,
 * the three hashes, parameter count and expected net file size of each architecture. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "nnue.h"
#include "tools/commands.h"
#include "tools/json_out.h"

static void print_size(const nnue_arch *a)
{
    if (a->format.kind == NNUE_FORMAT_STOCKFISH && a->format.leb128)
        printf("  file size     variable (LEB128-compressed feature transformer); %" PRIu64
               " bytes uncompressed%s\n",
               a->file_size, a->format.description_bytes < 0 ? " + description" : "");
    else if (a->format.kind == NNUE_FORMAT_STOCKFISH && a->format.description_bytes < 0)
        printf("  file size     %" PRIu64 " bytes + description length\n", a->file_size);
    else
        printf("  file size     %" PRIu64 " bytes\n", a->file_size);
}

static void print_text(const char *path, const nnue_arch *a, const char *desc, size_t desc_len)
{
    printf("%s\n", path);
    printf("  name          %s\n", a->name);
    printf("  game          %s\n", a->game);
    /* fwrite, not %s: printf fails on strings over INT_MAX bytes. */
    fputs("  description   ", stdout);
    fwrite(desc, 1, desc_len, stdout);
    putchar('\n');
    if (a->format.kind == NNUE_FORMAT_STOCKFISH) {
        printf("  version       0x%08" PRIX32 "\n", a->format.version);
        printf("  file hash     0x%08" PRIX32 "\n", a->file_hash);
        printf("  ft hash       0x%08" PRIX32 "\n", a->ft_hash);
        printf("  network hash  0x%08" PRIX32 "\n", a->network_hash);
    } else {
        printf("  hashes        none in the file (raw format); by the Stockfish rules: file 0x%08" PRIX32
               ", ft 0x%08" PRIX32 ", network 0x%08" PRIX32 "\n",
               a->file_hash, a->ft_hash, a->network_hash);
    }
    printf("  parameters    %" PRIu64 "\n", a->parameters);
    print_size(a);
}

static void print_json(const char *path, const nnue_arch *a, const char *desc, int first)
{
    printf("%s\n  {", first ? "" : ",");
    json_key_string("path", path, 1);
    json_key_string("name", a->name, 0);
    json_key_string("game", a->game, 0);
    json_key_string("format", a->format.kind == NNUE_FORMAT_STOCKFISH ? "stockfish" : "raw", 0);
    json_key_string("description", desc, 0);
    json_key_hex32("version", a->format.version);
    json_key_hex32("file_hash", a->file_hash);
    json_key_hex32("ft_hash", a->ft_hash);
    json_key_hex32("network_hash", a->network_hash);
    printf(", \"parameters\": %" PRIu64, a->parameters);
    printf(", \"file_size\": %" PRIu64, a->file_size);
    printf(", \"file_size_exact\": %s",
           (a->format.kind == NNUE_FORMAT_RAW || (!a->format.leb128 && a->format.description_bytes >= 0)) ? "true"
                                                                                                          : "false");
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
