/* tools/positions.c: position lists for the tool, with located parse errors. A bad line of a
 * file is reported and skipped, as `nnue eval --file` does (tools/eval_batch.c): one rule. */
#include "tools/positions.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/line_input.h"
#include "nnue_error.h"
#include "tools/position_line.h"

/* Appends the position of text: 0, 1 for a bad position (reported, located), -1 out of memory. */
static int add(position_list *list, const char *text, const char *file, int line, const char *cmd)
{
    if (list->count % 1024 == 0) {
        size_t cap = (size_t)list->count + 1024;
        char **texts = realloc(list->texts, cap * sizeof *texts);
        unsigned char *blobs = realloc(list->blobs, cap * list->game->pos_size);
        if (texts)
            list->texts = texts;
        if (blobs)
            list->blobs = blobs;
        if (!texts || !blobs) {
            fprintf(stderr, "nnue %s: out of memory\n", cmd);
            return -1;
        }
    }
    nnue_error err;
    void *pos = list->blobs + (size_t)list->count * list->game->pos_size;
    memset(pos, 0, list->game->pos_size);
    if (list->game->parse(pos, text, &err) != 0) {
        char msg[1200];
        nnue_error_format(&err, msg, sizeof msg);
        if (file)
            fprintf(stderr, "nnue %s: %s:%d:%d: %s\n", cmd, file, line, err.column, err.message);
        else
            fprintf(stderr, "nnue %s: %s\n", cmd, msg);
        return 1;
    }
    if (!(list->texts[list->count] = strdup(text))) {
        fprintf(stderr, "nnue %s: out of memory\n", cmd);
        return -1;
    }
    list->count++;
    return 0;
}

int positions_from_text(position_list *list, const nnue_game *game, const char *text, const char *cmd)
{
    memset(list, 0, sizeof *list);
    list->game = game;
    char *copy = strdup(text);
    if (!copy) {
        fprintf(stderr, "nnue %s: out of memory\n", cmd);
        return 1;
    }
    int rc = add(list, position_line(game, copy, 0), NULL, 0, cmd);
    free(copy);
    return rc != 0;
}

int positions_from_file(position_list *list, const nnue_game *game, const char *path, const char *cmd)
{
    memset(list, 0, sizeof *list);
    list->game = game;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "nnue %s: %s: cannot open: %s\n", cmd, path, strerror(errno));
        return 1;
    }
    char *line = NULL;
    size_t cap = 0, len;
    int number = 0, rc = 0;
    tool_line_status got;
    while (rc >= 0 && (got = tool_line_read(f, &line, &cap, POSITION_LINE_MAX, &len)) != TOOL_LINE_END) {
        number++;
        if (got == TOOL_LINE_NOMEM) {
            fprintf(stderr, "nnue %s: out of memory\n", cmd);
            rc = -1;
            break;
        }
        if (got == TOOL_LINE_TOO_LONG) {
            fprintf(stderr, "nnue %s: %s:%d:1: line longer than %d bytes (a position line is short)\n", cmd, path,
                    number, POSITION_LINE_MAX);
            rc = 1;
        } else {
            const char *text = position_line(game, line, (uint64_t)number);
            rc = text ? add(list, text, path, number, cmd) : 0;
        }
        if (rc > 0 && list->bad++ == 0)
            list->first_bad = number;
    }
    if (rc >= 0 && ferror(f)) {
        fprintf(stderr, "nnue %s: %s: read error after line %d: %s\n", cmd, path, number, strerror(errno));
        rc = -1;
    }
    free(line);
    fclose(f);
    if (list->bad)
        fprintf(stderr, "nnue %s: %s: %d bad line%s (the first: line %d), skipped\n", cmd, path, list->bad,
                list->bad == 1 ? "" : "s", list->first_bad);
    if (rc >= 0 && list->count == 0) {
        fprintf(stderr, "nnue %s: %s: no positions\n", cmd, path);
        rc = -1;
    }
    return rc < 0;
}

void positions_free(position_list *list)
{
    for (int i = 0; i < list->count; i++)
        free(list->texts[i]);
    free(list->texts);
    free(list->blobs);
    memset(list, 0, sizeof *list);
}
