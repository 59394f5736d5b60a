/* base/board_undo.c: see board_undo.h. Relies only on the delta conventions of
 * include/nnue_board.h (a captured piece has new_sq = NNUE_SQ_NONE, a moving piece is one entry). */
#include "base/board_undo.h"

#include <string.h>

void nnue_board_before(const nnue_board *after, const nnue_delta *delta, nnue_board *before)
{
    memcpy(before, after, sizeof *before);
    int count = after->piece_count;
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        if (d->new_sq >= 0 && d->new_sq < NNUE_MAX_SQUARES) {
            before->piece_on[d->new_sq] = 0;
            count--;
        }
    }
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        if (d->old_sq >= 0 && d->old_sq < NNUE_MAX_SQUARES && d->old_piece) {
            before->piece_on[d->old_sq] = d->old_piece;
            count++;
            for (int c = 0; c < 2; c++) /* the piece that now stands on colour c's king square moved there */
                if (d->new_sq == after->king_sq[c] && d->new_piece == after->piece_on[after->king_sq[c]])
                    before->king_sq[c] = (uint8_t)d->old_sq;
        }
    }
    before->piece_count = (uint8_t)count;
    before->side_to_move = (uint8_t)!after->side_to_move;
}
