/* features/full_threats.c: chess Full_Threats: one feature per (piece X on `from`, occupied
 * square `to` that X attacks, piece Y on `to`). Three variants (YAML `variant:`), same rules,
 * other tables: sfnnv10 (Stockfish 18, 79,856 inputs, the default), sfnnv16 (Stockfish 19,
 * 59,808 inputs: no king attackers, no king victims, pawns attack only knights and rooks; also
 * Viridithas's threat rows) and reckless (Reckless, 66,864 inputs: sfnnv10's table without king
 * victims; shared/oracle/third/reckless/FACTS.md "Threat features").
 *
 * Facts: shared/oracle/chess/FORMATS.md section 9 (read from Stockfish 18's
 * src/nnue/features/full_threats.{h,cpp}) and docs/formats-sfnnv16.md (Stockfish 19's); our code:
 *  - pieces numbered as Stockfish does: white P..K = 1..6, black = 9..14 (colour = piece >> 3);
 *  - per perspective p with own king on ksq: o = (file(ksq) >= 4 ? 7 : 0) ^ 56p; from' = from ^ o,
 *    to' = to ^ o, X' = X ^ 8p, Y' = Y ^ 8p;
 *  - per variant: numValidTargets per attacker type and the target slot map (rows/columns P..K,
 *    -1 = never a feature); same-type pairs (enemies, or any non-pawn type) count once: only
 *    from' > to';
 *  - A(X', s): attacks of X' from s on an empty board (pawns only from ranks 2..7);
 *    offsets/total/base as prefix sums; index = base[X'] + (colour(Y') * nvt[X'] / 2 +
 *    map[X'][Y']) * total[X'] + offsets[X'][from'] + popcount(A(X', from') below to');
 *  - a perspective is rebuilt when its own king crosses between files a-d and e-h.
 *
 * Attacks come from the board view alone (features/chess_attacks.h), so any engine's board works.
 * A move's removed/added features come from the exact difference of the threat sets before and
 * after it (list_threat_changes), listed once per move as raw (attacker, square, victim, square)
 * tuples and then mapped to each perspective's indices; the board before the move is rebuilt
 * from the board after it and the delta (base/board_undo.h). */
#include <string.h>

#include "base/board_undo.h"
#include "features/chess_attacks.h"
#include "features/feature_set.h"
#include "features/feature_util.h"

/* Active threats per perspective: each piece attacks at most 8 occupied squares (the first piece
 * on each of 8 rays or knight jumps; a pawn 2), so a board of at most 32 pieces (max_pieces,
 * which the state enforces) has at most 8 * 32 = 256; 224 in any legal position. A move's
 * removed (or added) threats are distinct threats of one board touching at most 6 changed squares
 * D: attacker on D (8 each), victim on D with the attacker off D (16 each: 8 rays, 8 jumps), or a
 * slider off D whose ray through D changed (one per ray and square of D): at most 6 * 32 = 192.
 * The lists below are never cut for any board the state takes. */
#define FT_MAX 256

#define N_VARIANTS 3

static const nnue_fs_variant variants[N_VARIANTS + 1] = {
    {"sfnnv10", "Full_Threats(Friend)", 0x8F234CB8u},
    {"sfnnv16", "Full_Threats(Friend;59808)", 0x2E6B9D04u},
    {"reckless", "Full_Threats(Friend;66864)", 0}, /* raw format: no hash in the file */
    {NULL, NULL, 0},
};

/* Per variant, by attacker type P..K (index 1..6): targets per colour times 2, and slots. */
static const int num_valid_targets[N_VARIANTS][7] = {
    {0, 6, 12, 10, 10, 12, 8},
    {0, 4, 10, 8, 8, 10, 0},
    {0, 6, 10, 8, 8, 10, 8},
};
static const int8_t target_map[N_VARIANTS][7][7] = {
    {
        {-1, -1, -1, -1, -1, -1, -1},
        {-1, 0, 1, -1, 2, -1, -1},
        {-1, 0, 1, 2, 3, 4, 5},
        {-1, 0, 1, 2, 3, -1, 4},
        {-1, 0, 1, 2, 3, -1, 4},
        {-1, 0, 1, 2, 3, 4, 5},
        {-1, 0, 1, 2, 3, -1, -1},
    },
    {
        {-1, -1, -1, -1, -1, -1, -1},
        {-1, -1, 0, -1, 1, -1, -1},
        {-1, 0, 1, 2, 3, 4, -1},
        {-1, 0, 1, 2, 3, -1, -1},
        {-1, 0, 1, 2, 3, -1, -1},
        {-1, 0, 1, 2, 3, 4, -1},
        {-1, -1, -1, -1, -1, -1, -1},
    },
    {
        {-1, -1, -1, -1, -1, -1, -1},
        {-1, 0, 1, -1, 2, -1, -1},
        {-1, 0, 1, 2, 3, 4, -1},
        {-1, 0, 1, 2, 3, -1, -1},
        {-1, 0, 1, 2, 3, -1, -1},
        {-1, 0, 1, 2, 3, 4, -1},
        {-1, 0, 1, 2, 3, -1, -1},
    },
};

/* Tables indexed by Stockfish piece number (1..6, 9..14); offsets do not depend on the variant. */
static uint64_t empty_attacks[16][64];
static uint16_t offsets[16][64];
static uint32_t totals[16], bases[N_VARIANTS][16];
/* By attacker x and victim y (Stockfish numbers, in the perspective's colours) and the oriented
 * squares' order: pair_first[v][x][y][f' > t'] is the index of the pair's first feature, bases[x]
 * + (colour(y) * numValidTargets[x] / 2 + slot) * total[x], or -1 where there is none (the
 * variant has no such pair, or a pair that counts once, same kind, with f' < t'). */
static int32_t pair_first[N_VARIANTS][16][16][2];
/* attacks_below[x][f][t]: how many of A(x, f) lie below t, the index's last term (at most 27):
 * a table (64 KB, as Stockfish keeps one) instead of a popcount per threat. */
static uint8_t attacks_below[16][64][64];

/* Built once when the library is loaded, after the attack tables (their constructor has a
 * higher priority); constant afterwards. */
__attribute__((constructor)) static void full_threats_tables(void)
{
    uint32_t base[N_VARIANTS] = {0};
    for (int c = 0; c < 2; c++)
        for (int t = 1; t <= 6; t++) {
            int x = 8 * c + t;
            uint32_t sum = 0;
            for (int sq = 0; sq < 64; sq++) {
                empty_attacks[x][sq] = nnue_ca_attacks(NNUE_PIECE(c, t), sq, 0);
                offsets[x][sq] = (uint16_t)sum;
                sum += (uint32_t)__builtin_popcountll(empty_attacks[x][sq]);
            }
            totals[x] = sum;
            for (int v = 0; v < N_VARIANTS; v++) {
                bases[v][x] = base[v];
                base[v] += (uint32_t)num_valid_targets[v][t] * sum;
            }
        }
    for (int xc = 0; xc < 2; xc++)
        for (int xt = 1; xt <= 6; xt++)
            for (int yc = 0; yc < 2; yc++)
                for (int yt = 1; yt <= 6; yt++) {
                    int x = 8 * xc + xt, y = 8 * yc + yt;
                    int once = xt == yt && (xc != yc || xt != NNUE_CHESS_PAWN);
                    for (int v = 0; v < N_VARIANTS; v++) {
                        int slot = target_map[v][xt][yt];
                        uint32_t column = (uint32_t)(yc * num_valid_targets[v][xt] / 2 + slot);
                        int32_t first = slot < 0 ? -1 : (int32_t)(bases[v][x] + column * totals[x]);
                        pair_first[v][x][y][1] = first;
                        pair_first[v][x][y][0] = once ? -1 : first;
                    }
                }
    for (int x = 0; x < 16; x++)
        for (int f = 0; f < 64; f++)
            for (int t = 0; t < 64; t++)
                attacks_below[x][f][t] = (uint8_t)__builtin_popcountll(empty_attacks[x][f] & ((1ull << t) - 1));
}

static int variant_of(const nnue_feature_params *params)
{
    return params && params->variant < N_VARIANTS ? params->variant : 0;
}

/* Index of X on `from` attacking Y on `to` (real squares, nnue piece codes) for persp, negative
 * when it is no feature: three table reads, no branch (the callers keep it when >= 0). */
static inline int32_t threat_index(int v, int persp, int orient, uint8_t attacker, int from, uint8_t victim, int to)
{
    int x = (((attacker >> 4) ^ persp) << 3) | (attacker & 15), y = (((victim >> 4) ^ persp) << 3) | (victim & 15);
    int f = from ^ orient, t = to ^ orient;
    int32_t first = pair_first[v][x][y][f > t];
    /* every table read is in bounds for any pair, so the three loads issue together and a pair
     * that is no feature gets its -1 or-ed in (first >> 31: all ones); a branch on it was
     * mispredicted (sf19: this mapping 1.4x faster, ab 0.979 on the Xeon) */
    return (first + (int32_t)offsets[x][f] + attacks_below[x][f][t]) | (first >> 31);
}

static int orientation(const nnue_board *board, int persp)
{
    return ((board->king_sq[persp] & 7) >= 4 ? 7 : 0) ^ (56 * persp);
}

static uint32_t full_threats_dimensions(const nnue_feature_params *params)
{
    int v = variant_of(params);
    return bases[v][14] + (uint32_t)num_valid_targets[v][6] * totals[14];
}

/* Active threats of perspectives lo..hi in one pass over the board (out[p], n[p]). */
static void threats_of(const nnue_feature_params *params, const nnue_board *board, int lo, int hi,
                       uint32_t *const out[2], int n[2])
{
    int v = variant_of(params);
    nnue_ca_sets s;
    nnue_ca_sets_of(board, &s);
    int orient[2] = {orientation(board, 0), orientation(board, 1)};
    n[0] = n[1] = 0;
    for (uint64_t pieces = s.occupied; pieces; pieces &= pieces - 1) {
        int from = __builtin_ctzll(pieces);
        uint8_t x = board->piece_on[from];
        for (uint64_t a = nnue_ca_attacks(x, from, s.occupied) & s.occupied; a; a &= a - 1) {
            int to = __builtin_ctzll(a);
            for (int p = lo; p <= hi; p++) {
                int32_t f = threat_index(v, p, orient[p], x, from, board->piece_on[to], to);
                if (f >= 0 && n[p] < FT_MAX)
                    out[p][n[p]++] = (uint32_t)f;
            }
        }
    }
}

static void full_threats_active_both(const nnue_feature_params *params, const nnue_board *board,
                                     uint32_t *const out[2], int n[2])
{
    threats_of(params, board, 0, 1, out, n);
}

static int full_threats_active(const nnue_feature_params *params, const nnue_board *board, int persp, uint32_t *out)
{
    uint32_t *const lists[2] = {out, out};
    int n[2];
    threats_of(params, board, persp, persp, lists, n);
    return n[persp];
}

/* One threat as it stands on a board, in real squares and nnue piece codes (no perspective): the
 * public nnue_threat (attacker on from, victim on to), as a move's handed-in changes are. */
typedef nnue_threat raw_threat;

/* The threats a move removed and added, for every perspective alike. */
typedef struct threat_changes {
    int n_removed, n_added;
    raw_threat removed[FT_MAX], added[FT_MAX];
} threat_changes;

static inline int push_threat(raw_threat *out, int n, uint8_t x, int from, uint8_t y, int to)
{
    if (n < FT_MAX)
        out[n++] = (raw_threat){x, (uint8_t)from, y, (uint8_t)to};
    return n;
}

/* Appends the threats of `board` whose attacker stands on `dirty`, or whose victim does (attacker
 * elsewhere); returns the new count. */
static int threats_touching(const nnue_board *board, const nnue_ca_sets *s, uint64_t dirty, raw_threat *out, int n)
{
    for (uint64_t f = dirty & s->occupied; f; f &= f - 1) {
        int from = __builtin_ctzll(f);
        uint8_t x = board->piece_on[from];
        for (uint64_t a = nnue_ca_attacks(x, from, s->occupied) & s->occupied; a; a &= a - 1) {
            int to = __builtin_ctzll(a);
            n = push_threat(out, n, x, from, board->piece_on[to], to);
        }
    }
    for (uint64_t t = dirty & s->occupied; t; t &= t - 1) {
        int to = __builtin_ctzll(t);
        for (uint64_t a = nnue_ca_attackers_to(s, to) & ~dirty; a; a &= a - 1) {
            int from = __builtin_ctzll(a);
            n = push_threat(out, n, board->piece_on[from], from, board->piece_on[to], to);
        }
    }
    return n;
}

/* The exact difference of the threat sets of the boards before and after a move. D = the squares
 * whose content the move changed. A threat with its attacker or its victim on D has a different
 * attacker or victim on the other board (or none), so every such threat of the board before is
 * removed and every one of the board after is added. A threat with both squares off D has the
 * same pieces on both boards and changes only when a slider's ray is opened or blocked on D:
 * such a slider reaches the first square of D on its line on both boards alike, so it is found
 * by the rays from D on the board after; its attacks off D are compared between the boards. */
static void list_threat_changes(const nnue_board *after, const nnue_delta *delta, threat_changes *c)
{
    nnue_board before;
    nnue_board_before(after, delta, &before);
    uint64_t dirty = 0;
    for (int i = 0; i < delta->count; i++) {
        int sq[2] = {delta->dirty[i].old_sq, delta->dirty[i].new_sq};
        for (int k = 0; k < 2; k++)
            if (sq[k] >= 0 && sq[k] < 64 && before.piece_on[sq[k]] != after->piece_on[sq[k]])
                dirty |= 1ull << sq[k];
    }
    nnue_ca_sets sa, sb;
    nnue_ca_sets_of(after, &sa);
    sb = sa;
    for (uint64_t d = dirty; d; d &= d - 1) {
        int sq = __builtin_ctzll(d);
        if (after->piece_on[sq])
            nnue_ca_toggle(&sb, after->piece_on[sq], sq);
        if (before.piece_on[sq])
            nnue_ca_toggle(&sb, before.piece_on[sq], sq);
    }
    c->n_removed = threats_touching(&before, &sb, dirty, c->removed, 0);
    c->n_added = threats_touching(after, &sa, dirty, c->added, 0);
    uint64_t queens = sa.type[NNUE_CHESS_QUEEN], sliders = 0, keep = sa.occupied & ~dirty;
    uint64_t diagonal = (sa.type[NNUE_CHESS_BISHOP] | queens) & ~dirty, straight = (sa.type[NNUE_CHESS_ROOK] | queens) & ~dirty;
    for (uint64_t d = dirty; d; d &= d - 1) {
        int sq = __builtin_ctzll(d);
        sliders |= (nnue_ca_bishop(sq, sa.occupied) & diagonal) | (nnue_ca_rook(sq, sa.occupied) & straight);
    }
    for (; sliders; sliders &= sliders - 1) {
        int from = __builtin_ctzll(sliders);
        uint8_t x = after->piece_on[from];
        uint64_t was = nnue_ca_attacks(x, from, sb.occupied) & keep, is = nnue_ca_attacks(x, from, sa.occupied) & keep;
        for (uint64_t t = was & ~is; t; t &= t - 1) {
            int to = __builtin_ctzll(t);
            c->n_removed = push_threat(c->removed, c->n_removed, x, from, after->piece_on[to], to);
        }
        for (uint64_t t = is & ~was; t; t &= t - 1) {
            int to = __builtin_ctzll(t);
            c->n_added = push_threat(c->added, c->n_added, x, from, after->piece_on[to], to);
        }
    }
}

/* persp's indices of the raw threats that are features of it (each written, kept when it is
 * one: no branch to mispredict). */
static int threat_indices(const nnue_feature_params *params, const raw_threat *r, int n, int persp, int orient,
                          uint32_t *out)
{
    int v = variant_of(params), k = 0;
    for (int i = 0; i < n; i++) {
        int32_t f = threat_index(v, persp, orient, r[i].attacker, r[i].from, r[i].victim, r[i].to);
        out[k] = (uint32_t)f;
        k += f >= 0;
    }
    return k;
}

/* Both perspectives' indices in one pass over the raw threats (n[p] each), kept as in
 * threat_indices. */
static void threat_indices_both(const nnue_feature_params *params, const raw_threat *r, int count, const int orient[2],
                                uint32_t *const out[2], int n[2])
{
    const int v = variant_of(params), o0 = orient[0], o1 = orient[1];
    uint32_t *restrict w0 = out[0], *restrict w1 = out[1];
    int k0 = 0, k1 = 0;
    for (int i = 0; i < count; i++) {
        const raw_threat q = r[i];
        int32_t f0 = threat_index(v, 0, o0, q.attacker, q.from, q.victim, q.to);
        int32_t f1 = threat_index(v, 1, o1, q.attacker, q.from, q.victim, q.to);
        w0[k0] = (uint32_t)f0;
        w1[k1] = (uint32_t)f1;
        k0 += f0 >= 0;
        k1 += f1 >= 0;
    }
    n[0] = k0;
    n[1] = k1;
}

/* The orientation of persp is that of the board after the move (a move that changes it forces a
 * refresh instead). */
static void full_threats_changed(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                                 int persp, uint32_t *removed, int *n_removed, uint32_t *added, int *n_added)
{
    threat_changes c;
    list_threat_changes(after, delta, &c);
    int orient = orientation(after, persp);
    *n_removed = threat_indices(params, c.removed, c.n_removed, persp, orient, removed);
    *n_added = threat_indices(params, c.added, c.n_added, persp, orient, added);
}

static void full_threats_changed_both(const nnue_feature_params *params, const nnue_board *after,
                                      const nnue_delta *delta, uint32_t *const removed[2], int n_removed[2],
                                      uint32_t *const added[2], int n_added[2])
{
    threat_changes c;
    list_threat_changes(after, delta, &c);
    int orient[2] = {orientation(after, 0), orientation(after, 1)};
    threat_indices_both(params, c.removed, c.n_removed, orient, removed, n_removed);
    threat_indices_both(params, c.added, c.n_added, orient, added, n_added);
}

/* The same from the threat changes handed in with the move (nnue_state_push_threats): the pairs
 * are those list_threat_changes would list, so only the mapping remains. */
static void full_threats_changed_threats(const nnue_feature_params *params, const nnue_board *after,
                                         const nnue_delta *delta, const nnue_threat_span *t, int lo, int hi,
                                         uint32_t *const removed[2], int n_removed[2], uint32_t *const added[2],
                                         int n_added[2])
{
    (void)delta;
    if (lo == 0 && hi == 1) {
        int orient[2] = {orientation(after, 0), orientation(after, 1)};
        threat_indices_both(params, t->removed, t->n_removed, orient, removed, n_removed);
        threat_indices_both(params, t->added, t->n_added, orient, added, n_added);
        return;
    }
    for (int p = lo; p <= hi; p++) {
        int orient = orientation(after, p);
        n_removed[p] = threat_indices(params, t->removed, t->n_removed, p, orient, removed[p]);
        n_added[p] = threat_indices(params, t->added, t->n_added, p, orient, added[p]);
    }
}

/* A handed-in pair is a feature only where `to` is among the empty-board attacks of its attacker
 * on `from` (the table attacks_below counts from): any other pair, from == to included, would
 * index past the attacker's rows. Real colours and squares: the perspective's flips map attacks
 * onto attacks. */
static int full_threats_threat_is_attack(const nnue_feature_params *params, const nnue_threat *t)
{
    (void)params;
    int x = ((t->attacker >> 4) & 1) << 3 | (t->attacker & 7);
    return t->from < 64 && t->to < 64 && (empty_attacks[x][t->from] >> t->to & 1);
}

/* Pairs with a first feature in either perspective's colours (the squares' order aside). */
static void full_threats_threat_pairs(const nnue_feature_params *params, uint32_t victims[32])
{
    int v = variant_of(params);
    memset(victims, 0, 32 * sizeof *victims);
    for (int x = 0; x < 32; x++)
        for (int y = 0; y < 32; y++)
            for (int p = 0; p < 2; p++) {
                int xt = x & 15, yt = y & 15;
                if (xt < NNUE_CHESS_PAWN || xt > NNUE_CHESS_KING || yt < NNUE_CHESS_PAWN || yt > NNUE_CHESS_KING)
                    continue;
                int sx = ((x >> 4) ^ p) << 3 | xt, sy = ((y >> 4) ^ p) << 3 | yt;
                if (pair_first[v][sx][sy][1] >= 0)
                    victims[x] |= 1u << y;
            }
}

/* Only a change of orientation (the own king crossing between files a-d and e-h) invalidates. */
static int full_threats_needs_refresh(const nnue_feature_params *params, const nnue_board *after,
                                      const nnue_delta *delta, int persp)
{
    (void)params;
    if (!nnue_fs_own_king_moved(delta, persp, NNUE_CHESS_KING))
        return 0;
    const nnue_dirty *d = nnue_fs_own_king_entry(delta, persp, NNUE_CHESS_KING);
    return !d || ((d->old_sq & 7) >= 4) != ((after->king_sq[persp] & 7) >= 4);
}

const nnue_feature_set nnue_fs_full_threats = {
    .name = "Full_Threats",
    .game = "chess",
    .display = "Full_Threats(Friend)",
    .hash = 0x8F234CB8u,
    .variants = variants,
    .max_active = FT_MAX,
    .max_changed = FT_MAX,
    .max_pieces = 32,
    .exact_board = 1,
    .threats_read_kings = 1, /* changed_threats: the orientation from the kings, the pairs handed in */
    .dimensions = full_threats_dimensions,
    .active = full_threats_active,
    .changed = full_threats_changed,
    .needs_refresh = full_threats_needs_refresh,
    .refresh_on_own_king_move = 1,
    .refresh_keys = nnue_fs_king_half_keys,
    .refresh_key = nnue_fs_king_half_key,
    .changed_both = full_threats_changed_both,
    .active_both = full_threats_active_both,
    .changed_threats = full_threats_changed_threats,
    .threat_is_attack = full_threats_threat_is_attack,
    .threat_attacks = &empty_attacks[0][0],
    .threat_pairs = full_threats_threat_pairs,
};
