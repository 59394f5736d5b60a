/* fuzz/fuzz_arch.c: libFuzzer target for architecture YAML: any input must load or give a
 * located error, never a crash, leak or UB. Seeds: every YAML in archs/ and tests/, and fuzz/seeds/arch. */
#include <stdint.h>

#include "core/arch/arch_api.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_temp_file(0, "arch", data, size);
    if (!path)
        return 0;
    nnue_arch *a;
    nnue_error err;
    if (nnue_arch_load(path, &a, &err) == NNUE_OK) {
        char desc[256];
        nnue_arch_describe(a, desc, sizeof desc);
        nnue_arch_free(a);
    } else if (err.line <= 0 && err.code != NNUE_E_IO && err.code != NNUE_E_NOMEM) {
        __builtin_trap(); /* every YAML error must say where */
    }
    return 0;
}
