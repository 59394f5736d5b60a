/* tests/games/toy_features.c: "ToyKR", the toy 9x10 game's feature set, registered at run
 * time (nnue_register_internal_feature_set). Per perspective: K king buckets x 4 piece codes (own rook,
 * own king, enemy rook, enemy king) x 90 squares, the ranks flipped for colour 1. The set owns
 * its king bucketing: its YAML key `king_files` gives each of the 9 files its bucket (the own
 * king's file picks it), read and checked by the set itself (fields, check_params of
 * features/feature_set.h); without the key, 3 buckets of 3 files. A move refreshes a perspective only
 * when its own king changes bucket: refresh_key, the rule the tests read. */
#include <stdio.h>

#include "features/feature_set.h"
#include "toy_game.h"

#define TOY_PLANE (4 * TOY_SQUARES)

static int rel_sq(int persp, int sq)
{
    return persp ? (TOY_RANKS - 1 - sq / TOY_FILES) * TOY_FILES + sq % TOY_FILES : sq;
}

static int bucket(const nnue_feature_params *p, int king_sq)
{
    return p->king_bucket_of[king_sq % TOY_FILES];
}

static uint32_t index_of(const nnue_feature_params *p, int persp, int king_sq, uint8_t piece, int sq)
{
    int code = NNUE_PIECE_TYPE(piece) - 1 + 2 * (NNUE_PIECE_COLOUR(piece) != persp);
    return (uint32_t)(bucket(p, king_sq) * TOY_PLANE + code * TOY_SQUARES + rel_sq(persp, sq));
}

static uint32_t dimensions(const nnue_feature_params *params)
{
    return params->king_buckets * TOY_PLANE;
}

/* `king_files: [b0, ..., b8]`: the bucket of each file (0..8). */
static nnue_status read_king_files(yreader *r, yaml_node_t *v, void *target)
{
    nnue_feature_params *p = ((nnue_fs_ctx *)target)->params;
    int n;
    nnue_status st = y_seq(r, v, &n, "ToyKR 'king_files'");
    if (st == NNUE_OK && n != TOY_FILES)
        return y_fail(r, v, NNUE_E_SHAPE, "ToyKR 'king_files': expected %d buckets (one per file), found %d",
                      TOY_FILES, n);
    for (int i = 0; st == NNUE_OK && i < n; i++) {
        int64_t b;
        if ((st = y_int(r, y_item(r, v, i), 0, 8, &b, "ToyKR king bucket")) == NNUE_OK)
            p->listed[i] = (uint8_t)b;
    }
    p->n_listed = (uint8_t)n;
    return st;
}

static const yfield fields[] = {
    {"king_files", 0, read_king_files},
    {NULL, 0, NULL},
};

/* The listed buckets, or files / 3, into king_bucket_of; buckets must be 0..K-1 without gaps. */
static const char *check_params(nnue_feature_params *p, char *buf, size_t size)
{
    int used[TOY_FILES] = {0}, max = 0;
    for (int f = 0; f < TOY_FILES; f++) {
        p->king_bucket_of[f] = p->n_listed ? p->listed[f] : (uint8_t)(f / 3);
        used[p->king_bucket_of[f]] = 1;
        max = p->king_bucket_of[f] > max ? p->king_bucket_of[f] : max;
    }
    for (int b = 0; b <= max; b++)
        if (!used[b]) {
            snprintf(buf, size, "ToyKR 'king_files': bucket %d is never used (buckets must be 0..%d)", b, max);
            return buf;
        }
    p->king_buckets = (uint8_t)(max + 1);
    return NULL;
}

static uint32_t refresh_keys(const nnue_feature_params *params)
{
    return params->king_buckets;
}

static uint32_t refresh_key(const nnue_feature_params *params, const nnue_board *b, int persp)
{
    return (uint32_t)bucket(params, b->king_sq[persp]);
}

static int active(const nnue_feature_params *params, const nnue_board *b, int persp, uint32_t *out)
{
    int n = 0;
    for (int sq = 0; sq < TOY_SQUARES; sq++)
        if (b->piece_on[sq])
            out[n++] = index_of(params, persp, b->king_sq[persp], b->piece_on[sq], sq);
    return n;
}

static void changed(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *d, int persp,
                    uint32_t *removed, int *n_removed, uint32_t *added, int *n_added)
{
    *n_removed = *n_added = 0;
    for (int i = 0; i < d->count; i++) {
        const nnue_dirty *x = &d->dirty[i];
        if (x->old_sq >= 0)
            removed[(*n_removed)++] = index_of(params, persp, after->king_sq[persp], x->old_piece, x->old_sq);
        if (x->new_sq >= 0)
            added[(*n_added)++] = index_of(params, persp, after->king_sq[persp], x->new_piece, x->new_sq);
    }
}

static int needs_refresh(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *d, int persp)
{
    if (!d->king_moved[persp])
        return 0;
    for (int i = 0; i < d->count; i++)
        if (d->dirty[i].old_piece == NNUE_PIECE(persp, TOY_KING) && d->dirty[i].old_sq >= 0)
            return bucket(params, d->dirty[i].old_sq) != bucket(params, after->king_sq[persp]);
    return 1;
}

const nnue_feature_set toy_features = {
    .name = "ToyKR",
    .game = "toy9x10",
    .display = "ToyKR(Friend)",
    .max_active = 6,
    .max_changed = 2,
    .dimensions = dimensions,
    .active = active,
    .changed = changed,
    .needs_refresh = needs_refresh,
    .fields = fields,
    .check_params = check_params,
    .refresh_keys = refresh_keys,
    .refresh_key = refresh_key,
};

int toy_register(void)
{
    nnue_error err;
    if (nnue_register_game(&toy_game, &err) != NNUE_OK ||
        nnue_register_internal_feature_set(&toy_features, &err) != NNUE_OK) {
        fprintf(stderr, "registration failed: %s\n", err.message);
        return -1;
    }
    return 0;
}
