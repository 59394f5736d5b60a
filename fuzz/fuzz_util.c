/* fuzz/fuzz_util.c: see fuzz_util.h. */
#include "fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/arch/arch_api.h"
#include "core/eval/state.h"
#include "core/net/net.h"

const char *fuzz_temp_file(int slot, const char *tag, const void *data, size_t size)
{
    static char paths[4][128];
    char *path = paths[slot & 3];
    /* /dev/shm (memory) when there: a file per run on a disk would make the file system the cost */
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(path, sizeof paths[0], "%s/nnue-fuzz-%s-%d", dir, tag, (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return NULL;
    fwrite(data, 1, size, f);
    if (fclose(f) != 0)
        return NULL;
    return path;
}

nnue_state *fuzz_scalar_state(const nnue_net *net, int max_ply)
{
    nnue_state *s = nnue_state_new(net, max_ply);
    if (!s || nnue_state_set_isa(s, NNUE_ISA_SCALAR) != 0)
        abort();
    return s;
}

/* Both states' evaluation of the same board: equal in every part, or the kernels broke the scalar
 * definition (bit for bit on every ISA, even on a net whose sums wrap). */
static void evaluate_both(nnue_state *fast, nnue_state *scalar, const nnue_board *board)
{
    nnue_eval_detail a = {0}, b = {0};
    int32_t va = nnue_evaluate(fast, board, &a), vb = nnue_evaluate(scalar, board, &b);
    if (va != vb || a.bucket != b.bucket || a.psqt != b.psqt || a.positional != b.positional || a.total != b.total ||
        a.scaled != b.scaled)
        __builtin_trap();
}

void fuzz_evaluate_start(const nnue_net *net)
{
    const nnue_game *game = nnue_game_find(net->arch->game);
    const char *start = strcmp(game->name, "shogi") == 0 ? "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
                                                         : "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    void *pos = calloc(1, game->pos_size);
    nnue_move *moves = malloc(sizeof(nnue_move) * NNUE_MAX_MOVES);
    nnue_error err;
    if (!pos || !moves || game->parse(pos, start, &err) != 0)
        abort();
    /* The machine's kernels and the scalar definition side by side. */
    nnue_state *st = nnue_state_new(net, 4), *ref = fuzz_scalar_state(net, 4);
    if (!st)
        abort();
    nnue_state_reset(st, game->board(pos));
    nnue_state_reset(ref, game->board(pos));
    evaluate_both(st, ref, game->board(pos));
    int n = game->legal_moves(pos, moves);
    for (int i = 0; i < n; i++) {
        nnue_delta delta;
        game->make(pos, moves[i], &delta);
        nnue_state_push(st, game->board(pos), &delta);
        nnue_state_push(ref, game->board(pos), &delta);
        evaluate_both(st, ref, game->board(pos));
        nnue_state_pop(st);
        nnue_state_pop(ref);
        game->unmake(pos, moves[i]);
    }
    nnue_state_free(st);
    nnue_state_free(ref);
    free(moves);
    free(pos);
}

nnue_arch *fuzz_arch_or_abort(const char *relative)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", NNUE_SOURCE_DIR, relative);
    nnue_arch *a;
    nnue_error err;
    if (nnue_arch_load(path, &a, &err) != NNUE_OK) {
        fprintf(stderr, "fuzz: cannot load %s: %s\n", path, err.message);
        abort();
    }
    return a;
}

nnue_net *fuzz_random_net(const char *relative, const char *from, const char *to, uint64_t seed, const char *tag)
{
    char path[1024], text[8192];
    snprintf(path, sizeof path, "%s/%s", NNUE_SOURCE_DIR, relative);
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = 0;
    char *at = from ? strstr(text, from) : NULL;
    if (from && !at) {
        fprintf(stderr, "fuzz: %s: no '%s' to replace\n", path, from);
        abort();
    }
    if (at) {
        char rest[8192];
        snprintf(rest, sizeof rest, "%s", at + strlen(from));
        snprintf(at, sizeof text - (size_t)(at - text), "%s%s", to, rest);
    }
    nnue_arch *arch;
    nnue_net *net;
    nnue_error err;
    const char *out = fuzz_temp_file(1, tag, "", 0);
    if (!out || nnue_arch_load_string(text, strlen(text), path, &arch, &err) != NNUE_OK ||
        nnue_net_write_random(arch, out, seed, &err) != NNUE_OK || nnue_net_load(arch, out, &net, &err) != NNUE_OK) {
        fprintf(stderr, "fuzz: net %s: %s\n", tag, out ? err.message : "no temporary file");
        abort();
    }
    remove(out);
    nnue_arch_free(arch);
    return net;
}
