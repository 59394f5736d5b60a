/* tests/xiangqi/test_xiangqi_zstd.c: whole-file zstd nets and the xiangqi pipeline on any
 * machine (no Pikafish anchor needed): `nnue init`'s random net for Pikafish's layout at width 64
 * (docs/examples/pikafish_w64.yaml), compressed and decompressed by `nnue convert --to zstd /
 * unzstd` (the bytes come back identical), `nnue info` naming the compression; the zstd file and
 * buffer load and evaluate as the plain net; incremental updates through random games equal
 * full refreshes on every kernel set (also lazily, over two moves at once). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/arch/arch_api.h"
#include "core/eval/state.h"
#include "base/isa.h"
#include "core/net/net.h"
#include "nnue.h"
#include "support.h"

static char plain[4096], packed[4096], back[4096], yaml[4096];
static nnue_arch *arch;
static const nnue_game *game;

static int run(const char *args, char *out, size_t size)
{
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", getenv("NNUE_TOOL"), args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t n = fread(out, 1, size - 1, p);
    out[n] = 0;
    return pclose(p);
}

static nnue_net *load(const char *path)
{
    nnue_net *net;
    nnue_error err;
    ck_assert_msg(nnue_net_load(arch, path, &net, &err) == NNUE_OK, "%s", err.message);
    return net;
}

START_TEST(convert_round_trip_and_info)
{
    size_t a, b;
    char *x = test_read_file(plain, &a), *y = test_read_file(back, &b), out[8192];
    ck_assert(x && y && a == b && memcmp(x, y, a) == 0);
    free(x);
    free(y);
    char args[9000];
    snprintf(args, sizeof args, "info --arch '%s' '%s'", yaml, packed);
    ck_assert_int_eq(run(args, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "compression   zstd"), "%s", out);
    snprintf(args, sizeof args, "convert --arch '%s' --to zstd '%s' '%s.again'", yaml, packed, packed);
    ck_assert_int_ne(run(args, out, sizeof out), 0); /* already compressed: refused */
}
END_TEST

START_TEST(zstd_file_and_buffer_evaluate_as_plain)
{
    nnue_net *p = load(plain), *z = load(packed), *m;
    size_t size;
    char *bytes = test_read_file(packed, &size);
    nnue_error err;
    ck_assert_msg(nnue_net_load_memory(arch, bytes, size, "packed", &m, &err) == NNUE_OK, "%s", err.message);
    void *pos = malloc(game->pos_size);
    ck_assert_int_eq(game->parse(pos, game->start, &err), 0);
    nnue_move moves[NNUE_MAX_MOVES];
    unsigned seed = 7;
    for (int ply = 0; ply < 40; ply++) {
        nnue_eval_detail d[3];
        nnue_net *nets[3] = {p, z, m};
        for (int k = 0; k < 3; k++) {
            nnue_state *st = nnue_state_new(nets[k], 0);
            nnue_state_reset(st, game->board(pos));
            nnue_evaluate(st, game->board(pos), &d[k]);
            nnue_state_free(st);
        }
        ck_assert(d[0].total == d[1].total && d[0].total == d[2].total && d[0].psqt == d[1].psqt);
        int n = game->legal_moves(pos, moves);
        if (!n)
            break;
        seed = seed * 1103515245u + 12345u;
        game->make(pos, moves[(seed >> 16) % (unsigned)n], NULL);
    }
    free(pos);
    free(bytes);
    nnue_net_free(p);
    nnue_net_free(z);
    nnue_net_free(m);
}
END_TEST

START_TEST(incremental_equals_full_every_isa)
{
    nnue_net *net = load(packed);
    void *pos = malloc(game->pos_size);
    nnue_error err;
    unsigned seed = 11;
    int checked = 0;
    for (int g = 0; g < 30; g++)
        for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
            ck_assert_int_eq(game->parse(pos, game->start, &err), 0);
            nnue_state *st = nnue_state_new(net, 64);
            ck_assert_int_eq(nnue_state_set_isa(st, (nnue_isa)isa), 0);
            nnue_state_reset(st, game->board(pos));
            nnue_move moves[NNUE_MAX_MOVES];
            for (int ply = 0; ply < 60; ply++) {
                int n = game->legal_moves(pos, moves);
                if (!n)
                    break;
                seed = seed * 1103515245u + 12345u;
                nnue_delta delta;
                game->make(pos, moves[(seed >> 16) % (unsigned)n], &delta);
                ck_assert_int_eq(nnue_state_push(st, game->board(pos), &delta), 0);
                if (ply % 3 == 1)
                    continue; /* also lazy updates over two moves */
                nnue_eval_detail di, df;
                nnue_evaluate(st, game->board(pos), &di);
                nnue_state *fresh = nnue_state_new(net, 0);
                ck_assert_int_eq(nnue_state_set_isa(fresh, (nnue_isa)isa), 0);
                nnue_state_reset(fresh, game->board(pos));
                nnue_evaluate(fresh, game->board(pos), &df);
                nnue_state_free(fresh);
                ck_assert_msg(di.bucket == df.bucket && di.psqt == df.psqt && di.positional == df.positional,
                              "game %d ply %d on %s: incremental differs from full", g, ply,
                              nnue_isa_label((nnue_isa)isa));
                checked++;
            }
            nnue_state_free(st);
        }
    fprintf(stderr, "pikafish_w64: %d incremental evaluations equal full refreshes\n", checked);
    free(pos);
    nnue_net_free(net);
}
END_TEST

int main(void)
{
    if (!getenv("NNUE_TOOL")) {
        fprintf(stderr, "SKIP: NNUE_TOOL is not set (run through meson test)\n");
        return 77;
    }
    snprintf(yaml, sizeof yaml, "%s", test_source_path("docs/examples/pikafish_w64.yaml"));
    char dir[4096], out[8192], args[16384];
    snprintf(dir, sizeof dir, "%s/nets", test_build_dir());
    mkdir(dir, 0777);
    snprintf(plain, sizeof plain, "%s/pikafish_w64.nnue", dir);
    snprintf(packed, sizeof packed, "%s/pikafish_w64.nnue.zst", dir);
    snprintf(back, sizeof back, "%s/pikafish_w64.back.nnue", dir);
    nnue_error err;
    if (nnue_arch_load(yaml, &arch, &err) != NNUE_OK || nnue_net_write_random(arch, plain, 3, &err) != NNUE_OK) {
        fprintf(stderr, "FAIL: %s\n", err.message);
        return 1;
    }
    snprintf(args, sizeof args, "convert --arch '%s' --to zstd '%s' '%s'", yaml, plain, packed);
    int rc = run(args, out, sizeof out);
    snprintf(args, sizeof args, "convert --arch '%s' --to unzstd '%s' '%s'", yaml, packed, back);
    if (rc != 0 || run(args, out, sizeof out) != 0) {
        fprintf(stderr, "FAIL: nnue convert: %s\n", out);
        return 1;
    }
    game = nnue_game_find(arch->game);
    Suite *s = suite_create("xiangqi_zstd");
    TCase *tc = tcase_create("zstd");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, convert_round_trip_and_info);
    tcase_add_test(tc, zstd_file_and_buffer_evaluate_as_plain);
    tcase_add_test(tc, incremental_equals_full_every_isa);
    suite_add_tcase(s, tc);
    rc = test_run(s);
    nnue_arch_free(arch);
    return rc;
}
