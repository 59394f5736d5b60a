/* tools/eval_batch.h: `nnue eval --file` on files of any length: positions are read in chunks,
 * parsed and evaluated in parallel (OpenMP, one state per thread), printed in input order. A bad
 * line is reported with its line and column and skipped; a progress bar runs on a terminal; a
 * summary ends the run. */
#ifndef NNUE_TOOLS_EVAL_BATCH_H
#define NNUE_TOOLS_EVAL_BATCH_H

#include "core/net.h"
#include "nnue_board.h"

typedef struct eval_batch_options {
    int json;
    int quiet;     /* no progress bar, no summary */
    int threads;   /* 0 = OpenMP's default */
} eval_batch_options;

/* path "-" reads standard input. Returns the exit status: 0 all lines evaluated, 1 some line was
 * bad or the file could not be read. */
int eval_batch(const nnue_net *net, const nnue_game *game, const char *path, const eval_batch_options *opt);

#endif
