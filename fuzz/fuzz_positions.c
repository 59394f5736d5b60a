/* fuzz/fuzz_positions.c: libFuzzer target for FEN and SFEN parsing, round trips and move
 * strings, and the tool's position lines (tools/position_line.c: startpos, EPD, bullet text)
 * in front of the parser. Any input must give a position or a clean error, never a crash or UB. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nnue_board.h"
#include "nnue_error.h"
#include "tools/position_line.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[512];
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = 0;
    char *move_text = strchr(text, '|'); /* "position|move" */
    if (move_text)
        *move_text++ = 0;
    for (int g = 0; nnue_games[g]; g++) {
        const nnue_game *game = nnue_games[g];
        void *pos = calloc(1, game->pos_size);
        nnue_error err;
        char line[512];
        memcpy(line, text, sizeof line);
        const char *peeled = position_line(game, line, 1);
        if (peeled)
            game->parse(pos, peeled, &err); /* a position or a clean error */
        if (game->parse(pos, text, &err) == 0) {
            char out[512];
            game->format(pos, out, sizeof out);
            void *again = calloc(1, game->pos_size);
            if (game->parse(again, out, &err) != 0)
                abort(); /* what we print must parse */
            nnue_move moves[NNUE_MAX_MOVES];
            int count = game->legal_moves(pos, moves);
            for (int i = 0; i < count; i++) {
                nnue_delta delta;
                game->make(pos, moves[i], &delta);
                game->unmake(pos, moves[i]);
            }
            nnue_move m;
            if (move_text && game->parse_move(pos, move_text, &m, &err) == 0) {
                game->make(pos, m, NULL);
                game->unmake(pos, m);
            }
            free(again);
        }
        free(pos);
    }
    return 0;
}
