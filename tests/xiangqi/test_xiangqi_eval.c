/* tests/xiangqi/test_xiangqi_eval.c: Pikafish's net (archs/pikafish.yaml) against Pikafish's own
 * numbers: the random net is made by the anchor engine (`randomnet OUT 20261125`, then zstd,
 * shared/oracle/xiangqi/README.md) into BUILD/nets once, loaded zstd-compressed with no arch
 * named; every row of golden-pikafish-random-A.tsv (bucket, psqt, positional, total) by full
 * refresh on every kernel set the CPU has; incremental updates through random games equal full
 * refreshes on every kernel set. The anchor needs x86-64 with AVX-512 VNNI: elsewhere the test
 * is skipped (77). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/eval/state.h"
#include "base/isa.h"
#include "core/net/net.h"
#include "nnue.h"
#include "support.h"

static char net_path[4096];
static nnue_net *net;
static const nnue_game *game;

static void *parse(const char *fen)
{
    void *pos = malloc(game->pos_size);
    nnue_error err;
    ck_assert_ptr_nonnull(pos);
    ck_assert_msg(game->parse(pos, fen, &err) == 0, "parse '%s': %s", fen, err.message);
    return pos;
}

static void eval_on(int isa, const nnue_board *b, nnue_eval_detail *d)
{
    nnue_state *st = nnue_state_new(net, 0);
    ck_assert_int_eq(nnue_state_set_isa(st, (nnue_isa)isa), 0);
    nnue_state_reset(st, b);
    nnue_evaluate(st, b, d);
    nnue_state_free(st);
}

START_TEST(golden_rows_every_isa)
{
    char *text = test_read_file(test_shared_path("oracle/xiangqi/golden-pikafish-random-A.tsv"), NULL);
    ck_assert_ptr_nonnull(text);
    int rows = 0, ok[NNUE_ISA_COUNT] = {0};
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[6];
        if (strncmp(line, "fen\t", 4) == 0 || test_split_tabs(line, f, 6) != 5)
            continue;
        void *pos = parse(f[0]);
        rows++;
        for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
            nnue_eval_detail d;
            eval_on(isa, game->board(pos), &d);
            int same = d.bucket == atol(f[1]) && d.psqt == atol(f[2]) && d.positional == atol(f[3]) &&
                       d.total == atol(f[4]);
            ok[isa] += same;
            if (!same && rows - ok[isa] <= 3)
                fprintf(stderr, "%s on %s: %d %d %d %d, golden %s %s %s %s\n", f[0], nnue_isa_label((nnue_isa)isa),
                        d.bucket, d.psqt, d.positional, d.total, f[1], f[2], f[3], f[4]);
        }
        free(pos);
    }
    int all = 1;
    for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
        fprintf(stderr, "pikafish goldens on %s: %d / %d rows\n", nnue_isa_label((nnue_isa)isa), ok[isa], rows);
        all &= ok[isa] == rows;
    }
    ck_assert_int_eq(rows, 2000);
    ck_assert(all);
    free(text);
}
END_TEST

START_TEST(incremental_equals_full_every_isa)
{
    char *text = test_read_file(test_shared_path("oracle/xiangqi/corpusA.fen"), NULL);
    ck_assert_ptr_nonnull(text);
    unsigned seed = 29;
    int games = 0, checked = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && games < 200; line = strtok_r(NULL, "\n", &save), games++) {
        void *pos = parse(line);
        for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
            nnue_state *st = nnue_state_new(net, 16);
            ck_assert_int_eq(nnue_state_set_isa(st, (nnue_isa)isa), 0);
            nnue_state_reset(st, game->board(pos));
            nnue_move moves[NNUE_MAX_MOVES], played[12];
            int depth = 0;
            for (; depth < 12; depth++) {
                int n = game->legal_moves(pos, moves);
                if (!n)
                    break;
                seed = seed * 1103515245u + 12345u;
                played[depth] = moves[(seed >> 16) % (unsigned)n];
                nnue_delta delta;
                game->make(pos, played[depth], &delta);
                ck_assert_int_eq(nnue_state_push(st, game->board(pos), &delta), 0);
                nnue_eval_detail di, df;
                nnue_evaluate(st, game->board(pos), &di);
                eval_on(isa, game->board(pos), &df);
                ck_assert_msg(di.bucket == df.bucket && di.psqt == df.psqt && di.positional == df.positional &&
                                  di.total == df.total,
                              "%s, ply %d on %s: incremental %d/%d, full %d/%d", line, depth + 1,
                              nnue_isa_label((nnue_isa)isa), di.psqt, di.positional, df.psqt, df.positional);
                checked++;
            }
            while (depth-- > 0) {
                game->unmake(pos, played[depth]);
                nnue_state_pop(st);
            }
            nnue_state_free(st);
        }
        free(pos);
    }
    fprintf(stderr, "pikafish incremental: %d evaluations equal full refreshes\n", checked);
    free(text);
}
END_TEST

/* Makes BUILD/nets/pikafish-random-20261125.nnue.zst with the anchor and zstd when absent. */
static int make_net(void)
{
    char dir[4096], cmd[16384];
    snprintf(dir, sizeof dir, "%s/nets", test_build_dir());
    mkdir(dir, 0777);
    snprintf(net_path, sizeof net_path, "%s/pikafish-random-20261125.nnue.zst", dir);
    struct stat sb;
    if (stat(net_path, &sb) == 0)
        return 0;
    const char *anchor = test_shared_path("anchors/pikafish-nnuebench");
    snprintf(cmd, sizeof cmd,
             "printf 'randomnet %s/pikafish.tmp 20261125\\nquit\\n' | '%s' >/dev/null 2>&1 && "
             "zstd -q -f --rm '%s/pikafish.tmp' -o '%s.tmp' && mv '%s.tmp' '%s'",
             dir, anchor, dir, net_path, net_path, net_path);
    return system(cmd);
}

int main(void)
{
#if defined(__x86_64__)
    int vnni = __builtin_cpu_supports("avx512vnni");
#else
    int vnni = 0;
#endif
    if (!vnni) {
        fprintf(stderr, "SKIP: the Pikafish anchor that makes the net needs x86-64 with AVX-512 VNNI\n");
        return 77;
    }
    test_require_shared("oracle/xiangqi/golden-pikafish-random-A.tsv");
    test_require_shared("anchors/pikafish-nnuebench");
    if (system("zstd --version >/dev/null 2>&1") != 0) {
        fprintf(stderr, "SKIP: zstd (Debian package zstd) is not installed\n");
        return 77;
    }
    if (make_net() != 0) {
        fprintf(stderr, "FAIL: could not make the Pikafish net with the anchor and zstd\n");
        return 1;
    }
    nnue_error err;
    if (nnue_net_load_auto(net_path, &net, &err) != NNUE_OK) {
        fprintf(stderr, "FAIL: %s\n", err.message);
        return 1;
    }
    game = nnue_game_find(net->arch->game);
    if (!game || strcmp(net->arch->name, "Pikafish") != 0) {
        fprintf(stderr, "FAIL: the net was taken as '%s', expected Pikafish\n", net->arch->name);
        return 1;
    }
    Suite *s = suite_create("xiangqi_eval");
    TCase *tc = tcase_create("pikafish");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, golden_rows_every_isa);
    tcase_add_test(tc, incremental_equals_full_every_isa);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    nnue_net_free(net);
    return rc;
}
