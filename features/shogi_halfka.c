/* features/shogi_halfka.c: YaneuraOu's HalfKA sets for shogi SFNN nets: every piece including
 * both kings, against the own king. YAML names "HalfKA_hm2_shogi" (5 x 9 x 1629 = 73305
 * inputs, mirrored) and "HalfKA2_shogi" (81 x 1629 = 131949 inputs, not mirrored).
 *
 * Facts: shared/oracle/shogi/FORMATS.md sections 2-3 (BonaPiece numbers, the perspective's
 * rotated view) and 11; YaneuraOu source/eval/nnue/features/half_ka_hm2.cpp and half_ka2.cpp:
 *  - the own king is BonaPiece 1548 + sq, the other king 1629 + sq; a number q >= 1629 is
 *    stored as q - 81, so both kings share the plane 1548..1628 ("A2"): a king is 1548 + sq;
 *  - index = 1629 * k + q, k = the own king's square in the perspective's view;
 *  - HalfKA_hm2: when k >= 45 (files 6-9) k and every board square (q >= 90, kings included)
 *    are mirrored, file f -> 10 - f; pieces in hand are not;
 *  - the engine's piece list has 40 entries; a missing piece (handicap) is BonaPiece 0, i.e.
 *    index 1629 * k, so active() always returns 40 indices;
 *  - the engine refreshes a perspective when its own king moves (that is also the only way
 *    the mirror state changes); a move of the other king is an ordinary change. */
#include "features/feature_set.h"
#include "features/feature_util.h"
#include "features/shogi_bonapiece.h"

#define KA_ENTRIES 40   /* YaneuraOu's piece list: 38 pieces and two kings */

/* BonaPiece base of a board piece by (piece code ^ perspective << 4): colour 0 = friend. */
#define KA_SIDE(off)                                                                               \
    0, 90 + (off), 252 + (off), 414 + (off), 576 + (off), 738 + (off), 900 + (off), 1224 + (off),   \
        SHOGI_FE_END, 738 + (off), 738 + (off), 738 + (off), 738 + (off), 1062 + (off), 1386 + (off), 0
static const int32_t ka_piece_base[32] = {KA_SIDE(0), KA_SIDE(81)};

/* A board square in a perspective's view: rotated (flip: white's view, 80 - sq), then, when
 * mirrored, file f -> 10 - f (s + 72 - 18 * (s / 9)); one table per (flip, mirror), so a listed
 * piece costs a load instead of the arithmetic and its branches. */
#define KA_SQ(s, f, m) ((m) ? ((f) ? 80 - (s) : (s)) + 72 - 18 * (((f) ? 80 - (s) : (s)) / 9) : ((f) ? 80 - (s) : (s)))
#define KA_FILE(x, f, m)                                                                                             \
    KA_SQ(9 * (x), f, m), KA_SQ(9 * (x) + 1, f, m), KA_SQ(9 * (x) + 2, f, m), KA_SQ(9 * (x) + 3, f, m),           \
        KA_SQ(9 * (x) + 4, f, m), KA_SQ(9 * (x) + 5, f, m), KA_SQ(9 * (x) + 6, f, m), KA_SQ(9 * (x) + 7, f, m),   \
        KA_SQ(9 * (x) + 8, f, m)
#define KA_TABLE(f, m)                                                                                                \
    {KA_FILE(0, f, m), KA_FILE(1, f, m), KA_FILE(2, f, m), KA_FILE(3, f, m), KA_FILE(4, f, m),                     \
     KA_FILE(5, f, m), KA_FILE(6, f, m), KA_FILE(7, f, m), KA_FILE(8, f, m)}
static const uint8_t ka_squares[2][2][81] = {{KA_TABLE(0, 0), KA_TABLE(0, 1)}, {KA_TABLE(1, 0), KA_TABLE(1, 1)}};

typedef struct ka_view {
    int32_t king_base;  /* 1629 * (oriented, mirrored) own king square */
    const uint8_t *sq;  /* ka_squares of the view: rotated (white's view), files mirrored */
} ka_view;

static inline int ka_square(const ka_view *v, int sq)
{
    return v->sq[sq];
}

static inline ka_view ka_view_of(const nnue_board *board, int persp, int halfmirror)
{
    int k = shogi_own_king(board, persp);
    int mirror = halfmirror && k >= 45;
    return (ka_view){SHOGI_E_KING * (mirror ? k + 72 - 18 * (k / 9) : k), ka_squares[persp & 1][mirror]};
}

static inline int32_t ka_board_index(const ka_view *v, int persp, uint8_t piece, int sq)
{
    return v->king_base + ka_piece_base[(piece ^ (persp << 4)) & 31] + ka_square(v, sq);
}

static inline int32_t ka_hand_index(const ka_view *v, int persp, uint8_t piece, int slot)
{
    int type = shogi_demote[NNUE_PIECE_TYPE(piece) & 15];
    return v->king_base + shogi_hand_base[NNUE_PIECE_COLOUR(piece) != persp][type] + slot;
}

/* Both perspectives' lists (active() takes one of them): out[p] gets the board pieces in square
 * order (the kernel table's list_bytes_map, simd/kernels.h: each piece's base by its code, the
 * second perspective's with the colour bit flipped, plus its square through the perspective's
 * rotation and mirror table; the square-by-square walk it replaces took ~100 ns a call on the
 * Xeon), then hands, then the padding. */
static void ka_lists(const nnue_kernels *k, const nnue_board *board, int halfmirror, uint32_t *const out[2],
                     int n_out[2])
{
    const ka_view v0 = ka_view_of(board, 0, halfmirror), v1 = ka_view_of(board, 1, halfmirror);
    uint32_t *o0 = out[0], *o1 = out[1];
    const uint32_t squares = board->num_squares < 81 ? board->num_squares : 81; /* the maps' size */
    int n = k->list_bytes_map(board->piece_on, squares, ka_piece_base, v0.sq, v1.sq, v0.king_base, v1.king_base, o0,
                              o1, KA_ENTRIES);
    for (int c = 0; c < 2; c++)
        for (int t = NNUE_SHOGI_PAWN; t <= NNUE_SHOGI_ROOK; t++) {
            int32_t b0 = v0.king_base + shogi_hand_base[c][t], b1 = v1.king_base + shogi_hand_base[!c][t];
            for (int j = 0; j < board->hand[c][t] && n < KA_ENTRIES; j++, n++) {
                o0[n] = (uint32_t)(b0 + j);
                o1[n] = (uint32_t)(b1 + j);
            }
        }
    for (; n < KA_ENTRIES; n++) { /* BonaPiece 0 per missing piece */
        o0[n] = (uint32_t)v0.king_base;
        o1[n] = (uint32_t)v1.king_base;
    }
    n_out[0] = n_out[1] = n;
}

static void ka_changed(const nnue_board *after, const nnue_delta *delta, int persp, int halfmirror,
                       uint32_t *removed, int *n_removed, uint32_t *added, int *n_added)
{
    const ka_view v = ka_view_of(after, persp, halfmirror);
    int nr = 0, na = 0;
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        if (d->old_sq >= 0)
            removed[nr++] = (uint32_t)ka_board_index(&v, persp, d->old_piece, d->old_sq);
        else if (d->old_sq == NNUE_SQ_HAND)
            removed[nr++] = (uint32_t)ka_hand_index(&v, persp, d->old_piece, d->old_slot);
        if (d->new_sq >= 0)
            added[na++] = (uint32_t)ka_board_index(&v, persp, d->new_piece, d->new_sq);
        else if (d->new_sq == NNUE_SQ_HAND)
            added[na++] = (uint32_t)ka_hand_index(&v, persp, d->new_piece, d->new_slot);
    }
    *n_removed = nr;
    *n_added = na;
}

/* A dirty piece's feature at (sq, slot) for both perspectives (*o0, *o1); 0 when it has no
 * square (every piece, kings included, has a feature on both sides). */
static inline int ka_pair(const ka_view v[2], uint8_t piece, int sq, int slot, uint32_t *o0, uint32_t *o1)
{
    if (sq >= 0) {
        *o0 = (uint32_t)ka_board_index(&v[0], 0, piece, sq);
        *o1 = (uint32_t)ka_board_index(&v[1], 1, piece, sq);
    } else if (sq == NNUE_SQ_HAND) {
        *o0 = (uint32_t)ka_hand_index(&v[0], 0, piece, slot);
        *o1 = (uint32_t)ka_hand_index(&v[1], 1, piece, slot);
    } else {
        return 0;
    }
    return 1;
}

/* changed() of both perspectives in one pass over the delta: every dirty piece (kings included)
 * has a feature on both sides, so the list pairs grow together. */
static void ka_changed_both(const nnue_board *after, const nnue_delta *delta, int halfmirror,
                            uint32_t *const removed[2], int n_removed[2], uint32_t *const added[2], int n_added[2])
{
    const ka_view v[2] = {ka_view_of(after, 0, halfmirror), ka_view_of(after, 1, halfmirror)};
    int nr = 0, na = 0;
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        nr += ka_pair(v, d->old_piece, d->old_sq, d->old_slot, removed[0] + nr, removed[1] + nr);
        na += ka_pair(v, d->new_piece, d->new_sq, d->new_slot, added[0] + na, added[1] + na);
    }
    n_removed[0] = n_removed[1] = nr;
    n_added[0] = n_added[1] = na;
}

static int ka_needs_refresh(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                            int persp)
{
    (void)params;
    (void)after;
    return nnue_fs_own_king_moved(delta, persp, NNUE_SHOGI_KING);
}

/* Refresh-cache key (features/feature_set.h): the own king's real square (block and mirror state). */
static uint32_t ka_refresh_keys(const nnue_feature_params *params)
{
    (void)params;
    return 81;
}

static uint32_t ka_refresh_key(const nnue_feature_params *params, const nnue_board *board, int persp)
{
    (void)params;
    uint32_t k = board->king_sq[persp];
    return k < 81 ? k : 0;
}

/* HalfKA_hm2: mirrored. */
static uint32_t hm2_dimensions(const nnue_feature_params *params)
{
    (void)params;
    return 5 * 9 * SHOGI_E_KING;
}

static void hm2_active_both(const nnue_feature_params *params, const nnue_board *board, uint32_t *const out[2],
                            int n[2])
{
    ka_lists(nnue_fs_kernels(params), board, 1, out, n);
}

static int hm2_active(const nnue_feature_params *params, const nnue_board *board, int persp, uint32_t *out)
{
    return nnue_fs_active_one(hm2_active_both, params, board, persp, out);
}

static void hm2_changed(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                        int persp, uint32_t *removed, int *n_removed, uint32_t *added, int *n_added)
{
    (void)params;
    ka_changed(after, delta, persp, 1, removed, n_removed, added, n_added);
}

static void hm2_changed_both(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                        uint32_t *const removed[2], int n_removed[2], uint32_t *const added[2], int n_added[2])
{
    (void)params;
    ka_changed_both(after, delta, 1, removed, n_removed, added, n_added);
}

const nnue_feature_set nnue_fs_shogi_halfka_hm2 = {
    .name = "HalfKA_hm2_shogi",
    .max_active = 40, /* 40 pieces, kings included, on the board or in hand */
    .max_changed = NNUE_MAX_DIRTY, /* a removed and an added feature per dirty piece */
    .max_pieces = 40, /* padded to 40 features when fewer */
    .pads_to_max = 1,
    .game = "shogi",
    .display = "HalfKA_hm2(Friend)",
    .hash = 0x5F134CB8u,
    .dimensions = hm2_dimensions,
    .active = hm2_active,
    .changed = hm2_changed,
    .needs_refresh = ka_needs_refresh,
    .refresh_on_own_king_move = 1,
    .refresh_keys = ka_refresh_keys,
    .refresh_key = ka_refresh_key,
    .active_both = hm2_active_both,
    .changed_both = hm2_changed_both,
};

/* HalfKA2: the same without mirroring. */
static uint32_t ka2_dimensions(const nnue_feature_params *params)
{
    (void)params;
    return 81 * SHOGI_E_KING;
}

static void ka2_active_both(const nnue_feature_params *params, const nnue_board *board, uint32_t *const out[2],
                            int n[2])
{
    ka_lists(nnue_fs_kernels(params), board, 0, out, n);
}

static int ka2_active(const nnue_feature_params *params, const nnue_board *board, int persp, uint32_t *out)
{
    return nnue_fs_active_one(ka2_active_both, params, board, persp, out);
}

static void ka2_changed(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                        int persp, uint32_t *removed, int *n_removed, uint32_t *added, int *n_added)
{
    (void)params;
    ka_changed(after, delta, persp, 0, removed, n_removed, added, n_added);
}

static void ka2_changed_both(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                        uint32_t *const removed[2], int n_removed[2], uint32_t *const added[2], int n_added[2])
{
    (void)params;
    ka_changed_both(after, delta, 0, removed, n_removed, added, n_added);
}

const nnue_feature_set nnue_fs_shogi_halfka2 = {
    .name = "HalfKA2_shogi",
    .max_active = 40, /* 40 pieces, kings included, on the board or in hand */
    .max_changed = NNUE_MAX_DIRTY, /* a removed and an added feature per dirty piece */
    .max_pieces = 40, /* padded to 40 features when fewer */
    .pads_to_max = 1,
    .game = "shogi",
    .display = "HalfKA2(Friend)",
    .hash = 0x5F134CB8u,
    .dimensions = ka2_dimensions,
    .active = ka2_active,
    .changed = ka2_changed,
    .needs_refresh = ka_needs_refresh,
    .refresh_on_own_king_move = 1,
    .refresh_keys = ka_refresh_keys,
    .refresh_key = ka_refresh_key,
    .active_both = ka2_active_both,
    .changed_both = ka2_changed_both,
};
