/* features/shogi_halfkp.c: shogi HalfKP (YaneuraOu / Suisho-style nets), 81 x 1548 = 125388
 * inputs; YAML name "HalfKP_shogi".
 *
 * Facts: shared/oracle/shogi/FORMATS.md
 *  - section 2: squares (file-1)*9 + (rank-1); rotation inv(sq) = 80 - sq; BonaPiece tables
 *    (hand slots base + k-1, board base + sq, fe_end = 1548); promoted pawn/lance/knight/silver
 *    use the GOLD entries; kings have no BonaPiece;
 *  - section 3: index = ksq * 1548 + bonapiece; black (colour 0) sees the board as is, white
 *    sees it rotated with friend/enemy swapped (ksq = 80 - white king square);
 *  - section 4.4: with fewer than 38 non-king pieces (board + hands), one feature ksq*1548 + 0
 *    per missing piece, so active() always returns exactly 38 indices;
 *  - section 5: only the perspective whose own king moved refreshes; a capture moves the
 *    victim to the capturer's hand slot base + n (n = count before), a drop takes the last slot
 *    base + n - 1 (the adapter reports these slots in nnue_dirty, include/nnue_board.h). */
#include "features/feature_set.h"
#include "features/feature_util.h"
#include "features/shogi_bonapiece.h"

static uint32_t shogi_halfkp_dimensions(const nnue_feature_params *params)
{
    (void)params;
    return 81 * SHOGI_FE_END;
}

/* The board part of both perspectives' lists in square order, through the kernel table's
 * list_bytes (simd/kernels.h): table[type] = the type's board base (0: king, no feature), colour
 * = piece >> 4 adding 81 (an enemy piece); black's index kb0 + base + 81 * colour + sq, white's
 * kb1 + 81 + base - 81 * colour - sq = its own king block + base + 81 * (1 - colour) + 80 - sq. */
static int board_lists(const nnue_feature_params *params, const nnue_board *board, int32_t kb0, int32_t kb1,
                       uint32_t *o0, uint32_t *o1)
{
    return nnue_fs_kernels(params)->list_bytes(board->piece_on, (uint32_t)board->num_squares, shogi_board_base, 81, kb0,
                                               kb1 + 81, o0, o1, NNUE_MAX_ACTIVE);
}

static int shogi_halfkp_active(const nnue_feature_params *params, const nnue_board *board,
                               int persp, uint32_t *out)
{
    const int32_t kb = shogi_king_base(board, persp);
    uint32_t other[NNUE_MAX_ACTIVE]; /* the other perspective's list, unused */
    int n = persp ? board_lists(params, board, shogi_king_base(board, 0), kb + 80, other, out)
                  : board_lists(params, board, kb, shogi_king_base(board, 1) + 80, out, other);
    for (int c = 0; c < 2; c++) {
        int enemy = c != persp;
        for (int t = NNUE_SHOGI_PAWN; t <= NNUE_SHOGI_ROOK; t++)
            for (int k = 0; k < board->hand[c][t] && n < NNUE_MAX_ACTIVE; k++)
                out[n++] = (uint32_t)(kb + shogi_hand_base[enemy][t] + k);
    }
    while (n < SHOGI_PIECES)    /* FORMATS.md 4.4: BonaPiece 0 per missing piece */
        out[n++] = (uint32_t)kb;
    return n;
}

/* Both perspectives in one pass: a piece's black index and white index share the square walk,
 * the piece load and its base (white: rotated square, friend/enemy swapped, own king block).
 * Same lists, same order as shogi_halfkp_active(params, board, 0 / 1). Refresh is hot, so each
 * hand type writes its full capacity of slots unconditionally and then advances the count (the
 * next type overwrites the extra). */
static void shogi_halfkp_active_both(const nnue_feature_params *params, const nnue_board *board,
                                     uint32_t *const out[2], int n_out[2])
{
    uint32_t *o0 = out[0], *o1 = out[1];
    const int32_t kb0 = shogi_king_base(board, 0), kb1 = shogi_king_base(board, 1) + 80;
    int n = board_lists(params, board, kb0, kb1, o0, o1);
    int total = n, fits = 1;
    for (int c = 0; c < 2; c++)
        for (int t = NNUE_SHOGI_PAWN; t <= NNUE_SHOGI_ROOK; t++) {
            total += board->hand[c][t];
            fits &= board->hand[c][t] <= shogi_hand_cap[t];
        }
    if (fits && total <= SHOGI_PIECES) { /* every write stays below 38 + 18 < NNUE_MAX_ACTIVE */
        for (int c = 0; c < 2; c++)
            for (int t = NNUE_SHOGI_PAWN; t <= NNUE_SHOGI_ROOK; t++) {
                int32_t b0 = kb0 + shogi_hand_base[c][t], b1 = kb1 - 80 + shogi_hand_base[!c][t];
                for (int k = 0; k < shogi_hand_cap[t]; k++) {
                    o0[n + k] = (uint32_t)(b0 + k);
                    o1[n + k] = (uint32_t)(b1 + k);
                }
                n += board->hand[c][t];
            }
    } else {
        for (int c = 0; c < 2; c++)
            for (int t = NNUE_SHOGI_PAWN; t <= NNUE_SHOGI_ROOK; t++) {
                int32_t b0 = kb0 + shogi_hand_base[c][t], b1 = kb1 - 80 + shogi_hand_base[!c][t];
                for (int k = 0; k < board->hand[c][t] && n < NNUE_MAX_ACTIVE; k++) {
                    o0[n] = (uint32_t)(b0 + k);
                    o1[n++] = (uint32_t)(b1 + k);
                }
            }
    }
    for (; n < SHOGI_PIECES; n++) {    /* FORMATS.md 4.4: BonaPiece 0 per missing piece */
        o0[n] = (uint32_t)kb0;
        o1[n] = (uint32_t)(kb1 - 80);
    }
    n_out[0] = n_out[1] = n;
}

static void shogi_halfkp_changed(const nnue_feature_params *params, const nnue_board *after,
                                 const nnue_delta *delta, int persp, uint32_t *removed,
                                 int *n_removed, uint32_t *added, int *n_added)
{
    (void)params;
    const int32_t kb = shogi_king_base(after, persp);
    int nr = 0, na = 0;
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        int32_t f = -1;
        if (d->old_sq >= 0)
            f = shogi_board_index(kb, persp, d->old_piece, d->old_sq);
        else if (d->old_sq == NNUE_SQ_HAND)
            f = shogi_hand_index(kb, persp, d->old_piece, d->old_slot);
        if (f >= 0)
            removed[nr++] = (uint32_t)f;
        f = -1;
        if (d->new_sq >= 0)
            f = shogi_board_index(kb, persp, d->new_piece, d->new_sq);
        else if (d->new_sq == NNUE_SQ_HAND)
            f = shogi_hand_index(kb, persp, d->new_piece, d->new_slot);
        if (f >= 0)
            added[na++] = (uint32_t)f;
    }
    *n_removed = nr;
    *n_added = na;
}

/* A dirty piece's feature at (sq, slot) for both perspectives (f[0], f[1]); 0 when it has none
 * (a king, or no square): the same for both sides, as it depends on the type only. */
static inline int feature_pair(int32_t kb0, int32_t kb1, uint8_t piece, int sq, int slot, int32_t f[2])
{
    if (sq >= 0) {
        f[0] = shogi_board_index(kb0, 0, piece, sq);
        f[1] = shogi_board_index(kb1, 1, piece, sq);
    } else if (sq == NNUE_SQ_HAND) {
        f[0] = shogi_hand_index(kb0, 0, piece, slot);
        f[1] = shogi_hand_index(kb1, 1, piece, slot);
    } else {
        return 0;
    }
    return f[0] >= 0;
}

/* changed() of both perspectives in one pass over the delta (state_update.c calls it when
 * neither refreshes): the same lists, the list pairs growing together. */
static void shogi_halfkp_changed_both(const nnue_feature_params *params, const nnue_board *after,
                                      const nnue_delta *delta, uint32_t *const removed[2], int n_removed[2],
                                      uint32_t *const added[2], int n_added[2])
{
    (void)params;
    const int32_t kb0 = shogi_king_base(after, 0), kb1 = shogi_king_base(after, 1);
    int nr = 0, na = 0;
    for (int i = 0; i < delta->count; i++) {
        const nnue_dirty *d = &delta->dirty[i];
        int32_t f[2];
        if (feature_pair(kb0, kb1, d->old_piece, d->old_sq, d->old_slot, f))
            removed[0][nr] = (uint32_t)f[0], removed[1][nr++] = (uint32_t)f[1];
        if (feature_pair(kb0, kb1, d->new_piece, d->new_sq, d->new_slot, f))
            added[0][na] = (uint32_t)f[0], added[1][na++] = (uint32_t)f[1];
    }
    n_removed[0] = n_removed[1] = nr;
    n_added[0] = n_added[1] = na;
}

static int shogi_halfkp_needs_refresh(const nnue_feature_params *params, const nnue_board *after,
                                      const nnue_delta *delta, int persp)
{
    (void)params;
    (void)after;
    return nnue_fs_own_king_moved(delta, persp, NNUE_SHOGI_KING);
}

/* Refresh-cache key (features/feature_set.h): the own king's square (it selects the 1548-block). */
static uint32_t shogi_halfkp_refresh_keys(const nnue_feature_params *params)
{
    (void)params;
    return 81;
}

static uint32_t shogi_halfkp_refresh_key(const nnue_feature_params *params, const nnue_board *board, int persp)
{
    (void)params;
    uint32_t k = board->king_sq[persp];
    return k < 81 ? k : 0;
}

const nnue_feature_set nnue_fs_shogi_halfkp = {
    .name = "HalfKP_shogi",
    .max_active = 38, /* 40 pieces less the two kings, on the board or in hand */
    .max_changed = NNUE_MAX_DIRTY, /* a removed and an added feature per dirty piece */
    .max_pieces = 40, /* padded to 38 features when fewer (FORMATS.md 4.4) */
    .pads_to_max = 1,
    .game = "shogi",
    .display = "HalfKP(Friend)",
    .hash = 0x5D69D5B8u,
    .dimensions = shogi_halfkp_dimensions,
    .active = shogi_halfkp_active,
    .changed = shogi_halfkp_changed,
    .needs_refresh = shogi_halfkp_needs_refresh,
    .refresh_on_own_king_move = 1,
    .refresh_keys = shogi_halfkp_refresh_keys,
    .refresh_key = shogi_halfkp_refresh_key,
    .active_both = shogi_halfkp_active_both,
    .changed_both = shogi_halfkp_changed_both,
};
