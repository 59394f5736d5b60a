/* tools/position_line.h: one line of a position file, in the forms chess and shogi tools write,
 * to the position text the game's parser reads. Accepted around a FEN / SFEN:
 *   "startpos"                          the game's start position
 *   FEN<TAB>more columns                TSV: the first column
 *   FEN | score | result                bullet's text format: the part before '|'
 *   FEN4 bm Nd5; id "x";                EPD: operations after the four (or six) position fields,
 *                                       recognised by their closing ';', are ignored
 * and trailing spaces or a CR. Everything else goes to the parser unchanged, so its error
 * columns are columns of the line. */
#ifndef NNUE_TOOLS_POSITION_LINE_H
#define NNUE_TOOLS_POSITION_LINE_H

#include <stdint.h>

#include "nnue_board.h"

/* Returns the position text of line (line is cut in place; "startpos" gives game->start), or
 * NULL for a line of a file to skip: empty, a '#' comment, a "fen"/"sfen" TSV header on line
 * 1. number: the line's 1-based number in its file, 0 for a position given as an argument
 * (never skipped). */
const char *position_line(const nnue_game *game, char *line, uint64_t number);

/* Longest line of a position file taken (a FEN with EPD operations is a few hundred bytes): a
 * longer one is reported as a bad line and skipped, and memory stays bounded while reading. */
#define POSITION_LINE_MAX (64 * 1024)

#endif
