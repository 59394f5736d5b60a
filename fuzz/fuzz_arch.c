/* fuzz/fuzz_arch.c: libFuzzer target for architecture YAML: any input must load or give a
 * located error, never a crash, leak or UB. */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "core/arch_api.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/nnue-fuzz-arch-%d.yaml", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    nnue_arch *a;
    nnue_error err;
    if (nnue_arch_load(path, &a, &err) == NNUE_OK) {
        char desc[256];
        nnue_arch_describe(a, desc, sizeof desc);
        nnue_arch_free(a);
    } else if (err.line <= 0 && err.code != NNUE_E_IO) {
        __builtin_trap(); /* every YAML error must say where */
    }
    return 0;
}
