/* fuzz/fuzz_net.c: libFuzzer target for net files: the input is read as a net for the tiny
 * test architectures (Stockfish format plain and LEB128, raw); a net that loads is evaluated
 * on the start position. Never a crash, leak or UB. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/arch_api.h"
#include "core/net.h"
#include "nnue.h"

static nnue_arch *archs[3];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!archs[0]) {
        const char *names[3] = {"tests/nets/tiny_sf.yaml", "tests/nets/tiny_sf_leb128.yaml", "tests/nets/tiny_raw.yaml"};
        for (int i = 0; i < 3; i++) {
            char path[512];
            snprintf(path, sizeof path, "%s/%s", NNUE_SOURCE_DIR, names[i]);
            nnue_error err;
            if (nnue_arch_load(path, &archs[i], &err) != NNUE_OK)
                abort();
        }
    }
    char path[64];
    snprintf(path, sizeof path, "/tmp/nnue-fuzz-net-%d.bin", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    const nnue_game *chess = nnue_game_find("chess");
    for (int i = 0; i < 3; i++) {
        nnue_net *net;
        nnue_error err;
        if (nnue_net_load(archs[i], path, &net, &err) != NNUE_OK) {
            if (err.offset < 0 && err.code != NNUE_E_IO && err.code != NNUE_E_NOMEM)
                __builtin_trap(); /* every net-file error must give the byte offset */
            continue;
        }
        void *pos = calloc(1, chess->pos_size);
        chess->parse(pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &err);
        nnue_state *st = nnue_state_new(net, 4);
        nnue_state_reset(st, chess->board(pos));
        nnue_evaluate(st, chess->board(pos), NULL);
        nnue_state_free(st);
        free(pos);
        nnue_net_free(net);
    }
    return 0;
}
