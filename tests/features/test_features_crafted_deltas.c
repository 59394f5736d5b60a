/* tests/features/test_features_crafted_deltas.c: a delta that passes push's checks (codes,
 * squares, hand slots and count fit the game: core/eval/board_check.h nnue_delta_fits) but does
 * not describe the board it comes with, as a crafted or buggy engine hands in, must still make
 * every feature set list indices inside its table (< dimensions) and no more than its
 * max_changed, for every perspective the state would update incrementally (needs_refresh() 0).
 * The values of such an update mean nothing; reading past the weights is what must not happen.
 * Found by fuzz_boards: PP_3Wide listed pawn pairs of a pawn named on rank 8 (no such id). */
#include <stdlib.h>
#include <string.h>

#include "core/eval/board_check.h"
#include "fs_check.h"

#define DELTAS_PER_BOARD 20000
#define BOARDS 6 /* the start position and positions after 8, 16, ... random legal moves */

static uint32_t rng_state = 20261202u;

static uint32_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* One side of a dirty entry: nowhere (any piece byte), in hand, or on a square, with a piece of
 * the game (either colour, any type) or now and then any byte (refused then by the check). */
static void crafted_side(const nnue_game *g, int8_t *sq, uint8_t *piece, uint8_t *slot)
{
    int squares = g->files * g->ranks, where = (int)(next_random() % 8);
    *sq = where == 0 ? NNUE_SQ_NONE : where == 1 && g->hand_types ? NNUE_SQ_HAND : (int8_t)(next_random() % squares);
    *piece = next_random() % 16 ? NNUE_PIECE(next_random() & 1, 1 + next_random() % g->piece_types)
                                : (uint8_t)next_random();
    *slot = (uint8_t)(next_random() % 4);
}

static void crafted_delta(const nnue_game *g, nnue_delta *d)
{
    memset(d, 0, sizeof *d);
    d->count = (uint8_t)(next_random() % (NNUE_MAX_DIRTY + 1));
    d->king_moved[0] = next_random() & 1;
    d->king_moved[1] = next_random() & 1;
    for (int i = 0; i < d->count; i++) {
        crafted_side(g, &d->dirty[i].old_sq, &d->dirty[i].old_piece, &d->dirty[i].old_slot);
        crafted_side(g, &d->dirty[i].new_sq, &d->dirty[i].new_piece, &d->dirty[i].new_slot);
    }
}

static void expect_inside(const fs_case *c, const uint32_t *list, int n, const char *what, int persp, int k)
{
    uint32_t dims = c->fs->dimensions(c->params);
    int most = c->fs->max_changed ? c->fs->max_changed : NNUE_MAX_CHANGED;
    FS_REQUIRE(n >= 0 && n <= most, "%s, crafted delta %d, perspective %d: %d %s, at most %d", c->label, k, persp, n,
               what, most);
    for (int i = 0; i < n; i++)
        FS_REQUIRE(list[i] < dims, "%s, crafted delta %d, perspective %d: %s[%d] = %u, past %u dimensions", c->label,
                   k, persp, what, i, list[i], dims);
}

static int king_only_checks; /* (case, perspective) pairs whose refresh_on_own_king_move was checked */

/* persp's king moved: the delta's flag, or an entry taking that king from one square to another. */
static int own_king_moved(const nnue_game *g, const nnue_delta *d, int persp)
{
    if (d->king_moved[persp])
        return 1;
    for (int i = 0; i < d->count; i++) {
        const nnue_dirty *x = &d->dirty[i];
        if (x->old_piece == NNUE_PIECE(persp, g->king_type) && x->old_sq >= 0 && x->new_sq >= 0 &&
            x->old_sq != x->new_sq)
            return 1;
    }
    return 0;
}

/* Every case of the game on `board`: DELTAS_PER_BOARD crafted deltas that fit; returns how many
 * (case, perspective) updates were listed. */
static int check_board(const nnue_game *g, const fs_case *cases, int n_cases, const nnue_board *board)
{
    int listed = 0;
    for (int k = 0; k < DELTAS_PER_BOARD; k++) {
        nnue_delta d;
        crafted_delta(g, &d);
        if (!nnue_delta_fits(g, &d))
            continue;
        for (int c = 0; c < n_cases; c++) {
            const nnue_feature_set *fs = cases[c].fs;
            int incremental[2];
            for (int p = 0; p < 2; p++) {
                incremental[p] = !fs->needs_refresh(cases[c].params, board, &d, p);
                /* A set that says only its own king's move refreshes (push then asks it nothing
                 * else: core/eval/push_check.h) keeps that word on any fitting delta. */
                if (fs->refresh_on_own_king_move && !own_king_moved(g, &d, p)) {
                    FS_REQUIRE(incremental[p], "%s, crafted delta %d: perspective %d refreshes though its king "
                               "did not move (refresh_on_own_king_move)", cases[c].label, k, p);
                    king_only_checks++;
                }
            }
            for (int p = 0; p < 2; p++) {
                if (!incremental[p])
                    continue;
                uint32_t removed[NNUE_MAX_ACTIVE_ANY], added[NNUE_MAX_ACTIVE_ANY];
                int nr = -1, na = -1;
                fs->changed(cases[c].params, board, &d, p, removed, &nr, added, &na);
                expect_inside(&cases[c], removed, nr, "removed", p, k);
                expect_inside(&cases[c], added, na, "added", p, k);
                listed++;
            }
            if (fs->changed_both && incremental[0] && incremental[1]) {
                uint32_t r0[NNUE_MAX_ACTIVE_ANY], r1[NNUE_MAX_ACTIVE_ANY], a0[NNUE_MAX_ACTIVE_ANY],
                    a1[NNUE_MAX_ACTIVE_ANY];
                uint32_t *const removed[2] = {r0, r1}, *const added[2] = {a0, a1};
                int nr[2] = {-1, -1}, na[2] = {-1, -1};
                fs->changed_both(cases[c].params, board, &d, removed, nr, added, na);
                for (int p = 0; p < 2; p++) {
                    expect_inside(&cases[c], removed[p], nr[p], "removed (both)", p, k);
                    expect_inside(&cases[c], added[p], na[p], "added (both)", p, k);
                }
            }
        }
    }
    return listed;
}

static void check_game(const char *name)
{
    const nnue_game *g = fs_game(name);
    fs_case cases[FS_MAX_CASES];
    int n_cases = fs_cases_for(name, cases, FS_MAX_CASES), listed = 0;
    ck_assert_int_gt(n_cases, 0);
    void *pos = malloc(g->pos_size);
    nnue_move *moves = malloc(sizeof *moves * NNUE_MAX_MOVES);
    ck_assert(pos && moves);
    nnue_error err;
    ck_assert_int_eq(g->parse(pos, g->start, &err), 0);
    for (int b = 0; b < BOARDS; b++) {
        listed += check_board(g, cases, n_cases, g->board(pos));
        for (int m = 0; m < 8; m++) {
            int n = g->legal_moves(pos, moves);
            if (n == 0)
                break;
            g->make(pos, moves[next_random() % (uint32_t)n], NULL);
        }
    }
    /* Most crafted deltas fit and leave some perspective incremental: the loop above tested. */
    ck_assert_int_gt(listed, BOARDS * DELTAS_PER_BOARD / 10);
    int sets_king_only = 0;
    for (int c = 0; c < n_cases; c++)
        sets_king_only += cases[c].fs->refresh_on_own_king_move;
    if (sets_king_only) /* the claim was put to the test */
        ck_assert_int_gt(king_only_checks, BOARDS * DELTAS_PER_BOARD / 10);
    free(moves);
    free(pos);
}

START_TEST(chess_sets_stay_inside) { check_game("chess"); }
END_TEST

START_TEST(shogi_sets_stay_inside) { check_game("shogi"); }
END_TEST

START_TEST(xiangqi_sets_stay_inside) { check_game("xiangqi"); }
END_TEST

int main(void)
{
    Suite *s = suite_create("features_crafted_deltas");
    TCase *tc = tcase_create("crafted_deltas");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, chess_sets_stay_inside);
    tcase_add_test(tc, shogi_sets_stay_inside);
    tcase_add_test(tc, xiangqi_sets_stay_inside);
    suite_add_tcase(s, tc);
    return test_run(s);
}
