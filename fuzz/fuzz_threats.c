/* fuzz/fuzz_threats.c: libFuzzer target for threat changes handed in by an engine
 * (nnue_state_push_threats; issue 49), on real positions and small random nets of each threat set:
 * Full_Threats in its three variants (fuzz/archs/threats_w8.yaml: sfnnv10; sfnnv16_w8.yaml; the
 * first with variant reckless) and Pikafish's xiangqi threats (pikafish_w8.yaml). Byte 0 picks
 * the net; then each step is an opcode and its operands:
 *   0 M       play legal move M % count with its own recorded threat lists: taken, and the
 *             evaluation must equal a fresh state's on the scalar kernels;
 *   1 M K ... play move M with its lists edited K % 5 times (list, entry, field, value: 4 bytes
 *             each; an entry past the end appends): a refusal names the list and entry
 *             (nnue_threats), a taken list evaluates without reading past the weights; the move is
 *             then taken back (pop, unmake);
 *   2         pop the last move played with opcode 0.
 * Never a crash or UB; a list of real attacks of the move is always taken. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "core/net/net.h"
#include "fuzz_util.h"
#include "nnue.h"

typedef struct spec {
    const char *file, *from, *to;
} spec;

static const spec specs[] = {
    {"fuzz/archs/threats_w8.yaml", NULL, NULL},
    {"fuzz/archs/sfnnv16_w8.yaml", NULL, NULL},
    {"fuzz/archs/threats_w8.yaml", "{set: Full_Threats, weights: i8}", "{set: Full_Threats, weights: i8, variant: reckless}"},
    {"fuzz/archs/pikafish_w8.yaml", NULL, NULL},
};
enum { N_NETS = sizeof specs / sizeof specs[0], MAX_STEPS = 24 };
static nnue_net *nets[N_NETS];

static nnue_net *make_net(int i)
{
    char tag[16];
    snprintf(tag, sizeof tag, "%s%d", "threats", i);
    return fuzz_random_net(specs[i].file, specs[i].from, specs[i].to, 7 + (uint64_t)i, tag);
}

/* The board evaluated from scratch by the scalar kernels (the definition). */
static int32_t fresh_total(const nnue_net *net, const nnue_board *b)
{
    nnue_state *s = fuzz_scalar_state(net, 0);
    nnue_state_reset(s, b);
    int32_t v = nnue_evaluate(s, b, NULL);
    nnue_state_free(s);
    return v;
}

/* One edit of a threat list: list (bit 0), entry, field (% 4), value. */
static void edit(nnue_threats *t, const uint8_t *op)
{
    int added = op[0] & 1;
    uint16_t *n = added ? &t->n_added : &t->n_removed;
    nnue_threat *list = added ? t->added : t->removed;
    int i = op[1];
    if (i >= *n) {
        if (*n >= NNUE_MAX_THREATS)
            return;
        i = (*n)++;
        list[i] = (nnue_threat){0};
    }
    uint8_t *field = (uint8_t *)&list[i] + (op[2] & 3);
    *field = op[3];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int which = data[0] % N_NETS;
    if (!nets[which])
        nets[which] = make_net(which);
    const nnue_net *net = nets[which];
    const nnue_game *game = nnue_game_find(net->arch->game);
    void *pos = calloc(1, game->pos_size);
    nnue_move *moves = malloc(sizeof *moves * NNUE_MAX_MOVES), played[MAX_STEPS];
    static nnue_threats t;
    nnue_error err;
    if (!pos || !moves || game->parse(pos, game->start, &err) != 0)
        abort();
    nnue_state *s = nnue_state_new(net, MAX_STEPS + 1);
    nnue_state_reset(s, game->board(pos));
    int depth = 0;
    size_t at = 1;
    for (int step = 0; step < MAX_STEPS && at < size; step++) {
        int op = data[at++] % 3;
        if (op == 2) {
            if (depth > 0) {
                nnue_state_pop(s);
                game->unmake(pos, played[--depth]);
            }
            continue;
        }
        if (at >= size)
            break;
        int n = game->legal_moves(pos, moves);
        if (n == 0)
            break;
        nnue_move m = moves[data[at++] % n];
        nnue_delta delta;
        if (!nnue_game_make_threats(game, pos, m, &delta, &t))
            t.n_removed = t.n_added = 0; /* the game records none: edits start from empty lists */
        if (op == 0) {
            if (nnue_state_push_threats(s, game->board(pos), &delta, &t) != 0)
                __builtin_trap(); /* the move's own attacks */
            played[depth++] = m;
            if (nnue_evaluate(s, game->board(pos), NULL) != fresh_total(net, game->board(pos)))
                __builtin_trap(); /* handed-in lists give what the boards give */
            continue;
        }
        int edits = at < size ? data[at++] % 5 : 0;
        for (int k = 0; k < edits && at + 4 <= size; k++, at += 4)
            edit(&t, data + at);
        if (nnue_state_push_threats(s, game->board(pos), &delta, &t) != 0) {
            const nnue_error *e = nnue_state_error(s);
            if (strcmp(e->file, "nnue_threats") != 0 || !strstr(e->message, "["))
                __builtin_trap(); /* a refusal names the list and the entry */
        } else {
            nnue_evaluate(s, game->board(pos), NULL);
        }
        nnue_state_pop(s);
        game->unmake(pos, m);
    }
    nnue_state_free(s);
    free(moves);
    free(pos);
    return 0;
}
