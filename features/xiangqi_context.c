/* features/xiangqi_context.c: the per-perspective context of Pikafish's xiangqi feature sets.
 * Facts (Pikafish 97133eeb, src/nnue/features/half_ka_v2_hm.h; docs/formats-pikafish.md):
 *  - king bucket from the own king's palace square (rank from its own side * 2 + on file e);
 *    on file f the view is mirrored;
 *  - on file e the view is mirrored when the other king is on file f, or also on file e and
 *    the "mid mirror" test says the pieces lean to the right: a 64-bit sum per colour over its
 *    pieces (piece counts and squares per flank, right flank negated) compared with a
 *    balanced constant, wrapping as unsigned 64-bit arithmetic does. */
#include "features/xiangqi_context.h"

#include <string.h>

#include "base/board_undo.h"
#include "features/feature_util.h"

static uint64_t mid_code[16][90];

#define BALANCE 0xa4a92a74e989d3a7ull

int xqf_valid(int p, int sq)
{
    int c = p >> 3, t = p & 7, f = sq % 9, r = sq / 9, rr = c ? 9 - r : r;
    switch (t) {
    case 7: /* king: own palace; red's (the own king's) never on file f */
        return f >= 3 && f <= 5 && rr <= 2 && !(c == 0 && f == 5);
    case 2:
        return f >= 3 && f <= 5 && rr <= 2 && (f == 4) == (rr == 1);
    case 6:
        return ((rr == 0 || rr == 4) && (f == 2 || f == 6)) || (rr == 2 && (f == 0 || f == 4 || f == 8));
    case 4:
        return rr >= 5 || ((rr == 3 || rr == 4) && f % 2 == 0);
    default:
        return t >= 1 && t <= 5;
    }
}

__attribute__((constructor)) static void xqf_tables(void)
{
    /* shift of the count field and of the square field, by type */
    static const int shifts[8][2] = {{0, 0}, {44, 0}, {60, 36}, {47, 7}, {53, 21}, {50, 14}, {57, 29}, {0, 0}};
    for (int p = 0; p < 16; p++)
        for (int sq = 0; sq < 90; sq++) {
            int c = p >> 3, t = p & 7, f = sq % 9, r = sq / 9;
            uint64_t code = 0;
            if (t >= 1 && t < 7 && f != 4) {
                int rr = c ? 9 - r : r, ff = f < 4 ? f : 8 - f;
                code = (1ull << shifts[t][0]) | ((uint64_t)((3 - ff) * 10 + rr) << shifts[t][1]);
                if (f > 4)
                    code = (uint64_t)0 - code;
            } else if (t == 7 && f != 4) {
                code = 1ull << 63;
            }
            mid_code[p][sq] = code;
        }
}

/* 0..5 for a king in its palace; any other square 0..89 (a board no check has vouched for:
 * evaluate() checks only the kings' squares before a move's step) also gives 0..5, so that no
 * index leaves the table. */
static int king_bucket(int ksq)
{
    int r = ksq / 9;
    int rr = r <= 2 ? r : 9 - r;
    return (rr <= 2 ? rr : 2) * 2 + (ksq % 9 == 4);
}

bb90 xqf_occupied(const nnue_board *board)
{
    bb90 occ = 0;
    for (int i = 0; i < 11; i++)
        occ |= (bb90)nnue_fs_nonzero_bytes8(board->piece_on + 8 * i) << (8 * i);
    for (int sq = 88; sq < 90; sq++)
        occ |= (bb90)(board->piece_on[sq] != 0) << sq;
    return occ;
}

static int number_of(uint8_t pc)
{
    return (pc & 7) | ((pc >> 1) & 8); /* NNUE_PIECE_TYPE & 7, + 8 * (NNUE_PIECE_COLOUR & 1) */
}

static void add_piece(xqf_summary *s, uint8_t pc, int sq, int sign)
{
    int p = number_of(pc);
    uint64_t term = mid_code[p][sq];
    s->enc[p >> 3] += sign > 0 ? term : (uint64_t)0 - term;
    s->counts[p] += (uint8_t)sign;
}

/* Pikafish's "mid mirror" test (used when both kings stand on file e): the pieces lean to us's
 * right. */
static int leans_right(const uint64_t enc[2], int us)
{
    int them = !us;
    return ((1ull << 63) & enc[us] & enc[them]) && (enc[us] < BALANCE || (enc[us] == BALANCE && enc[them] < BALANCE));
}

/* The contexts from the sums and the kings' squares (a square off the board: bucket 0, file a). */
static void contexts_from(xqf_summary *s, const uint8_t king_sq[2])
{
    int ksq[2] = {king_sq[0] < 90 ? king_sq[0] : 0, king_sq[1] < 90 ? king_sq[1] : 0};
    int file[2] = {ksq[0] % 9, ksq[1] % 9};
    for (int p = 0; p < 2; p++) {
        int mid = file[0] == 4 && file[1] == 4 && leans_right(s->enc, p);
        s->ctx[p].king_bucket = king_bucket(ksq[p]);
        s->ctx[p].attack_bucket = (s->counts[8 * p + 1] > 0) * 2 + (s->counts[8 * p + 5] + s->counts[8 * p + 3] > 0);
        s->ctx[p].mirror = file[p] == 5 || (file[p] == 4 && (file[!p] == 5 || (file[!p] == 4 && mid)));
    }
}

void xqf_fs_summary(const nnue_feature_params *params, const nnue_board *board, void *out)
{
    (void)params;
    xqf_summary *s = out;
    memset(s, 0, sizeof *s);
    s->enc[0] = s->enc[1] = BALANCE;
    for (bb90 occ = xqf_occupied(board); occ; occ &= occ - 1) {
        int sq = xqf_first(occ);
        add_piece(s, board->piece_on[sq], sq, 1);
    }
    contexts_from(s, board->king_sq);
}

void xqf_fs_summary_move(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                         const void *before, void *out)
{
    (void)params;
    xqf_summary *s = out;
    *s = *(const xqf_summary *)before;
    int count = delta->count < NNUE_MAX_DIRTY ? delta->count : NNUE_MAX_DIRTY;
    for (int i = 0; i < count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        if (d->old_sq >= 0 && d->old_sq < 90 && d->old_piece)
            add_piece(s, d->old_piece, d->old_sq, -1);
        if (d->new_sq >= 0 && d->new_sq < 90 && d->new_piece)
            add_piece(s, d->new_piece, d->new_sq, 1);
    }
    contexts_from(s, after->king_sq);
}

void xqf_contexts(const nnue_board *board, xqf_context ctx[2])
{
    xqf_summary s;
    xqf_fs_summary(NULL, board, &s);
    ctx[0] = s.ctx[0], ctx[1] = s.ctx[1];
}

void xqf_move_contexts_of_boards(const nnue_board *after, const nnue_delta *delta, xqf_context now[2],
                                 xqf_context before[2])
{
    xqf_contexts(after, now);
    if (before) {
        nnue_board board_before;
        nnue_board_before(after, delta, &board_before);
        xqf_contexts(&board_before, before);
    }
}
