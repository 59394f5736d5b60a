/* core/eval/push_check.c: see push_check.h. The one-pass checks only ever say "fits" where
 * board_check.c and the sets' threat_is_attack say so (tests/eval/test_push_check.c compares
 * them byte by byte); where a pass flags something, those checks decide and name it. */
#include "core/eval/push_check.h"

#include <string.h>

#include "base/error.h"

void nnue_push_check_init(nnue_push_check *c, const nnue_board_shape *shape, const nnue_ft_desc *ft)
{
    memset(c, 0, sizeof *c);
    for (int b = 0; b < 256; b++) {
        int colour = b >> 4, type = b & 15;
        c->code[b] = colour <= 1 && type >= 1 && type <= shape->max_type ? (uint8_t)(colour << 3 | (type & 7)) : 0x80;
    }
    c->squares = shape->squares;
    c->hand_types = shape->hand_types;
    c->king[0] = NNUE_PIECE(0, shape->king);
    c->king[1] = NNUE_PIECE(1, shape->king);
    int refusers = 0;
    for (int k = 0; k < ft->n_sets; k++) {
        const nnue_feature_set *fs = ft->sets[k].features;
        if (fs->refresh_on_own_king_move)
            c->king_only |= (uint8_t)(1u << k);
        if (fs->changed_threats && fs->threat_is_attack) {
            refusers++;
            c->attacks = fs->threat_attacks;
        }
    }
    /* One table answers for one set, on squares and types it indexes (64 squares, types 1..7). */
    c->threats_fast = refusers == 0 || (refusers == 1 && c->attacks && shape->squares <= 64 && shape->max_type <= 7);
    if (refusers != 1)
        c->attacks = NULL;
}

/* 1 when a dirty entry's square (a board square, none, or a hand slot) and piece fit the game. */
static inline unsigned location_ok(const nnue_push_check *c, const nnue_board_shape *shape, int sq, uint8_t piece,
                                   uint8_t slot)
{
    if ((unsigned)sq < (unsigned)c->squares)
        return (c->code[piece] >> 7) ^ 1u;
    if (sq == NNUE_SQ_NONE)
        return 1;
    int type = NNUE_PIECE_TYPE(piece);
    return sq == NNUE_SQ_HAND && type <= c->hand_types && !(c->code[piece] >> 7) && slot < shape->hand_cap[type];
}

int nnue_push_delta_scan(const nnue_push_check *c, const nnue_board_shape *shape, const nnue_delta *d,
                         nnue_delta_scan *scan, nnue_error *err)
{
    if (!d || d->count > NNUE_MAX_DIRTY)
        return nnue_delta_check(shape, d, err) != 0 ? -1 : 0; /* names it */
    const unsigned squares = (unsigned)c->squares;
    int change = 0, adds = -1;
    unsigned ok = 1, moved = (d->king_moved[0] != 0) | (d->king_moved[1] != 0) << 1;
    for (int i = 0; i < d->count; i++) {
        const nnue_dirty *x = &d->dirty[i];
        int from = x->old_sq, to = x->new_sq;
        if ((unsigned)from < squares && (unsigned)to < squares) { /* a piece moving on the board */
            ok &= ((c->code[x->old_piece] | c->code[x->new_piece]) >> 7) ^ 1u;
            if (from != to)
                moved |= (x->old_piece == c->king[0]) | (x->old_piece == c->king[1]) << 1;
            continue;
        }
        ok &= location_ok(c, shape, from, x->old_piece, x->old_slot) &
              location_ok(c, shape, to, x->new_piece, x->new_slot);
        int gained = (to != NNUE_SQ_NONE) - (from != NNUE_SQ_NONE);
        change += gained;
        if (gained > 0 && adds < 0)
            adds = i;
        if (from >= 0 && to >= 0 && from != to) /* a hand slot, or past the board: refused above */
            moved |= (x->old_piece == c->king[0]) | (x->old_piece == c->king[1]) << 1;
    }
    if (!ok && nnue_delta_check(shape, d, err) != 0)
        return -1;
    *scan = (nnue_delta_scan){change, adds, {(uint8_t)(moved & 1), (uint8_t)(moved >> 1)}};
    return 0;
}

/* Byte i of a threat (attacker, from, victim, to) loaded as one 32-bit word, and the bits of a
 * word whose bytes 1 and 3 (the squares) are 64 or more. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define THREAT_SHIFT(i) (24 - 8 * (i))
#else
#define THREAT_SHIFT(i) (8 * (i))
#endif
#define THREAT_BYTE(w, i) ((w) >> THREAT_SHIFT(i) & 255u)
#define THREAT_SQ64_BITS ((0xC0u << THREAT_SHIFT(1)) | (0xC0u << THREAT_SHIFT(3)))

/* Nonzero when a threat of t[0..n) does not fit (a code 0x80, a square past the board) or, with
 * attack rows, is no attack; each is copied to out on the way. sq64 and rows are constants where
 * it is inlined (copy_lists), so each case compiles to its own loop. */
static inline unsigned copy_list(const nnue_push_check *c, const nnue_threat *t, int n, nnue_threat *out, int sq64,
                                 const uint64_t *rows)
{
    const unsigned squares = (unsigned)c->squares;
    unsigned codes = 0, words = 0, far = 0;
    uint64_t miss = 0;
    for (int i = 0; i < n; i++) {
        uint32_t w; /* one 4-byte load and store */
        memcpy(&w, &t[i], sizeof w);
        memcpy(&out[i], &w, sizeof w);
        unsigned a = c->code[THREAT_BYTE(w, 0)];
        codes |= a | c->code[THREAT_BYTE(w, 2)];
        if (sq64)
            words |= w;
        else
            far |= (THREAT_BYTE(w, 1) >= squares) | (THREAT_BYTE(w, 3) >= squares);
        if (rows)
            miss |= ~rows[(a & 15) << 6 | (THREAT_BYTE(w, 1) & 63)] >> (THREAT_BYTE(w, 3) & 63);
    }
    return (codes & 0x80) | (sq64 ? (words & THREAT_SQ64_BITS) != 0 : far) | (unsigned)(miss & 1);
}

static unsigned copy_lists(const nnue_push_check *c, const nnue_threats *t, nnue_threat *out)
{
    const nnue_threat *r = t->removed, *a = t->added;
    int nr = t->n_removed, na = t->n_added;
    if (c->attacks && c->squares == 64)
        return copy_list(c, r, nr, out, 1, c->attacks) | copy_list(c, a, na, out + nr, 1, c->attacks);
    if (c->attacks)
        return copy_list(c, r, nr, out, 0, c->attacks) | copy_list(c, a, na, out + nr, 0, c->attacks);
    return copy_list(c, r, nr, out, 0, NULL) | copy_list(c, a, na, out + nr, 0, NULL);
}

/* The sets' own word: every handed-in pair an attack for each set that maps threats and refuses
 * non-attacks (the codes and squares already known to fit); else -1 with the first that is not. */
static int threats_are_attacks(const nnue_board_shape *shape, const nnue_ft_desc *ft, const nnue_threats *t,
                               nnue_error *err)
{
    for (int k = 0; k < ft->n_sets; k++) {
        const nnue_feature_set *fs = ft->sets[k].features;
        if (!fs->changed_threats || !fs->threat_is_attack)
            continue;
        for (int list = 0; list < 2; list++) {
            const nnue_threat *x = list ? t->added : t->removed;
            int n = list ? t->n_added : t->n_removed;
            for (int i = 0; i < n; i++)
                if (!fs->threat_is_attack(&ft->sets[k].params, &x[i]))
                    return nnue_fail_at(err, NNUE_E_ARG, "nnue_threats", 0, 0,
                                        "%s[%d]: attacker 0x%02x on square %d does not attack square %d "
                                        "(victim 0x%02x) on any %s board: not a threat of %s",
                                        list ? "added" : "removed", i, x[i].attacker, x[i].from, x[i].to,
                                        x[i].victim, shape->game, fs->name),
                           -1;
        }
    }
    return 0;
}

/* The checks themselves, where the one pass flagged something or has no tables for this net. */
__attribute__((noinline, cold)) static int threats_checked_slowly(const nnue_board_shape *shape,
                                                                  const nnue_ft_desc *ft, const nnue_threats *t,
                                                                  nnue_threat *out, nnue_error *err)
{
    if (nnue_threats_check(shape, t, err) != 0 || threats_are_attacks(shape, ft, t, err) != 0)
        return -1;
    if (out) {
        memcpy(out, t->removed, (size_t)t->n_removed * sizeof *t->removed);
        memcpy(out + t->n_removed, t->added, (size_t)t->n_added * sizeof *t->added);
    }
    return 0;
}

int nnue_push_threats_check(const nnue_push_check *c, const nnue_board_shape *shape, const nnue_ft_desc *ft,
                            const nnue_threats *t, nnue_threat *out, nnue_error *err)
{
    if (c->threats_fast && out && t->n_removed <= NNUE_MAX_THREATS && t->n_added <= NNUE_MAX_THREATS &&
        !copy_lists(c, t, out))
        return 0;
    return threats_checked_slowly(shape, ft, t, out, err);
}
