/* core/eval/table_parts.c: the selector's table variable kept incrementally (features/table_var.h:
 * a variable with part, part_move and value_of; YaneuraOu's progress), one per state.
 *
 * Each entry of the state's stack holds the two perspectives' shares once known (tpart, tpart_ok).
 * Evaluating brings the current entry's up to date like an accumulator: from the nearest ancestor
 * whose share is known, applying the moves in between (the table variable reads each move's delta
 * with the current board, valid because what orients a share, its own king, can only change
 * through a move part_move refuses), or afresh from the board when there is none, when a move on
 * the way forces a refresh of that perspective (the feature sets' rule, or a refused delta), or
 * when part_move refuses one. Only the current entry is written: the shares of the entries in
 * between are never needed again (evaluations that reach them recompute theirs). The usual case,
 * both shares one move below known ones, takes part_move_both where the variable has it. */
#include "core/eval/state.h"

int nnue_table_parts_slot(const nnue_net *net)
{
    const nnue_expr *sel = &net->arch->selector;
    for (int v = 0; v < sel->n_vars; v++)
        if (sel->table_vars[v] && sel->table_vars[v]->parts && net->tables[v])
            return v;
    return -1;
}

/* Perspective p's share at entry `to`, from entry `from` - 1's known share by the moves into
 * entries from .. to; -1 when a move refuses (the share then comes from the board). */
static int by_moves(const nnue_table_var *tv, const int32_t *table, const nnue_acc_entry *e, int from, int to,
                    const nnue_board *board, int p, int64_t *part)
{
    int64_t s = e[from - 1].tpart[p];
    for (int i = from; i <= to; i++)
        if (tv->part_move(table, board, &e[i].delta, p, &s) != 0)
            return -1;
    *part = s;
    return 0;
}

void nnue_table_parts_update(nnue_state *s, const nnue_board *board)
{
    int v = s->tpart_slot;
    if (v < 0)
        return;
    const nnue_table_var *tv = s->net->arch->selector.table_vars[v];
    const int32_t *table = s->net->tables[v];
    nnue_acc_entry *e = s->entries, *cur = &e[s->ply];
    if (tv->part_move_both && s->ply > 0 && !cur->tpart_ok[0] && !cur->tpart_ok[1] && !cur->refresh[0] &&
        !cur->refresh[1] && cur[-1].tpart_ok[0] && cur[-1].tpart_ok[1]) { /* one move below known shares */
        int64_t parts[2] = {cur[-1].tpart[0], cur[-1].tpart[1]};
        if (tv->part_move_both(table, board, &cur->delta, parts) == 0) {
            cur->tpart[0] = parts[0];
            cur->tpart[1] = parts[1];
            cur->tpart_ok[0] = cur->tpart_ok[1] = 1;
            cur->tpart_slot = (int16_t)v;
            return;
        }
    }
    int64_t fresh[2];
    int have_fresh = 0;
    for (int p = 0; p < 2; p++) {
        if (cur->tpart_ok[p])
            continue;
        /* Walk back while the move into entry k keeps p incremental and k - 1's share is unknown. */
        int k = s->ply;
        while (k > 0 && !e[k].refresh[p] && !e[k - 1].tpart_ok[p])
            k--;
        int incremental = k > 0 && !e[k].refresh[p];
        if (!incremental || by_moves(tv, table, e, k, s->ply, board, p, &cur->tpart[p]) != 0) {
            if (!have_fresh) /* both sides in one pass, for either or both */
                tv->parts(s->kernels, table, board, fresh), have_fresh = 1;
            cur->tpart[p] = fresh[p];
        }
        cur->tpart_ok[p] = 1;
    }
    cur->tpart_slot = (int16_t)v;
}
