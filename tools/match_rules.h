/* tools/match_rules.h: a game being played in `nnue match`: every move checked with the
 * library's move generator, and the end of the game decided by the game's rules (its
 * descriptor's adjudicate: games/chess/rules.c, games/shogi/rules.c). This file keeps the
 * history they read: the position keys (the position text without its counter fields) for
 * repetitions, and which positions had the side to move in check (perpetual check).
 * Without an adjudicate rule a game ends when the side to move has no legal move (in check:
 * it loses, else a draw); every game ends at the ply cap ("ply cap"). */
#ifndef NNUE_TOOLS_MATCH_RULES_H
#define NNUE_TOOLS_MATCH_RULES_H

#include "nnue_board.h"
#include "nnue_error.h"

#define MATCH_MAX_PLIES 2048

typedef struct match_record {
    const nnue_game *game;
    void *pos;                                   /* the current position */
    char start[160];                             /* FEN / SFEN of the start */
    int plies;
    char moves[MATCH_MAX_PLIES][8];              /* protocol text of each move */
    char keys[MATCH_MAX_PLIES + 1][160];         /* position without move counters, after each ply */
    unsigned char check[MATCH_MAX_PLIES + 1];    /* the side to move is in check, after each ply */
} match_record;

/* Outcome: winner 0 / 1 (colour), -1 draw; reason says why ("checkmate", "stalemate", ...). */
typedef struct match_outcome {
    int over;
    int winner;
    char reason[96];
} match_outcome;

/* Starts from a FEN / SFEN (NULL: the start position). Returns 0, or -1 with err filled. */
int record_init(match_record *r, const nnue_game *game, const char *start, nnue_error *err);
void record_free(match_record *r);

/* Plays a move given as protocol text if it is legal. Returns 0, or -1 with err filled. */
int record_play(match_record *r, const char *move, nnue_error *err);

/* Whether the game is over after the last move, and how (never over at max_plies - 1). */
match_outcome record_adjudicate(const match_record *r, int max_plies);

/* A move in the notation of an engine whose ranks count from 0 + shift (shift = 1: Debian's
 * Fairy-Stockfish in xiangqi writes "h3e3" for Pikafish's "h2e2"; -1 translates back): every run
 * of digits is shifted. Returns 0, or -1 when a rank would fall below 0, a run has more than 4
 * digits, or out does not hold it. */
int move_shift_ranks(const char *move, int shift, char *out, size_t size);

/* A "bestmove win" declaration by the side to move (games whose descriptor has
 * declaration_valid: shogi's entering king); 1 when it is valid. */
int record_declaration_valid(const match_record *r);

#endif
