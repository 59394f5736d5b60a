/* tests/threads/test_read_only.c: the game adapters' read-only calls (legal_moves, in_check,
 * parse_move, format, board, adjudicate, declaration_valid, human_move) leave the position
 * untouched, so several threads may ask them of one shared position at once (Python releases
 * the GIL around them; an engine's threads share a root). Xiangqi's move generator once did
 * make/unmake through the const position: two threads corrupted it for good.
 *
 * Per game, positions from random walks are each read by WORKERS threads at the same time, many
 * rounds; every thread's answers must equal a single-threaded reading taken first, and the
 * position's bytes must be unchanged afterwards. Under ThreadSanitizer (suite 'threads' in
 * build-tsan) a write from any of these calls is reported even when the values survive. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue.h"
#include "nnue_board.h"

enum { WORKERS = 4, ROUNDS = 40, POSITIONS = 24 };

/* What one reading of a position gives. */
typedef struct reading {
    int count, in_check, over, winner, declaration, parsed_ok;
    nnue_move moves[NNUE_MAX_MOVES];
    char text[256], first_human[32];
    unsigned piece_sum;
} reading;

typedef struct shared_pos {
    const nnue_game *game;
    const void *pos;
    const reading *expected;
    int mismatches;
} shared_pos;

static void read_position(const nnue_game *game, const void *pos, reading *r)
{
    memset(r, 0, sizeof *r);
    r->count = game->legal_moves(pos, r->moves);
    r->in_check = game->in_check(pos);
    game->format(pos, r->text, sizeof r->text);
    const nnue_board *b = game->board(pos);
    for (int sq = 0; sq < NNUE_MAX_SQUARES; sq++)
        r->piece_sum += (unsigned)b->piece_on[sq] * (unsigned)(sq + 1);
    if (r->count > 0) {
        char move_text[32];
        nnue_move parsed;
        nnue_error err;
        game->format_move(r->moves[r->count - 1], move_text, sizeof move_text);
        r->parsed_ok = game->parse_move(pos, move_text, &parsed, &err) == 0 && parsed == r->moves[r->count - 1];
        if (game->human_move)
            game->human_move(pos, r->moves[0], r->first_human, sizeof r->first_human);
    }
    if (game->adjudicate) {
        nnue_game_history h = {0};
        const char *reason = NULL;
        r->winner = -2;
        r->over = game->adjudicate(pos, &h, &r->winner, &reason);
    }
    if (game->declaration_valid)
        r->declaration = game->declaration_valid(pos);
}

static void *worker(void *arg)
{
    shared_pos *s = arg;
    reading *r = malloc(sizeof *r);
    for (int round = 0; round < ROUNDS; round++) {
        read_position(s->game, s->pos, r);
        if (memcmp(r, s->expected, sizeof *r) != 0)
            s->mismatches++;
    }
    free(r);
    return NULL;
}

/* Positions of a seeded random walk from the start; returns how many were read by the threads. */
static int check_game(const nnue_game *game, unsigned seed)
{
    unsigned char *pos = calloc(1, game->pos_size), *before = malloc(game->pos_size);
    nnue_error err;
    if (game->parse(pos, game->start, &err) != 0) {
        fprintf(stderr, "FAIL %s: start position: %s\n", game->name, err.message);
        exit(1);
    }
    nnue_move moves[NNUE_MAX_MOVES];
    reading *expected = malloc(sizeof *expected);
    int checked = 0;
    for (int p = 0; p < POSITIONS; p++) {
        read_position(game, pos, expected);
        memcpy(before, pos, game->pos_size);
        pthread_t threads[WORKERS];
        shared_pos shared[WORKERS];
        for (int t = 0; t < WORKERS; t++) {
            shared[t] = (shared_pos){game, pos, expected, 0};
            pthread_create(&threads[t], NULL, worker, &shared[t]);
        }
        for (int t = 0; t < WORKERS; t++) {
            pthread_join(threads[t], NULL);
            if (shared[t].mismatches) {
                fprintf(stderr, "FAIL %s: position %d (%s): thread %d read it differently %d times of %d\n",
                        game->name, p, expected->text, t, shared[t].mismatches, ROUNDS);
                exit(1);
            }
        }
        if (memcmp(before, pos, game->pos_size) != 0) {
            fprintf(stderr, "FAIL %s: position %d (%s) changed under read-only calls\n", game->name, p,
                    expected->text);
            exit(1);
        }
        checked++;
        int n = game->legal_moves(pos, moves);
        if (n == 0)
            break;
        seed = seed * 1103515245u + 12345u;
        game->make(pos, moves[(seed >> 16) % (unsigned)n], NULL);
    }
    free(expected);
    free(before);
    free(pos);
    return checked;
}

int main(void)
{
    const char *names[] = {"chess", "shogi", "xiangqi"};
    for (int g = 0; g < 3; g++) {
        const nnue_game *game = nnue_game_find(names[g]);
        if (!game) {
            fprintf(stderr, "FAIL: game %s is not registered\n", names[g]);
            return 1;
        }
        int checked = check_game(game, 2026u + (unsigned)g);
        if (checked < 8) {
            fprintf(stderr, "FAIL %s: only %d positions before the walk ended\n", names[g], checked);
            return 1;
        }
        printf("ok %s: %d positions, each read by %d threads %d times, unchanged\n", names[g], checked, WORKERS,
               ROUNDS);
    }
    return 0;
}
