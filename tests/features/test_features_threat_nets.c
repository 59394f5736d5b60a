/* tests/features/test_features_threat_nets.c: the input features of PlentyChess's and
 * Stormphrax's threat nets are the library's existing sets: Full_Threats in its sfnnv16 variant
 * (the 59,808 threats: the same slot table, same-type rule, tables and block order), PP_3Wide
 * (4,560 pawn pairs), Chess768 with 12 mirrored buckets (PlentyChess) and Chess768's
 * merged_kings variant with 16 mirrored buckets (Stormphrax, 704 per bucket).
 *
 * Facts: the worked example of shared/oracle/third/plentychess/FACTS.md and
 * shared/oracle/third/stormphrax/FACTS.md ("Input features": 4k3/8/3p4/8/4N3/8/3PP3/4K3 w). */
#include <stdlib.h>
#include <string.h>

#include "fs_check.h"

static const nnue_feature_set *set(const char *name)
{
    const nnue_feature_set *fs = nnue_feature_set_find(name);
    ck_assert_msg(fs != NULL, "feature set %s is not registered", name);
    return fs;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The active list of fs on the example board from persp, sorted, equals want[n]. */
static void expect(const char *label, const nnue_feature_set *fs, const nnue_feature_params *params, int persp,
                   const uint32_t *want, int n)
{
    static const char example[] = "4k3/8/3p4/8/4N3/8/3PP3/4K3 w - - 0 1";
    const nnue_game *g = fs_game("chess");
    void *pos = malloc(g->pos_size);
    ck_assert_ptr_nonnull(pos);
    nnue_error err;
    ck_assert_int_eq(g->parse(pos, example, &err), 0);
    uint32_t out[NNUE_MAX_ACTIVE_ANY];
    int k = fs->active(params, g->board(pos), persp, out);
    qsort(out, (size_t)k, sizeof *out, cmp_u32);
    ck_assert_msg(k == n, "%s, perspective %d: %d features, expected %d", label, persp, k, n);
    for (int i = 0; i < n; i++)
        ck_assert_msg(out[i] == want[i], "%s, perspective %d: feature %d is %u, expected %u", label, persp, i, out[i],
                      want[i]);
    free(pos);
}

START_TEST(worked_example)
{
    const nnue_feature_params v16 = {.variant = 1};
    const nnue_feature_set *threats = set("Full_Threats"), *pairs = set("PP_3Wide"), *psq = set("Chess768");
    ck_assert_uint_eq(threats->dimensions(&v16), 59808);
    ck_assert_uint_eq(pairs->dimensions(NULL), 4560);
    ck_assert_uint_eq(psq->dimensions(&fs_params_plentychess), 12 * 768);
    ck_assert_uint_eq(psq->dimensions(&fs_params_stormphrax), 16 * 704);

    expect("threats", threats, &v16, 0, (const uint32_t[]){471, 2157}, 2);
    expect("threats", threats, &v16, 1, (const uint32_t[]){30427, 32113}, 2);
    expect("pawn pairs", pairs, NULL, 0, (const uint32_t[]){9, 3489, 3490}, 3);
    expect("pawn pairs", pairs, NULL, 1, (const uint32_t[]){4107, 4198, 4277}, 3);
    expect("PlentyChess psq", psq, &fs_params_plentychess, 0, (const uint32_t[]){2315, 2316, 2395, 2627, 2732, 3067},
           6);
    expect("PlentyChess psq", psq, &fs_params_plentychess, 1, (const uint32_t[]){2324, 2627, 2739, 2740, 2787, 3067},
           6);
    expect("Stormphrax psq", psq, &fs_params_stormphrax, 0, (const uint32_t[]){2123, 2124, 2203, 2435, 2491, 2540},
           6);
    expect("Stormphrax psq", psq, &fs_params_stormphrax, 1, (const uint32_t[]){2132, 2435, 2491, 2547, 2548, 2595},
           6);
}
END_TEST

/* The start position: 28 threat features and 36 pawn pairs per perspective (PlentyChess FACTS). */
START_TEST(start_position_counts)
{
    const nnue_game *g = fs_game("chess");
    void *pos = malloc(g->pos_size);
    ck_assert_ptr_nonnull(pos);
    nnue_error err;
    ck_assert_int_eq(g->parse(pos, g->start, &err), 0);
    const nnue_feature_params v16 = {.variant = 1};
    uint32_t out[NNUE_MAX_ACTIVE_ANY];
    for (int p = 0; p < 2; p++) {
        ck_assert_int_eq(set("Full_Threats")->active(&v16, g->board(pos), p, out), 28);
        ck_assert_int_eq(set("PP_3Wide")->active(NULL, g->board(pos), p, out), 36);
    }
    free(pos);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("features_threat_nets");
    TCase *tc = tcase_create("threat_nets");
    tcase_add_test(tc, worked_example);
    tcase_add_test(tc, start_position_counts);
    suite_add_tcase(s, tc);
    return test_run(s);
}
