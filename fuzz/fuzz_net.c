/* fuzz/fuzz_net.c: libFuzzer target for net files of fixed small architectures, and the header
 * reader behind `nnue info`. A net that loads is evaluated on the start position and its
 * children. Every error must give its byte offset (or be an I/O / memory error); never a crash,
 * leak or UB. Built once per family (FUZZ_NET_KIND), each with seeds `nnue init` writes for its
 * archs (fuzz/make_seeds.sh), so large seeds do not slow the small ones:
 *   fuzz_net          (0) Stockfish format plain and LEB128, raw trainer layout (tests/nets/tiny_*)
 *   fuzz_net_shogi    (1) YaneuraOu nn.bin, HalfKP (version 0x7AF32F16)
 *   fuzz_net_threats  (2) Stockfish 18 SFNNv10: Full_Threats + HalfKAv2_hm (fuzz/archs/threats_w8)
 *   fuzz_net_sfnn     (3) YaneuraOu SFNN: HalfKA_hm2 shogi, LEB128 (fuzz/archs/sfnn_shogi_w8) */
#include <stdint.h>
#include <stdlib.h>

#include "core/arch/arch_api.h"
#include "core/net/net.h"
#include "fuzz_util.h"
#include "nnue.h"

#ifndef FUZZ_NET_KIND
#define FUZZ_NET_KIND 0
#endif
static const char *const arch_files[] = {
#if FUZZ_NET_KIND == 1
    "tests/threads/tiny_shogi.yaml",
#elif FUZZ_NET_KIND == 2
    "fuzz/archs/threats_w8.yaml",
#elif FUZZ_NET_KIND == 3
    "fuzz/archs/sfnn_shogi_w8.yaml",
#else
    "tests/nets/tiny_sf.yaml",
    "tests/nets/tiny_sf_leb128.yaml",
    "tests/nets/tiny_raw.yaml",
#endif
};
enum { N_ARCHS = sizeof arch_files / sizeof arch_files[0] };
static nnue_arch *archs[N_ARCHS];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!archs[0])
        for (int i = 0; i < N_ARCHS; i++)
            archs[i] = fuzz_arch_or_abort(arch_files[i]);
    const char *path = fuzz_temp_file(0, "net", data, size);
    if (!path)
        return 0;
    nnue_net_header header;
    char *description;
    nnue_error err;
    if (nnue_net_read_header(path, &header, &description, &err) == NNUE_OK)
        free(description);
    else if (err.offset < 0 && err.code != NNUE_E_IO && err.code != NNUE_E_NOMEM)
        __builtin_trap(); /* header errors give the byte offset too */
    for (int i = 0; i < N_ARCHS; i++) {
        nnue_net *net;
        if (nnue_net_load(archs[i], path, &net, &err) != NNUE_OK) {
            if (err.offset < 0 && err.code != NNUE_E_IO && err.code != NNUE_E_NOMEM)
                __builtin_trap(); /* every net-file error must give the byte offset */
            continue;
        }
        fuzz_evaluate_start(net);
        nnue_net_free(net);
    }
    return 0;
}
