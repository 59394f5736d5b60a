/* tools/cmd_init.c: `nnue init [--seed N] ARCH.yaml OUT`: writes a net file with deterministic
 * random weights in the architecture's own format, to try a new YAML end to end (load it back
 * with `nnue eval --arch ARCH.yaml --net OUT`) before a trained net exists. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue.h"
#include "tools/commands.h"
#include "tools/tool_args.h"
#include "tools/net_setup.h"

int cmd_init(int argc, char **argv)
{
    const char *arch_path = NULL, *out = NULL;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--seed") == 0) {
            char *end;
            seed = strtoull(argv[++i], &end, 10);
            if (*end) {
                fprintf(stderr, "nnue init: --seed expects a non-negative integer, found '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--seed") == 0 || (argv[i][0] == '-' && argv[i][1])) {
            static const char *const value_options[] = {"--seed", NULL};
            return tool_bad_argument("init", argv[i], value_options);
        } else if (!arch_path) {
            arch_path = argv[i];
        } else if (!out) {
            out = argv[i];
        } else {
            return tool_bad_argument("init", argv[i], NULL);
        }
    }
    if (!arch_path || !out) {
        fprintf(stderr, "usage: nnue init [--seed N] ARCH.yaml OUT\n");
        return 2;
    }
    nnue_arch *arch;
    nnue_error err;
    if (nnue_arch_load_named(arch_path, &arch, &err) != NNUE_OK) {
        tool_print_error("init", &err);
        return 1;
    }
    int rc = 0;
    if (nnue_net_write_random(arch, out, seed, &err) != NNUE_OK) {
        tool_print_error("init", &err);
        rc = 1;
    } else {
        printf("wrote %s: random weights for %s (seed %" PRIu64 ")\n", out, nnue_arch_name(arch), seed);
    }
    nnue_arch_free(arch);
    return rc;
}
