/* tools/cmd_perft.c: `nnue perft [--game G] [--divide] POSITION DEPTH`.
 * Without --game the game is the one whose rank count is the position's row count (8: chess,
 * 9: shogi) and whose parser accepts it; "startpos" means the first game's (chess). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nnue_board.h"
#include "nnue_error.h"
#include "tools/commands.h"
#include "tools/position_line.h"
#include "tools/tool_args.h"

/* The first game whose rank count is the position's row count ('/'-separated) and whose
 * parser accepts it; else the first game of that rank count; else the first game (whose
 * parser then says what is wrong). */
static const nnue_game *guess_game(const char *text)
{
    int rows = 1;
    for (const char *p = text; *p && *p != ' '; p++)
        rows += *p == '/';
    const nnue_game *fit = NULL;
    for (int g = 0; g < nnue_game_count(); g++) {
        const nnue_game *game = nnue_game_at(g);
        if (game->ranks != rows)
            continue;
        nnue_error err;
        void *pos = calloc(1, game->pos_size);
        int parsed = pos && game->parse(pos, text, &err) == 0;
        free(pos);
        if (parsed)
            return game;
        if (!fit)
            fit = game;
    }
    return fit ? fit : nnue_game_at(0);
}

int cmd_perft(int argc, char **argv)
{
    const char *game_name = NULL, *text = NULL, *depth_text = NULL;
    int divide = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--divide") == 0)
            divide = 1;
        else if (strcmp(argv[i], "--game") == 0 && i + 1 < argc)
            game_name = argv[++i];
        else if (strcmp(argv[i], "--game") == 0) {
            static const char *const value_options[] = {"--game", NULL};
            return tool_bad_argument("perft", argv[i], value_options);
        } else if (!text)
            text = argv[i];
        else if (!depth_text)
            depth_text = argv[i];
        else {
            return tool_bad_argument("perft", argv[i], NULL);
        }
    }
    if (!text || !depth_text) {
        fprintf(stderr, "usage: nnue perft [--game GAME] [--divide] POSITION DEPTH\n");
        return 2;
    }
    char *end;
    long depth = strtol(depth_text, &end, 10);
    if (*end || depth < 1 || depth > 20) {
        fprintf(stderr, "nnue perft: DEPTH must be an integer 1..20, got '%s'\n", depth_text);
        return 2;
    }
    const nnue_game *game = NULL;
    if (game_name) {
        game = nnue_game_find(game_name);
    } else {
        game = guess_game(text);
    }
    if (!game) {
        fprintf(stderr, "nnue perft: unknown game '%s'\n", game_name);
        return 2;
    }
    void *pos = calloc(1, game->pos_size);
    if (!pos)
        return 1;
    nnue_error err;
    char *line = strdup(text);   /* "startpos", EPD, ... as in position files */
    if (!line) {
        free(pos);
        return 1;
    }
    int bad = game->parse(pos, position_line(game, line, 0), &err) != 0;
    free(line);
    if (bad) {
        char msg[1200];
        nnue_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "nnue perft: %s\n", msg);
        free(pos);
        return 1;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    unsigned long long total = 0;
    if (divide) {
        nnue_move moves[NNUE_MAX_MOVES];
        int n = game->legal_moves(pos, moves);
        for (int i = 0; i < n; i++) {
            char name[16];
            game->format_move(moves[i], name, sizeof name);
            game->make(pos, moves[i], NULL);
            unsigned long long count = nnue_perft(game, pos, (int)depth - 1);
            game->unmake(pos, moves[i]);
            printf("%s: %llu\n", name, count);
            total += count;
        }
        printf("\n");
    } else {
        total = nnue_perft(game, pos, (int)depth);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("nodes %llu\n", total);
    fprintf(stderr, "time %.3f s, %.0f nodes/s\n", secs, secs > 0 ? (double)total / secs : 0.0);
    free(pos);
    return 0;
}
