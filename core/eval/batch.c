/* core/eval/batch.c: nnue_eval_batch (include/nnue.h), the library's own parallel path over many
 * positions, for callers that hold them in memory (python/nnue releases the GIL around it).
 * One state and one position blob per OpenMP thread, as tools/eval_batch.c does per chunk. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch.h"
#include "base/error.h"
#include "core/net/net.h"
#include "nnue.h"

size_t nnue_eval_batch(const nnue_net *net, const char *const *positions, size_t count, int threads,
                       nnue_eval_detail *out, nnue_error *first_error, size_t *first_bad)
{
    nnue_error_clear(first_error);
    if (first_bad)
        *first_bad = count;
    if (count == 0)
        return 0;
    const char *refused = !net ? "expected a net (got NULL)"
                          : !positions ? "expected an array of positions (got NULL)"
                          : !out ? "expected an output array (got NULL)"
                          : threads > NNUE_MAX_BATCH_THREADS ? "too many threads"
                          : NULL;
    if (refused) { /* every position fails with the reason, as the return value promises */
        nnue_fail(first_error, NNUE_E_ARG, "nnue_eval_batch: %s (threads %d, at most %d)", refused, threads,
                  NNUE_MAX_BATCH_THREADS);
        for (size_t i = 0; out && i < count; i++)
            out[i] = (nnue_eval_detail){-1, 0, 0, 0, 0};
        if (first_bad)
            *first_bad = 0;
        return count;
    }
    const nnue_game *game = net->arch->game_desc;
    int n = threads > 0 ? threads : omp_get_max_threads();
    if ((size_t)n > count) /* a thread per position at most: idle OpenMP threads would stay alive */
        n = (int)count;
    size_t bad = 0, first = count;
#pragma omp parallel num_threads(n) reduction(+ : bad)
    {
        nnue_state *st = nnue_state_new(net, 0);
        void *pos = malloc(game->pos_size);
        nnue_error err;
#pragma omp for schedule(dynamic, 256)
        for (size_t i = 0; i < count; i++) {
            memset(&out[i], 0, sizeof out[i]);
            out[i].bucket = -1;
            int failed = 1;
            if (!st || !pos) {
                nnue_fail(&err, NNUE_E_NOMEM, "out of memory for an evaluation state");
            } else if (!positions[i]) {
                nnue_fail(&err, NNUE_E_ARG, "position %zu is NULL", i);
            } else {
                memset(pos, 0, game->pos_size);
                if (game->parse(pos, positions[i], &err) == 0) {
                    const nnue_board *board = game->board(pos);
                    nnue_state_reset(st, board);
                    nnue_evaluate(st, board, &out[i]);
                    failed = out[i].bucket < 0;
                    if (failed)
                        err = *nnue_state_error(st);
                }
            }
            if (failed) {
                bad++;
#pragma omp critical(nnue_batch_first)
                if (i < first) {
                    first = i;
                    if (first_error)
                        *first_error = err;
                }
            }
        }
        nnue_state_free(st);
        free(pos);
    }
    if (first_bad)
        *first_bad = first;
    return bad;
}
