/* tools/match_reply.h: what `nnue match` takes from an engine's output: its name ("id name")
 * and its move ("bestmove"), judged against the game so far (match_rules.h). Functions of the
 * text alone, so that a fuzzer can drive them (fuzz/fuzz_match.c). Engine text ends up in the
 * records and on the terminal: control characters are replaced on the way in. */
#ifndef NNUE_TOOLS_MATCH_REPLY_H
#define NNUE_TOOLS_MATCH_REPLY_H

#include <stddef.h>

#include "tools/match_rules.h"

#define MATCH_MOVE_MAX 63   /* longest bestmove word taken (a move is far shorter) */

/* Replaces every control character (below 0x20, and 0x7f) with '?'. */
void match_clean_text(char *text);

/* An "id name NAME" line: NAME (cleaned, cut to size - 1 bytes) into name, returns 1. Any other
 * line, or a name of only spaces: 0, name untouched. */
int match_engine_name(const char *line, char *name, size_t size);

/* 1 when the line is an engine's answer to "go": "bestmove", alone or followed by a space or tab. */
int match_is_bestmove(const char *line);

typedef struct match_verdict {
    int over;            /* 0: the move was played and the game goes on */
    int winner;          /* colour, -1 a draw */
    int failed;          /* the engine broke the protocol or the rules (the match exits 1) */
    char reason[1024];   /* room for a move, an engine name and a whole nnue_error message */
} match_verdict;

/* Judges the side to move's bestmove line: its move (ranks translated from the engine's first
 * rank ranks_from) is played in r, or the game ends: a resignation, a declaration (games with
 * declaration_valid), or a loss with failed set for a line without a move, a word longer than
 * MATCH_MOVE_MAX, or an illegal move. who (0 the engine under test, 1 the opponent) names the
 * option in the hint for ranks counted from the other base; name is the engine's. */
match_verdict match_bestmove(match_record *r, const char *line, int ranks_from, int who, const char *name);

#endif
