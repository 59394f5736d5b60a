/* features/xiangqi_threats.c: Pikafish's FullThreats for xiangqi, 45547 inputs: one feature
 * per (piece X on `from`, occupied square `to` that X attacks, piece Y on `to`), in the view
 * of the perspective (ranks flipped for black, files flipped when mirrored: the mirror of
 * features/xiangqi_context.c).
 *
 * Facts (Pikafish 97133eeb, src/nnue/features/full_threats.cpp, src/attacks.h;
 * docs/formats-pikafish.md):
 *  - attacks: rook up to the first piece; cannon beyond its first screen up to the next piece;
 *    horse unless its leg is occupied; elephant unless its eye is occupied, within the half it
 *    stands on; advisor and king one step inside a palace; pawn forward, and sideways once
 *    across the river. No flying-general attack;
 *  - numbering: attacker X by piece (R A C P N B K, then the other side's), `from` ascending
 *    over X's valid squares, victim Y by piece among X's valid victims, `to` ascending over the
 *    empty-board attacks of X from `from` (cannon: every square two or more steps along a line)
 *    that are valid for Y; same-type pairs (pawns: enemies on a file or friends on a rank;
 *    never horses) count once: only from > to;
 *  - own kings never attack; a threat outside the numbering is no feature.
 * A move's changes are listed from the squares it changed (list_changes; the board before is
 * rebuilt from the delta: base/board_undo.h), or mapped from those handed in with it
 * (xt_changed_threats, nnue_state_push_threats). */
#include <stdlib.h>
#include <string.h>

#include "base/board_undo.h"
#include "features/feature_set.h"
#include "features/xiangqi_context.h"
#include "features/xiangqi_threats.h"

/* Threats per perspective: a piece attacks at most 8 occupied squares (a horse; rooks, cannons,
 * advisors, elephants and kings 4 or 5, pawns 3), so a board of at most 32 pieces (max_pieces,
 * refused past it) has at most 256 threats: the lists are never cut. */
#define FT_MAX 256

/* Bit y set: attacker x may have victim y (Pikafish's ValidPairs; piece numbers). */
static const uint16_t valid_victims[16] = {
    0x0000, 0x7EFE, 0x3A2E, 0x7EFE, 0x7C78, 0x7EFE, 0x3AFA, 0x0000,
    0x0000, 0xFE7E, 0xAE3A, 0xFE7E, 0x787C, 0xFE7E, 0xFA3A, 0x6C38,
};

/* Each (attacker x, view square from, victim y): the view squares `to` whose threats are features,
 * as a mask over the slots of `from` (bits 0..33), and the index of the first in bits 40..55. A
 * slot numbers the squares any piece may attack from `from` on an empty board, in ascending order
 * (at most 17 on lines, 8 horse, 4 elephant, 4 advisor squares: 33); slot 63 (never a feature)
 * stands for every other square. One 8-byte load per threat. */
#define SLOT_NONE 63
static uint64_t pair_slots[16][90][16];
static uint8_t slot_of_square[90][90];

/* Squares of a perspective's view (persp * 2 + mirror) and piece numbers (persp * 32 + code). */
static uint8_t view_sq[4][90], view_piece[64];

static bb90 bit(int sq)
{
    return (bb90)1 << sq;
}

static int on(int f, int r)
{
    return f >= 0 && f < 9 && r >= 0 && r < 10;
}

static int in_any_palace(int f, int r)
{
    return f >= 3 && f <= 5 && (r <= 2 || r >= 7);
}

/* Attacks of type t (colour c for pawns) from sq with occupancy occ; cannon_table: the
 * empty-board table of cannons (Pikafish's screens on the four neighbours). */
static bb90 attacks(int t, int c, int sq, bb90 occ, int cannon_table)
{
    static const int ortho[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
    static const int diag[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    int f0 = sq % 9, r0 = sq / 9;
    bb90 a = 0;
    switch (t) {
    case 1:
    case 3:
        for (int d = 0; d < 4; d++) {
            int screen = 0;
            for (int f = f0 + ortho[d][0], r = r0 + ortho[d][1]; on(f, r); f += ortho[d][0], r += ortho[d][1]) {
                int s = r * 9 + f, occupied = cannon_table ? (f == f0 + ortho[d][0] && r == r0 + ortho[d][1])
                                                           : (int)((occ >> s) & 1);
                if (t == 1 || screen)
                    a |= bit(s);
                if (occupied) {
                    if (t == 3 && !screen)
                        screen = 1;
                    else
                        break;
                }
            }
        }
        break;
    case 5:
        for (int d = 0; d < 4; d++) {
            int lf = f0 + ortho[d][0], lr = r0 + ortho[d][1];
            if (!on(lf, lr) || ((occ >> (lr * 9 + lf)) & 1))
                continue;
            for (int s = -1; s <= 1; s += 2) {
                int f = lf + ortho[d][0] + (ortho[d][0] ? 0 : s), r = lr + ortho[d][1] + (ortho[d][1] ? 0 : s);
                if (on(f, r))
                    a |= bit(r * 9 + f);
            }
        }
        break;
    case 6:
        for (int d = 0; d < 4; d++) {
            int f = f0 + 2 * diag[d][0], r = r0 + 2 * diag[d][1];
            if (on(f, r) && (r > 4) == (r0 > 4) && !((occ >> ((r0 + diag[d][1]) * 9 + f0 + diag[d][0])) & 1))
                a |= bit(r * 9 + f);
        }
        break;
    case 2:
    case 7:
        for (int d = 0; d < 4; d++) {
            int f = f0 + (t == 2 ? diag : ortho)[d][0], r = r0 + (t == 2 ? diag : ortho)[d][1];
            if (in_any_palace(f0, r0) && on(f, r) && in_any_palace(f, r))
                a |= bit(r * 9 + f);
        }
        break;
    case 4: {
        int fwd = c ? -1 : 1;
        if (on(f0, r0 + fwd))
            a |= bit((r0 + fwd) * 9 + f0);
        if (c ? r0 < 5 : r0 > 4)
            for (int s = -1; s <= 1; s += 2)
                if (on(f0 + s, r0))
                    a |= bit(r0 * 9 + f0 + s);
        break;
    }
    }
    return a;
}

/* The same attacks from tables (list_changes and raw_threats call this per piece): rays per
 * direction (blockers found by their first bit), horse legs and elephant eyes per direction,
 * and the occupancy-free moves of advisors, kings and pawns. Built from attacks() itself. */
static bb90 ray[90][4];                    /* direction d of attacks()'s ortho: +rank, -rank, +file, -file */
static int8_t leg[90][4], eye[90][4];      /* -1: no such square */
static bb90 horse_to[90][4], elephant_to[90][4];
static bb90 empty_attacks[16][90];

static int first_on_ray(bb90 b, int d)
{
    return d == 0 || d == 2 ? xqf_first(b) : 127 - ((uint64_t)(b >> 64) ? __builtin_clzll((uint64_t)(b >> 64))
                                                                          : 64 + __builtin_clzll((uint64_t)b));
}

static bb90 fast_attacks(uint8_t piece, int from, bb90 occ)
{
    int t = NNUE_PIECE_TYPE(piece);
    bb90 a = 0;
    switch (t) {
    case 1:
    case 3:
        for (int d = 0; d < 4; d++) {
            bb90 r = ray[from][d], blockers = r & occ;
            if (!blockers) {
                a |= t == 1 ? r : 0;
                continue;
            }
            int b = first_on_ray(blockers, d);
            if (t == 1) {
                a |= r & ~ray[b][d];
                continue;
            }
            bb90 beyond = ray[b][d], next = beyond & occ;
            a |= next ? beyond & ~ray[first_on_ray(next, d)][d] : beyond;
        }
        return a;
    case 5:
        for (int d = 0; d < 4; d++)
            if (leg[from][d] >= 0 && !((occ >> leg[from][d]) & 1))
                a |= horse_to[from][d];
        return a;
    case 6:
        for (int d = 0; d < 4; d++)
            if (eye[from][d] >= 0 && !((occ >> eye[from][d]) & 1))
                a |= elephant_to[from][d];
        return a;
    default:
        return empty_attacks[(t & 7) + 8 * (NNUE_PIECE_COLOUR(piece) & 1)][from];
    }
}

__attribute__((constructor)) static void attack_tables(void)
{
    static const int ortho[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
    static const int diag[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    for (int sq = 0; sq < 90; sq++) {
        int f0 = sq % 9, r0 = sq / 9;
        for (int d = 0; d < 4; d++) {
            for (int f = f0 + ortho[d][0], r = r0 + ortho[d][1]; on(f, r); f += ortho[d][0], r += ortho[d][1])
                ray[sq][d] |= bit(r * 9 + f);
            int lf = f0 + ortho[d][0], lr = r0 + ortho[d][1];
            leg[sq][d] = (int8_t)(on(lf, lr) ? lr * 9 + lf : -1);
            if (leg[sq][d] >= 0) /* the horse's moves over this leg: attacks() with every other leg blocked */
                horse_to[sq][d] = attacks(5, 0, sq, ~(bb90)0 & ~bit(leg[sq][d]), 0);
            int ef = f0 + diag[d][0], er = r0 + diag[d][1];
            eye[sq][d] = (int8_t)(on(ef, er) ? er * 9 + ef : -1);
            if (eye[sq][d] >= 0)
                elephant_to[sq][d] = attacks(6, 0, sq, ~(bb90)0 & ~bit(eye[sq][d]), 0);
        }
    }
}

long xqf_attack_tables_check(uint64_t seed, int boards)
{
    long bad = 0;
    uint64_t r = seed | 1;
    for (int it = 0; it < boards; it++) {
        bb90 occ = 0;
        for (int sq = 0; sq < 90; sq++) {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            if ((int)(r % 8) < it % 9) /* densities 0/8 .. 8/8 */
                occ |= bit(sq);
        }
        for (int c = 0; c < 2; c++)
            for (int t = 1; t <= 7; t++)
                for (int sq = 0; sq < 90; sq++)
                    bad += attacks(t, c, sq, occ, 0) != fast_attacks((uint8_t)NNUE_PIECE(c, t), sq, occ);
    }
    return bad;
}

static bb90 valid_bb[16];
static uint32_t total; /* 45547: the numbering's size, checked by tests/features */

__attribute__((constructor)) static void threat_tables(void)
{
    for (int p = 0; p < 16; p++)
        for (int sq = 0; sq < 90; sq++)
            if (xqf_valid(p, sq))
                valid_bb[p] |= bit(sq);
    for (int v = 0; v < 4; v++)
        for (int sq = 0; sq < 90; sq++)
            view_sq[v][sq] = (uint8_t)xqf_map(sq, v & 1, v >> 1);
    for (int persp = 0; persp < 2; persp++)
        for (int pc = 0; pc < 32; pc++)
            view_piece[persp * 32 + pc] = (uint8_t)(xqf_piece((uint8_t)pc, persp) & 15);
    for (int x = 1; x < 16; x++)
        for (int from = 0; from < 90; from++)
            empty_attacks[x][from] = attacks(x & 7, x >> 3, from, 0, (x & 7) == 3);
    for (int from = 0; from < 90; from++) {
        bb90 any = 0;
        for (int x = 1; x < 16; x++)
            any |= empty_attacks[x][from];
        int n = 0;
        for (int to = 0; to < 90; to++)
            slot_of_square[from][to] = (uint8_t)((any >> to) & 1 ? n++ : SLOT_NONE);
    }
    uint32_t n = 0;
    for (int x = 1; x < 16; x++) {
        int xt = x & 7;
        for (int from = 0; from < 90; from++) {
            if (!((valid_bb[x] >> from) & 1))
                continue;
            for (int y = 1; y < 16; y++) {
                if (!((valid_victims[x] >> y) & 1))
                    continue;
                bb90 targets = empty_attacks[x][from] & valid_bb[y];
                uint64_t m = 0;
                for (int to = 0; to < 90; to++) {
                    if (!((targets >> to) & 1))
                        continue;
                    int enemy = (x >> 3) != (y >> 3), same_file = from % 9 == to % 9, same_rank = from / 9 == to / 9;
                    int semi = xt == (y & 7) && (xt != 4 || (enemy && same_file) || (!enemy && same_rank)) && xt != 5;
                    if (!semi || from > to)
                        m |= 1ull << slot_of_square[from][to];
                }
                pair_slots[x][from][y] = m | (uint64_t)n << 40;
                n += (uint32_t)__builtin_popcountll(m);
            }
        }
    }
    total = n;
}

/* Index of a threat in persp's view, or -1. */
static int32_t threat_index(int persp, int mirror, uint8_t xp, int from, uint8_t yp, int to)
{
    const uint8_t *sq = view_sq[persp * 2 + mirror], *pc = view_piece + persp * 32;
    int f = sq[from];
    uint64_t m = pair_slots[pc[xp & 31]][f][pc[yp & 31]];
    int s = slot_of_square[f][sq[to]];
    /* -1 or-ed in where slot s is not a feature (no branch: see full_threats.c threat_index) */
    int32_t none = (int32_t)((m >> s) & 1) - 1;
    return (int32_t)((m >> 40) + (uint64_t)__builtin_popcountll(m & ((1ull << s) - 1))) | none;
}

/* One threat as it stands on the board (real squares, nnue piece codes), for any perspective: the
 * public nnue_threat (attacker on from, victim on to), as a move's handed-in changes are. */
typedef nnue_threat raw_threat;

#define RAW_MAX 256 /* attacks on occupied squares of one board, every piece counted */

static int raw_threats(const nnue_board *board, raw_threat *out)
{
    bb90 occ = xqf_occupied(board);
    int n = 0;
    for (bb90 o = occ; o; o &= o - 1) {
        int from = xqf_first(o);
        uint8_t xp = board->piece_on[from];
        for (bb90 a = fast_attacks(xp, from, occ) & occ; a; a &= a - 1) {
            int to = xqf_first(a);
            if (n < RAW_MAX)
                out[n++] = (raw_threat){xp, (uint8_t)from, board->piece_on[to], (uint8_t)to};
        }
    }
    return n;
}

/* persp's feature indices of raw threats (of the first FT_MAX: no list here holds more), each
 * written and kept when it is one: no branch to mispredict. */
static int indices_of(const raw_threat *r, int n, int persp, int mirror, uint32_t *out)
{
    int k = 0;
    n = n < FT_MAX ? n : FT_MAX;
    for (int i = 0; i < n; i++) {
        int32_t f = threat_index(persp, mirror, r[i].attacker, r[i].from, r[i].victim, r[i].to);
        out[k] = (uint32_t)f;
        k += f >= 0;
    }
    return k;
}

static uint32_t xt_dimensions(const nnue_feature_params *params)
{
    (void)params;
    return total;
}

static int xt_active(const nnue_feature_params *params, const nnue_board *board, int persp, uint32_t *out)
{
    raw_threat r[RAW_MAX];
    xqf_context x[2];
    xqf_board_contexts(params, board, x);
    return indices_of(r, raw_threats(board, r), persp, x[persp].mirror, out);
}

static void xt_active_both(const nnue_feature_params *params, const nnue_board *board, uint32_t *const out[2],
                           int n[2])
{
    raw_threat r[RAW_MAX];
    int nr = raw_threats(board, r);
    xqf_context x[2];
    xqf_board_contexts(params, board, x);
    for (int p = 0; p < 2; p++)
        n[p] = indices_of(r, nr, p, x[p].mirror, out[p]);
}

/* The threats a move removed and added (real squares, piece codes; any perspective). */
typedef struct threat_changes {
    int n_removed, n_added;
    raw_threat removed[FT_MAX], added[FT_MAX];
} threat_changes;

static int push_threat(raw_threat *out, int n, uint8_t x, int from, uint8_t y, int to)
{
    if (n < FT_MAX)
        out[n++] = (raw_threat){x, (uint8_t)from, y, (uint8_t)to};
    return n;
}

/* Appends x's threats from `from` among `targets` (victims read on `board`). */
static int push_attacks(const nnue_board *board, uint8_t x, int from, bb90 targets, raw_threat *out, int n)
{
    for (; targets; targets &= targets - 1) {
        int to = xqf_first(targets);
        n = push_threat(out, n, x, from, board->piece_on[to], to);
    }
    return n;
}

/* Squares whose occupancy can change the attacks of a piece on sq, or from which a piece can
 * attack sq: within two files and ranks (horse legs and targets, elephant eyes and targets,
 * advisors, kings, pawns), and for rooks and cannons the whole rank and file. */
static bb90 near_mask[90], line_mask[90];

__attribute__((constructor)) static void influence_tables(void)
{
    for (int sq = 0; sq < 90; sq++)
        for (int to = 0; to < 90; to++) {
            int df = abs(sq % 9 - to % 9), dr = abs(sq / 9 - to / 9);
            if (df <= 2 && dr <= 2)
                near_mask[sq] |= bit(to);
            if (df == 0 || dr == 0)
                line_mask[sq] |= bit(to);
        }
}

/* The exact difference of the threat sets of the boards before and after a move, without listing
 * either board's threats. D = the squares whose content changed. A threat with its attacker or
 * victim on D has another attacker or victim (or none) on the other board: every such threat of
 * the board before is removed, every one of the board after added. A threat with both squares
 * off D keeps its pieces and changes only when its attacker's attacks do, through occupancy on
 * D: a rook or cannon on a line through D, a horse whose leg or an elephant whose eye is on D
 * (within two squares of it); those are compared between the boards. */
static void list_changes(const nnue_board *after, const nnue_delta *delta, threat_changes *c)
{
    nnue_board before;
    nnue_board_before(after, delta, &before);
    bb90 dirty = 0, occ = 0, lines = 0;
    for (int i = 0; i < delta->count; i++) {
        int sq[2] = {delta->dirty[i].old_sq, delta->dirty[i].new_sq};
        for (int k = 0; k < 2; k++)
            if (sq[k] >= 0 && sq[k] < 90 && before.piece_on[sq[k]] != after->piece_on[sq[k]])
                dirty |= bit(sq[k]);
    }
    occ = xqf_occupied(after);
    for (bb90 o = occ; o; o &= o - 1) {
        int sq = xqf_first(o), t = NNUE_PIECE_TYPE(after->piece_on[sq]);
        if (t == 1 || t == 3)
            lines |= bit(sq);
    }
    bb90 occ_before = occ, reach = 0, line_reach = 0;
    c->n_removed = c->n_added = 0;
    for (bb90 left = dirty; left; left &= left - 1) {
        int d = xqf_first(left);
        occ_before = (occ_before & ~bit(d)) | (before.piece_on[d] ? bit(d) : 0);
        reach |= near_mask[d];
        line_reach |= line_mask[d];
    }
    for (bb90 left = dirty; left; left &= left - 1) {
        int d = xqf_first(left);
        uint8_t was = before.piece_on[d], is = after->piece_on[d];
        if (was)
            c->n_removed = push_attacks(&before, was, d,
                                        fast_attacks(was, d, occ_before) & occ_before,
                                        c->removed, c->n_removed);
        if (is)
            c->n_added = push_attacks(after, is, d, fast_attacks(is, d, occ) & occ,
                                      c->added, c->n_added);
    }
    bb90 candidates = ((occ & reach) | (lines & line_reach)) & ~dirty;
    for (; candidates; candidates &= candidates - 1) {
        int f = xqf_first(candidates);
        uint8_t x = after->piece_on[f];
        bb90 was = fast_attacks(x, f, occ_before) & occ_before, is = fast_attacks(x, f, occ) & occ;
        c->n_removed = push_attacks(&before, x, f, was & (~is | dirty), c->removed, c->n_removed);
        c->n_added = push_attacks(after, x, f, is & (~was | dirty), c->added, c->n_added);
    }
}

static void xt_changed(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                       int persp, uint32_t *removed, int *n_removed, uint32_t *added, int *n_added)
{
    threat_changes c;
    list_changes(after, delta, &c);
    xqf_context x[2];
    xqf_move_contexts(params, after, delta, x, NULL);
    int mirror = x[persp].mirror; /* unchanged by the move, else it forces a refresh */
    *n_removed = indices_of(c.removed, c.n_removed, persp, mirror, removed);
    *n_added = indices_of(c.added, c.n_added, persp, mirror, added);
}

static void xt_changed_both(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                            uint32_t *const removed[2], int n_removed[2], uint32_t *const added[2], int n_added[2])
{
    threat_changes c;
    list_changes(after, delta, &c);
    xqf_context x[2];
    xqf_move_contexts(params, after, delta, x, NULL);
    int mirror[2] = {x[0].mirror, x[1].mirror}; /* unchanged by the move, else it forces a refresh */
    for (int p = 0; p < 2; p++) {
        n_removed[p] = indices_of(c.removed, c.n_removed, p, mirror[p], removed[p]);
        n_added[p] = indices_of(c.added, c.n_added, p, mirror[p], added[p]);
    }
}

/* The same from the threat changes handed in with the move (nnue_state_push_threats). */
static void xt_changed_threats(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                               const nnue_threat_span *t, int lo, int hi, uint32_t *const removed[2], int n_removed[2],
                               uint32_t *const added[2], int n_added[2])
{
    xqf_context x[2];
    xqf_move_contexts(params, after, delta, x, NULL);
    int mirror[2] = {x[0].mirror, x[1].mirror}; /* unchanged by the move, else it forces a refresh */
    for (int p = lo; p <= hi; p++) {
        n_removed[p] = indices_of(t->removed, t->n_removed, p, mirror[p], removed[p]);
        n_added[p] = indices_of(t->added, t->n_added, p, mirror[p], added[p]);
    }
}

int xqf_board_threats(const nnue_board *board, nnue_threat *out)
{
    return raw_threats(board, out);
}

/* Only a change of the mirror invalidates every threat of persp. */
static int xt_needs_refresh(const nnue_feature_params *params, const nnue_board *after, const nnue_delta *delta,
                            int persp)
{
    xqf_context a[2], b[2];
    xqf_move_contexts(params, after, delta, a, b);
    return a[persp].mirror != b[persp].mirror;
}

/* Pairs valid in either perspective's numbering (Pikafish's ValidPairs, squares aside). */
static void xt_threat_pairs(const nnue_feature_params *params, uint32_t victims[32])
{
    (void)params;
    memset(victims, 0, 32 * sizeof *victims);
    for (int x = 0; x < 32; x++)
        for (int y = 0; y < 32; y++)
            for (int p = 0; p < 2; p++) {
                int xt = x & 15, yt = y & 15;
                if (xt < 1 || xt > 7 || yt < 1 || yt > 7)
                    continue;
                if (valid_victims[view_piece[p * 32 + x]] >> view_piece[p * 32 + y] & 1)
                    victims[x] |= 1u << y;
            }
}

const nnue_feature_set nnue_fs_xiangqi_threats = {
    .name = "FullThreats_xiangqi",
    .game = "xiangqi",
    .display = "FullThreats",
    .hash = 0x2E6B9D04u,
    .max_active = FT_MAX,
    .max_changed = FT_MAX,
    .max_pieces = 32,
    .exact_board = 1, /* the move's threats from both boards; the mirror from the state's summary */
    /* From handed-in threats (checked by push) and the summary's mirror, no board byte is read but
     * the kings (the summary's); without a summary the mirror comes from any bytes, defined. */
    .threats_read_kings = 1,
    .dimensions = xt_dimensions,
    .active = xt_active,
    .changed = xt_changed,
    .needs_refresh = xt_needs_refresh,
    .active_both = xt_active_both,
    .changed_both = xt_changed_both,
    .changed_threats = xt_changed_threats,
    .threat_pairs = xt_threat_pairs,
    .summary_bytes = sizeof(xqf_summary),
    .summary = xqf_fs_summary,
    .summary_move = xqf_fs_summary_move,
};
