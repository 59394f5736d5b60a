/* tests/chess/chess_helpers.c: see chess_helpers.h. */
#include "chess_helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

void lines_read(test_lines *out, const char *path)
{
    size_t size;
    out->text = test_read_file(path, &size);
    ck_assert_msg(out->text != NULL, "cannot read %s", path);
    int cap = 1024;
    out->line = malloc(sizeof(char *) * (size_t)cap);
    out->count = 0;
    char *p = out->text;
    while (*p) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        size_t len = strlen(p);
        if (len && p[len - 1] == '\r')
            p[--len] = 0;
        if (len) {
            if (out->count == cap) {
                cap *= 2;
                out->line = realloc(out->line, sizeof(char *) * (size_t)cap);
            }
            out->line[out->count++] = p;
        }
        if (!nl)
            break;
        p = nl + 1;
    }
}

void lines_free(test_lines *lines)
{
    free(lines->text);
    free(lines->line);
}

void parse_ok(nnue_chess_pos *pos, const char *fen)
{
    nnue_error err;
    nnue_status st = nnue_chess_parse_fen(pos, fen, &err);
    char msg[1200];
    nnue_error_format(&err, msg, sizeof msg);
    ck_assert_msg(st == NNUE_OK, "FEN '%s' rejected: %s", fen, msg);
}

void assert_same_position(const nnue_chess_pos *a, const nnue_chess_pos *b, const char *what)
{
    ck_assert_msg(memcmp(&a->board, &b->board, sizeof a->board) == 0, "%s: nnue_board differs",
                  what);
    ck_assert_msg(memcmp(a->by_type, b->by_type, sizeof a->by_type) == 0,
                  "%s: piece bitboards differ", what);
    ck_assert_msg(memcmp(a->by_colour, b->by_colour, sizeof a->by_colour) == 0,
                  "%s: colour bitboards differ", what);
    ck_assert_msg(a->occupied == b->occupied, "%s: occupancy differs", what);
    ck_assert_msg(a->castling == b->castling, "%s: castling %d vs %d", what, a->castling,
                  b->castling);
    ck_assert_msg(a->ep == b->ep, "%s: ep %d vs %d", what, a->ep, b->ep);
    ck_assert_msg(a->halfmove == b->halfmove && a->fullmove == b->fullmove, "%s: clocks differ",
                  what);
    ck_assert_msg(a->ply == b->ply, "%s: ply %u vs %u", what, a->ply, b->ply);
    char fa[128], fb[128];
    nnue_chess_to_fen(a, fa, sizeof fa);
    nnue_chess_to_fen(b, fb, sizeof fb);
    ck_assert_msg(strcmp(fa, fb) == 0, "%s: FEN '%s' vs '%s'", what, fa, fb);
}

void assert_delta_consistent(const nnue_chess_pos *before, const nnue_chess_pos *after,
                             const nnue_delta *delta, const char *what)
{
    const nnue_board *ob = &before->board, *nb = &after->board;
    ck_assert_msg(delta->count >= 1 && delta->count <= NNUE_MAX_DIRTY, "%s: delta count %d",
                  what, delta->count);
    uint8_t piece_on[64];
    memcpy(piece_on, ob->piece_on, 64);
    int removed = 0;
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        ck_assert_msg(d->old_sq >= 0 && d->old_sq < 64, "%s: entry %d old_sq %d", what, i,
                      d->old_sq);
        ck_assert_msg(piece_on[d->old_sq] == d->old_piece, "%s: entry %d old piece %d, board has %d",
                      what, i, d->old_piece, piece_on[d->old_sq]);
        ck_assert_msg(d->old_slot == 0 && d->new_slot == 0, "%s: slots set", what);
        piece_on[d->old_sq] = 0;
    }
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        if (d->new_sq == NNUE_SQ_NONE) {
            ck_assert_msg(d->new_piece == 0, "%s: removed piece with new_piece %d", what,
                          d->new_piece);
            removed++;
            continue;
        }
        ck_assert_msg(d->new_sq >= 0 && d->new_sq < 64, "%s: entry %d new_sq %d", what, i,
                      d->new_sq);
        ck_assert_msg(d->new_piece != 0, "%s: entry %d placed an empty piece", what, i);
        piece_on[d->new_sq] = d->new_piece;
    }
    ck_assert_msg(memcmp(piece_on, nb->piece_on, 64) == 0,
                  "%s: applying the delta does not give the new board", what);
    for (int c = 0; c < 2; c++)
        ck_assert_msg(delta->king_moved[c] == (ob->king_sq[c] != nb->king_sq[c]),
                      "%s: king_moved[%d] = %d", what, c, delta->king_moved[c]);
    ck_assert_int_eq(nb->piece_count, ob->piece_count - removed);
    ck_assert_int_eq(nb->side_to_move, ob->side_to_move ^ 1);
    /* The rest of the view is consistent with the board itself. */
    int count = 0;
    for (int sq = 0; sq < 64; sq++)
        if (nb->piece_on[sq]) {
            count++;
            if (NNUE_PIECE_TYPE(nb->piece_on[sq]) == NNUE_CHESS_KING)
                ck_assert_int_eq(nb->king_sq[NNUE_PIECE_COLOUR(nb->piece_on[sq])], sq);
        }
    ck_assert_int_eq(count, nb->piece_count);
    ck_assert_int_eq(nb->num_squares, 64);
    static const uint8_t zero_hand[2][NNUE_MAX_HAND_TYPES];
    ck_assert(memcmp(nb->hand, zero_hand, sizeof zero_hand) == 0);
}

void move_flags(nnue_move move, const nnue_delta *delta, const nnue_chess_pos *after,
                char *buf, size_t size)
{
    const char *parts[5];
    int n = 0, capture = 0;
    for (int i = 1; i < delta->count; i++)
        capture |= delta->dirty[i].new_sq == NNUE_SQ_NONE;
    if (NNUE_CHESS_MOVE_KIND(move) == NNUE_CHESS_MOVE_CASTLE)
        parts[n++] = "castle";
    if (NNUE_CHESS_MOVE_KIND(move) == NNUE_CHESS_MOVE_EP)
        parts[n++] = "ep";
    if (NNUE_CHESS_MOVE_PROMO(move))
        parts[n++] = "promo";
    if (capture)
        parts[n++] = "capture";
    if (nnue_chess_in_check(after))
        parts[n++] = "check";
    buf[0] = 0;
    if (!n)
        snprintf(buf, size, "quiet");
    for (int i = 0; i < n; i++) {
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, "%s%s", i ? "," : "", parts[i]);
    }
}
