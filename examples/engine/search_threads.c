/* examples/engine/search_threads.c: a search as the command loop sees it: start (one thread per
 * "Threads", each with its own position copy and nnue_state over the one shared net: "Lazy
 * SMP"), stop, ponderhit, wait; and the locked output to the GUI. Thread 0 decides when to
 * stop and its best move is played. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search_internal.h"

static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

void engine_print(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&print_lock);
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    pthread_mutex_unlock(&print_lock);
    va_end(ap);
}

static worker *worker_new(search_shared *s, int id)
{
    const search_setup *su = &s->setup;
    worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->s = s;
    w->id = id;
    w->pos = malloc(su->rules->game->pos_size);
    if (!w->pos) {
        free(w);
        return NULL;
    }
    memcpy(w->pos, su->root, su->rules->game->pos_size);
    const nnue_board *b = su->rules->game->board(w->pos);
    if (su->net) {
        w->nn = nnue_state_new(su->net, MAX_PLY + 4);
        w->with_threats = nnue_state_takes_threats(w->nn);
        if (w->nn)
            nnue_state_reset(w->nn, b);
    }
    int first = su->history_count > MAX_GAME_PLIES ? su->history_count - MAX_GAME_PLIES : 0;
    for (int i = first; i < su->history_count; i++)
        w->keys[w->key_count++] = su->history[i];
    w->board_keys[w->key_count - 1] = key_of_board(b);
    return w;
}

static void worker_free(worker *w)
{
    if (!w)
        return;
    nnue_state_free(w->nn);
    free(w->pos);
    free(w);
}

/* The search's own thread: starts the helpers, runs thread 0, then waits for them and for
 * "stop" when the search was infinite or pondering, and prints bestmove. */
static void *run(void *arg)
{
    search_shared *s = arg;
    const engine_rules *r = s->setup.rules;
    for (int i = 1; i < s->threads; i++)
        pthread_create(&s->workers[i]->thread, NULL, search_iterate, s->workers[i]);
    search_iterate(s->workers[0]);
    while ((s->setup.go.infinite || atomic_load(&s->pondering)) && !atomic_load(&s->stop)) {
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    atomic_store(&s->stop, 1);
    for (int i = 1; i < s->threads; i++)
        pthread_join(s->workers[i]->thread, NULL);
    worker *w = s->workers[0];
    nnue_move best = w->best_move;
    if (!best && s->setup.searchmove_count > 0) { /* stopped before depth 1: a move it may play */
        best = s->setup.searchmoves[0];
    } else if (!best) {
        nnue_move *moves = w->moves[0];
        best = r->game->legal_moves(w->pos, moves) > 0 ? moves[0] : 0;
    }
    char line[40];
    if (best && best == w->best_move && w->ponder_move) {
        nnue_move two[2] = {best, w->ponder_move}; /* ponder: the reply a pondering GUI sends "go ponder" on */
        format_line(r, s->setup.root, two, 2, line, sizeof line);
        char *reply = strchr(line + 1, ' ');
        *reply = 0;
        engine_print("bestmove%s ponder %s", line, reply + 1);
    } else if (best) {
        format_line(r, s->setup.root, &best, 1, line, sizeof line);
        engine_print("bestmove%s", line);
    } else {
        engine_print("bestmove %s", r->no_move);
    }
    return NULL;
}

search_shared *search_start(const search_setup *setup)
{
    search_shared *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->setup = *setup;
    /* The command loop keeps using its position (go searchmoves is parsed while a search runs),
     * so the search reads only its own copy after this call. */
    s->root_copy = malloc(setup->rules->game->pos_size);
    if (!s->root_copy) {
        free(s);
        return NULL;
    }
    memcpy(s->root_copy, setup->root, setup->rules->game->pos_size);
    s->setup.root = s->root_copy;
    s->threads = setup->threads < 1 ? 1 : setup->threads;
    atomic_store(&s->start_ms, now_ms());
    atomic_store(&s->pondering, setup->go.ponder);
    int colour = setup->rules->game->board(setup->root)->side_to_move;
    time_budget(&setup->go, colour, setup->rules->protocol[1] == 's', 50, &s->soft_ms, &s->hard_ms);
    s->workers = calloc((size_t)s->threads, sizeof *s->workers);
    int ok = s->workers != NULL;
    for (int i = 0; ok && i < s->threads; i++)
        ok = (s->workers[i] = worker_new(s, i)) != NULL;
    s->setup.history = NULL; /* copied into each worker */
    if (!ok || pthread_create(&s->main_thread, NULL, run, s) != 0) {
        for (int i = 0; s->workers && i < s->threads; i++)
            worker_free(s->workers[i]);
        free(s->workers);
        free(s->root_copy);
        free(s);
        return NULL;
    }
    return s;
}

void search_stop(search_shared *s)
{
    if (s)
        atomic_store(&s->stop, 1);
}

void search_ponderhit(search_shared *s)
{
    if (s && atomic_load(&s->pondering)) {
        atomic_store(&s->start_ms, now_ms());
        atomic_store(&s->pondering, 0);
    }
}

void search_wait(search_shared *s)
{
    if (!s)
        return;
    pthread_join(s->main_thread, NULL);
    for (int i = 0; i < s->threads; i++)
        worker_free(s->workers[i]);
    free(s->workers);
    free(s->root_copy);
    free(s);
}
