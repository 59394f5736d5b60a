/* tests/shogi/test_shogi_perft_slow.c: perft 4 of the perftA rows that give it
 * and perft 5 of the start position (suite 'slow'). */
#include <stdlib.h>

#include "nnue_shogi.h"
#include "shogi_helpers.h"
#include "support.h"

START_TEST(perft_4_and_5)
{
    test_require_shared("oracle/shogi/perftA.tsv");
    shogi_lines lines = shogi_read_lines("oracle/shogi/perftA.tsv");
    int depth4 = 0, depth5 = 0;
    for (int i = 0; i < lines.count; i++) {
        char *f[6] = {0};
        int nf = test_split_tabs(lines.line[i], f, 6);
        nnue_shogi_pos pos;
        shogi_parse_ok(&pos, f[0]);
        for (int d = 4; d <= 5; d++) {
            if (nf <= d || !f[d][0])
                continue;
            ck_assert_msg(nnue_shogi_perft(&pos, d) == strtoull(f[d], NULL, 10),
                          "perft %d of %s", d, f[0]);
            *(d == 4 ? &depth4 : &depth5) += 1;
        }
    }
    ck_assert_int_eq(depth4, 20);
    ck_assert_int_eq(depth5, 1);
    shogi_free_lines(&lines);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("shogi_perft_slow");
    TCase *tc = tcase_create("deep");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, perft_4_and_5);
    suite_add_tcase(s, tc);
    return test_run(s);
}
