/* fuzz/fuzz_boards.c: libFuzzer target for crafted boards and deltas through the public API
 * (nnue_state_reset / push / pop / evaluate), on a small random net of every feature set (width
 * 8, nnue_net_write_random, as `nnue init` writes them). The input is a script: byte 0 picks the
 * net, then each step is an opcode and its operand bytes:
 *   0 play the legal move (operand % count) of the game position and push it (while the board
 *     is the game's own), 1 set a square to a piece byte, 2 overwrite a byte of the board view,
 *   3 push the board with a raw delta (operand bytes), 4 evaluate, 5 pop, 6 reset to the board,
 *   7 refresh cache on/off (operand bit 0) and whole-board checks on/off (bit 1).
 * Any bytes must give a value or a refusal that says why (nnue_state_error), never a crash or UB;
 * while every push was a legal move, evaluations must equal a fresh state's on the scalar kernels
 * (incremental == full, and the machine's kernels == the scalar definition). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "core/net/net.h"
#include "fuzz_util.h"
#include "nnue.h"

typedef struct fuzz_net {
    const char *file, *from, *to, *game;
} fuzz_net;

static const fuzz_net specs[] = {
    {"tests/nets/tiny_sf.yaml", "features: Chess768", "features: HalfKP", "chess"},
    {"tests/nets/tiny_sf.yaml", "features: Chess768", "features: HalfKA", "chess"},
    {"tests/nets/tiny_sf.yaml", "features: Chess768", "features: HalfKAv2", "chess"},
    {"tests/nets/tiny_sf.yaml", "features: Chess768", "features: HalfKAv2_hm", "chess"},
    {"tests/nets/tiny_sf.yaml", NULL, NULL, "chess"},
    {"fuzz/archs/threats_w8.yaml", NULL, NULL, "chess"},
    {"tests/threads/tiny_shogi.yaml", NULL, NULL, "shogi"},
    {"fuzz/archs/sfnn_shogi_w8.yaml", NULL, NULL, "shogi"},
    {"fuzz/archs/sfnn_shogi_w8.yaml", "features: HalfKA_hm2_shogi", "features: HalfKA2_shogi", "shogi"},
    {"fuzz/archs/sfnnv16_w8.yaml", NULL, NULL, "chess"},
    {"fuzz/archs/pikafish_w8.yaml", NULL, NULL, "xiangqi"},
};
enum { N_NETS = sizeof specs / sizeof specs[0] };
static nnue_net *nets[N_NETS];

static nnue_net *make_net(int i)
{
    char tag[16];
    snprintf(tag, sizeof tag, "%s%d", "boards", i);
    return fuzz_random_net(specs[i].file, specs[i].from, specs[i].to, 1 + (uint64_t)i, tag);
}

/* A refusal must say why. */
static void expect_reason(const nnue_state *s)
{
    const nnue_error *e = nnue_state_error(s);
    if (e->code == NNUE_OK || !e->message[0])
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!nets[0])
        for (int i = 0; i < N_NETS; i++)
            nets[i] = make_net(i);
    if (size < 1)
        return 0;
    int which = data[0] % N_NETS;
    const nnue_net *net = nets[which];
    const nnue_game *game = nnue_game_find(specs[which].game);
    void *pos = malloc(game->pos_size);
    nnue_move *moves = malloc(sizeof *moves * NNUE_MAX_MOVES);
    nnue_error err;
    if (!pos || !moves || game->parse(pos, game->start, &err) != 0)
        abort();
    /* fresh: the board from scratch by the scalar kernels, the definition the incremental values
     * of the machine's kernels must equal */
    nnue_state *s = nnue_state_new(net, 16), *fresh = fuzz_scalar_state(net, 0);
    if (!s)
        abort();
    nnue_board board = *game->board(pos);
    int own = 1, legal = 1, depth = 0; /* own: board is the game position's; legal: every push was a move */
    nnue_state_reset(s, &board);
    for (size_t i = 1; i + 1 < size; i += 2) {
        uint8_t op = data[i] % 8, arg = data[i + 1];
        if (op == 0 && own && depth < 16) {
            int n = game->legal_moves(pos, moves);
            if (n == 0)
                continue;
            nnue_delta delta;
            game->make(pos, moves[arg % n], &delta);
            board = *game->board(pos);
            if (nnue_state_push(s, &board, &delta) != 0)
                __builtin_trap(); /* a legal move of the game's own board always fits */
            depth++;
        } else if (op == 1) {
            uint8_t sq = i + 2 < size ? data[i + 2] : 0;
            board.piece_on[sq % NNUE_MAX_SQUARES] = arg;
            own = legal = 0;
            i++;
        } else if (op == 2) {
            ((uint8_t *)&board)[arg % sizeof board] = i + 2 < size ? data[i + 2] : 0;
            own = legal = 0;
            i++;
        } else if (op == 3 && depth < 16) {
            nnue_delta delta;
            memset(&delta, 0, sizeof delta);
            size_t take = size - i - 2 < sizeof delta ? size - i - 2 : sizeof delta;
            memcpy(&delta, data + i + 2, take);
            i += take;
            if (nnue_state_push(s, &board, &delta) != 0)
                expect_reason(s);
            own = legal = 0;
            depth += depth < 16;
        } else if (op == 4) {
            nnue_eval_detail d, f;
            nnue_evaluate(s, &board, &d);
            if (d.bucket < 0) {
                expect_reason(s);
            } else if (legal) {
                nnue_state_reset(fresh, &board);
                nnue_evaluate(fresh, &board, &f);
                if (f.total != d.total || f.positional != d.positional || f.psqt != d.psqt || f.bucket != d.bucket)
                    __builtin_trap(); /* incremental == full (scalar) along legal moves */
            }
        } else if (op == 5) {
            nnue_state_pop(s);
            depth -= depth > 0;
            own = legal = 0; /* the game position is not unmade: stop playing it */
        } else if (op == 6) {
            if (nnue_state_reset(s, &board) != 0)
                expect_reason(s);
            depth = 0;
        } else if (op == 7) {
            nnue_state_set_refresh_cache(s, arg & 1);
            nnue_state_set_whole_board_checks(s, arg >> 1 & 1);
        }
    }
    nnue_eval_detail d;
    nnue_evaluate(s, &board, &d);
    nnue_state_free(s);
    nnue_state_free(fresh);
    free(moves);
    free(pos);
    return 0;
}
