/* features/pp_3wide.c: chess PP_3Wide (Stockfish 19, SFNNv16), 96 * 95 / 2 = 4560 inputs: one
 * feature per unordered pair of pawns, of either colours, standing on the same file or on
 * adjacent files.
 *
 * Facts: docs/formats-sfnnv16.md section 4 (read from Stockfish's src/nnue/features/pp_3wide.*
 * at 762dd1da; this is our own code):
 *  - orientation as Full_Threats: o = (file(ksq) >= 4 ? 7 : 0) ^ 56p for perspective p with its
 *    own king on ksq;
 *  - pawn id = 48 * (colour ^ p) + (sq ^ o) - 8 (pawns stand on ranks 2..7: 0..47 per colour);
 *  - index = hi * (hi - 1) / 2 + lo of the pair's two ids (hi > lo). Stockfish numbers these
 *    after the threat inputs (+59808); here the set has its own rows (the file stores them as
 *    their own section anyway);
 *  - partners of a pawn on s: the squares of files file(s)-1..file(s)+1 on ranks 2..7, except s;
 *  - a perspective is rebuilt when its own king crosses between files a-d and e-h (the
 *    orientation changes); otherwise a move removes the pairs of the pawns that left a square
 *    and adds those of the pawns that arrived. */
#include <stdio.h>
#include <string.h>

#include "features/feature_set.h"
#include "features/feature_util.h"

#define PP_MAX_ACTIVE 120  /* 16 pawns make at most 16 * 15 / 2 pairs */
#define PP_MAX_CHANGED 64  /* a delta moves at most 3 pieces, each pawn has at most 17 partners */
#define PP_RANKS_2_7 0x00FFFFFFFFFFFF00ull /* the squares a pawn id exists for */

static uint64_t partners[64]; /* squares that pair with a pawn on sq (ranks 2..7, files +-1) */

__attribute__((constructor)) static void pp_tables(void)
{
    for (int sq = 0; sq < 64; sq++) {
        uint64_t m = 0;
        for (int t = 8; t < 56; t++) {
            int df = (t & 7) - (sq & 7);
            if (t != sq && df >= -1 && df <= 1)
                m |= 1ull << t;
        }
        partners[sq] = m;
    }
}

/* One pair as it stands on the board: colours and real squares, no perspective. */
typedef struct pawn_pair {
    uint8_t ca, sa, cb, sb;
} pawn_pair;

static int orientation(const nnue_board *board, int persp)
{
    return ((board->king_sq[persp] & 7) >= 4 ? 7 : 0) ^ (56 * persp);
}

static inline uint32_t pair_index(const pawn_pair *q, int persp, int orient)
{
    uint32_t a = 48u * (uint32_t)(q->ca ^ persp) + (uint32_t)(q->sa ^ orient) - 8;
    uint32_t b = 48u * (uint32_t)(q->cb ^ persp) + (uint32_t)(q->sb ^ orient) - 8;
    uint32_t hi = a > b ? a : b, lo = a > b ? b : a;
    return hi * (hi - 1) / 2 + lo;
}

/* Pawn squares of each colour on ranks 2..7 (type 1, colour bit 4 of the code), eight squares a
 * word without a branch: a byte's low nibble is 1 exactly when (nibble ^ 1) + 0x7F leaves its
 * high bit clear; the high bits are then gathered into eight square bits
 * (nnue_fs_byte_high_bits). */
static void pawns_of(const nnue_board *board, uint64_t pawns[2])
{
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    pawns[0] = pawns[1] = 0;
    for (int rank = 1; rank < 7; rank++) {
        uint64_t x;
        memcpy(&x, board->piece_on + 8 * rank, sizeof x);
        uint64_t pawn = ~(((x & 0x0F * ones) ^ ones) + 0x7F * ones) & high, black = (x << 3) & high;
        pawns[0] |= nnue_fs_byte_high_bits(pawn & ~black) << (8 * rank);
        pawns[1] |= nnue_fs_byte_high_bits(pawn & black) << (8 * rank);
    }
}

/* The pairs of `pawns` with at least one member on `updated` (a subset of the pawns), each once. */
static int pairs_touching(const uint64_t pawns[2], uint64_t updated, pawn_pair *out, int max)
{
    uint64_t all = pawns[0] | pawns[1], rest = all & ~updated;
    int n = 0;
    for (uint64_t u = updated; u; ) {
        int a = __builtin_ctzll(u);
        u &= u - 1;
        uint8_t ca = (pawns[1] >> a) & 1;
        for (uint64_t m = partners[a] & (rest | u); m && n < max; m &= m - 1) {
            int b = __builtin_ctzll(m);
            out[n++] = (pawn_pair){ca, (uint8_t)a, (uint8_t)((pawns[1] >> b) & 1), (uint8_t)b};
        }
    }
    return n;
}

static uint32_t pp_dimensions(const nnue_feature_params *params)
{
    (void)params;
    return 96 * 95 / 2;
}

static void pp_active_both(const nnue_feature_params *params, const nnue_board *board, uint32_t *const out[2],
                           int n[2])
{
    (void)params;
    uint64_t pawns[2];
    pawns_of(board, pawns);
    pawn_pair q[PP_MAX_ACTIVE];
    int k = pairs_touching(pawns, pawns[0] | pawns[1], q, PP_MAX_ACTIVE);
    for (int p = 0; p < 2; p++) {
        int orient = orientation(board, p);
        for (int i = 0; i < k; i++)
            out[p][i] = pair_index(&q[i], p, orient);
        n[p] = k;
    }
}

static int pp_active(const nnue_feature_params *params, const nnue_board *board, int persp, uint32_t *out)
{
    uint32_t other[PP_MAX_ACTIVE];
    uint32_t *const lists[2] = {persp ? other : out, persp ? out : other};
    int n[2];
    pp_active_both(params, board, lists, n);
    return n[persp];
}

/* The pairs a move removed and added: pawns before the move are those after it with the delta
 * undone (new squares cleared first, then old squares set, so a pawn taking a pawn is right). */
static void pair_changes(const nnue_board *after, const nnue_delta *delta, pawn_pair *removed, int *n_removed,
                         pawn_pair *added, int *n_added)
{
    int pawn_moved = 0; /* most moves move no pawn: then no pair changes, and the board is not read */
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        pawn_moved |= (d->new_sq >= 0 && NNUE_PIECE_TYPE(d->new_piece) == NNUE_CHESS_PAWN) ||
                      (d->old_sq >= 0 && NNUE_PIECE_TYPE(d->old_piece) == NNUE_CHESS_PAWN);
    }
    if (!pawn_moved) {
        *n_removed = *n_added = 0;
        return;
    }
    uint64_t now[2], was[2];
    pawns_of(after, now);
    was[0] = now[0], was[1] = now[1];
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        if (d->new_sq >= 0 && NNUE_PIECE_TYPE(d->new_piece) == NNUE_CHESS_PAWN)
            was[NNUE_PIECE_COLOUR(d->new_piece) & 1] &= ~(1ull << d->new_sq);
    }
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        if (d->old_sq >= 0 && NNUE_PIECE_TYPE(d->old_piece) == NNUE_CHESS_PAWN)
            was[NNUE_PIECE_COLOUR(d->old_piece) & 1] |= 1ull << d->old_sq;
    }
    /* A crafted delta may name a pawn on rank 1 or 8, where no pair (and no index) exists: such a
     * pawn counts for nothing, as pawns_of() ignores it on a board. */
    was[0] &= PP_RANKS_2_7, was[1] &= PP_RANKS_2_7;
    uint64_t gone = (was[0] & ~now[0]) | (was[1] & ~now[1]), came = (now[0] & ~was[0]) | (now[1] & ~was[1]);
    *n_removed = pairs_touching(was, gone, removed, PP_MAX_CHANGED);
    *n_added = pairs_touching(now, came, added, PP_MAX_CHANGED);
}

static void pp_changed_both(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                            uint32_t *const removed[2], int n_removed[2], uint32_t *const added[2], int n_added[2])
{
    (void)params;
    pawn_pair r[PP_MAX_CHANGED], a[PP_MAX_CHANGED];
    int nr, na;
    pair_changes(after, delta, r, &nr, a, &na);
    for (int p = 0; p < 2; p++) {
        int orient = orientation(after, p);
        for (int i = 0; i < nr; i++)
            removed[p][i] = pair_index(&r[i], p, orient);
        for (int i = 0; i < na; i++)
            added[p][i] = pair_index(&a[i], p, orient);
        n_removed[p] = nr;
        n_added[p] = na;
    }
}

static void pp_changed(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                       int persp, uint32_t *removed, int *n_removed, uint32_t *added, int *n_added)
{
    uint32_t other_r[PP_MAX_CHANGED], other_a[PP_MAX_CHANGED];
    uint32_t *const r[2] = {persp ? other_r : removed, persp ? removed : other_r};
    uint32_t *const a[2] = {persp ? other_a : added, persp ? added : other_a};
    int nr[2], na[2];
    pp_changed_both(params, after, delta, r, nr, a, na);
    *n_removed = nr[persp];
    *n_added = na[persp];
}

/* Only a change of orientation (the own king crossing between files a-d and e-h) invalidates. */
static int pp_needs_refresh(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                            int persp)
{
    (void)params;
    if (!nnue_fs_own_king_moved(delta, persp, NNUE_CHESS_KING))
        return 0;
    const nnue_dirty *d = nnue_fs_own_king_entry(delta, persp, NNUE_CHESS_KING);
    return !d || ((d->old_sq & 7) >= 4) != ((after->king_sq[persp] & 7) >= 4);
}

/* 16 pawns at most (PP_MAX_ACTIVE's pairs): more could only come from a crafted board, whose
 * pair list would not fit. */
static const char *pp_board_fits(const nnue_feature_params *params, const nnue_board *b, char *buf, size_t size)
{
    (void)params;
    int pawns = 0;
    for (int sq = 0; sq < 64; sq++)
        pawns += NNUE_PIECE_TYPE(b->piece_on[sq]) == NNUE_CHESS_PAWN;
    if (pawns <= 16)
        return NULL;
    snprintf(buf, size, "%d pawns, at most 16 (its pair list holds %d pairs)", pawns, PP_MAX_ACTIVE);
    return buf;
}

const nnue_feature_set nnue_fs_pp_3wide = {
    .max_pieces = 32,
    .board_fits = pp_board_fits,
    .name = "PP_3Wide",
    .game = "chess",
    .display = "PP_3Wide(Friend)",
    .hash = 0x86F2B1DDu,
    .max_active = PP_MAX_ACTIVE,
    .max_changed = PP_MAX_CHANGED,
    .exact_board = 1,
    .changed_any_board = 1, /* squares 8..55 tested for pawns: any byte is a pawn or not */
    .dimensions = pp_dimensions,
    .active = pp_active,
    .changed = pp_changed,
    .needs_refresh = pp_needs_refresh,
    .refresh_on_own_king_move = 1,
    .refresh_keys = nnue_fs_king_half_keys,
    .refresh_key = nnue_fs_king_half_key,
    .active_both = pp_active_both,
    .changed_both = pp_changed_both,
};
