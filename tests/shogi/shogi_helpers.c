/* tests/shogi/shogi_helpers.c: see shogi_helpers.h. */
#include "shogi_helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

shogi_lines shogi_read_lines(const char *relative)
{
    shogi_lines out = {0};
    const char *path = test_shared_path(relative);
    size_t size;
    out.buf = test_read_file(path, &size);
    ck_assert_msg(out.buf != NULL, "cannot read %s", path);
    size_t cap = 1024;
    out.line = malloc(cap * sizeof *out.line);
    for (char *p = out.buf; *p;) {
        char *end = strchr(p, '\n');
        if (end)
            *end = 0;
        size_t len = strlen(p);
        if (len && p[len - 1] == '\r')
            p[len - 1] = 0;
        if (p[0] && p[0] != '#') {
            if ((size_t)out.count == cap) {
                cap *= 2;
                out.line = realloc(out.line, cap * sizeof *out.line);
            }
            out.line[out.count++] = p;
        }
        if (!end)
            break;
        p = end + 1;
    }
    return out;
}

void shogi_free_lines(shogi_lines *lines)
{
    free(lines->buf);
    free(lines->line);
    memset(lines, 0, sizeof *lines);
}

void shogi_parse_ok(nnue_shogi_pos *pos, const char *sfen)
{
    nnue_error err;
    nnue_status rc = nnue_shogi_parse_sfen(pos, sfen, &err);
    if (rc != NNUE_OK) {
        char msg[1200];
        nnue_error_format(&err, msg, sizeof msg);
        ck_abort_msg("SFEN '%s' rejected: %s", sfen, msg);
    }
}

const char *shogi_sfen(const nnue_shogi_pos *pos)
{
    static char bufs[4][200];
    static int next;
    char *buf = bufs[next++ & 3];
    size_t n = nnue_shogi_to_sfen(pos, buf, sizeof bufs[0]);
    SH_REQUIRE(n < sizeof bufs[0]);
    return buf;
}

void shogi_check_board(const nnue_board *b)
{
    SH_REQUIRE_INT(b->num_squares, 81);
    int count = 0, kings[2] = {0, 0};
    for (int sq = 0; sq < 81; sq++) {
        unsigned p = b->piece_on[sq];
        if (!p)
            continue;
        count++;
        SH_REQUIRE(NNUE_PIECE_COLOUR(p) <= 1);
        SH_REQUIRE(NNUE_PIECE_TYPE(p) >= NNUE_SHOGI_PAWN && NNUE_PIECE_TYPE(p) <= NNUE_SHOGI_DRAGON);
        if (NNUE_PIECE_TYPE(p) == NNUE_SHOGI_KING) {
            kings[NNUE_PIECE_COLOUR(p)]++;
            SH_REQUIRE_INT(b->king_sq[NNUE_PIECE_COLOUR(p)], sq);
        }
    }
    SH_REQUIRE_INT(kings[0], 1);
    SH_REQUIRE_INT(kings[1], 1);
    SH_REQUIRE_INT(b->piece_count, count);
    SH_REQUIRE(b->side_to_move <= 1);
}

void shogi_check_delta(const nnue_board *before, const nnue_delta *d, const nnue_board *after)
{
    nnue_board b = *before;
    SH_REQUIRE(d->count >= 1 && d->count <= 2);
    for (int i = 0; i < d->count; i++) {
        const nnue_dirty *e = &d->dirty[i];
        if (e->old_sq >= 0) {
            SH_REQUIRE_INT(b.piece_on[e->old_sq], e->old_piece);
            b.piece_on[e->old_sq] = 0;
        } else {
            SH_REQUIRE_INT(e->old_sq, NNUE_SQ_HAND);
            unsigned c = NNUE_PIECE_COLOUR(e->old_piece), t = NNUE_PIECE_TYPE(e->old_piece);
            SH_REQUIRE_INT(b.hand[c][t], e->old_slot + 1u);
            b.hand[c][t]--;
        }
    }
    for (int i = 0; i < d->count; i++) {
        const nnue_dirty *e = &d->dirty[i];
        if (e->new_sq >= 0) {
            SH_REQUIRE_INT(b.piece_on[e->new_sq], 0);
            b.piece_on[e->new_sq] = e->new_piece;
        } else {
            SH_REQUIRE_INT(e->new_sq, NNUE_SQ_HAND);
            unsigned c = NNUE_PIECE_COLOUR(e->new_piece), t = NNUE_PIECE_TYPE(e->new_piece);
            SH_REQUIRE(t >= NNUE_SHOGI_PAWN && t <= NNUE_SHOGI_ROOK);
            SH_REQUIRE_INT(b.hand[c][t], e->new_slot);
            b.hand[c][t]++;
        }
    }
    SH_REQUIRE(memcmp(b.piece_on, after->piece_on, sizeof b.piece_on) == 0);
    SH_REQUIRE(memcmp(b.hand, after->hand, sizeof b.hand) == 0);
    for (int c = 0; c < 2; c++)
        SH_REQUIRE_INT(d->king_moved[c], before->king_sq[c] != after->king_sq[c]);
}

const char *shogi_piece_text(unsigned piece)
{
    static char buf[4];
    static const char letters[] = "?PLNSGBRK";
    static const int demoted[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 6, 7, 0};
    int t = NNUE_PIECE_TYPE(piece), k = demoted[t], n = 0;
    if (k != t)
        buf[n++] = '+';
    char c = letters[k];
    buf[n++] = NNUE_PIECE_COLOUR(piece) ? (char)(c - 'A' + 'a') : c;
    buf[n] = 0;
    return buf;
}
