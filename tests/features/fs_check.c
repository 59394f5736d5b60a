/* tests/features/fs_check.c: incremental-versus-full checks shared by the feature tests
 * (see fs_check.h). Facts used: Chess768 bucket/mirror rule (third/cwtch and third/obsidian
 * FACTS.md, "Input feature index"), shogi padding (shogi FORMATS.md 4.4 and 11). */
#include "fs_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue_error.h"

#define CWTCH_BUCKETS                                                        \
    { 0, 0, 1, 1, 1, 1, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, \
      3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, \
      3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3 }

/* Cwtch FACTS.md step 3: rank 1 = 0 0 1 1 1 1 0 0, rank 2 = 2, ranks 3-8 = 3. */
const nnue_feature_params fs_params_cwtch = { .king_buckets = 4, .king_bucket_of = CWTCH_BUCKETS,
                                              .mirror = 1 };
/* Obsidian FACTS.md: no king buckets, mirroring. */
const nnue_feature_params fs_params_obsidian = { .king_buckets = 1, .mirror = 1 };
/* Not a real net: buckets without mirroring, so the unmirrored half of the table is used. */
const nnue_feature_params fs_params_nomirror = { .king_buckets = 4, .king_bucket_of = CWTCH_BUCKETS,
                                                 .mirror = 0 };
/* Stormphrax FACTS.md "Psq features": 16 buckets over files a-d (e-h mirror them), kings merged. */
#define SP_RANKS(a, b, c, d) a, b, c, d, d, c, b, a
const nnue_feature_params fs_params_stormphrax = {
    .king_buckets = 16, .mirror = 1, .variant = 1,
    .king_bucket_of = { SP_RANKS(0, 1, 2, 3), SP_RANKS(4, 5, 6, 7), SP_RANKS(8, 9, 10, 11), SP_RANKS(8, 9, 10, 11),
                        SP_RANKS(12, 12, 13, 13), SP_RANKS(12, 12, 13, 13), SP_RANKS(14, 14, 15, 15),
                        SP_RANKS(14, 14, 15, 15) } };
/* PlentyChess FACTS.md "Psq features": 12 buckets, horizontally symmetric, 768 per bucket. */
const nnue_feature_params fs_params_plentychess = {
    .king_buckets = 12, .mirror = 1,
    .king_bucket_of = { SP_RANKS(0, 1, 2, 3), SP_RANKS(4, 5, 6, 7), SP_RANKS(8, 8, 9, 9), SP_RANKS(10, 10, 10, 10),
                        SP_RANKS(11, 11, 11, 11), SP_RANKS(11, 11, 11, 11), SP_RANKS(11, 11, 11, 11),
                        SP_RANKS(11, 11, 11, 11) } };
static const nnue_feature_params fs_params_none;
/* Variant k of a set with variants (Full_Threats: sfnnv10, sfnnv16). */
static const nnue_feature_params fs_params_variant[4] = {{.variant = 0}, {.variant = 1}, {.variant = 2}, {.variant = 3}};
static char variant_labels[FS_MAX_CASES][48];

int fs_cases_for(const char *game, fs_case *cases, int max)
{
    int n = 0;
    for (int i = 0; nnue_feature_sets[i]; i++) {
        const nnue_feature_set *fs = nnue_feature_sets[i];
        if (strcmp(fs->game, game) != 0)
            continue;
        if (strcmp(fs->name, "Chess768") == 0) {
            const nnue_feature_params *ps[4] = { &fs_params_cwtch, &fs_params_obsidian,
                                                 &fs_params_nomirror, &fs_params_stormphrax };
            const char *labels[4] = { "Chess768/cwtch", "Chess768/obsidian", "Chess768/nomirror",
                                      "Chess768/stormphrax (merged kings)" };
            for (int k = 0; k < 4 && n < max; k++)
                cases[n++] = (fs_case){ labels[k], fs, ps[k] };
        } else if (fs->variants) { /* one case per variant */
            for (int k = 0; fs->variants[k].name && k < 4 && n < max; k++) {
                snprintf(variant_labels[n], sizeof variant_labels[n], "%s/%s", fs->name, fs->variants[k].name);
                cases[n] = (fs_case){ variant_labels[n], fs, &fs_params_variant[k] };
                n++;
            }
        } else if (n < max) {
            cases[n++] = (fs_case){ fs->name, fs, &fs_params_none };
        }
    }
    return n;
}

const nnue_game *fs_game(const char *name)
{
    const nnue_game *g = nnue_game_find(name);
    FS_REQUIRE(g != NULL, "game adapter '%s' is not registered in games/registry.c", name);
    return g;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int fs_same_multiset(const uint32_t *a, int na, const uint32_t *b, int nb)
{
    if (na != nb)
        return 0;
    uint32_t sa[2 * NNUE_MAX_ACTIVE_ANY], sb[2 * NNUE_MAX_ACTIVE_ANY];
    memcpy(sa, a, (size_t)na * sizeof *a);
    memcpy(sb, b, (size_t)nb * sizeof *b);
    qsort(sa, (size_t)na, sizeof *sa, cmp_u32);
    qsort(sb, (size_t)nb, sizeof *sb, cmp_u32);
    return memcmp(sa, sb, (size_t)na * sizeof *sa) == 0;
}

static int is_shogi(const fs_case *c)
{
    return strcmp(c->fs->game, "shogi") == 0;
}

/* Full_Threats: active counts depend on attacks (its goldens check them through the nets). */
static int is_threats(const fs_case *c)
{
    return strcmp(c->fs->name, "Full_Threats") == 0;
}

/* PP_3Wide: pairs of pawns (either colours) on the same or adjacent files, counted here by
 * brute force over square pairs (docs/formats-sfnnv16.md section 4). */
static int pawn_pairs(const nnue_board *b)
{
    int n = 0;
    for (int x = 0; x < 64; x++)
        for (int y = x + 1; y < 64; y++) {
            int dx = (x & 7) - (y & 7);
            n += NNUE_PIECE_TYPE(b->piece_on[x]) == NNUE_CHESS_PAWN &&
                 NNUE_PIECE_TYPE(b->piece_on[y]) == NNUE_CHESS_PAWN && dx >= -1 && dx <= 1;
        }
    return n;
}

static int max_changed(const fs_case *c)
{
    return c->fs->max_changed ? c->fs->max_changed : NNUE_MAX_CHANGED;
}

/* What decides a full refresh: the set's own refresh context (features/feature_set.h refresh_key),
 * whatever the set; no context = nothing forces a refresh. */
static int king_state(const fs_case *c, const nnue_board *b, int persp)
{
    return c->fs->refresh_key ? (int)c->fs->refresh_key(c->params, b, persp) : 0;
}

/* Shogi: the size of one king block; BonaPiece 0 (the padding) is a multiple of it. HalfKP's
 * lists have the 38 non-king pieces, the HalfKA sets' the 40 of YaneuraOu's piece list. */
static uint32_t shogi_block(const fs_case *c)
{
    return strcmp(c->fs->name, "HalfKP_shogi") == 0 ? 1548 : 1629;
}

static int expected_count(const fs_case *c, const nnue_board *b)
{
    if (is_shogi(c))
        return shogi_block(c) == 1548 ? 38 : 40;
    if (strcmp(c->fs->name, "PP_3Wide") == 0)
        return pawn_pairs(b);
    int pieces = 0, kings = 0;
    for (int sq = 0; sq < b->num_squares; sq++) {
        if (!b->piece_on[sq])
            continue;
        pieces++;
        kings += NNUE_PIECE_TYPE(b->piece_on[sq]) == NNUE_CHESS_KING;
    }
    return strcmp(c->fs->name, "HalfKP") == 0 ? pieces - kings : pieces;
}

int fs_check_active(const fs_case *c, const nnue_board *board, int persp, uint32_t *out,
                    const char *where)
{
    uint32_t dims = c->fs->dimensions(c->params);
    int n = c->fs->active(c->params, board, persp, out);
    FS_REQUIRE(n >= 0 && n <= (c->fs->max_active ? c->fs->max_active : NNUE_MAX_ACTIVE), "%s persp %d: %d active at %s", c->label, persp, n,
               where);
    FS_REQUIRE(is_threats(c) || n == expected_count(c, board), "%s persp %d: %d active, expected %d at %s",
               c->label, persp, n, expected_count(c, board), where);
    if (c->fs->active_both) { /* the one-pass variant writes the same list, same order */
        uint32_t a0[NNUE_MAX_ACTIVE_ANY], a1[NNUE_MAX_ACTIVE_ANY];
        uint32_t *const both[2] = {a0, a1};
        int nb[2] = {-1, -1};
        c->fs->active_both(c->params, board, both, nb);
        FS_REQUIRE(nb[persp] == n && memcmp(both[persp], out, (size_t)n * sizeof *out) == 0,
                   "%s persp %d: active_both differs from active at %s", c->label, persp, where);
    }
    uint32_t s[NNUE_MAX_ACTIVE_ANY];
    memcpy(s, out, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_u32);
    for (int i = 0; i < n; i++) {
        FS_REQUIRE(s[i] < dims, "%s persp %d: index %u >= %u at %s", c->label, persp, s[i], dims,
                   where);
        if (i > 0 && s[i] == s[i - 1])
            FS_REQUIRE(is_shogi(c) && s[i] % shogi_block(c) == 0,
                       "%s persp %d: index %u repeats at %s", c->label, persp, s[i], where);
    }
    return n;
}

/* changed_both(), when the set has it and neither perspective refreshes, writes what changed()
 * writes for each perspective, in the same order. */
static void check_changed_both(const fs_case *fc, const nnue_board *after, const nnue_delta *delta, const char *where)
{
    if (!fc->fs->changed_both || fc->fs->needs_refresh(fc->params, after, delta, 0) ||
        fc->fs->needs_refresh(fc->params, after, delta, 1))
        return;
    uint32_t lists[2][2][NNUE_MAX_ACTIVE_ANY];
    int n[2][2] = {{-1, -1}, {-1, -1}};
    uint32_t *const removed[2] = {lists[0][0], lists[1][0]}, *const added[2] = {lists[0][1], lists[1][1]};
    fc->fs->changed_both(fc->params, after, delta, removed, n[0], added, n[1]);
    for (int p = 0; p < 2; p++) {
        uint32_t r[NNUE_MAX_ACTIVE_ANY], a[NNUE_MAX_ACTIVE_ANY];
        int nr = -1, na = -1;
        fc->fs->changed(fc->params, after, delta, p, r, &nr, a, &na);
        FS_REQUIRE(n[0][p] == nr && n[1][p] == na && !memcmp(r, removed[p], sizeof *r * (size_t)nr) &&
                       !memcmp(a, added[p], sizeof *a * (size_t)na),
                   "%s persp %d: changed_both differs from changed at %s", fc->label, p, where);
    }
}

int fs_check_delta(const fs_case *cases, int n, const nnue_board *before,
                   const nnue_board *after, const nnue_delta *delta, const char *where)
{
    uint32_t now[2 * NNUE_MAX_ACTIVE_ANY];
    int incremental = 0;
    FS_REQUIRE(delta->count >= 1 && delta->count <= NNUE_MAX_DIRTY, "delta.count %d at %s",
               delta->count, where);
    for (int c = 0; c < n; c++) {
        const fs_case *fc = &cases[c];
        uint32_t dims = fc->fs->dimensions(fc->params);
        for (int p = 0; p < 2; p++) {
            uint32_t full[NNUE_MAX_ACTIVE_ANY];
            int m = fs_check_active(fc, before, p, now, where);
            int nf = fs_check_active(fc, after, p, full, where);
            int want = king_state(fc, before, p) != king_state(fc, after, p);
            int got = fc->fs->needs_refresh(fc->params, after, delta, p);
            FS_REQUIRE(got == want, "%s persp %d: needs_refresh %d, expected %d at %s", fc->label,
                       p, got, want, where);
            if (got)
                continue;
            incremental++;
            uint32_t removed[NNUE_MAX_ACTIVE_ANY], added[NNUE_MAX_ACTIVE_ANY];
            int nr = -1, na = -1;
            fc->fs->changed(fc->params, after, delta, p, removed, &nr, added, &na);
            FS_REQUIRE(nr >= 0 && nr <= max_changed(fc) && na >= 0 && na <= max_changed(fc),
                       "%s persp %d: %d removed, %d added at %s", fc->label, p, nr, na, where);
            for (int i = 0; i < nr; i++) {
                FS_REQUIRE(removed[i] < dims, "%s persp %d: removed %u >= %u at %s", fc->label,
                           p, removed[i], dims, where);
                int j = 0;
                while (j < m && now[j] != removed[i])
                    j++;
                FS_REQUIRE(j < m, "%s persp %d: removed %u was not active at %s", fc->label, p,
                           removed[i], where);
                now[j] = now[--m];
            }
            for (int i = 0; i < na; i++) {
                FS_REQUIRE(added[i] < dims, "%s persp %d: added %u >= %u at %s", fc->label, p,
                           added[i], dims, where);
                now[m++] = added[i];
            }
            FS_REQUIRE(fs_same_multiset(now, m, full, nf),
                       "%s persp %d: incremental update differs from recomputation at %s",
                       fc->label, p, where);
        }
        check_changed_both(fc, after, delta, where);
    }
    return incremental;
}

int fs_check_move(const nnue_game *g, void *pos, nnue_move move, const fs_case *cases, int n,
                  const char *after_text, const char *where)
{
    uint32_t act[FS_MAX_CASES][2][NNUE_MAX_ACTIVE_ANY];
    int cnt[FS_MAX_CASES][2];
    FS_REQUIRE(n <= FS_MAX_CASES, "too many cases");
    const nnue_board before = *g->board(pos);
    for (int c = 0; c < n; c++)
        for (int p = 0; p < 2; p++)
            cnt[c][p] = cases[c].fs->active(cases[c].params, &before, p, act[c][p]);

    nnue_delta delta;
    memset(&delta, 0, sizeof delta);
    g->make(pos, move, &delta);
    const nnue_board after = *g->board(pos);
    int incremental = fs_check_delta(cases, n, &before, &after, &delta, where);

    if (after_text) {
        void *fresh = malloc(g->pos_size);
        nnue_error err;
        FS_REQUIRE(g->parse(fresh, after_text, &err) == 0, "cannot parse %s: %s", after_text,
                   err.message);
        const nnue_board *fb = g->board(fresh);
        for (int c = 0; c < n; c++)
            for (int p = 0; p < 2; p++) {
                uint32_t a[NNUE_MAX_ACTIVE_ANY], b[NNUE_MAX_ACTIVE_ANY];
                int na = cases[c].fs->active(cases[c].params, &after, p, a);
                int nb = cases[c].fs->active(cases[c].params, fb, p, b);
                FS_REQUIRE(fs_same_multiset(a, na, b, nb),
                           "%s persp %d: position after move differs from %s (at %s)",
                           cases[c].label, p, after_text, where);
            }
        free(fresh);
    }

    g->unmake(pos, move);
    const nnue_board *undone = g->board(pos);
    FS_REQUIRE(undone->side_to_move == before.side_to_move, "unmake: side to move at %s", where);
    for (int c = 0; c < n; c++)
        for (int p = 0; p < 2; p++) {
            uint32_t a[NNUE_MAX_ACTIVE_ANY];
            int na = cases[c].fs->active(cases[c].params, undone, p, a);
            FS_REQUIRE(fs_same_multiset(a, na, act[c][p], cnt[c][p]),
                       "%s persp %d: unmake did not restore the features at %s", cases[c].label,
                       p, where);
        }
    return incremental;
}

int fs_check_all_moves(const nnue_game *g, const char *text, const fs_case *cases, int n)
{
    void *pos = malloc(g->pos_size);
    nnue_error err;
    FS_REQUIRE(g->parse(pos, text, &err) == 0, "cannot parse %s: %s", text, err.message);
    nnue_move moves[NNUE_MAX_MOVES];
    int nm = g->legal_moves(pos, moves);
    for (int i = 0; i < nm; i++) {
        char mv[32], where[512];
        g->format_move(moves[i], mv, sizeof mv);
        snprintf(where, sizeof where, "%s | %s", text, mv);
        fs_check_move(g, pos, moves[i], cases, n, NULL, where);
    }
    free(pos);
    return nm;
}
