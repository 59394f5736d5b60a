/* fuzz/fuzz_net_raw.c: libFuzzer target for the raw formats' containers and for guessing a net's
 * architecture (issue 49): the bytes loaded from memory by a CBNF architecture (64-byte header,
 * payload plain or one zstd frame: fuzz/archs/cbnf_w8.yaml) and a varint one
 * (fuzz/archs/varint_w8.yaml), then through nnue_net_load_auto_memory, which reads a Stockfish
 * header, else a CBNF header against the built-ins, else names the raw candidates by size or
 * LEB128 value count (decompressing a zstd frame no further than they use). A net that loads is
 * evaluated on the start position and its children; every error gives its byte offset, or is an
 * architecture question (no built-in fits: NNUE_E_HASH, NNUE_E_AMBIGUOUS), I/O or memory. */
#include <stdint.h>
#include <stdlib.h>

#include "core/arch/arch_api.h"
#include "core/net/net.h"
#include "fuzz_util.h"
#include "nnue.h"

static const char *const arch_files[] = {"fuzz/archs/cbnf_w8.yaml", "fuzz/archs/varint_w8.yaml"};
enum { N_ARCHS = sizeof arch_files / sizeof arch_files[0] };
static nnue_arch *archs[N_ARCHS];

static void check_error(const nnue_error *err)
{
    if (err->code == NNUE_E_IO || err->code == NNUE_E_NOMEM || err->code == NNUE_E_HASH ||
        err->code == NNUE_E_AMBIGUOUS)
        return; /* no architecture fits: said in words, at no one offset */
    if (err->offset < 0 || !err->message[0])
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!archs[0])
        for (int i = 0; i < N_ARCHS; i++)
            archs[i] = fuzz_arch_or_abort(arch_files[i]);
    nnue_net *net;
    nnue_error err;
    for (int i = 0; i < N_ARCHS; i++) {
        if (nnue_net_load_memory(archs[i], data, size, "fuzz", &net, &err) != NNUE_OK) {
            check_error(&err);
            continue;
        }
        fuzz_evaluate_start(net);
        nnue_net_free(net);
    }
    if (nnue_net_load_auto_memory(data, size, "fuzz", &net, &err) == NNUE_OK) {
        fuzz_evaluate_start(net);
        nnue_net_free(net);
    } else if (!err.message[0]) {
        __builtin_trap(); /* detection says why it took nothing */
    }
    return 0;
}
