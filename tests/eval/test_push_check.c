/* tests/eval/test_push_check.c: push's one-pass checks (core/eval/push_check.c) give the verdicts
 * and messages of the checks they stand for: board_check.c's nnue_delta_check and
 * nnue_threats_check, then each threat-mapping set's threat_is_attack (called here one threat at a
 * time, as push did before the tables). Every attacker byte, the squares at and past each board's
 * edge, crafted lists and deltas, for the nets of each game with threats or hands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch.h"
#include "core/eval/push_check.h"
#include "nnue.h"
#include "eval_nets.h"
#include "support.h"

#define REQUIRE(cond, ...)           \
    do {                             \
        if (!(cond))                 \
            ck_abort_msg(__VA_ARGS__); \
    } while (0)

static uint64_t rng = 20261202u;
static uint32_t next_random(void)
{
    return eval_random(&rng, 0xFFFFFFFFu);
}

typedef struct fixture {
    nnue_arch *arch;
    nnue_board_shape shape;
    nnue_push_check check;
} fixture;

static void fixture_load(fixture *f, const char *yaml)
{
    nnue_error err;
    ck_assert_msg(nnue_arch_load(test_source_path(yaml), &f->arch, &err) == NNUE_OK, "%s: %s", yaml, err.message);
    f->shape = nnue_board_shape_of(f->arch->game_desc);
    nnue_push_check_init(&f->check, &f->shape, &f->arch->ft);
}

/* What push checked before the tables: the game's fit, then each refusing set one call a threat. */
static int reference_threats(const fixture *f, const nnue_threats *t, nnue_error *err)
{
    if (nnue_threats_check(&f->shape, t, err) != 0)
        return -1;
    const nnue_ft_desc *ft = &f->arch->ft;
    for (int k = 0; k < ft->n_sets; k++) {
        const nnue_feature_set *fs = ft->sets[k].features;
        if (!fs->changed_threats || !fs->threat_is_attack)
            continue;
        for (int list = 0; list < 2; list++)
            for (int i = 0; i < (list ? t->n_added : t->n_removed); i++) {
                const nnue_threat *x = list ? &t->added[i] : &t->removed[i];
                if (!fs->threat_is_attack(&ft->sets[k].params, x)) {
                    snprintf(err->message, sizeof err->message, "%s[%d]", list ? "added" : "removed", i);
                    return -2; /* an attack refusal: the message names the pair */
                }
            }
    }
    return 0;
}

/* The one-pass check (copying, and not) against the reference, on one pair of lists. */
static int agree(const fixture *f, const nnue_threats *t, const char *what)
{
    static nnue_threat out[2 * NNUE_MAX_THREATS];
    nnue_error want, got, got_nocopy;
    memset(&want, 0, sizeof want);
    int r = reference_threats(f, t, &want);
    int copy = nnue_push_threats_check(&f->check, &f->shape, &f->arch->ft, t, out, &got);
    int nocopy = nnue_push_threats_check(&f->check, &f->shape, &f->arch->ft, t, NULL, &got_nocopy);
    REQUIRE(copy == (r ? -1 : 0) && nocopy == copy, "%s, %s: one pass %d / %d, the checks %d", f->arch->name, what,
            copy, nocopy, r);
    if (r == -1)
        REQUIRE(!strcmp(got.message, want.message) && !strcmp(got.file, "nnue_threats"),
                "%s, %s: message '%s', the checks' '%s'", f->arch->name, what, got.message, want.message);
    if (r == -2)
        REQUIRE(strstr(got.message, want.message) && strstr(got.message, "does not attack"),
                "%s, %s: message '%s' should name %s", f->arch->name, what, got.message, want.message);
    if (r == 0)
        REQUIRE(!memcmp(out, t->removed, t->n_removed * sizeof *out) &&
                    !memcmp(out + t->n_removed, t->added, t->n_added * sizeof *out),
                "%s, %s: the copy differs", f->arch->name, what);
    return r == 0;
}

static const char *const threat_archs[] = {"archs/sfnnv16.yaml", "archs/sfnnv10.yaml", "archs/pikafish.yaml",
                                           "archs/sfnnv5.yaml"};

/* One threat in either list: every attacker byte, from and to around the board's edges (every
 * square pair for the game's own pieces on 64 squares), a few victims. */
START_TEST(single_threats_agree)
{
    fixture f;
    fixture_load(&f, threat_archs[_i]);
    static nnue_threats t;
    int n_sq = 0, accepted = 0;
    uint8_t sq[24];
    const int edges[] = {0, 1, 7, 8, 9, 17, 31, 49, 56, 63, 64, 65, 89, 90, 91, 127, 128, 191, 192, 255};
    for (unsigned i = 0; i < sizeof edges / sizeof *edges; i++)
        sq[n_sq++] = (uint8_t)edges[i];
    const uint8_t victims[] = {NNUE_PIECE(1, 2), NNUE_PIECE(0, 1), 0, 0x17, 0x21, (uint8_t)(f.shape.max_type + 1)};
    for (int list = 0; list < 2; list++)
        for (int a = 0; a < 256; a++)
            for (int i = 0; i < n_sq; i++)
                for (int j = 0; j < n_sq; j++)
                    for (unsigned v = 0; v < sizeof victims; v++) {
                        nnue_threat x = {(uint8_t)a, sq[i], victims[v], sq[j]};
                        t.n_removed = (uint16_t)(list == 0);
                        t.n_added = (uint16_t)(list == 1);
                        t.removed[0] = t.added[0] = x;
                        accepted += agree(&f, &t, "one threat");
                    }
    for (int c = 0; c < 2; c++) /* every pair of squares for each piece of the game */
        for (int type = 1; type <= f.shape.max_type; type++)
            for (int from = 0; from < f.shape.squares; from++)
                for (int to = 0; to < f.shape.squares; to++) {
                    t.n_removed = 0;
                    t.n_added = 1;
                    t.added[0] = (nnue_threat){NNUE_PIECE(c, type), (uint8_t)from, NNUE_PIECE(1 - c, 1), (uint8_t)to};
                    accepted += agree(&f, &t, "a piece of the game");
                }
    ck_assert_int_gt(accepted, 0);
    nnue_arch_free(f.arch);
}
END_TEST

/* Lists of up to 12 threats each, mostly fitting, one field now and then any byte; and counts
 * past the bound. */
START_TEST(random_lists_agree)
{
    fixture f;
    fixture_load(&f, threat_archs[_i]);
    static nnue_threats t;
    int accepted = 0, refused = 0;
    for (int k = 0; k < 40000; k++) {
        t.n_removed = (uint16_t)(next_random() % 13);
        t.n_added = (uint16_t)(next_random() % 13);
        for (int list = 0; list < 2; list++)
            for (int i = 0; i < (list ? t.n_added : t.n_removed); i++) {
                nnue_threat *x = list ? &t.added[i] : &t.removed[i];
                int type = 1 + (int)(next_random() % (unsigned)f.shape.max_type);
                int from = (int)(next_random() % (unsigned)f.shape.squares);
                *x = (nnue_threat){NNUE_PIECE(next_random() & 1, type), (uint8_t)from,
                                   NNUE_PIECE(next_random() & 1, 1 + next_random() % (unsigned)f.shape.max_type),
                                   (uint8_t)(next_random() % (unsigned)f.shape.squares)};
                if (next_random() % 3 == 0 && f.shape.squares == 64) /* a real attack now and then */
                    x->to = (uint8_t)((from + (type == 2 ? 17 : 8)) & 63);
                if (next_random() % 64 == 0)
                    ((uint8_t *)x)[next_random() % 4] = (uint8_t)next_random();
            }
        if (agree(&f, &t, "a random list"))
            accepted++;
        else
            refused++;
    }
    ck_assert_int_gt(accepted, 0);
    ck_assert_int_gt(refused, 0);
    t.n_removed = NNUE_MAX_THREATS + 1;
    t.n_added = 0;
    agree(&f, &t, "too many removed");
    t.n_removed = 0;
    t.n_added = 65535;
    agree(&f, &t, "too many added");
    nnue_arch_free(f.arch);
}
END_TEST

/* Deltas: nnue_delta_check's verdict and message; for a fitting delta the pieces it puts on minus
 * those it takes off, the first entry that puts one on, and each colour's king move. */
static void delta_agree(const fixture *f, const nnue_delta *d, int *fits)
{
    nnue_error want, got;
    nnue_delta_scan scan = {-99, -99, {9, 9}};
    int r = nnue_delta_check(&f->shape, d, &want) != 0 ? -1 : 0;
    int g = nnue_push_delta_scan(&f->check, &f->shape, d, &scan, &got);
    REQUIRE(g == r, "%s: the scan says %d, nnue_delta_check %d", f->arch->name, g, r);
    if (r) {
        REQUIRE(!strcmp(got.message, want.message), "%s: '%s', not '%s'", f->arch->name, got.message, want.message);
        return;
    }
    (*fits)++;
    int change = 0, adds = -1, moved[2] = {d->king_moved[0] != 0, d->king_moved[1] != 0};
    for (int i = 0; i < d->count; i++) {
        const nnue_dirty *x = &d->dirty[i];
        int gained = (x->new_sq != NNUE_SQ_NONE) - (x->old_sq != NNUE_SQ_NONE);
        change += gained;
        if (gained > 0 && adds < 0)
            adds = i;
        for (int c = 0; c < 2; c++)
            if (x->old_piece == NNUE_PIECE(c, f->shape.king) && x->old_sq >= 0 && x->new_sq >= 0 &&
                x->old_sq != x->new_sq)
                moved[c] = 1;
    }
    REQUIRE(scan.change == change && scan.adds == adds && scan.king_moved[0] == moved[0] &&
                scan.king_moved[1] == moved[1],
            "%s: change %d adds %d kings %d %d, want %d %d %d %d", f->arch->name, scan.change, scan.adds,
            scan.king_moved[0], scan.king_moved[1], change, adds, moved[0], moved[1]);
}

static void crafted_side(const fixture *f, int8_t *sq, uint8_t *piece, uint8_t *slot)
{
    int where = (int)(next_random() % 10);
    *sq = where == 0   ? NNUE_SQ_NONE
          : where == 1 ? NNUE_SQ_HAND
          : where == 2 ? (int8_t)next_random() /* any byte */
                       : (int8_t)(next_random() % (unsigned)f->shape.squares);
    *piece = next_random() % 12 ? NNUE_PIECE(next_random() & 1, 1 + next_random() % (unsigned)f->shape.max_type)
                                : (uint8_t)next_random();
    if (next_random() % 4 == 0)
        *piece = NNUE_PIECE(next_random() & 1, f->shape.king);
    *slot = (uint8_t)(next_random() % 8);
}

static const char *const delta_archs[] = {"archs/sfnnv16.yaml", "archs/shogi_halfkp.yaml", "archs/pikafish.yaml"};

START_TEST(deltas_agree)
{
    fixture f;
    fixture_load(&f, delta_archs[_i]);
    int fits = 0;
    for (int k = 0; k < 200000; k++) {
        nnue_delta d;
        memset(&d, 0, sizeof d);
        d.count = (uint8_t)(next_random() % (NNUE_MAX_DIRTY + 2)); /* one past the bound now and then */
        d.king_moved[0] = next_random() % 4 == 0;
        d.king_moved[1] = next_random() % 4 == 0;
        for (int i = 0; i < NNUE_MAX_DIRTY; i++) {
            crafted_side(&f, &d.dirty[i].old_sq, &d.dirty[i].old_piece, &d.dirty[i].old_slot);
            crafted_side(&f, &d.dirty[i].new_sq, &d.dirty[i].new_piece, &d.dirty[i].new_slot);
        }
        delta_agree(&f, &d, &fits);
    }
    ck_assert_int_gt(fits, 1000);
    nnue_error err;
    ck_assert_int_eq(nnue_push_delta_scan(&f.check, &f.shape, NULL, NULL, &err), -1);
    ck_assert_msg(strstr(err.message, "NULL"), "%s", err.message);
    nnue_arch_free(f.arch);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("push_check");
    TCase *tc = tcase_create("push_check");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, single_threats_agree, 0, (int)(sizeof threat_archs / sizeof *threat_archs));
    tcase_add_loop_test(tc, random_lists_agree, 0, (int)(sizeof threat_archs / sizeof *threat_archs));
    tcase_add_loop_test(tc, deltas_agree, 0, (int)(sizeof delta_archs / sizeof *delta_archs));
    suite_add_tcase(s, tc);
    return test_run(s);
}
