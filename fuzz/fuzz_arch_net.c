/* fuzz/fuzz_arch_net.c: libFuzzer target for a trainer's pair: an architecture YAML and its
 * net file (raw trainer layouts are only defined by their YAML). The input is
 * "YAML\n#NET\nBYTES": both parts are mutated together, so format blocks, dtypes, orders and
 * padding meet files that almost fit. The YAML must load or give a located error; the net must
 * load (then it is evaluated) or give a byte offset. Never a crash, leak or UB. Seeds: each
 * small arch with the net `nnue init` writes for it (fuzz/make_seeds.sh). */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "core/net/net.h"
#include "fuzz_util.h"
#include "nnue.h"

static const char separator[] = "\n#NET\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *sep = memmem(data, size, separator, sizeof separator - 1);
    if (!sep)
        return 0;
    size_t yaml_len = (size_t)(sep - data) + 1; /* keep the newline */
    const uint8_t *net_bytes = sep + sizeof separator - 1;
    const char *yaml_path = fuzz_temp_file(0, "pair-yaml", data, yaml_len);
    const char *net_path = fuzz_temp_file(1, "pair-net", net_bytes, size - (size_t)(net_bytes - data));
    if (!yaml_path || !net_path)
        return 0;
    nnue_arch *arch;
    nnue_error err;
    if (nnue_arch_load(yaml_path, &arch, &err) != NNUE_OK) {
        if (err.line <= 0 && err.code != NNUE_E_IO && err.code != NNUE_E_NOMEM)
            __builtin_trap(); /* every YAML error must say where */
        return 0;
    }
    nnue_net *net;
    if (nnue_net_load(arch, net_path, &net, &err) == NNUE_OK) {
        fuzz_evaluate_start(net);
        nnue_net_free(net);
    } else if (err.offset < 0 && err.code != NNUE_E_IO && err.code != NNUE_E_NOMEM) {
        __builtin_trap();
    }
    nnue_arch_free(arch);
    return 0;
}
