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

static int king_bucket(int ksq)
{
    int r = ksq / 9;
    int rr = r <= 2 ? r : 9 - r;
    return rr * 2 + (ksq % 9 == 4);
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

/* The balance term of a square's content (0 when empty). */
static uint64_t mid_term(uint8_t pc, int sq)
{
    return pc ? mid_code[(NNUE_PIECE_TYPE(pc) & 7) + 8 * (NNUE_PIECE_COLOUR(pc) & 1)][sq] : 0;
}

/* Each colour's balance sum over the pieces on `occ`. */
static void balance_sums(const nnue_board *board, bb90 occ, uint64_t enc[2])
{
    enc[0] = enc[1] = BALANCE;
    for (; occ; occ &= occ - 1) {
        int sq = xqf_first(occ);
        uint8_t pc = board->piece_on[sq];
        enc[NNUE_PIECE_COLOUR(pc) & 1] += mid_term(pc, sq);
    }
}

/* balance_sums remembered for the last board seen on this thread (its squares are all the sums
 * read): with both kings on file e, both xiangqi sets ask it for both perspectives at push
 * (needs_refresh) and again at update (contexts, mirrors), up to seven times a move for the same
 * board; comparing 90 bytes costs a fraction of summing the pieces. */
static void board_balance(const nnue_board *board, uint64_t enc[2])
{
    static _Thread_local struct {
        uint8_t piece_on[90];
        uint64_t enc[2];
        int valid;
    } last;
    if (!last.valid || memcmp(last.piece_on, board->piece_on, 90) != 0) {
        balance_sums(board, xqf_occupied(board), last.enc);
        memcpy(last.piece_on, board->piece_on, 90);
        last.valid = 1;
    }
    enc[0] = last.enc[0], enc[1] = last.enc[1];
}

/* Pikafish's "mid mirror" test (used when both kings stand on file e): the pieces lean to us's
 * right. */
static int leans_right(const uint64_t enc[2], int us)
{
    int them = !us;
    return ((1ull << 63) & enc[us] & enc[them]) && (enc[us] < BALANCE || (enc[us] == BALANCE && enc[them] < BALANCE));
}

static void mirrors_from(const nnue_board *board, int mirror[2])
{
    int file[2] = {board->king_sq[0] % 9, board->king_sq[1] % 9}, mid[2] = {0, 0};
    if (file[0] == 4 && file[1] == 4) {
        uint64_t enc[2];
        board_balance(board, enc);
        mid[0] = leans_right(enc, 0);
        mid[1] = leans_right(enc, 1);
    }
    for (int p = 0; p < 2; p++)
        mirror[p] = file[p] == 5 || (file[p] == 4 && (file[!p] == 5 || (file[!p] == 4 && mid[p])));
}

void xqf_mirrors(const nnue_board *board, int mirror[2])
{
    mirrors_from(board, mirror);
}

void xqf_contexts(const nnue_board *board, xqf_context ctx[2])
{
    bb90 occ = xqf_occupied(board);
    int counts[2][8] = {{0}}, mirror[2];
    for (bb90 o = occ; o; o &= o - 1) {
        uint8_t pc = board->piece_on[xqf_first(o)];
        counts[NNUE_PIECE_COLOUR(pc) & 1][NNUE_PIECE_TYPE(pc) & 7]++;
    }
    mirrors_from(board, mirror);
    for (int p = 0; p < 2; p++) {
        ctx[p].king_bucket = king_bucket(board->king_sq[p]);
        ctx[p].attack_bucket = (counts[p][1] > 0) * 2 + (counts[p][5] + counts[p][3] > 0);
        ctx[p].mirror = mirror[p];
    }
}

void xqf_context_of(const nnue_board *board, int persp, xqf_context *ctx)
{
    xqf_context both[2];
    xqf_contexts(board, both);
    *ctx = both[persp];
}

int xqf_context_may_change(const nnue_board *after, const nnue_delta *delta, int persp, int attack)
{
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        uint8_t pieces[2] = {d->old_piece, d->new_piece};
        for (int k = 0; k < 2; k++) {
            int t = NNUE_PIECE_TYPE(pieces[k]);
            if (pieces[k] && t == 7)
                return 1;
            if (attack && pieces[k] && NNUE_PIECE_COLOUR(pieces[k]) == persp && (t == 1 || t == 3 || t == 5) &&
                ((d->old_sq == NNUE_SQ_NONE) != (d->new_sq == NNUE_SQ_NONE)))
                return 1;
        }
    }
    return after->king_sq[0] % 9 == 4 && after->king_sq[1] % 9 == 4 ? 2 : 0;
}

/* The index of sq in sqs[0 .. *n), appended when absent. */
static int slot_of(int *sqs, int *n, int sq)
{
    int k = 0;
    while (k < *n && sqs[k] != sq)
        k++;
    if (k == *n)
        sqs[(*n)++] = sq;
    return k;
}

int xqf_mid_mirror_changed(const nnue_board *after, const nnue_delta *delta, int persp)
{
    uint64_t is[2];
    board_balance(after, is);
    /* The board before differs on the delta's squares only (as base/board_undo.c rebuilds it: every
     * new square emptied, then every old square given its old piece): their terms are swapped
     * back here instead of rebuilding that board and summing it again (which made xiangqi's
     * incremental evaluation 14% slower, `ab xiangqi` 7 rounds: 1.144 and 1.143). */
    int sqs[2 * NNUE_MAX_DIRTY], n = 0;
    uint8_t was[2 * NNUE_MAX_DIRTY];
    for (int i = 0; i < delta->count; i++) {
        int sq = delta->dirty[i].new_sq;
        if (sq >= 0 && sq < 90)
            was[slot_of(sqs, &n, sq)] = 0;
    }
    for (int i = 0; i < delta->count; i++) {
        int sq = delta->dirty[i].old_sq;
        if (sq >= 0 && sq < 90 && delta->dirty[i].old_piece)
            was[slot_of(sqs, &n, sq)] = delta->dirty[i].old_piece;
    }
    uint64_t before[2] = {is[0], is[1]};
    for (int k = 0; k < n; k++) {
        uint8_t now = after->piece_on[sqs[k]];
        if (now)
            before[NNUE_PIECE_COLOUR(now) & 1] -= mid_term(now, sqs[k]);
        if (was[k])
            before[NNUE_PIECE_COLOUR(was[k]) & 1] += mid_term(was[k], sqs[k]);
    }
    return leans_right(is, persp) != leans_right(before, persp);
}
