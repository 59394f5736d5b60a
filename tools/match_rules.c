/* tools/match_rules.c: legality and adjudication of the games of `nnue match` (rules in
 * match_rules.h). Facts: FIDE Laws of Chess (articles 5, 9); the shogi rules of sennichite and
 * the CSA / USI entering-king declaration (27-point rule). */
#include "tools/match_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue_chess.h"
#include "nnue_shogi.h"

/* The position text without the move counters (FEN: last two fields; SFEN: the last one). */
static void position_key(const match_record *r, char *out, size_t size)
{
    r->game->format(r->pos, out, (unsigned)size);
    for (int drop = r->shogi ? 1 : 2; drop > 0; drop--) {
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
    r->shogi = strcmp(game->name, "shogi") == 0;
    r->pos = calloc(1, game->pos_size);
    if (!start)
        start = r->shogi ? NNUE_SHOGI_START_SFEN : NNUE_CHESS_START_FEN;
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

static int chess_insufficient(const nnue_board *b)
{
    int minors = 0;
    for (int sq = 0; sq < 64; sq++) {
        int t = NNUE_PIECE_TYPE(b->piece_on[sq]);
        if (t == NNUE_CHESS_KNIGHT || t == NNUE_CHESS_BISHOP)
            minors++;
        else if (t && t != NNUE_CHESS_KING)
            return 0;
    }
    return minors <= 1;
}

static match_outcome outcome(int winner, const char *reason)
{
    match_outcome o = {1, winner, ""};
    snprintf(o.reason, sizeof o.reason, "%s", reason);
    return o;
}

/* Sennichite: the current position occurred three times before. A side that gave check with
 * each of its moves since the first of those occurrences loses; else a draw. */
static int shogi_repetition(const match_record *r, match_outcome *o)
{
    int seen = 0, first = -1;
    for (int i = r->plies - 2; i >= 0; i -= 2)  /* same side to move: every second ply */
        if (strcmp(r->keys[i], r->keys[r->plies]) == 0) {
            seen++;
            first = i;
        }
    if (seen < 3)
        return 0;
    for (int checker = 0; checker < 2; checker++) {
        /* After ply p (1-based count p), the side that just moved is colour (p - 1) % 2 from the
         * start's side; positions with check[p] set were checks given by that side. */
        int start_side = r->game->board(r->pos)->side_to_move ^ (r->plies & 1);
        int all = 1, any = 0;
        for (int p = first + 1; p <= r->plies; p++) {
            int mover = start_side ^ ((p - 1) & 1);
            if (mover != checker)
                continue;
            any = 1;
            all &= r->check[p];
        }
        if (any && all) {
            *o = outcome(1 - checker, "sennichite by perpetual check");
            return 1;
        }
    }
    *o = outcome(-1, "sennichite (fourfold repetition)");
    return 1;
}

match_outcome record_adjudicate(const match_record *r, int max_plies)
{
    nnue_move moves[NNUE_MAX_MOVES];
    const nnue_board *b = r->game->board(r->pos);
    int stm = b->side_to_move;
    match_outcome o = {0, -1, ""};
    if (r->game->legal_moves(r->pos, moves) == 0) {
        if (r->game->in_check(r->pos) || r->shogi)
            return outcome(1 - stm, r->game->in_check(r->pos) ? "checkmate" : "no legal move");
        return outcome(-1, "stalemate");
    }
    if (r->shogi) {
        if (shogi_repetition(r, &o))
            return o;
    } else {
        int seen = 0;
        for (int i = r->plies - 2; i >= 0; i -= 2)
            seen += strcmp(r->keys[i], r->keys[r->plies]) == 0;
        if (seen >= 2)
            return outcome(-1, "threefold repetition");
        if (((const nnue_chess_pos *)r->pos)->halfmove >= 100)
            return outcome(-1, "50-move rule");
        if (chess_insufficient(b))
            return outcome(-1, "insufficient material");
    }
    if (r->plies >= max_plies)
        return outcome(-1, r->shogi ? "ply cap (impasse)" : "ply cap");
    return o;
}

int record_declaration_valid(const match_record *r)
{
    if (!r->shogi || r->game->in_check(r->pos))
        return 0;
    const nnue_board *b = r->game->board(r->pos);
    int c = b->side_to_move;
    /* Enemy camp: ranks a-c (index 0-2) for black, g-i (6-8) for white; sq % 9 is the rank. */
#define IN_CAMP(sq) (c == 0 ? (sq) % 9 <= 2 : (sq) % 9 >= 6)
    if (!IN_CAMP(b->king_sq[c]))
        return 0;
    int pieces = 0, points = 0;
    for (int sq = 0; sq < 81; sq++) {
        uint8_t p = b->piece_on[sq];
        int t = NNUE_PIECE_TYPE(p);
        if (!p || NNUE_PIECE_COLOUR(p) != c || t == NNUE_SHOGI_KING || !IN_CAMP(sq))
            continue;
        pieces++;
        points += (t == NNUE_SHOGI_BISHOP || t == NNUE_SHOGI_ROOK || t == NNUE_SHOGI_HORSE || t == NNUE_SHOGI_DRAGON) ? 5 : 1;
    }
#undef IN_CAMP
    for (int t = NNUE_SHOGI_PAWN; t <= NNUE_SHOGI_ROOK; t++)
        points += b->hand[c][t] * (t == NNUE_SHOGI_BISHOP || t == NNUE_SHOGI_ROOK ? 5 : 1);
    return pieces >= 10 && points >= (c == 0 ? 28 : 27);
}
