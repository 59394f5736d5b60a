/* tests/tools/test_web_wrapper.c: the C side of the JavaScript API (web/src/nnue_web.c), compiled
 * natively, on what JavaScript cannot provoke (issue 49): a push the state refuses after taking
 * its entry (a bad delta) leaves the wrapper's moves and the state's entries one for one, so
 * later pops and evaluations stay exact; NULL states and nets, and seeds that are no whole
 * numbers, are refused with a message. The node side: web/test/node_errors.mjs. */
#include "core/eval/state.h" /* the state's own ply */
#include "../../web/src/nnue_web.c"

#include "support.h"

static void (*chess_make)(void *pos, nnue_move move, nnue_delta *delta);

/* chess's make, with a delta the state refuses (a square past the board) */
static void bad_make(void *pos, nnue_move move, nnue_delta *delta)
{
    chess_make(pos, move, delta);
    delta->dirty[0].new_sq = 100;
}

static nnue_net *random_net(const char *name)
{
    size_t size = 0;
    uint8_t *bytes = nw_net_random(name, NULL, 0, 3, &size);
    ck_assert_msg(bytes != NULL, "%s", last_error.message);
    nnue_net *net = nw_net_load(bytes, size, "random", name, NULL, 0);
    ck_assert_msg(net != NULL, "%s", last_error.message);
    free(bytes);
    return net;
}

static int32_t total_of(nw_state *s)
{
    return nw_state_total(s);
}

START_TEST(refused_push_keeps_plies_in_step)
{
    nnue_net *net = random_net("sfnnv1");
    nw_state *s = nw_state_new(net, "startpos", "");
    ck_assert_ptr_nonnull(s);
    int32_t root = total_of(s);
    ck_assert_int_eq(nw_state_push(s, "e2e4"), 0);
    int32_t after_e4 = total_of(s);
    const nnue_game *chess = s->game;
    nnue_game bad = *chess;
    chess_make = chess->make;
    bad.make = bad_make;
    s->game = &bad;
    ck_assert_int_eq(nw_state_push(s, "e7e5"), -1);
    ck_assert_msg(strstr(last_error.message, "dirty[0]"), "%s", last_error.message);
    s->game = chess;
    ck_assert_int_eq(s->ply, 1);
    ck_assert_int_eq(s->state->ply, s->ply); /* one entry per move the wrapper holds */
    ck_assert_int_eq(total_of(s), after_e4);
    ck_assert_int_eq(nw_state_pop(s), 0);
    ck_assert_int_eq(s->state->ply, 0);
    ck_assert_int_eq(total_of(s), root);
    ck_assert_int_eq(nw_state_pop(s), -1); /* nothing left: refused, not a stale entry */
    nw_state_free(s);
    nw_net_free(net);
}
END_TEST

START_TEST(null_and_bad_numbers_refused)
{
    ck_assert_int_eq(nw_state_push(NULL, "e2e4"), -1);
    ck_assert_msg(strstr(last_error.message, "no evaluation state"), "%s", last_error.message);
    ck_assert_int_eq(nw_state_pop(NULL), -1);
    ck_assert_ptr_null(nw_state_eval(NULL));
    ck_assert_int_eq(nw_state_total(NULL), 0);
    ck_assert_ptr_null(nw_state_new(NULL, "startpos", ""));
    ck_assert_msg(strstr(last_error.message, "no net"), "%s", last_error.message);
    ck_assert_ptr_null(nw_net_info(NULL, ""));
    static const double seeds[] = {-1, 1.5, NAN, INFINITY, 9007199254740992.0, 1e30};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        size_t size = 0;
        ck_assert_ptr_null(nw_net_random("sfnnv1", NULL, 0, seeds[i], &size));
        ck_assert_msg(strstr(last_error.message, "seed: expected a whole number"), "%g: %s", seeds[i],
                      last_error.message);
    }
    size_t size = 0;
    uint8_t *ok = nw_net_random("sfnnv1", NULL, 0, 9007199254740991.0, &size);
    ck_assert_ptr_nonnull(ok);
    free(ok);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("web_wrapper");
    TCase *tc = tcase_create("wrapper");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, refused_push_keeps_plies_in_step);
    tcase_add_test(tc, null_and_bad_numbers_refused);
    suite_add_tcase(s, tc);
    return test_run(s);
}
