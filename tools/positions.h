/* tools/positions.h: reading position lists (FEN/SFEN, one per line) for eval and bench. */
#ifndef NNUE_TOOLS_POSITIONS_H
#define NNUE_TOOLS_POSITIONS_H

#include <stddef.h>

#include "nnue_board.h"

typedef struct position_list {
    const nnue_game *game;
    int count;
    char **texts;       /* the position strings as given */
    unsigned char *blobs; /* count * game->pos_size bytes of parsed positions */
} position_list;

/* Parses one text or every position line of a file (tools/position_line.h: FEN / SFEN,
 * "startpos", TSV, bullet text, EPD; '#' comments and empty lines skipped).
 * Prints "nnue CMD: FILE:LINE:COL: ..." on the first bad position and returns non-zero. */
int positions_from_text(position_list *list, const nnue_game *game, const char *text, const char *cmd);
int positions_from_file(position_list *list, const nnue_game *game, const char *path, const char *cmd);
void positions_free(position_list *list);

static inline void *position_at(const position_list *list, int i)
{
    return list->blobs + (size_t)i * list->game->pos_size;
}

#endif
