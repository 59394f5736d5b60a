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

/* What the contexts read of the pieces besides the kings' squares: each colour's balance sum and
 * its pieces by piece number (type & 7, + 8 for colour 1). */
typedef struct xqf_sums {
    uint64_t enc[2];
    uint8_t counts[16];
} xqf_sums;

static int number_of(uint8_t pc)
{
    return (pc & 7) | ((pc >> 1) & 8); /* NNUE_PIECE_TYPE & 7, + 8 * (NNUE_PIECE_COLOUR & 1) */
}

static void add_piece(xqf_sums *s, uint8_t pc, int sq, int sign)
{
    int p = number_of(pc);
    uint64_t term = mid_code[p][sq];
    s->enc[p >> 3] += sign > 0 ? term : (uint64_t)0 - term;
    s->counts[p] += (uint8_t)sign;
}

static void sums_of(const nnue_board *board, xqf_sums *s)
{
    memset(s, 0, sizeof *s);
    s->enc[0] = s->enc[1] = BALANCE;
    for (bb90 occ = xqf_occupied(board); occ; occ &= occ - 1) {
        int sq = xqf_first(occ);
        add_piece(s, board->piece_on[sq], sq, 1);
    }
}

/* Pikafish's "mid mirror" test (used when both kings stand on file e): the pieces lean to us's
 * right. */
static int leans_right(const uint64_t enc[2], int us)
{
    int them = !us;
    return ((1ull << 63) & enc[us] & enc[them]) && (enc[us] < BALANCE || (enc[us] == BALANCE && enc[them] < BALANCE));
}

static void contexts_from(const xqf_sums *s, const uint8_t king_sq[2], xqf_context ctx[2])
{
    int file[2] = {king_sq[0] % 9, king_sq[1] % 9};
    for (int p = 0; p < 2; p++) {
        int mid = file[0] == 4 && file[1] == 4 && leans_right(s->enc, p);
        ctx[p].king_bucket = king_bucket(king_sq[p]);
        ctx[p].attack_bucket = (s->counts[8 * p + 1] > 0) * 2 + (s->counts[8 * p + 5] + s->counts[8 * p + 3] > 0);
        ctx[p].mirror = file[p] == 5 || (file[p] == 4 && (file[!p] == 5 || (file[!p] == 4 && mid)));
    }
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

/* The board before a move differs from the board after it on the delta's squares only, as
 * base/board_undo.c rebuilds it (every new square emptied, then every old square given its old
 * piece, the kings' squares following their pieces): the distinct squares (sqs) and what stood on
 * them before (was); king_sq: the kings' squares before. Returns the number of squares. */
static int undo_squares(const nnue_board *after, const nnue_delta *delta, int sqs[2 * NNUE_MAX_DIRTY],
                        uint8_t was[2 * NNUE_MAX_DIRTY], uint8_t king_sq[2])
{
    int n = 0, count = delta->count < NNUE_MAX_DIRTY ? delta->count : NNUE_MAX_DIRTY;
    king_sq[0] = after->king_sq[0], king_sq[1] = after->king_sq[1];
    for (int i = 0; i < count; i++) {
        int sq = delta->dirty[i].new_sq;
        if (sq >= 0 && sq < 90)
            was[slot_of(sqs, &n, sq)] = 0;
    }
    for (int i = 0; i < count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        if (d->old_sq >= 0 && d->old_sq < 90 && d->old_piece) {
            was[slot_of(sqs, &n, d->old_sq)] = d->old_piece;
            for (int c = 0; c < 2; c++)
                if (after->king_sq[c] < 90 && d->new_sq == after->king_sq[c] &&
                    d->new_piece == after->piece_on[after->king_sq[c]])
                    king_sq[c] = (uint8_t)d->old_sq;
        }
    }
    return n;
}

/* Moves sums over the undone squares: from the board after to the board before (to_before), or
 * back. */
static void swap_terms(xqf_sums *s, const nnue_board *after, const int *sqs, const uint8_t *was, int n, int to_before)
{
    int sign = to_before ? 1 : -1;
    for (int k = 0; k < n; k++) {
        uint8_t now = after->piece_on[sqs[k]];
        if (now)
            add_piece(s, now, sqs[k], -sign);
        if (was[k])
            add_piece(s, was[k], sqs[k], sign);
    }
}

/* The sums and contexts of the last boards seen on this thread, and the contexts of the board
 * before the last move asked about on each: a push asks for the board after the move and the one
 * before it from both sets' needs_refresh() for both perspectives, and again at update (contexts,
 * mirrors), up to ten times a move. A board not remembered is summed from the board before its
 * move when that one is (the delta's squares swapped), else from its pieces; comparing 90 bytes
 * costs a fraction of summing the pieces. */
#define MEMO_SLOTS 4

typedef struct memo_entry {
    uint8_t piece_on[90], king_sq[2]; /* the board (king_sq: those `now` was computed with) */
    uint32_t used;                    /* stamp of the last use, 0: empty slot */
    xqf_sums sums;
    xqf_context now[2], before[2];
    nnue_dirty dirty[NNUE_MAX_DIRTY]; /* the move `before` is for (before_count entries, -1: none) */
    int before_count;
} memo_entry;

static _Thread_local struct {
    memo_entry e[MEMO_SLOTS];
    uint32_t clock;
    int last;
} memo;

static int same_squares(const uint8_t *a, const uint8_t *b)
{
    uint64_t diff = 0;
    for (int i = 0; i < 88; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        diff |= x ^ y;
    }
    return !(diff | (uint64_t)(a[88] ^ b[88]) | (uint64_t)(a[89] ^ b[89]));
}

static memo_entry *lookup(const uint8_t *piece_on)
{
    memo_entry *e = &memo.e[memo.last];
    if (!(e->used && same_squares(e->piece_on, piece_on))) {
        int k = 0; /* the last one used was compared first */
        while (k < MEMO_SLOTS &&
               (k == memo.last || !(memo.e[k].used && same_squares(memo.e[k].piece_on, piece_on))))
            k++;
        if (k == MEMO_SLOTS)
            return NULL;
        memo.last = k;
        e = &memo.e[k];
    }
    e->used = ++memo.clock ? memo.clock : (memo.clock = 1);
    return e;
}

/* The entry of `board`, made when absent (delta: the move that made it, or NULL). */
static memo_entry *entry_of(const nnue_board *board, const nnue_delta *delta)
{
    memo_entry *e = lookup(board->piece_on), *from = NULL;
    if (!e) {
        xqf_sums s;
        int sqs[2 * NNUE_MAX_DIRTY], n = 0;
        uint8_t was[2 * NNUE_MAX_DIRTY], king_sq[2];
        if (delta) {
            uint8_t before[90];
            n = undo_squares(board, delta, sqs, was, king_sq);
            memcpy(before, board->piece_on, 90);
            for (int k = 0; k < n; k++)
                before[sqs[k]] = was[k];
            from = lookup(before);
        }
        if (from) {
            s = from->sums;
            swap_terms(&s, board, sqs, was, n, 0);
        } else {
            sums_of(board, &s);
        }
        int k = 0; /* the least recently used slot other than `from` */
        for (int j = 1; j < MEMO_SLOTS; j++)
            if (&memo.e[k] == from || (&memo.e[j] != from && memo.e[j].used < memo.e[k].used))
                k = j;
        e = &memo.e[k];
        memcpy(e->piece_on, board->piece_on, 90);
        e->sums = s;
        e->before_count = -1;
        e->used = ++memo.clock ? memo.clock : (memo.clock = 1);
        memo.last = k;
        contexts_from(&e->sums, board->king_sq, e->now);
        e->king_sq[0] = board->king_sq[0], e->king_sq[1] = board->king_sq[1];
    } else if (e->king_sq[0] != board->king_sq[0] || e->king_sq[1] != board->king_sq[1]) {
        contexts_from(&e->sums, board->king_sq, e->now);
        e->king_sq[0] = board->king_sq[0], e->king_sq[1] = board->king_sq[1];
        e->before_count = -1;
    }
    return e;
}

void xqf_mirrors(const nnue_board *board, int mirror[2])
{
    const memo_entry *e = entry_of(board, NULL);
    mirror[0] = e->now[0].mirror, mirror[1] = e->now[1].mirror;
}

void xqf_contexts(const nnue_board *board, xqf_context ctx[2])
{
    const memo_entry *e = entry_of(board, NULL);
    ctx[0] = e->now[0], ctx[1] = e->now[1];
}

void xqf_context_of(const nnue_board *board, int persp, xqf_context *ctx)
{
    *ctx = entry_of(board, NULL)->now[persp];
}

void xqf_contexts_move(const nnue_board *after, const nnue_delta *delta, xqf_context now[2], xqf_context before[2])
{
    memo_entry *e = entry_of(after, delta);
    now[0] = e->now[0], now[1] = e->now[1];
    if (!before)
        return;
    int count = delta->count < NNUE_MAX_DIRTY ? delta->count : NNUE_MAX_DIRTY;
    if (e->before_count != count || memcmp(e->dirty, delta->dirty, (size_t)count * sizeof *e->dirty) != 0) {
        int sqs[2 * NNUE_MAX_DIRTY];
        uint8_t was[2 * NNUE_MAX_DIRTY], king_sq[2];
        int n = undo_squares(after, delta, sqs, was, king_sq);
        xqf_sums s = e->sums;
        swap_terms(&s, after, sqs, was, n, 1);
        contexts_from(&s, king_sq, e->before);
        e->before_count = count;
        memcpy(e->dirty, delta->dirty, (size_t)count * sizeof *e->dirty);
    }
    before[0] = e->before[0], before[1] = e->before[1];
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
