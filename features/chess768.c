/* features/chess768.c: "Chess768", the configurable bullet-style chess set (768 inputs per
 * king bucket, optional horizontal mirroring), dimensions = king_buckets * 768.
 *
 * Facts: shared/oracle/third/cwtch/FACTS.md and shared/oracle/third/obsidian/FACTS.md, sections
 * "Input feature index". One formula covers both nets:
 *  - piece code: own P..K = 0..5, enemy P..K = 6..11 (Obsidian writes it as
 *    (own ? 0 : 1) * 384 + type * 64, the same number);
 *  - relative square: black's perspective flips vertically (sq ^ 56);
 *  - mirroring (params->mirror): when the own king stands on files e-h, every square of this
 *    perspective is XORed with 7 (Cwtch flips then mirrors, Obsidian mirrors then flips: XORs
 *    commute, and the vertical flip keeps files, so the test is the king's real file in both);
 *  - bucket = params->king_bucket_of[own king's relative, mirrored square] (Cwtch: 4 buckets,
 *    rank 1 = 0 0 1 1 1 1 0 0, rank 2 = 2, ranks 3-8 = 3; Obsidian: 1 bucket = none);
 *  - index = bucket * 768 + code * 64 + final square. Both kings are features.
 * Variant "merged_kings" (YAML `variant: merged_kings` in a set item; Stormphrax's and
 * Viridithas's 704 inputs per bucket: shared/oracle/third/stormphrax/FACTS.md, "Psq features"):
 * both kings use the own king's plane (code 5), so codes run 0..10 and a bucket holds 704.
 * Refresh rule: a perspective refreshes only when its own king's bucket or mirror state changes;
 * a king move that keeps both is an ordinary incremental update (the king is a feature).
 * NULL params mean 1 bucket, no mirroring. */
#include <stdio.h>

#include "features/feature_set.h"
#include "features/feature_util.h"
#include "features/piece_planes.h"

typedef struct {
    int32_t bucket_base;  /* per_bucket * king bucket */
    int32_t bucket;       /* the king bucket */
    int xor_mask;         /* 56 for black, ^7 when mirrored */
    int merged;           /* variant merged_kings: both kings on code 5 */
} chess768_ctx;

static const nnue_fs_variant variants[] = {
    {"plain", "Chess768", 0},
    {"merged_kings", "Chess704", 0},
    {NULL, NULL, 0},
};

static int merged_kings(const nnue_feature_params *params)
{
    return params && params->variant == 1;
}

/* Inputs per king bucket: 12 planes of 64, or 11 with the kings merged. */
static int32_t per_bucket(const nnue_feature_params *params)
{
    return merged_kings(params) ? 704 : 768;
}

static chess768_ctx chess768_context(const nnue_feature_params *params, int persp, int ksq)
{
    chess768_ctx c;
    c.xor_mask = persp ? 56 : 0;
    if (params && params->mirror && (ksq & 7) >= 4)
        c.xor_mask ^= 7;
    c.bucket = params && params->king_buckets > 1 ? params->king_bucket_of[ksq ^ c.xor_mask] : 0;
    c.bucket_base = per_bucket(params) * c.bucket;
    c.merged = merged_kings(params);
    return c;
}

static int32_t chess768_index(const void *ctx, int persp, uint8_t piece, int sq)
{
    const chess768_ctx *c = ctx;
    int type = NNUE_PIECE_TYPE(piece) - 1;
    int enemy = NNUE_PIECE_COLOUR(piece) != persp && !(c->merged && type == NNUE_CHESS_KING - 1);
    return c->bucket_base + 64 * (type + (enemy ? 6 : 0)) + (sq ^ c->xor_mask);
}

static uint32_t chess768_dimensions(const nnue_feature_params *params)
{
    uint32_t buckets = params && params->king_buckets > 1 ? params->king_buckets : 1;
    return buckets * (uint32_t)per_bucket(params);
}

/* For the kernel table's list_bytes_map (simd/kernels.h): perspective 0's plane of each piece code
 * plus 1 (0: no feature; the lists' bucket base is passed minus 1), the second perspective's read
 * at the code with its colour flipped; merged_kings: both kings on the own king's plane. */
#define C768_PLANE(c, t, merged)                                                                                     \
    ((t) >= NNUE_CHESS_PAWN && (t) <= NNUE_CHESS_KING                                                                 \
         ? 1 + 64 * ((t) - 1 + ((c) != 0 && !((merged) && (t) == NNUE_CHESS_KING) ? 6 : 0))                          \
         : 0)
#define C768_PLAIN(p, c, t) C768_PLANE(c, t, 0)
#define C768_MERGED(p, c, t) C768_PLANE(c, t, 1)
static const int32_t chess768_listed[2][32] = {NNUE_FS_PLANES(C768_PLAIN, 0), NNUE_FS_PLANES(C768_MERGED, 0)};

/* Both perspectives' lists in one kernel call on a 64-square board (a walk with an index
 * callback a piece before: 4% of Stormphrax's workload); the walk per perspective otherwise. */
static void chess768_active_both(const nnue_feature_params *params, const nnue_board *board, uint32_t *const out[2],
                                 int n[2])
{
    const chess768_ctx c0 = chess768_context(params, 0, board->king_sq[0]);
    const chess768_ctx c1 = chess768_context(params, 1, board->king_sq[1]);
    if (board->num_squares != 64) {
        n[0] = nnue_fs_board_active(board, 0, chess768_index, &c0, out[0]);
        n[1] = nnue_fs_board_active(board, 1, chess768_index, &c1, out[1]);
        return;
    }
    n[0] = n[1] = nnue_fs_kernels(params)->list_bytes_map(board->piece_on, 64, chess768_listed[c0.merged],
                                                          nnue_fs_xor_squares(c0.xor_mask),
                                                          nnue_fs_xor_squares(c1.xor_mask), c0.bucket_base - 1,
                                                          c1.bucket_base - 1, out[0], out[1], 32);
}

static int chess768_active(const nnue_feature_params *params, const nnue_board *board, int persp, uint32_t *out)
{
    return nnue_fs_active_one(chess768_active_both, params, board, persp, out);
}

static void chess768_changed(const nnue_feature_params *params, const nnue_board *after,
                             const nnue_delta *delta, int persp, uint32_t *removed,
                             int *n_removed, uint32_t *added, int *n_added)
{
    /* No refresh means the own king's bucket and mirror state are those of `after`. */
    chess768_ctx c = chess768_context(params, persp, after->king_sq[persp]);
    nnue_fs_board_changed(delta, persp, chess768_index, &c, removed, n_removed, added, n_added);
}

static int chess768_needs_refresh(const nnue_feature_params *params, const nnue_board *after,
                                  const nnue_delta *delta, int persp)
{
    const nnue_dirty *k = nnue_fs_own_king_entry(delta, persp, NNUE_CHESS_KING);
    if (!k)
        return delta->king_moved[persp] ? 1 : 0;  /* flag without an entry: play safe */
    chess768_ctx before = chess768_context(params, persp, k->old_sq);
    chess768_ctx now = chess768_context(params, persp, after->king_sq[persp]);
    return before.bucket != now.bucket || before.xor_mask != now.xor_mask;
}

/* Refresh-cache key (features/feature_set.h): king bucket * 2 + mirrored, exactly what
 * needs_refresh() compares. */
static uint32_t chess768_refresh_keys(const nnue_feature_params *params)
{
    uint32_t buckets = params && params->king_buckets > 1 ? params->king_buckets : 1;
    return buckets * 2;
}

static uint32_t chess768_refresh_key(const nnue_feature_params *params, const nnue_board *board, int persp)
{
    chess768_ctx c = chess768_context(params, persp, board->king_sq[persp]);
    return (uint32_t)c.bucket * 2 + ((c.xor_mask & 7) != 0);
}

/* YAML keys of the set: `king_buckets` (64 numbers a1..h8 in white's view, or 32 for files a-d
 * rank by rank with mirror: true) and `mirror`. */
static nnue_status read_king_buckets(yreader *r, yaml_node_t *v, void *target)
{
    nnue_feature_params *p = ((nnue_fs_ctx *)target)->params;
    int n;
    nnue_status st = y_seq(r, v, &n, "Chess768 'king_buckets'");
    if (st == NNUE_OK && n != 64 && n != 32)
        return y_fail(r, v, NNUE_E_SHAPE,
                      "Chess768 'king_buckets': expected 64 entries (a1..h8), or 32 (files a-d) with mirror: true, "
                      "found %d",
                      n);
    for (int i = 0; st == NNUE_OK && i < n; i++) {
        int64_t b;
        if ((st = y_int(r, y_item(r, v, i), 0, 63, &b, "king bucket")) == NNUE_OK)
            p->listed[i] = (uint8_t)b;
    }
    p->n_listed = (uint8_t)n;
    return st;
}

static nnue_status read_mirror(yreader *r, yaml_node_t *v, void *target)
{
    int m;
    nnue_status st = y_bool(r, v, &m, "Chess768 'mirror'");
    ((nnue_fs_ctx *)target)->params->mirror = (uint8_t)m;
    return st;
}

static const yfield chess768_fields[] = {
    {"king_buckets", 0, read_king_buckets},
    {"mirror", 0, read_mirror},
    {NULL, 0, NULL},
};

/* The listed buckets into king_bucket_of[64]: 32 entries stand for files a-d and their mirror
 * images e-h, which only a mirroring set may use. */
static const char *chess768_check_params(nnue_feature_params *p, char *buf, size_t size)
{
    int n = p->n_listed, max = 0;
    if (n == 0)
        return NULL; /* one bucket */
    if (n == 32 && !p->mirror) {
        snprintf(buf, size, "Chess768 'king_buckets': 32 entries (files a-d) need mirror: true");
        return buf;
    }
    for (int i = 0; i < n; i++) {
        int b = p->listed[i];
        if (n == 64) {
            p->king_bucket_of[i] = (uint8_t)b;
        } else {
            p->king_bucket_of[i / 4 * 8 + i % 4] = (uint8_t)b;
            p->king_bucket_of[i / 4 * 8 + (7 - i % 4)] = (uint8_t)b;
        }
        max = b > max ? b : max;
    }
    p->king_buckets = (uint8_t)(max + 1);
    return NULL;
}

const nnue_feature_set nnue_fs_chess768 = {
    .fields = chess768_fields,
    .check_params = chess768_check_params,
    .name = "Chess768",
    .max_active = 32, /* a chess board holds at most 32 pieces */
    .max_changed = NNUE_MAX_DIRTY, /* a removed and an added feature per dirty piece */
    .max_pieces = 32,
    .game = "chess",
    .display = "Chess768",
    .hash = 0,
    .variants = variants,
    .dimensions = chess768_dimensions,
    .active = chess768_active,
    .active_both = chess768_active_both,
    .changed = chess768_changed,
    .needs_refresh = chess768_needs_refresh,
    .refresh_on_own_king_move = 1,
    .refresh_keys = chess768_refresh_keys,
    .refresh_key = chess768_refresh_key,
};
