/* core/eval/board_fit.c: a whole board checked against a net (see board_fit.h). */
#include "core/eval/board_fit.h"

#include "base/error.h"

#include <stdio.h>

/* Where the (n+1)-th piece of a board stands, in square order, then hands (for the message). */
static void nth_piece(const nnue_board *b, int n, char *buf, size_t size)
{
    for (int sq = 0; sq < b->num_squares && sq < NNUE_MAX_SQUARES; sq++)
        if (b->piece_on[sq] && n-- == 0) {
            snprintf(buf, size, "piece 0x%02x on square %d", b->piece_on[sq], sq);
            return;
        }
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < NNUE_MAX_HAND_TYPES; t++)
            if ((n -= b->hand[c][t]) < 0) {
                snprintf(buf, size, "in hand[%d][%d]", c, t);
                return;
            }
    snprintf(buf, size, "nowhere");
}

int nnue_board_fits_net(const nnue_board_shape *shape, const nnue_board_limits *s, const nnue_board *board,
                        int *pieces, nnue_error *err)
{
    int count;
    if (nnue_board_check(shape, board, &count, err) != 0)
        return -1;
    *pieces = count;
    if (s->max_pieces && count > s->max_pieces) {
        char where[64];
        nth_piece(board, s->max_pieces, where, sizeof where);
        const nnue_feature_set *fs = s->limit_set;
        nnue_fail_at(err, NNUE_E_ARG, "nnue_board", 0, 0,
                     "%d pieces (board and hands, kings included): the net's feature set %s takes at most %d "
                     "(at most %d active features per perspective); piece %d is the %s",
                     count, fs->name, s->max_pieces, fs->max_active ? fs->max_active : NNUE_MAX_ACTIVE,
                     s->max_pieces + 1, where);
        return -1;
    }
    const nnue_ft_desc *ft = s->ft;
    for (int k = 0; k < ft->n_sets; k++) {
        const nnue_feature_set *fs = ft->sets[k].features;
        char why[160];
        const char *problem = fs->board_fits ? fs->board_fits(&ft->sets[k].params, board, why, sizeof why) : NULL;
        if (problem) {
            nnue_fail_at(err, NNUE_E_ARG, "nnue_board", 0, 0, "the net's feature set %s: %s", fs->name, problem);
            return -1;
        }
    }
    return 0;
}
