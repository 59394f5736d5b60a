/* examples/engine/search.c: iterative deepening with principal variation search, quiescence,
 * transposition table, move ordering (TT move, captures by value, killers, history) and late
 * move reductions, on any nnue_game, for one thread (search_threads.c runs several: they share
 * the table and the net; each owns its position copy and nnue_state).
 *
 * The evaluation contract with the library: nnue_state_reset(root board) once per search,
 * then after every make nnue_state_push(state, board after the move, delta of the move) (with
 * the move's threat changes, nnue_state_push_threats, when nnue_state_takes_threats) and
 * after every unmake nnue_state_pop(state); nnue_evaluate() gives the side to move's score (its
 * detail's `scaled`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

uint64_t search_total_nodes(const search_shared *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->threads; i++)
        n += atomic_load_explicit(&s->workers[i]->nodes, memory_order_relaxed);
    return n;
}

long long search_elapsed(const search_shared *s)
{
    return now_ms() - atomic_load(&s->start_ms);
}

/* Polled every 1024 nodes by thread 0: the hard time limit and the node limit. */
static int out_of_budget(worker *w)
{
    search_shared *s = w->s;
    if (atomic_load_explicit(&s->stop, memory_order_relaxed))
        return 1;
    if (w->id != 0 || (atomic_load_explicit(&w->nodes, memory_order_relaxed) & 1023) != 0)
        return 0;
    int over = (s->hard_ms >= 0 && !atomic_load(&s->pondering) && search_elapsed(s) >= s->hard_ms) ||
               (s->setup.go.nodes >= 0 && search_total_nodes(s) >= (uint64_t)s->setup.go.nodes);
    if (over)
        atomic_store(&s->stop, 1);
    return over;
}

/* The search works on `scaled`: `total` where the architecture declares no output scale
 * (Stockfish, Pikafish, YaneuraOu), the engine's own eval unit where it does (bullet nets,
 * Stormphrax: its raw output carries 2^24 per 400 cp and would clamp at every node). */
static int evaluate(worker *w)
{
    if (!w->nn)
        return 0;
    const nnue_board *b = w->s->setup.rules->game->board(w->pos);
    nnue_eval_detail d;
    nnue_evaluate(w->nn, b, &d);
    int v = d.scaled;
    return v > SCORE_EVAL_LIMIT ? SCORE_EVAL_LIMIT : v < -SCORE_EVAL_LIMIT ? -SCORE_EVAL_LIMIT : v;
}

/* Make / unmake with the accumulator stack and the key history kept in step. */
static void make(worker *w, nnue_move m)
{
    const engine_rules *r = w->s->setup.rules;
    nnue_delta delta;
    /* A net with threat inputs takes the move's threat changes from the adapter (cheaper than
     * the sets listing them from both boards), only the pairs it reads; any other net does not
     * want them. */
    if (w->with_threats &&
        nnue_game_make_threats_filtered(r->game, w->pos, m, &delta, &w->threats, nnue_state_threat_filter(w->nn)))
        nnue_state_push_threats(w->nn, r->game->board(w->pos), &delta, &w->threats);
    else {
        r->game->make(w->pos, m, &delta);
        if (w->nn)
            nnue_state_push(w->nn, r->game->board(w->pos), &delta);
    }
    int n = w->key_count++;
    w->board_keys[n] = key_after(w->board_keys[n - 1], &delta);
    w->keys[n] = w->board_keys[n] ^ r->key_extra(w->pos);
    atomic_fetch_add_explicit(&w->nodes, 1, memory_order_relaxed);
}

static void unmake(worker *w, nnue_move m)
{
    w->s->setup.rules->game->unmake(w->pos, m);
    if (w->nn)
        nnue_state_pop(w->nn);
    w->key_count--;
}

/* A repetition of an earlier position (same side to move) within the reversible plies, or a
 * counting-rule draw. Any repetition in the search counts as a draw. */
static int is_draw(worker *w)
{
    const engine_rules *r = w->s->setup.rules;
    if (r->counting_draw(w->pos))
        return 1;
    int back = r->reversible_plies(w->pos);
    uint64_t key = w->keys[w->key_count - 1];
    for (int i = w->key_count - 3; i >= 0 && i >= w->key_count - 1 - back; i -= 2)
        if (w->keys[i] == key)
            return 1;
    return 0;
}

static int score_to_tt(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score + ply : score <= -SCORE_MATE_BOUND ? score - ply : score;
}

static int score_from_tt(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score - ply : score <= -SCORE_MATE_BOUND ? score + ply : score;
}

static int history_slot(nnue_move m)
{
    return (int)((m ^ (m >> 16)) & 0xFFFF);
}

/* Fills w->order[ply] with a sort key per move: TT move, tactical moves by value, killers,
 * then quiet moves by history. */
static void score_moves(worker *w, int ply, int n, nnue_move tt_move)
{
    const engine_rules *r = w->s->setup.rules;
    int side = r->game->board(w->pos)->side_to_move & 1;
    for (int i = 0; i < n; i++) {
        nnue_move m = w->moves[ply][i];
        int tactical = r->tactical_value(w->pos, m);
        int key;
        if (m == tt_move)
            key = 1 << 30;
        else if (tactical > 0)
            key = (1 << 28) + tactical;
        else if (m == w->killers[ply][0])
            key = (1 << 27) + 1;
        else if (m == w->killers[ply][1])
            key = 1 << 27;
        else
            key = w->history[side][history_slot(m)];
        w->order[ply][i] = key;
    }
}

/* Moves the best remaining move to index i (selection sort, one step). */
static nnue_move pick(worker *w, int ply, int i, int n)
{
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (w->order[ply][j] > w->order[ply][best])
            best = j;
    nnue_move m = w->moves[ply][best];
    int k = w->order[ply][best];
    w->moves[ply][best] = w->moves[ply][i];
    w->order[ply][best] = w->order[ply][i];
    w->moves[ply][i] = m;
    w->order[ply][i] = k;
    return m;
}

static void update_pv(worker *w, int ply, nnue_move m)
{
    w->pv[ply][ply] = m;
    for (int i = ply + 1; i < w->pv_len[ply + 1]; i++)
        w->pv[ply][i] = w->pv[ply + 1][i];
    w->pv_len[ply] = w->pv_len[ply + 1];
}

/* All evasions are searched only in quiescence's first QS_EVASION_PLIES plies; past them a
 * position in check stands pat and tries its tactical evasions only. Without the bound, shogi's
 * drops let "capture with check, interpose by a drop, capture it" repeat to MAX_PLY with a wide
 * tree at every check: a search without end on a weak net (threads_tiny_shogi's random net hung). */
#define QS_EVASION_PLIES 8

/* Captures and promotions until the position is quiet; all evasions when in check (qply: plies
 * of quiescence so far). */
static int quiescence(worker *w, int alpha, int beta, int ply, int qply)
{
    const engine_rules *r = w->s->setup.rules;
    w->pv_len[ply] = ply;
    if (ply > w->seldepth)
        w->seldepth = ply;
    if (out_of_budget(w))
        return 0;
    if (ply >= MAX_PLY)
        return evaluate(w);
    const int in_check = r->game->in_check(w->pos);
    const int evasions = in_check && qply < QS_EVASION_PLIES; /* every evasion searched */
    int best = -SCORE_INFINITE;
    if (!evasions) {
        best = evaluate(w);
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
    }
    int n = r->game->legal_moves(w->pos, w->moves[ply]);
    if (n == 0)
        return r->no_move_score(w->pos, in_check, ply);
    int kept = 0;
    for (int i = 0; i < n; i++) {
        nnue_move m = w->moves[ply][i];
        int tactical = r->tactical_value(w->pos, m);
        if (evasions || tactical > 0) {
            w->moves[ply][kept] = m;
            w->order[ply][kept++] = tactical;
        }
    }
    for (int i = 0; i < kept; i++) {
        nnue_move m = pick(w, ply, i, kept);
        make(w, m);
        int score = -quiescence(w, -beta, -alpha, ply + 1, qply + 1);
        unmake(w, m);
        if (atomic_load_explicit(&w->s->stop, memory_order_relaxed))
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                update_pv(w, ply, m);
                if (score >= beta)
                    break;
            }
        }
    }
    return best;
}

/* Keeps the root moves a search may play: those of "go searchmoves" (all when none), less
 * the MultiPV lines already found at this depth. Returns the new count. */
static int root_filter(const worker *w, nnue_move *moves, int n)
{
    const search_setup *su = &w->s->setup;
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int ok = su->searchmove_count == 0;
        for (int j = 0; !ok && j < su->searchmove_count; j++)
            ok = moves[i] == su->searchmoves[j];
        for (int j = 0; ok && j < w->excluded_count; j++)
            ok = moves[i] != w->excluded[j];
        if (ok)
            moves[kept++] = moves[i];
    }
    return kept;
}

static int search(worker *w, int alpha, int beta, int depth, int ply)
{
    const engine_rules *r = w->s->setup.rules;
    int pv_node = beta - alpha > 1;
    w->pv_len[ply] = ply;
    if (ply > w->seldepth)
        w->seldepth = ply;
    if (ply > 0) {
        if (out_of_budget(w))
            return 0;
        if (is_draw(w))
            return 0;
        /* Mate distance: no line from here can beat a shorter mate already found. */
        if (alpha < -SCORE_MATE + ply)
            alpha = -SCORE_MATE + ply;
        if (beta > SCORE_MATE - ply - 1)
            beta = SCORE_MATE - ply - 1;
        if (alpha >= beta)
            return alpha;
    }
    int in_check = r->game->in_check(w->pos);
    if (in_check && ply < MAX_PLY / 2)
        depth++;
    if (depth <= 0 || ply >= MAX_PLY)
        return quiescence(w, alpha, beta, ply, 0);

    uint64_t key = w->keys[w->key_count - 1];
    tt_hit hit = {0, 0, -1, 0};
    int tt_found = tt_probe(w->s->setup.tt, key, &hit);
    if (tt_found && !pv_node && ply > 0 && hit.depth >= depth) {
        int score = score_from_tt(hit.score, ply);
        if (hit.bound == BOUND_EXACT || (hit.bound == BOUND_LOWER && score >= beta) ||
            (hit.bound == BOUND_UPPER && score <= alpha))
            return score;
    }
    /* Reverse futility: far above beta near the leaves, a quiet position will not fall. */
    if (!pv_node && !in_check && depth <= 3 && beta < SCORE_MATE_BOUND) {
        int eval = evaluate(w);
        if (eval - 150 * depth >= beta)
            return eval;
    }

    int n = r->game->legal_moves(w->pos, w->moves[ply]);
    if (n == 0)
        return r->no_move_score(w->pos, in_check, ply);
    int restricted = ply == 0 && (w->excluded_count > 0 || w->s->setup.searchmove_count > 0);
    if (restricted && (n = root_filter(w, w->moves[0], n)) == 0)
        return -SCORE_INFINITE; /* search_iterate counts the allowed moves first */
    score_moves(w, ply, n, tt_found ? hit.move : 0);
    int side = r->game->board(w->pos)->side_to_move & 1;
    int best = -SCORE_INFINITE, alpha0 = alpha;
    nnue_move best_move = 0;
    for (int i = 0; i < n; i++) {
        nnue_move m = pick(w, ply, i, n);
        int quiet = r->tactical_value(w->pos, m) == 0;
        make(w, m);
        int gives_check = r->game->in_check(w->pos);
        int score;
        if (i == 0) {
            score = -search(w, -beta, -alpha, depth - 1, ply + 1);
        } else {
            /* Late quiet moves first get a reduced, null-window look. */
            int reduction = (depth >= 3 && i >= 3 && quiet && !in_check && !gives_check) ? (i >= 8 ? 2 : 1) : 0;
            score = -search(w, -alpha - 1, -alpha, depth - 1 - reduction, ply + 1);
            if (score > alpha && reduction)
                score = -search(w, -alpha - 1, -alpha, depth - 1, ply + 1);
            if (score > alpha && score < beta)
                score = -search(w, -beta, -alpha, depth - 1, ply + 1);
        }
        unmake(w, m);
        if (atomic_load_explicit(&w->s->stop, memory_order_relaxed))
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                update_pv(w, ply, m);
                if (score >= beta) {
                    if (quiet) {
                        if (w->killers[ply][0] != m) {
                            w->killers[ply][1] = w->killers[ply][0];
                            w->killers[ply][0] = m;
                        }
                        int *h = &w->history[side][history_slot(m)];
                        *h += depth * depth;
                        if (*h > (1 << 26))
                            *h /= 2;
                    }
                    break;
                }
            }
        }
    }
    int bound = best >= beta ? BOUND_LOWER : alpha > alpha0 ? BOUND_EXACT : BOUND_UPPER;
    if (!restricted) /* a score over some root moves only is not the position's */
        tt_store(w->s->setup.tt, key, best_move, score_to_tt(best, ply), depth, bound);
    return best;
}

void format_line(const engine_rules *r, const void *root, const nnue_move *moves, int n, char *out, size_t size)
{
    size_t used = 0;
    out[0] = 0;
    void *pos = malloc(r->game->pos_size);
    if (pos)
        memcpy(pos, root, r->game->pos_size);
    for (int i = 0; i < n && used + 10 < size; i++) {
        char text[16];
        if (pos && r->format_move_in)
            r->format_move_in(pos, moves[i], text, sizeof text);
        else
            r->game->format_move(moves[i], text, sizeof text);
        used += (size_t)snprintf(out + used, size - used, " %s", text);
        if (pos)
            r->game->make(pos, moves[i], NULL);
    }
    free(pos);
}

/* One "info" line per MultiPV line (best first): depth, seldepth, multipv, score, nodes, nps,
 * hashfull, time, pv. */
static void print_info(worker *w, int depth, int line)
{
    search_shared *s = w->s;
    const engine_rules *r = s->setup.rules;
    int score = w->line_score[line];
    char pv[MAX_PLY * 8 + 1];
    format_line(r, s->setup.root, w->line_pv[line], w->line_len[line], pv, sizeof pv);
    long long ms = search_elapsed(s);
    uint64_t nodes = search_total_nodes(s);
    char score_text[32];
    if (score >= SCORE_MATE_BOUND || score <= -SCORE_MATE_BOUND) {
        int plies = score > 0 ? SCORE_MATE - score : -SCORE_MATE - score;
        /* UCI counts moves, USI counts plies. */
        int n = r->protocol[1] == 'c' ? (plies > 0 ? (plies + 1) / 2 : (plies - 1) / 2) : plies;
        snprintf(score_text, sizeof score_text, "mate %d", n);
    } else {
        snprintf(score_text, sizeof score_text, "cp %d", r->to_centipawns(score));
    }
    engine_print("info depth %d seldepth %d multipv %d score %s nodes %llu nps %llu hashfull %d time %lld pv%s", depth,
                 w->seldepth > depth ? w->seldepth : depth, line + 1, score_text, (unsigned long long)nodes,
                 (unsigned long long)(nodes * 1000 / (uint64_t)(ms > 0 ? ms : 1)), tt_hashfull(s->setup.tt), ms, pv);
}

/* Root moves a search may play (searchmoves), for the number of MultiPV lines. */
static int allowed_root_moves(worker *w)
{
    int n = w->s->setup.rules->game->legal_moves(w->pos, w->moves[0]);
    return w->s->setup.searchmove_count ? root_filter(w, w->moves[0], n) : n;
}

/* Thread 0 with MultiPV N: line k searches the root without the first moves of lines 0..k-1;
 * lines are kept sorted by score (insertion: the later lines rarely beat earlier ones). */
static int search_lines(worker *w, int depth, int lines)
{
    int done = 0;
    for (int k = 0; k < lines; k++) {
        w->excluded_count = k;
        int score = search(w, -SCORE_INFINITE, SCORE_INFINITE, depth, 0);
        if (atomic_load(&w->s->stop) || w->pv_len[0] == 0)
            break;
        int at = k;
        while (at > 0 && w->line_score[at - 1] < score)
            at--;
        for (int j = k; j > at; j--) {
            memcpy(w->line_pv[j], w->line_pv[j - 1], sizeof w->line_pv[j]);
            w->line_len[j] = w->line_len[j - 1];
            w->line_score[j] = w->line_score[j - 1];
        }
        memcpy(w->line_pv[at], w->pv[0], sizeof w->line_pv[at]);
        w->line_len[at] = w->pv_len[0];
        w->line_score[at] = score;
        w->excluded[k] = w->pv[0][0];
        done = k + 1;
    }
    w->excluded_count = 0;
    return done;
}

/* One thread's iterative deepening. Thread 0 reports and decides when to stop; the others
 * search the same root (odd threads one ply deeper) to fill the shared table. */
void *search_iterate(void *arg)
{
    worker *w = arg;
    search_shared *s = w->s;
    int max_depth = s->setup.go.depth > 0 ? (s->setup.go.depth < MAX_PLY - 1 ? s->setup.go.depth : MAX_PLY - 1)
                                          : MAX_PLY - 1;
    int lines = 1;
    if (w->id == 0) {
        int allowed = allowed_root_moves(w);
        lines = s->setup.multipv < allowed ? s->setup.multipv : allowed;
        lines = lines < 1 ? 1 : lines;
    }
    for (int depth = 1 + (w->id & 1); depth <= max_depth; depth++) {
        w->seldepth = 0;
        int score, found = 0;
        if (w->id == 0) {
            found = search_lines(w, depth, lines);
            score = w->line_score[0];
        } else {
            score = search(w, -SCORE_INFINITE, SCORE_INFINITE, depth, 0);
        }
        int stopped = atomic_load(&s->stop);
        if (stopped && w->depth_done > 0)
            break; /* an unfinished iteration: keep the last complete one */
        if (w->id == 0 && found > 0) {
            w->best_move = w->line_pv[0][0];
            w->best_score = score;
            w->ponder_move = w->line_len[0] > 1 ? w->line_pv[0][1] : 0; /* bestmove ... ponder */
        } else if (w->id != 0 && w->pv_len[0] > 0) {
            w->best_move = w->pv[0][0];
            w->best_score = score;
        }
        w->depth_done = depth;
        if (stopped)
            break;
        if (w->id != 0)
            continue;
        for (int k = 0; k < found; k++)
            print_info(w, depth, k);
        int pondering = atomic_load(&s->pondering);
        if (!pondering && s->soft_ms >= 0 && search_elapsed(s) >= s->soft_ms / 2)
            break;   /* the next iteration would most likely not finish in time */
        if (s->setup.go.mate > 0 && score >= SCORE_MATE - 2 * s->setup.go.mate)
            break;
        /* A mate found with the whole line searched: deeper iterations cannot change it. */
        int mate_plies = SCORE_MATE - (score < 0 ? -score : score);
        if (!pondering && !s->setup.go.infinite && mate_plies <= MAX_PLY && depth > mate_plies + 2)
            break;
    }
    return NULL;
}
