/* examples/own_board.c: an engine that keeps its OWN board (not the library's chess adapter)
 * and feeds the library the two structs of nnue_board.h itself.
 *
 *   own_board NET MOVE...        (NET: a Stockfish net; moves in UCI form from the start position)
 *
 * The contract (include/nnue_board.h, include/nnue.h):
 *  - nnue_board: squares a1 = 0 .. h8 = 63, piece codes NNUE_PIECE(colour, type) with white = 0,
 *    king_sq[] and piece_count kept current, side_to_move = the side about to move.
 *  - after each move, an nnue_delta listing what changed, with the moving piece first:
 *      quiet move / promotion: one entry, old_sq -> new_sq, old_piece -> new_piece;
 *      capture: a second entry for the victim, old_sq = where it stood (the pawn's own square for
 *        en passant), new_sq = NNUE_SQ_NONE, new_piece = 0;
 *      castling: the king's move first, then the rook's as a second entry;
 *      king_moved[c] = 1 when colour c's king changed square.
 *  - nnue_state_push(state, board after the move, &delta); nnue_state_pop(state) after unmake.
 * This program checks itself: after every move the incrementally updated evaluation must equal
 * a fresh evaluation of the same board (exit 1 otherwise). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue.h"

/* The engine's own representation: a plain 64-square mailbox of signed piece numbers
 * (+white, -black, 1 pawn .. 6 king), plus what the rules need. */
typedef struct my_position {
    int sq[64];
    int white_to_move;
    int ep_square;          /* square a pawn can capture onto en passant, -1 if none */
} my_position;

static uint8_t to_nnue_piece(int p)
{
    return p == 0 ? 0 : NNUE_PIECE(p > 0 ? 0 : 1, abs(p)); /* 1..6 = NNUE_CHESS_PAWN..KING */
}

/* Builds the library's view of my position from scratch (at the root). */
static void fill_board(const my_position *pos, nnue_board *b)
{
    memset(b, 0, sizeof *b);
    b->num_squares = 64;
    b->side_to_move = pos->white_to_move ? 0 : 1;
    for (int s = 0; s < 64; s++) {
        b->piece_on[s] = to_nnue_piece(pos->sq[s]);
        if (pos->sq[s])
            b->piece_count++;
        if (abs(pos->sq[s]) == 6)
            b->king_sq[pos->sq[s] > 0 ? 0 : 1] = (uint8_t)s;
    }
}

static void add_dirty(nnue_delta *d, int piece_before, int piece_after, int from, int to)
{
    nnue_dirty *e = &d->dirty[d->count++];
    e->old_piece = to_nnue_piece(piece_before);
    e->new_piece = to_nnue_piece(piece_after);
    e->old_sq = (int8_t)from;
    e->new_sq = (int8_t)to;
    e->old_slot = e->new_slot = 0;
}

/* Plays from -> to (promo: 2..5 or 0) on my board AND keeps the nnue_board current, writing the
 * delta. (A real engine does the same inside its make(); legality is its own business.) */
static void my_make(my_position *pos, nnue_board *b, int from, int to, int promo, nnue_delta *d)
{
    memset(d, 0, sizeof *d);
    int piece = pos->sq[from], colour = piece > 0 ? 0 : 1, sign = piece > 0 ? 1 : -1;
    int after = promo ? sign * promo : piece;
    int victim_sq = to;
    if (abs(piece) == 1 && to == pos->ep_square)
        victim_sq = to + (colour == 0 ? -8 : 8); /* en passant: the pawn beside, not on `to` */
    int victim = pos->sq[victim_sq];
    add_dirty(d, piece, after, from, to);                      /* the moving piece first */
    if (victim)
        add_dirty(d, victim, 0, victim_sq, NNUE_SQ_NONE);      /* then the captured one */
    if (abs(piece) == 6 && abs(to - from) == 2) {              /* castling: then the rook */
        int rook_from = to > from ? from + 3 : from - 4, rook_to = to > from ? from + 1 : from - 1;
        add_dirty(d, pos->sq[rook_from], pos->sq[rook_from], rook_from, rook_to);
        pos->sq[rook_to] = pos->sq[rook_from];
        pos->sq[rook_from] = 0;
    }
    d->king_moved[colour] = abs(piece) == 6;
    pos->sq[victim_sq] = 0;
    pos->sq[from] = 0;
    pos->sq[to] = after;
    pos->ep_square = abs(piece) == 1 && abs(to - from) == 16 ? (from + to) / 2 : -1;
    pos->white_to_move = !pos->white_to_move;
    /* The library's view follows the same change. */
    for (int i = 0; i < d->count; i++) {
        if (d->dirty[i].old_sq >= 0)
            b->piece_on[d->dirty[i].old_sq] = 0;
    }
    for (int i = 0; i < d->count; i++)
        if (d->dirty[i].new_sq >= 0)
            b->piece_on[d->dirty[i].new_sq] = d->dirty[i].new_piece;
    b->piece_count -= victim != 0;
    if (abs(piece) == 6)
        b->king_sq[colour] = (uint8_t)to;
    b->side_to_move ^= 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: own_board NET [UCI-MOVE...]\n");
        return 2;
    }
    nnue_error err;
    nnue_net *net;
    /* The architecture comes from the file's header (Stockfish 15.1's net: SFNNv5 by its SHA-256). */
    if (nnue_net_load_auto(argv[1], &net, &err) != NNUE_OK) {
        char msg[1200];
        nnue_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "own_board: %s\n", msg);
        return 1;
    }
    static const int back_rank[8] = {4, 2, 3, 5, 6, 3, 2, 4};
    my_position pos = {{0}, 1, -1};
    for (int f = 0; f < 8; f++) {
        pos.sq[f] = back_rank[f];
        pos.sq[8 + f] = 1;
        pos.sq[48 + f] = -1;
        pos.sq[56 + f] = -back_rank[f];
    }
    nnue_board board;
    fill_board(&pos, &board);
    nnue_state *state = nnue_state_new(net, 512), *fresh = nnue_state_new(net, 1);
    /* While a board adapter is new: every pushed board checked whole, so that a wrong square is
     * reported at the move that made it (the default checks what each call reads). */
    nnue_state_set_whole_board_checks(state, 1);
    nnue_state_reset(state, &board);
    int failures = 0;
    for (int i = 2; i < argc; i++) {
        const char *m = argv[i];
        if (strlen(m) < 4) {
            fprintf(stderr, "own_board: bad move '%s'\n", m);
            return 2;
        }
        int from = (m[0] - 'a') + 8 * (m[1] - '1'), to = (m[2] - 'a') + 8 * (m[3] - '1');
        int promo = m[4] ? (int)(strchr(" pnbrqk", m[4]) - " pnbrqk") : 0;
        nnue_delta delta;
        my_make(&pos, &board, from, to, promo, &delta);
        if (nnue_state_push(state, &board, &delta) != 0) {
            fprintf(stderr, "own_board: the library refused the board or delta after %s\n", m);
            return 1;
        }
        int32_t incremental = nnue_evaluate(state, &board, NULL);
        nnue_board check;
        fill_board(&pos, &check); /* rebuilt from my board: must equal the maintained view */
        nnue_state_reset(fresh, &check);
        int32_t scratch = nnue_evaluate(fresh, &check, NULL);
        int same_view = memcmp(&check, &board, sizeof board) == 0;
        printf("after %-6s incremental %6d  from scratch %6d%s\n", m, incremental, scratch,
               incremental == scratch && same_view ? "" : "  MISMATCH");
        failures += incremental != scratch || !same_view;
    }
    nnue_state_free(state);
    nnue_state_free(fresh);
    nnue_net_free(net);
    return failures ? 1 : 0;
}
