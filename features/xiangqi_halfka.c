/* features/xiangqi_halfka.c: Pikafish's HalfKAv2_hm for xiangqi, 6 king buckets x 4 attack
 * buckets x 689 piece-squares = 16536 inputs.
 *
 * Facts (Pikafish 97133eeb, src/nnue/features/half_ka_v2_hm.*; docs/formats-pikafish.md):
 *  - the 689 piece-squares are the valid (piece, square) pairs of the mapped view, numbered
 *    piece by piece (own R A C P N B K, then the other side's) and square by square;
 *  - index = offset(piece', sq') + 689 * (king_bucket * 4 + attack_bucket), where the view
 *    flips ranks for black and files when mirrored (features/xiangqi_context.c);
 *  - the engine refreshes a perspective when its buckets or its mirror change; otherwise a
 *    move's pieces are removed and added in the unchanged context. */
#include "features/feature_set.h"
#include "features/feature_util.h"
#include "features/xiangqi_context.h"

#define PS_NB 689

static uint16_t psq_offset[16][90];

__attribute__((constructor)) static void psq_tables(void)
{
    int n = 0;
    for (int p = 1; p < 16; p++)
        for (int sq = 0; sq < 90; sq++)
            if (xqf_valid(p, sq))
                psq_offset[p][sq] = (uint16_t)n++;
}

typedef struct {
    int mirror;
    uint32_t base;
} hka_ctx;

static int32_t hka_index(const void *ctx, int persp, uint8_t piece, int sq)
{
    const hka_ctx *c = ctx;
    return (int32_t)(c->base + psq_offset[xqf_piece(piece, persp)][xqf_map(sq, c->mirror, persp)]);
}

static hka_ctx hka_of(const xqf_context *x)
{
    return (hka_ctx){x->mirror, (uint32_t)(PS_NB * (x->king_bucket * 4 + x->attack_bucket))};
}

static hka_ctx hka_context(const nnue_feature_params *params, const nnue_board *board, int persp)
{
    xqf_context x[2];
    xqf_board_contexts(params, board, x);
    return hka_of(&x[persp]);
}

static uint32_t hka_dimensions(const nnue_feature_params *params)
{
    (void)params;
    return 6 * 4 * PS_NB;
}

static int hka_active(const nnue_feature_params *params, const nnue_board *board, int persp, uint32_t *out)
{
    hka_ctx c = hka_context(params, board, persp);
    return nnue_fs_board_active(board, persp, hka_index, &c, out);
}

static void hka_changed(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                        int persp, uint32_t *removed, int *n_removed, uint32_t *added, int *n_added)
{
    xqf_context x[2];
    xqf_move_contexts(params, after, delta, x, NULL);
    hka_ctx c = hka_of(&x[persp]);
    nnue_fs_board_changed(delta, persp, hka_index, &c, removed, n_removed, added, n_added);
}

/* Both perspectives with one pass over the pieces for their contexts. */
static void hka_active_both(const nnue_feature_params *params, const nnue_board *board, uint32_t *const out[2], int n[2])
{
    xqf_context x[2];
    xqf_board_contexts(params, board, x);
    for (int p = 0; p < 2; p++) {
        hka_ctx c = hka_of(&x[p]);
        n[p] = nnue_fs_board_active(board, p, hka_index, &c, out[p]);
    }
}

static void hka_changed_both(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                             uint32_t *const removed[2], int n_removed[2], uint32_t *const added[2], int n_added[2])
{
    xqf_context x[2];
    xqf_move_contexts(params, after, delta, x, NULL);
    for (int p = 0; p < 2; p++) {
        hka_ctx c = hka_of(&x[p]);
        nnue_fs_board_changed(delta, p, hka_index, &c, removed[p], &n_removed[p], added[p], &n_added[p]);
    }
}

static int hka_needs_refresh(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                             int persp)
{
    xqf_context a[2], b[2];
    xqf_move_contexts(params, after, delta, a, b);
    hka_ctx x = hka_of(&a[persp]), y = hka_of(&b[persp]);
    return x.mirror != y.mirror || x.base != y.base;
}

static uint32_t hka_refresh_keys(const nnue_feature_params *params)
{
    (void)params;
    return 48;
}

static uint32_t hka_refresh_key(const nnue_feature_params *params, const nnue_board *board, int persp)
{
    hka_ctx c = hka_context(params, board, persp);
    return c.base / PS_NB * 2 + (uint32_t)c.mirror;
}

const nnue_feature_set nnue_fs_xiangqi_halfka = {
    .name = "HalfKAv2_hm_xiangqi",
    .game = "xiangqi",
    .display = "HalfKAv2_hm(Friend)",
    .hash = 0x7F234CB8u,
    .max_active = 32,
    .max_pieces = 32, /* one feature a piece, kings included */
    /* Buckets and mirror weigh the whole board (counts, mid-mirror sum): from the state's summary
     * (xqf_fs_summary_move: the delta's pieces), so needs_refresh() reads no board; called
     * without one, changed() takes them from the board, defined on any bytes (the kings' squares
     * checked, the sums and counts only compared): evaluate() need not check the board whole. */
    .exact_board = 1,
    .changed_any_board = 1,
    .dimensions = hka_dimensions,
    .active = hka_active,
    .changed = hka_changed,
    .needs_refresh = hka_needs_refresh,
    .refresh_keys = hka_refresh_keys,
    .refresh_key = hka_refresh_key,
    .active_both = hka_active_both,
    .changed_both = hka_changed_both,
    .summary_bytes = sizeof(xqf_summary),
    .summary = xqf_fs_summary,
    .summary_move = xqf_fs_summary_move,
};
