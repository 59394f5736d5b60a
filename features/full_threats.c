/* features/full_threats.c: chess Full_Threats (Stockfish 18, SFNNv10), 79,856 inputs: one feature
 * per (piece X on `from`, occupied square `to` that X attacks, piece Y on `to`).
 *
 * Facts: shared/oracle/chess/FORMATS.md section 9 (read from Stockfish 18's
 * src/nnue/features/full_threats.{h,cpp}; this is our own code):
 *  - pieces numbered as Stockfish does: white P..K = 1..6, black = 9..14 (colour = piece >> 3);
 *  - per perspective p with own king on ksq: o = (file(ksq) >= 4 ? 7 : 0) ^ 56p; from' = from ^ o,
 *    to' = to ^ o, X' = X ^ 8p, Y' = Y ^ 8p;
 *  - numValidTargets P 6, N 12, B 10, R 10, Q 12, K 8; target slot map (rows/columns P..K, -1 =
 *    never a feature); same-type pairs (enemies, or any non-pawn type) count once: only from' > to';
 *  - A(X', s): attacks of X' from s on an empty board (pawns only from ranks 2..7);
 *    offsets/total/base as prefix sums; index = base[X'] + (colour(Y') * nvt[X'] / 2 +
 *    map[X'][Y']) * total[X'] + offsets[X'][from'] + popcount(A(X', from') below to');
 *  - a perspective is rebuilt when its own king crosses between files a-d and e-h.
 *
 * Attacks come from the board view alone (include/nnue_board.h), so any engine's board works:
 * a small attack generator of its own (knight/king/pawn tables, sliders walked ray by ray to the
 * first occupied square, that square included; attackers of a square by the reverse rays). A
 * move's removed/added features are the difference of the threats touching the move on the
 * board before it (rebuilt from the board after it and the delta, core/board_undo.h) and after
 * it, in the same orientation (see full_threats_changed). */
#include <string.h>

#include "core/board_undo.h"
#include "core/feature_set.h"
#include "features/feature_util.h"

#define FT_MAX 256 /* active threats per perspective: at most 224 in any chess position */

static const int num_valid_targets[7] = {0, 6, 12, 10, 10, 12, 8};
static const int8_t target_map[7][7] = {
    {-1, -1, -1, -1, -1, -1, -1},
    {-1, 0, 1, -1, 2, -1, -1},
    {-1, 0, 1, 2, 3, 4, 5},
    {-1, 0, 1, 2, 3, -1, 4},
    {-1, 0, 1, 2, 3, -1, 4},
    {-1, 0, 1, 2, 3, 4, 5},
    {-1, 0, 1, 2, 3, -1, -1},
};

/* Tables indexed by Stockfish piece number (1..6, 9..14). */
static uint64_t empty_attacks[16][64];
static uint16_t offsets[16][64];
static uint32_t totals[16], bases[16];
static uint64_t knight_att[64], king_att[64], pawn_att[2][64];
static uint64_t pawn_from[2][64]; /* squares from which a pawn of colour c attacks the square */

static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static uint64_t step_set(int sq, const int (*d)[2], int n)
{
    uint64_t b = 0;
    for (int i = 0; i < n; i++) {
        int f = (sq & 7) + d[i][0], r = (sq >> 3) + d[i][1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8)
            b |= 1ull << (r * 8 + f);
    }
    return b;
}

/* Slider attacks along 4 directions, stopping at (and including) the first occupied square. */
static uint64_t ray_set(int sq, const int (*d)[2], uint64_t occupied)
{
    uint64_t b = 0;
    for (int i = 0; i < 4; i++)
        for (int f = (sq & 7) + d[i][0], r = (sq >> 3) + d[i][1]; f >= 0 && f < 8 && r >= 0 && r < 8;
             f += d[i][0], r += d[i][1]) {
            b |= 1ull << (r * 8 + f);
            if (occupied >> (r * 8 + f) & 1)
                break;
        }
    return b;
}

static uint64_t attacks(int colour, int type, int sq, uint64_t occupied)
{
    switch (type) {
    case NNUE_CHESS_PAWN: return pawn_att[colour][sq];
    case NNUE_CHESS_KNIGHT: return knight_att[sq];
    case NNUE_CHESS_BISHOP: return ray_set(sq, bishop_dirs, occupied);
    case NNUE_CHESS_ROOK: return ray_set(sq, rook_dirs, occupied);
    case NNUE_CHESS_QUEEN: return ray_set(sq, bishop_dirs, occupied) | ray_set(sq, rook_dirs, occupied);
    default: return king_att[sq];
    }
}

/* Built once when the library is loaded: constant tables, no later writes. */
__attribute__((constructor)) static void full_threats_tables(void)
{
    static const int knight_d[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king_d[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int pawn_d[2][2][2] = {{{-1, 1}, {1, 1}}, {{-1, -1}, {1, -1}}};
    for (int sq = 0; sq < 64; sq++) {
        knight_att[sq] = step_set(sq, knight_d, 8);
        king_att[sq] = step_set(sq, king_d, 8);
        for (int c = 0; c < 2; c++)
            pawn_att[c][sq] = (sq >> 3) >= 1 && (sq >> 3) <= 6 ? step_set(sq, pawn_d[c], 2) : 0;
    }
    for (int c = 0; c < 2; c++)
        for (int sq = 0; sq < 64; sq++)
            for (uint64_t a = pawn_att[c][sq]; a; a &= a - 1)
                pawn_from[c][__builtin_ctzll(a)] |= 1ull << sq;
    uint32_t base = 0;
    for (int c = 0; c < 2; c++)
        for (int t = 1; t <= 6; t++) {
            int x = 8 * c + t;
            uint32_t sum = 0;
            for (int sq = 0; sq < 64; sq++) {
                empty_attacks[x][sq] = attacks(c, t, sq, 0);
                offsets[x][sq] = (uint16_t)sum;
                sum += (uint32_t)__builtin_popcountll(empty_attacks[x][sq]);
            }
            totals[x] = sum;
            bases[x] = base;
            base += (uint32_t)num_valid_targets[t] * sum;
        }
}

/* Index of X on `from` attacking Y on `to` (real squares, nnue piece codes), -1 = no feature. */
static inline int32_t threat_index(int persp, int orient, uint8_t attacker, int from, uint8_t victim, int to)
{
    int xc = NNUE_PIECE_COLOUR(attacker) ^ persp, xt = NNUE_PIECE_TYPE(attacker);
    int yc = NNUE_PIECE_COLOUR(victim) ^ persp, yt = NNUE_PIECE_TYPE(victim);
    int slot = target_map[xt][yt];
    if (slot < 0)
        return -1;
    int f = from ^ orient, t = to ^ orient;
    if (xt == yt && (xc != yc || xt != NNUE_CHESS_PAWN) && f < t)
        return -1;
    int x = 8 * xc + xt;
    return (int32_t)(bases[x] + (uint32_t)(yc * num_valid_targets[xt] / 2 + slot) * totals[x] + offsets[x][f] +
                     (uint32_t)__builtin_popcountll(empty_attacks[x][f] & ((1ull << t) - 1)));
}

static int orientation(const nnue_board *board, int persp)
{
    return ((board->king_sq[persp] & 7) >= 4 ? 7 : 0) ^ (56 * persp);
}

static uint32_t full_threats_dimensions(const nnue_feature_params *params)
{
    (void)params;
    return bases[14] + (uint32_t)num_valid_targets[6] * totals[14];
}

/* Active threats of persp, in the orientation `orient`. */
static int threats_of(const nnue_board *board, int persp, int orient, uint32_t *out)
{
    uint64_t occupied = 0;
    for (int sq = 0; sq < 64; sq++)
        if (board->piece_on[sq])
            occupied |= 1ull << sq;
    int n = 0;
    for (uint64_t pieces = occupied; pieces; pieces &= pieces - 1) {
        int from = __builtin_ctzll(pieces);
        uint8_t x = board->piece_on[from];
        for (uint64_t a = attacks(NNUE_PIECE_COLOUR(x), NNUE_PIECE_TYPE(x), from, occupied) & occupied; a;
             a &= a - 1) {
            int to = __builtin_ctzll(a);
            int32_t f = threat_index(persp, orient, x, from, board->piece_on[to], to);
            if (f >= 0 && n < FT_MAX)
                out[n++] = (uint32_t)f;
        }
    }
    return n;
}

static int full_threats_active(const nnue_feature_params *params, const nnue_board *board, int persp, uint32_t *out)
{
    (void)params;
    return threats_of(board, persp, orientation(board, persp), out);
}

/* Occupancy and piece sets of a board, for the attackers of a square. */
typedef struct piece_sets {
    uint64_t occupied, colour[2], type[7];
} piece_sets;

static void sets_of(const nnue_board *board, piece_sets *ps)
{
    memset(ps, 0, sizeof *ps);
    for (int sq = 0; sq < 64; sq++) {
        uint8_t p = board->piece_on[sq];
        if (!p)
            continue;
        ps->occupied |= 1ull << sq;
        ps->colour[NNUE_PIECE_COLOUR(p) & 1] |= 1ull << sq;
        ps->type[NNUE_PIECE_TYPE(p) % 7] |= 1ull << sq;
    }
}

/* Pieces of either colour attacking sq (the reverse of attacks(): rays are symmetric). */
static uint64_t attackers_to(const piece_sets *ps, int sq)
{
    uint64_t queens = ps->type[NNUE_CHESS_QUEEN];
    return (knight_att[sq] & ps->type[NNUE_CHESS_KNIGHT]) | (king_att[sq] & ps->type[NNUE_CHESS_KING]) |
           (pawn_from[0][sq] & ps->type[NNUE_CHESS_PAWN] & ps->colour[0]) |
           (pawn_from[1][sq] & ps->type[NNUE_CHESS_PAWN] & ps->colour[1]) |
           (ray_set(sq, bishop_dirs, ps->occupied) & (ps->type[NNUE_CHESS_BISHOP] | queens)) |
           (ray_set(sq, rook_dirs, ps->occupied) & (ps->type[NNUE_CHESS_ROOK] | queens));
}

/* The threats of `board` whose attacker stands on `from_set`, or whose victim stands on `to_set`
 * (attacker elsewhere), as persp's indices in orientation orient, sorted ascending. */
static int threats_touching(const nnue_board *board, const piece_sets *ps, uint64_t from_set, uint64_t to_set,
                            int persp, int orient, uint32_t *out)
{
    int n = 0;
    for (uint64_t f = from_set & ps->occupied; f; f &= f - 1) {
        int from = __builtin_ctzll(f);
        uint8_t x = board->piece_on[from];
        for (uint64_t a = attacks(NNUE_PIECE_COLOUR(x), NNUE_PIECE_TYPE(x), from, ps->occupied) & ps->occupied; a;
             a &= a - 1) {
            int to = __builtin_ctzll(a);
            int32_t i = threat_index(persp, orient, x, from, board->piece_on[to], to);
            if (i >= 0 && n < FT_MAX)
                out[n++] = (uint32_t)i;
        }
    }
    for (uint64_t t = to_set & ps->occupied; t; t &= t - 1) {
        int to = __builtin_ctzll(t);
        for (uint64_t a = attackers_to(ps, to) & ~from_set; a; a &= a - 1) {
            int from = __builtin_ctzll(a);
            int32_t i = threat_index(persp, orient, board->piece_on[from], from, board->piece_on[to], to);
            if (i >= 0 && n < FT_MAX)
                out[n++] = (uint32_t)i;
        }
    }
    for (int i = 1; i < n; i++) /* insertion sort: the lists are short */
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            uint32_t v = out[j];
            out[j] = out[j - 1];
            out[j - 1] = v;
        }
    return n;
}

/* Only threats that touch the move can change: those from or to a square the move changed (D),
 * and those of sliders whose rays reach into D (discovered or blocked; such a slider is not on
 * D, and the squares up to the first one of D are the same on both boards, so it attacks that
 * square on the board after the move). Both boards are listed over the same domain, then the
 * sorted lists are diffed. */
static void full_threats_changed(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                                 int persp, uint32_t *removed, int *n_removed, uint32_t *added, int *n_added)
{
    (void)params;
    nnue_board before;
    nnue_board_before(after, delta, &before);
    uint64_t dirty = 0;
    for (int i = 0; i < delta->count; i++) {
        if (delta->dirty[i].old_sq >= 0 && delta->dirty[i].old_sq < 64)
            dirty |= 1ull << delta->dirty[i].old_sq;
        if (delta->dirty[i].new_sq >= 0 && delta->dirty[i].new_sq < 64)
            dirty |= 1ull << delta->dirty[i].new_sq;
    }
    piece_sets pa, pb;
    sets_of(after, &pa);
    sets_of(&before, &pb);
    uint64_t sliders = pa.type[NNUE_CHESS_BISHOP] | pa.type[NNUE_CHESS_ROOK] | pa.type[NNUE_CHESS_QUEEN], from_set = dirty;
    for (uint64_t d = dirty; d; d &= d - 1) {
        int sq = __builtin_ctzll(d);
        from_set |= (ray_set(sq, bishop_dirs, pa.occupied) | ray_set(sq, rook_dirs, pa.occupied)) & sliders;
    }
    int orient = orientation(after, persp);
    uint32_t old[FT_MAX], now[FT_MAX];
    int n_old = threats_touching(&before, &pb, from_set, dirty, persp, orient, old);
    int n_now = threats_touching(after, &pa, from_set, dirty, persp, orient, now);
    int i = 0, j = 0, nr = 0, na = 0;
    while (i < n_old || j < n_now) {
        if (j == n_now || (i < n_old && old[i] < now[j]))
            removed[nr++] = old[i++];
        else if (i == n_old || now[j] < old[i])
            added[na++] = now[j++];
        else
            i++, j++;
    }
    *n_removed = nr;
    *n_added = na;
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
    .max_active = FT_MAX,
    .max_changed = FT_MAX,
    .exact_board = 1,
    .dimensions = full_threats_dimensions,
    .active = full_threats_active,
    .changed = full_threats_changed,
    .needs_refresh = full_threats_needs_refresh,
};
