/* fuzz/fuzz_protocol.c: libFuzzer target for the engines' protocol lines (include/nnue_protocol.h,
 * UCI and USI): any line parses or gives NNUE_E_SYNTAX with a column inside the line. A parsed
 * "position" is then played as an engine would: the FEN/SFEN (or both start positions) through
 * the games' parsers, each move through parse_move and make. Never a crash, leak or UB. Seeds:
 * fuzz/seeds/protocol (lines a GUI sends). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nnue_board.h"
#include "nnue_protocol.h"

static nnue_command cmd; /* about 20 KB: once, as nnue_protocol.h advises */

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > NNUE_PROTOCOL_MAX_LINE + 16)
        return 0;
    char *line = malloc(size + 1);
    if (!line)
        return 0;
    memcpy(line, data, size);
    line[size] = 0;
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
    free(line);
    return 0;
}
