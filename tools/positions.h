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
    int bad;            /* bad lines of the file, reported and skipped */
    int first_bad;      /* line number of the first */
} position_list;

/* Parses one text or every position line of a file (tools/position_line.h: FEN / SFEN,
 * "startpos", TSV, bullet text, EPD; '#' comments and empty lines skipped).
 * A bad position prints "nnue CMD: FILE:LINE:COL: ..."; in a file it is skipped and counted
 * (bad, first_bad; a summary line ends the file). Returns non-zero for a bad text, a file that
 * cannot be read or holds no good position, or no memory. */
int positions_from_text(position_list *list, const nnue_game *game, const char *text, const char *cmd);
int positions_from_file(position_list *list, const nnue_game *game, const char *path, const char *cmd);
void positions_free(position_list *list);

static inline void *position_at(const position_list *list, int i)
{
    return list->blobs + (size_t)i * list->game->pos_size;
}

#endif
