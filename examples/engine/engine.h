/* examples/engine/engine.h: a small alpha-beta engine on the nnue library, shared by the chess
 * and xiangqi engine (nnue-uci) and the shogi engine (nnue-usi).
 *
 * What is game-specific sits behind engine_rules (rules_chess.c, rules_xiangqi.c,
 * rules_shogi.c); moves,
 * positions and deltas come from the library's game adapters (nnue_game in nnue_board.h).
 * Evaluation goes only through the library: one nnue_net shared by every search thread, one
 * nnue_state per thread, pushed after each make and popped after each unmake.
 *
 * Files: position_key.c (hash keys from the board and deltas), tt.c (shared transposition
 * table), time_budget.c (go parameters -> time), search.c (iterative deepening, PVS,
 * quiescence), search_threads.c (Lazy SMP threads, start / stop, output), engine_loop.c
 * (the UCI/USI command loop, options, net loading), line_reader.c (input lines of bounded
 * length), nnue_uci.c / nnue_usi.c (main). */
#ifndef NNUE_EXAMPLE_ENGINE_H
#define NNUE_EXAMPLE_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "nnue.h"
#include "nnue_board.h"
#include "nnue_extend.h"
#include "nnue_protocol.h"

#define MAX_PLY 128                          /* deepest search ply (the nnue_state stack size) */
#define MAX_GAME_PLIES 4096                  /* game history kept for repetitions */
#define SCORE_MATE 32000                     /* mate at the root; mate in n plies: SCORE_MATE - n */
#define SCORE_MATE_BOUND (SCORE_MATE - MAX_PLY)
#define SCORE_INFINITE 32001
#define SCORE_EVAL_LIMIT 20000               /* evaluations are clamped inside +-this */

/* The game-specific part of the engine. */
typedef struct engine_rules {
    const char *protocol;          /* "uci" or "usi" */
    const char *name;              /* "nnue-uci" */
    const nnue_game *game;         /* the library's adapter: parse, moves, make/unmake with deltas */
    const char *start_position;    /* FEN / SFEN of "position startpos" */
    const char *no_move;           /* bestmove when there is no legal move: "0000" / "resign" */
    /* Ordering value of a capture or promotion (> 0), 0 for a quiet move. */
    int (*tactical_value)(const void *pos, nnue_move move);
    /* Key bits the board does not show (chess: castling rights, en passant); 0 if none. */
    uint64_t (*key_extra)(const void *pos);
    /* Score of the side to move when it has no legal move, ply plies from the root. */
    int (*no_move_score)(const void *pos, int in_check, int ply);
    /* Plies back to look for repetitions (chess: the 50-move counter), and 1 when a counting
     * rule makes the position a draw (chess: 100 reversible plies). */
    int (*reversible_plies)(const void *pos);
    int (*counting_draw)(const void *pos);
    /* Centipawns for "info score cp" from an evaluation value. */
    int (*to_centipawns)(int value);
    /* UCI_Chess960: castling written as king takes rook (NULL: the game has no such option). */
    void (*set_chess960)(void *pos, int on);
    /* A move in the position's own notation (Chess960 castling); NULL: game->format_move. */
    void (*format_move_in)(const void *pos, nnue_move move, char *buf, unsigned size);
} engine_rules;

extern const engine_rules engine_rules_chess;
extern const engine_rules engine_rules_shogi;
/* Built at the first call from the library's descriptor (NULL if the library lacks the game). */
const engine_rules *engine_rules_xiangqi(void);

/* ---- position keys (position_key.c) ---- */
uint64_t key_of_board(const nnue_board *board);
/* The key after a move from the key before it and the move's delta (side to move flips). */
uint64_t key_after(uint64_t key, const nnue_delta *delta);

/* ---- transposition table (tt.c): lock-free, shared by the threads ---- */
enum { BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };
typedef struct tt_entry {
    _Atomic uint64_t check;        /* key ^ data: a torn write never matches */
    _Atomic uint64_t data;
} tt_entry;
typedef struct tt_table {
    tt_entry *entries;
    uint64_t mask;                 /* entries - 1 (a power of two) */
} tt_table;
typedef struct tt_hit {
    nnue_move move;
    int score, depth, bound;
} tt_hit;
int tt_resize(tt_table *tt, int megabytes);   /* 0 on success; clears */
void tt_clear(tt_table *tt);
void tt_free(tt_table *tt);
int tt_hashfull(const tt_table *tt);         /* used entries per mille, from the first 1000 */
int tt_probe(const tt_table *tt, uint64_t key, tt_hit *hit);
void tt_store(tt_table *tt, uint64_t key, nnue_move move, int score, int depth, int bound);

/* ---- time (time_budget.c) ---- */
/* Milliseconds to aim for (soft) and never exceed (hard) for the side to move (colour 0 moves
 * first: UCI wtime, USI btime); -1 = no time limit. */
void time_budget(const nnue_go_limits *go, int colour, int usi, long long overhead_ms, long long *soft,
                 long long *hard);
long long now_ms(void);

/* ---- search (search.c) ---- */
typedef struct search_shared search_shared;
typedef struct worker worker;

#define MULTIPV_MAX 64                       /* MultiPV lines at most */
#define SEARCHMOVES_MAX 256

typedef struct search_setup {
    const engine_rules *rules;
    const nnue_net *net;           /* NULL: every evaluation is 0 */
    tt_table *tt;
    int threads;
    const void *root;              /* position blob (rules->game->pos_size bytes) */
    const uint64_t *history;       /* keys of the game's positions, the root's last */
    int history_count;
    nnue_go_limits go;
    int multipv;                   /* root lines reported (MultiPV, 1..MULTIPV_MAX) */
    int searchmove_count;          /* go searchmoves: only these root moves (0: all) */
    nnue_move searchmoves[SEARCHMOVES_MAX];
} search_setup;

/* Starts a search in the background; it prints info lines and, at the end, bestmove. The root
 * position and the history are copied here: the caller may change them while it runs. */
search_shared *search_start(const search_setup *setup);
void search_stop(search_shared *s);       /* asks it to stop (returns at once) */
void search_ponderhit(search_shared *s);  /* pondering becomes a timed search from now */
void search_wait(search_shared *s);       /* waits for bestmove and frees the search */

/* ---- input (line_reader.c) ---- */
enum { ENGINE_LINE_END = -1, ENGINE_LINE_TOO_LONG = -2 };
/* The next line of `in` without its newline, in line (limit + 1 bytes), NUL-terminated: returns
 * its length; ENGINE_LINE_END at the end of input; ENGINE_LINE_TOO_LONG for a line of more than
 * limit characters, which is then read up to its newline and dropped whole (line is empty).
 * A final line without a newline counts as a line. Uses no memory beyond line. */
long engine_read_line(FILE *in, char *line, size_t limit);

/* The command loop (engine_loop.c): answers --help / --version, else reads stdin until quit;
 * returns the exit code. games: the games the engine plays (NULL-terminated, the first is the
 * default; with several, the loaded net's game or the UCI_Variant option chooses). */
int engine_main(const engine_rules *const *games, int argc, char **argv);

/* Output lines to the GUI (one lock, flushed). */
void engine_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
