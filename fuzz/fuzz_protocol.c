/* fuzz/fuzz_protocol.c: libFuzzer target for the engines' protocol input (include/nnue_protocol.h,
 * UCI and USI). The input is what an engine reads on stdin: it is split into lines by the
 * engines' own reader (examples/engine/line_reader.c), which must agree with a plain split at
 * '\n' (a line past the limit refused whole, nothing of it returned); the split is made with
 * the protocol's limit and again with a small limit taken from the input, so that long lines
 * and the discarding of their rest are met without megabyte inputs. Each line of the first split
 * parses or gives NNUE_E_SYNTAX with a column inside the line. A parsed "position" is then
 * played as an engine would: the FEN/SFEN (or both start positions) through the games' parsers,
 * each move through parse_move and make. Never a crash, leak or UB. Seeds: fuzz/seeds/protocol
 * (lines a GUI sends) and, from make_seeds.sh, lines just past and just at the limit. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "examples/engine/engine.h"
#include "nnue_board.h"
#include "nnue_protocol.h"

static nnue_command cmd; /* about 20 KB: once, as nnue_protocol.h advises */
static char line[NNUE_PROTOCOL_MAX_LINE + 1];

static void play(const nnue_game *game, const char *start)
{
    void *pos = calloc(1, game->pos_size);
    nnue_error err;
    if (pos && game->parse(pos, start, &err) == 0)
        for (int i = 0; i < cmd.move_count; i++) {
            nnue_move m;
            if (game->parse_move(pos, cmd.moves[i], &m, &err) != 0)
                break;
            game->make(pos, m, NULL);
        }
    free(pos);
}

static void parse_line(void)
{
    nnue_error err;
    nnue_status st = nnue_protocol_parse(line, &cmd, &err);
    if (st != NNUE_OK) {
        if (st != NNUE_E_SYNTAX || err.column < 1 || (size_t)err.column > strlen(line) + 1)
            __builtin_trap(); /* every protocol error must point into the line */
    } else if (cmd.kind == NNUE_CMD_POSITION) {
        for (int g = 0; nnue_games[g]; g++) {
            const nnue_game *game = nnue_games[g];
            int shogi = strcmp(game->name, "shogi") == 0;
            const char *start = shogi ? "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
                                      : "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
            play(game, cmd.startpos ? start : cmd.position);
        }
    }
}

/* Splits data with engine_read_line at this limit, checking each line against the plain split;
 * parses the lines when asked. */
static void split(const uint8_t *data, size_t size, size_t limit, int parse)
{
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return;
    size_t at = 0; /* where the next line starts in data */
    for (;;) {
        long n = engine_read_line(in, line, limit);
        const uint8_t *nl = at < size ? memchr(data + at, '\n', size - at) : NULL;
        size_t len = nl ? (size_t)(nl - data) - at : size - at;
        if (n == ENGINE_LINE_END) {
            if (at < size)
                __builtin_trap(); /* input left unread */
            break;
        }
        if (at >= size)
            __builtin_trap(); /* a line after the end */
        if (n == ENGINE_LINE_TOO_LONG ? len <= limit || line[0] : (size_t)n != len || memcmp(line, data + at, len))
            __builtin_trap(); /* refused a line that fits, or returned other bytes than the line's */
        if (parse && n >= 0)
            parse_line();
        at += len + (nl != NULL);
    }
    fclose(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4 * NNUE_PROTOCOL_MAX_LINE)
        return 0;
    split(data, size, NNUE_PROTOCOL_MAX_LINE, 1);
    if (size)
        split(data, size, 1 + data[0] % 24, 0);
    return 0;
}
