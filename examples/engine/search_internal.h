/* examples/engine/search_internal.h: what search.c (the alpha-beta search of one thread) and
 * search_threads.c (starting, stopping and reporting a search on several threads) share. */
#ifndef NNUE_EXAMPLE_SEARCH_INTERNAL_H
#define NNUE_EXAMPLE_SEARCH_INTERNAL_H

#include "engine.h"

struct worker {
    search_shared *s;
    int id;
    pthread_t thread;
    void *pos;                              /* this thread's copy of the position */
    nnue_state *nn;                         /* this thread's accumulators (NULL without a net) */
    int with_threats;                       /* the net reads threat features: makes record them */
    nnue_threats threats;                   /* scratch of one make (the push copies it) */
    uint64_t board_keys[MAX_GAME_PLIES + MAX_PLY + 2];  /* pieces and side (key_after) */
    uint64_t keys[MAX_GAME_PLIES + MAX_PLY + 2];        /* board key ^ rules->key_extra */
    int key_count;                          /* keys[key_count - 1] is the current position */
    _Atomic uint64_t nodes;
    nnue_move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    nnue_move killers[MAX_PLY + 1][2];
    int history[2][1 << 16];
    nnue_move moves[MAX_PLY + 1][NNUE_MAX_MOVES];
    int order[MAX_PLY + 1][NNUE_MAX_MOVES];
    nnue_move best_move, ponder_move;       /* ponder_move: the reply expected (thread 0) */
    int best_score, depth_done;
    int seldepth;                           /* deepest ply reached in this iteration */
    int excluded_count;                     /* MultiPV: root moves of the lines found before */
    nnue_move excluded[MULTIPV_MAX];
    nnue_move line_pv[MULTIPV_MAX][MAX_PLY + 1];   /* thread 0: this depth's MultiPV lines */
    int line_len[MULTIPV_MAX], line_score[MULTIPV_MAX];
};

struct search_shared {
    search_setup setup;                     /* root: root_copy; history: not kept (read at start) */
    void *root_copy;                        /* the search's own root: the caller's may change */
    pthread_t main_thread;
    atomic_int stop;
    atomic_int pondering;
    _Atomic long long start_ms;
    long long soft_ms, hard_ms;
    int threads;
    worker **workers;
};

/* " m1 m2 ..." of n moves played from root, each in its position's notation (Chess960). */
void format_line(const engine_rules *r, const void *root, const nnue_move *moves, int n, char *out, size_t size);

/* One thread's iterative deepening (arg: its worker); thread 0 prints the info lines. */
void *search_iterate(void *worker);
/* Nodes of every thread so far, and milliseconds since the search (or ponderhit) started. */
uint64_t search_total_nodes(const search_shared *s);
long long search_elapsed(const search_shared *s);

#endif
