/* tools/match_pgn.h: the PGN record of a `nnue match` game (games with a human notation:
 * chess). Engine names and reasons come from the engines, so tag values are escaped as the
 * PGN standard's strings are (a backslash before '"' and '\') and comments cannot be closed
 * early: no text of theirs can add a tag or a move. */
#ifndef NNUE_TOOLS_MATCH_PGN_H
#define NNUE_TOOLS_MATCH_PGN_H

#include <stdio.h>

#include "tools/match_rules.h"

/* in as the inside of a PGN string: '"' and '\' escaped, control characters as '?'; cut to
 * size - 1 bytes, never inside an escape. */
void pgn_tag_value(const char *in, char *out, size_t size);

/* in as the inside of a {comment}: '}' (which would end it) as ')', control characters as '?'. */
void pgn_comment_text(const char *in, char *out, size_t size);

/* One game: the seven tags (Event, Site, Date of today, Round, White, Black, Result) and
 * Termination (the reason), the moves in SAN replayed from r's start, the reason as a comment,
 * the result. winner: colour, -1 a draw. */
void match_write_pgn(FILE *f, const match_record *r, const char *white, const char *black, int winner,
                     const char *reason, int round);

#endif
