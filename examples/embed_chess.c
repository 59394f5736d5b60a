/* examples/embed_chess.c: how an engine embeds nnue, using only the public headers.
 *
 *   embed_chess ARCH.yaml NET FEN MOVE...
 * loads the net, evaluates the position, then plays the UCI moves one by one, updating the
 * accumulators incrementally from each move's delta, and prints the evaluation after each. */
#include <stdio.h>
#include <stdlib.h>

#include "nnue.h"
#include "nnue_chess.h"

static int fail(const nnue_error *err)
{
    char msg[1200];
    nnue_error_format(err, msg, sizeof msg);
    fprintf(stderr, "embed_chess: %s\n", msg);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: embed_chess ARCH.yaml NET FEN [UCI-MOVE...]\n");
        return 2;
    }
    nnue_error err;
    nnue_arch *arch;
    nnue_net *net;
    if (nnue_arch_load(argv[1], &arch, &err) != NNUE_OK)
        return fail(&err);
    if (nnue_net_load(arch, argv[2], &net, &err) != NNUE_OK)
        return fail(&err);
    nnue_arch_free(arch); /* the net keeps its own copy */

    nnue_chess_pos pos;
    if (nnue_chess_parse_fen(&pos, argv[3], &err) != NNUE_OK)
        return fail(&err);
    nnue_state *state = nnue_state_new(net, 256); /* one per search thread */
    nnue_state_reset(state, &pos.board);
    nnue_eval_detail d;
    nnue_evaluate(state, &pos.board, &d);
    printf("root: total %d (psqt %d, positional %d, bucket %d)\n", d.total, d.psqt, d.positional, d.bucket);

    for (int i = 4; i < argc; i++) {
        nnue_move move;
        if (nnue_chess_parse_uci(&pos, argv[i], &move, &err) != NNUE_OK)
            return fail(&err);
        nnue_delta delta;
        nnue_chess_make(&pos, move, &delta);
        nnue_state_push(state, &pos.board, &delta); /* after make: board and delta of the move */
        nnue_evaluate(state, &pos.board, &d);
        printf("after %s: total %d (side to move's view)\n", argv[i], d.total);
    }
    nnue_state_free(state);
    nnue_net_free(net);
    return 0;
}
