/* tests/games/test_game_var_values.c: a game's selector variables read at once (nnue_game.var_values,
 * what a compiled selector calls: core/arch/expr_run.c) equal each variable's own value() on every
 * board of random games from the start position (captures fill shogi's hands, kings walk), for
 * every built-in game that offers them. A batch that wrote one variable in another's place, or
 * read the side to move's hand for the other side, fails here on the first board where they
 * differ. */
#include <stdlib.h>

#include "nnue.h"
#include "support.h"

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static unsigned pick(unsigned n)
{
    return test_random_below(&rng, n);
}

/* Boards compared in random games of game g; varied[v] says whether variable v took another value
 * than on the first board (so that a test of start positions alone cannot pass). */
static long compare_games(const nnue_game *g, int games, int plies, int *varied)
{
    void *pos = malloc(g->pos_size);
    nnue_move *moves = malloc(NNUE_MAX_MOVES * sizeof *moves);
    int32_t batch[64], first[64];
    nnue_error err;
    long boards = 0;
    ck_assert_int_le(g->n_vars, 64);
    for (int v = 0; v < g->n_vars; v++)
        varied[v] = 0;
    for (int game = 0; game < games; game++) {
        ck_assert_int_eq(g->parse(pos, g->start, &err), 0);
        for (int ply = 0; ply < plies; ply++) {
            const nnue_board *b = g->board(pos);
            g->var_values(b, batch);
            for (int v = 0; v < g->n_vars; v++) {
                int32_t one = g->vars[v].value(b);
                ck_assert_msg(batch[v] == one, "%s, game %d ply %d: variable %s is %d in the batch, %d alone", g->name,
                              game, ply, g->vars[v].name, batch[v], one);
                if (boards == 0)
                    first[v] = one;
                varied[v] |= one != first[v];
            }
            boards++;
            int n = g->legal_moves(pos, moves);
            if (n == 0)
                break;
            g->make(pos, moves[pick((unsigned)n)], NULL);
        }
    }
    free(moves);
    free(pos);
    return boards;
}

START_TEST(batches_equal_the_variables)
{
    int games_with_batch = 0;
    for (int i = 0; i < nnue_game_count(); i++) {
        const nnue_game *g = nnue_game_at(i);
        if (!g->var_values)
            continue;
        games_with_batch++;
        int varied[64];
        long boards = compare_games(g, 40, 200, varied);
        ck_assert_int_gt(boards, 2000);
        int changed = 0;
        for (int v = 0; v < g->n_vars; v++)
            changed += varied[v];
        /* random games move kings and capture: most variables take more than one value */
        ck_assert_msg(changed * 2 > g->n_vars, "%s: only %d of %d variables changed", g->name, changed, g->n_vars);
    }
    ck_assert_int_ge(games_with_batch, 2); /* shogi and xiangqi */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("game_var_values");
    TCase *tc = tcase_create("game_var_values");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, batches_equal_the_variables);
    suite_add_tcase(s, tc);
    return test_run(s);
}
