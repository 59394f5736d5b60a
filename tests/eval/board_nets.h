/* tests/eval/board_nets.h: what the hostile-board tests share (test_eval_boards.c: fields of
 * boards and deltas; test_eval_piece_limits.c: pieces past the feature sets' limits): one small
 * random net per feature set (`nnue init`-style weights, width 8), and assertions on refusals and
 * values through the public API. */
#ifndef NNUE_TESTS_EVAL_BOARD_NETS_H
#define NNUE_TESTS_EVAL_BOARD_NETS_H

#include "nnue.h"
#include "nnue_board.h"
#include "support.h"

/* One small net per feature set: an arch file, optionally with one word replaced. */
typedef struct board_net {
    const char *label, *game, *file, *from, *to;
    nnue_net *net;
} board_net;

extern board_net nets[];     /* every feature set, chess and shogi */
extern const int N_NETS;
extern board_net xq_nets[];  /* Pikafish's shape, each xiangqi set alone and both */
extern const int N_XQ;
extern const char *chess_start, *shogi_start;

/* Builds every net (-1 and a FAIL line when one cannot be made); frees them. */
int board_nets_make(void);
void board_nets_free(void);

const board_net *find(const char *label);

/* A refusal: -1 (or bucket -1) and an error whose message contains `what`. */
void expect_error(const nnue_state *s, const char *what, const char *where);
void expect_refused_eval(nnue_state *s, const nnue_board *b, const char *what, const char *where);
/* Evaluating `given` equals a fresh evaluation of `truth`; expect_exact: of `b` itself. */
void expect_value_of(nnue_state *s, const nnue_net *net, const nnue_board *given, const nnue_board *truth,
                     const char *where);
void expect_exact(nnue_state *s, const nnue_net *net, const nnue_board *b, const char *where);

/* The net has a set that reads every square at each update (evaluate checks the board whole). */
int reads_every_square(const nnue_net *net);
/* The move forces some perspective of some set to refresh from the board. */
int forces_refresh(const nnue_net *net, const nnue_board *after, const nnue_delta *delta);
/* Loop index i < N_NETS: nets[i] with the default checks; i >= N_NETS: nets[i - N_NETS] with
 * whole-board checks on. */
nnue_state *state_for(int i, const board_net **n, int *whole);

#endif
