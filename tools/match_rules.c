/* tools/match_rules.c: legality and adjudication of the games of `nnue match` (match_rules.h):
 * the history is kept here, the rules are the game descriptor's. */
#include "tools/match_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The position text without the move counters (the descriptor's counter_fields last fields). */
static void position_key(const match_record *r, char *out, size_t size)
{
    r->game->format(r->pos, out, (unsigned)size);
    for (int drop = r->game->counter_fields; drop > 0; drop--) {
        char *space = strrchr(out, ' ');
        if (space)
            *space = 0;
    }
}

static void note_position(match_record *r)
{
    position_key(r, r->keys[r->plies], sizeof r->keys[0]);
    r->check[r->plies] = (unsigned char)r->game->in_check(r->pos);
}

int record_init(match_record *r, const nnue_game *game, const char *start, nnue_error *err)
{
    memset(r, 0, sizeof *r);
    r->game = game;
    r->pos = calloc(1, game->pos_size);
    if (!start)
        start = game->start;
    snprintf(r->start, sizeof r->start, "%s", start);
    if (!r->pos || game->parse(r->pos, start, err) != 0)
        return -1;
    note_position(r);
    return 0;
}

void record_free(match_record *r)
{
    free(r->pos);
    r->pos = NULL;
}

int record_play(match_record *r, const char *move, nnue_error *err)
{
    nnue_move m;
    if (r->plies >= MATCH_MAX_PLIES - 1) {
        snprintf(err->message, sizeof err->message, "more than %d plies", MATCH_MAX_PLIES - 1);
        return -1;
    }
    if (r->game->parse_move(r->pos, move, &m, err) != 0)
        return -1;
    r->game->make(r->pos, m, NULL);
    snprintf(r->moves[r->plies], sizeof r->moves[0], "%s", move);
    r->plies++;
    note_position(r);
    return 0;
}

static match_outcome outcome(int winner, const char *reason)
{
    match_outcome o = {1, winner, ""};
    snprintf(o.reason, sizeof o.reason, "%s", reason);
    return o;
}

/* Earlier occurrences of the current position (same side to move: every second ply), and
 * for each colour whether it gave check with every one of its moves since the first. */
static nnue_game_history history(const match_record *r, int max_plies)
{
    nnue_game_history h = {r->plies, max_plies, 0, {0, 0}};
    int first = -1;
    for (int i = r->plies - 2; i >= 0; i -= 2)
        if (strcmp(r->keys[i], r->keys[r->plies]) == 0) {
            h.repetitions++;
            first = i;
        }
    if (first < 0)
        return h;
    /* After ply p (1-based), the side that just moved is colour start_side ^ ((p - 1) & 1);
     * check[p] set means that move gave check. */
    int start_side = r->game->board(r->pos)->side_to_move ^ (r->plies & 1);
    for (int checker = 0; checker < 2; checker++) {
        int all = 1, any = 0;
        for (int p = first + 1; p <= r->plies; p++) {
            if ((start_side ^ ((p - 1) & 1)) != checker)
                continue;
            any = 1;
            all &= r->check[p];
        }
        h.always_checked[checker] = (uint8_t)(any && all);
    }
    return h;
}

match_outcome record_adjudicate(const match_record *r, int max_plies)
{
    nnue_game_history h = history(r, max_plies);
    int winner = -1;
    const char *reason = NULL;
    if (r->game->adjudicate) {
        if (r->game->adjudicate(r->pos, &h, &winner, &reason))
            return outcome(winner, reason);
    } else {
        nnue_move moves[NNUE_MAX_MOVES];
        if (r->game->legal_moves(r->pos, moves) == 0)
            return r->game->in_check(r->pos) ? outcome(1 - r->game->board(r->pos)->side_to_move, "checkmate")
                                              : outcome(-1, "stalemate");
    }
    if (r->plies >= max_plies)
        return outcome(-1, "ply cap");
    return (match_outcome){0, -1, ""};
}

int move_shift_ranks(const char *move, int shift, char *out, size_t size)
{
    size_t n = 0;
    for (const char *c = move; *c;) {
        char piece[16];
        int len;
        if (*c >= '0' && *c <= '9') {
            /* A run of more than 4 digits is no rank (an engine's junk: it once overflowed
             * strtol and piece). */
            long v = 0;
            int digits = 0;
            for (; *c >= '0' && *c <= '9'; c++, digits++)
                v = digits < 5 ? v * 10 + (*c - '0') : v;
            v += shift;
            if (digits > 4 || v < 0)
                return -1;
            len = snprintf(piece, sizeof piece, "%ld", v);
        } else {
            piece[0] = *c++;
            piece[1] = 0;
            len = 1;
        }
        if (n + (size_t)len >= size)
            return -1;
        memcpy(out + n, piece, (size_t)len + 1);
        n += (size_t)len;
    }
    if (size)
        out[n] = 0;
    return size ? 0 : -1;
}

int record_declaration_valid(const match_record *r)
{
    return r->game->declaration_valid && r->game->declaration_valid(r->pos);
}
