/* tests/shogi/test_shogi_yo26.c: YaneuraOu's generated SFNN nets (issue 37), nets A and B of
 * shared/oracle/shogi/yo26, written by its make_net.py into BUILD/nets at start-up.
 *   - goldens: bucket, progress, progress sum, raw and eval of goldensA_A.tsv, bucket, raw and eval
 *     of goldensA_B.tsv and of both handicap files, on every kernel set the CPU has;
 *   - incremental == full on random walks from corpus positions, every kernel set; net A's
 *     progress kept incrementally equals a fresh one after every evaluation of random games;
 *   - net B's affine_shard fc0 runs on the u8 kernels (the goldens then check it on every set);
 *   - nnue-usi (the argument) plays with each net through EvalFile;
 *   (the generated names without nets: test_shogi_yo26_names.c)
 *   - the eval clamped to +-31753 like the engine's (a net whose raw output passes it);
 *   - bad input: a description naming another shape, a Progress section cut short or with a
 *     wrong hash: refused with the byte offset.
 * Facts: shared/oracle/shogi/yo26/FACTS.md. Skips (77) loudly without ../shared. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/isa.h"
#include "core/arch/generated_name.h"
#include "core/eval/state.h"
#include "layers/plan.h"
#include "load/load.h"
#include "../nets/nets_helpers.h"
#include "support.h"

#define DIR "oracle/shogi/yo26/"
static const char *net_path[2];
static const char *const arch_file[2] = {"archs/shogi_sfnn_progress8.yaml", "archs/shogi_sfnn_shard.yaml"};
static const char *const gen_name[2] = {"SFNN_halfkahm2_512_8_32_hand64z_k3k3_progress8",
                                        "SFNN_halfkahm2_1024_7_64_c256_s192x4_hand4_k13k13z"};
static const unsigned long long file_bytes[2] = {62553944ull, 82241023ull};
static nnue_net *nets[2];

static nnue_net *net_of(int which)
{
    if (!nets[which]) {
        nnue_arch *a = nets_arch(arch_file[which]);
        nets[which] = nets_load(a, net_path[which]);
        nnue_arch_free(a);
    }
    return nets[which];
}

static const nnue_game *shogi(void)
{
    return nnue_game_find("shogi");
}

static void *parse(const char *text)
{
    void *pos = calloc(1, shogi()->pos_size);
    nnue_error err;
    ck_assert_msg(shogi()->parse(pos, text, &err) == 0, "cannot parse %s", text);
    return pos;
}

static int progress_slot(const nnue_net *net)
{
    for (int v = 0; v < net->arch->selector.n_vars; v++)
        if (net->arch->selector.table_vars[v])
            return v;
    return -1;
}

/* Every row of a golden file: A's columns sfen bucket progress sum raw eval, B's sfen bucket raw eval. */
static void check_goldens(int which, const char *file, int min_rows)
{
    nnue_net *net = net_of(which);
    char *text = test_read_file(test_shared_path(file), NULL), *save = NULL;
    ck_assert_ptr_nonnull(text);
    int rows = 0, bad = 0, slot = progress_slot(net);
    ck_assert_int_eq(slot >= 0, which == 0);
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "sfen\t", 5) == 0 || line[0] == '#')
            continue;
        char *f[8];
        int n = test_split_tabs(line, f, 8);
        ck_assert_int_eq(n, which == 0 ? 6 : 4);
        void *pos = parse(f[0]);
        const nnue_board *b = shogi()->board(pos);
        long want_bucket = atol(f[1]), want_raw = atol(f[n - 2]), want_eval = atol(f[n - 1]);
        if (slot >= 0) {
            int32_t values[NNUE_EXPR_MAX_VARS];
            int64_t sums[NNUE_EXPR_MAX_VARS];
            nnue_forward_bucket(net, b, values, sums);
            if (values[slot] != atol(f[2]) || sums[slot] != atoll(f[3])) {
                if (bad++ < 5)
                    fprintf(stderr, "%s row %d: progress %d sum %lld, golden %s %s\n", file, rows, values[slot],
                            (long long)sums[slot], f[2], f[3]);
            }
        }
        for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
            nnue_eval_detail d;
            nnue_state *st = nnue_state_new(net, 0);
            ck_assert_int_eq(nnue_state_set_isa(st, (nnue_isa)isa), 0);
            nnue_state_reset(st, b);
            nnue_evaluate(st, b, &d);
            nnue_state_free(st);
            if (d.bucket != want_bucket || d.positional != want_raw || d.total != want_eval) {
                if (bad++ < 5)
                    fprintf(stderr, "%s row %d on %s: bucket %d raw %d eval %d, golden %ld %ld %ld\n", file, rows,
                            nnue_isa_label((nnue_isa)isa), d.bucket, d.positional, d.total, want_bucket, want_raw,
                            want_eval);
            }
        }
        free(pos);
        rows++;
    }
    fprintf(stderr, "%s: %d rows, %d mismatches\n", file, rows, bad);
    ck_assert_int_ge(rows, min_rows);
    ck_assert_int_eq(bad, 0);
    free(text);
}

START_TEST(goldens_A) { check_goldens(0, DIR "goldensA_A.tsv", 2000); }
END_TEST
START_TEST(goldens_B) { check_goldens(1, DIR "goldensA_B.tsv", 2000); }
END_TEST
START_TEST(handicap_A) { check_goldens(0, DIR "handicapA_goldens_A.tsv", 52); }
END_TEST
START_TEST(handicap_B) { check_goldens(1, DIR "handicapA_goldens_B.tsv", 52); }
END_TEST

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static unsigned next_random(unsigned n)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* Random walks of 12 plies from every 40th corpus position: after each push and on the way back,
 * the incremental evaluation equals a fresh state's, on every kernel set. */
static void check_incremental(int which)
{
    nnue_net *net = net_of(which);
    char *text = test_read_file(test_shared_path("oracle/shogi/corpusA.sfen"), NULL), *save = NULL;
    ck_assert_ptr_nonnull(text);
    int index = 0, checks = 0;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), index++) {
        if (line[0] == '#' || index % 40)
            continue;
        for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
            void *pos = parse(line);
            nnue_state *s = nnue_state_new(net, 16), *fresh = nnue_state_new(net, 0);
            ck_assert_int_eq(nnue_state_set_isa(s, (nnue_isa)isa), 0);
            ck_assert_int_eq(nnue_state_set_isa(fresh, (nnue_isa)isa), 0);
            nnue_move moves[NNUE_MAX_MOVES], played[16];
            int depth = 0;
            nnue_state_reset(s, shogi()->board(pos));
            for (int ply = 0; ply < 24; ply++) {
                if (ply < 12) {
                    int n = shogi()->legal_moves(pos, moves);
                    if (n == 0)
                        break;
                    nnue_delta delta;
                    played[depth] = moves[next_random((unsigned)n)];
                    shogi()->make(pos, played[depth++], &delta);
                    ck_assert_int_eq(nnue_state_push(s, shogi()->board(pos), &delta), 0);
                } else if (depth > 0) {
                    nnue_state_pop(s);
                    shogi()->unmake(pos, played[--depth]);
                } else {
                    break;
                }
                nnue_eval_detail a, b;
                nnue_evaluate(s, shogi()->board(pos), &a);
                nnue_state_reset(fresh, shogi()->board(pos));
                nnue_evaluate(fresh, shogi()->board(pos), &b);
                ck_assert_msg(a.bucket == b.bucket && a.positional == b.positional && a.total == b.total,
                              "%s after %d plies on %s: incremental %d/%d, full %d/%d", line, ply,
                              nnue_isa_label((nnue_isa)isa), a.bucket, a.positional, b.bucket, b.positional);
                checks++;
            }
            nnue_state_free(s);
            nnue_state_free(fresh);
            free(pos);
        }
    }
    fprintf(stderr, "%s: %d incremental checks\n", gen_name[which], checks);
    ck_assert_int_gt(checks, 500);
    free(text);
}

/* part_move_both after a move: -1 with nothing touched where part_move refuses either
 * perspective, else both shares as part_move gives each. */
static void both_equals_each(const nnue_table_var *tv, const int32_t *table, const nnue_board *after,
                             const nnue_delta *delta, const int64_t before[2])
{
    int64_t each[2] = {before[0], before[1]}, both[2] = {before[0], before[1]};
    int refused = tv->part_move(table, after, delta, 0, &each[0]) != 0;
    refused |= tv->part_move(table, after, delta, 1, &each[1]) != 0;
    ck_assert_int_eq(tv->part_move_both(table, after, delta, both), refused ? -1 : 0);
    for (int p = 0; p < 2; p++)
        ck_assert(both[p] == (refused ? before[p] : each[p]));
}

/* Net A's progress kept incrementally (core/eval/table_parts.c): random games of 60 plies from every
 * 20th corpus position, evaluated after about two moves in three (so that some evaluations apply
 * several moves at once), now and then two moves taken back; after every evaluation the state's
 * shares give the progress and the sum a fresh computation from the board gives; after every move
 * part_move_both agrees with part_move. */
START_TEST(progress_incremental_equals_fresh)
{
    nnue_net *net = net_of(0);
    int slot = progress_slot(net);
    ck_assert_int_ge(slot, 0);
    const nnue_table_var *tv = net->arch->selector.table_vars[slot];
    ck_assert_ptr_nonnull(tv->parts);
    char *text = test_read_file(test_shared_path("oracle/shogi/corpusA.sfen"), NULL), *save = NULL;
    ck_assert_ptr_nonnull(text);
    int index = 0, checks = 0, kept = 0;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), index++) {
        if (line[0] == '#' || index % 20)
            continue;
        void *pos = parse(line);
        nnue_state *s = nnue_state_new(net, 64);
        ck_assert_int_eq(s->tpart_slot, slot);
        nnue_move moves[NNUE_MAX_MOVES], played[64];
        int depth = 0;
        nnue_state_reset(s, shogi()->board(pos));
        for (int ply = 0; ply < 60 && depth < 64; ply++) {
            if (depth >= 2 && next_random(8) == 0) {
                for (int back = 0; back < 2; back++) {
                    nnue_state_pop(s);
                    shogi()->unmake(pos, played[--depth]);
                }
            } else {
                int n = shogi()->legal_moves(pos, moves);
                if (n == 0)
                    break;
                nnue_delta delta;
                int64_t before[2];
                tv->parts(s->kernels, net->tables[slot], shogi()->board(pos), before);
                played[depth] = moves[next_random((unsigned)n)];
                shogi()->make(pos, played[depth++], &delta);
                ck_assert_int_eq(nnue_state_push(s, shogi()->board(pos), &delta), 0);
                both_equals_each(tv, net->tables[slot], shogi()->board(pos), &delta, before);
            }
            if (next_random(3) == 0)
                continue;
            const nnue_board *b = shogi()->board(pos);
            nnue_evaluate(s, b, NULL);
            const nnue_acc_entry *e = &s->entries[s->ply];
            ck_assert(e->tpart_ok[0] && e->tpart_ok[1] && e->tpart_slot == slot);
            int64_t sum_inc, sum_fresh;
            int32_t p_inc = tv->value_of(net->tables[slot], e->tpart, &sum_inc);
            int32_t p_fresh = tv->value(&nnue_kernels_scalar, net->tables[slot], b, &sum_fresh);
            ck_assert_msg(p_inc == p_fresh && sum_inc == sum_fresh, "%s, %d plies on: progress %d sum %lld, fresh %d %lld",
                          line, ply, p_inc, (long long)sum_inc, p_fresh, (long long)sum_fresh);
            int64_t fresh[2];
            tv->parts(s->kernels, net->tables[slot], b, fresh);
            for (int p = 0; p < 2; p++)
                ck_assert(e->tpart[p] == fresh[p]);
            checks++;
            kept += s->ply > 0 && !e->refresh[0] && !e->refresh[1];
        }
        nnue_state_free(s);
        free(pos);
    }
    fprintf(stderr, "progress: %d evaluations checked, %d after a move that kept both shares\n", checks, kept);
    ck_assert_int_gt(checks, 2000);
    ck_assert_int_gt(kept, checks / 2);
    free(text);
}
END_TEST

/* The planner takes B's affine_shard fc0 onto the u8 kernels (dense_i8 rows), and nothing then
 * reads the network input as int32. */
START_TEST(shard_layer_on_kernels)
{
    const nnue_plan *plan = net_of(1)->kernel_data;
    ck_assert_ptr_nonnull(plan);
    ck_assert_int_eq(plan->kind, NNUE_PLAN_U8);
    ck_assert_int_eq(plan->layers[0].u8, 1);
    ck_assert_int_eq(plan->layers[0].from_network, 1);
    ck_assert_int_eq(plan->network_i32, 0);
}
END_TEST

START_TEST(incremental_A) { check_incremental(0); }
END_TEST
START_TEST(incremental_B) { check_incremental(1); }
END_TEST

/* The whole file of net `which` in memory (the caller frees). */
static unsigned char *file_bytes_of(int which, size_t *size)
{
    unsigned char *data = (unsigned char *)test_read_file(net_path[which], size);
    ck_assert_ptr_nonnull(data);
    ck_assert_uint_eq(*size, file_bytes[which]);
    return data;
}

static void expect_refusal(int which, const unsigned char *data, size_t size, nnue_status code, long long offset,
                           const char *words)
{
    nnue_arch *a = nets_arch(arch_file[which]);
    nnue_net *net = NULL;
    nnue_error err;
    nnue_status st = nnue_net_load_memory(a, data, size, "bad.bin", &net, &err);
    nnue_arch_free(a);
    char msg[1200];
    nnue_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "refused as expected: %s\n", msg);
    ck_assert_ptr_null(net);
    ck_assert_int_eq(st, code);
    ck_assert_int_eq(err.offset, offset);
    ck_assert_msg(strstr(err.message, words), "expected '%s' in: %s", words, msg);
}

/* A's description says K9K9 instead of K3K3 (a valid name, another shape); B's C512_S128X4. */
START_TEST(description_names_another_shape)
{
    for (int which = 0; which < 2; which++) {
        size_t size;
        unsigned char *data = file_bytes_of(which, &size);
        const char *from = which ? "C256_S192X4" : "K3K3", *to = which ? "C512_S128X4" : "K9K9";
        char *at = memmem(data + 12, 160, from, strlen(from));
        ck_assert_ptr_nonnull(at);
        memcpy(at, to, strlen(to));
        char *name = memmem(data + 12, 160, "Network=", 8) + 8;
        expect_refusal(which, data, size, NNUE_E_FORMAT, (long long)(name - (char *)data), "names the architecture");
        memcpy(at, from, strlen(from));
        char *stacks = memmem(data + 12, 160, "LayerStack=", 11) + 11;
        stacks[0] = stacks[0] == '9' ? '8' : '9'; /* the stack count alone */
        expect_refusal(which, data, size, NNUE_E_FORMAT, (long long)(stacks - (char *)data), "LayerStack");
        free(data);
    }
}
END_TEST

/* A's Progress section (FACTS.md section 2: @37,537,824, 4 + 4 * (1 + 81 * 1548) bytes) cut short,
 * and with another hash. */
START_TEST(progress_section_cut_short)
{
    size_t size;
    unsigned char *data = file_bytes_of(0, &size);
    const size_t at = 37537824, bytes = 4 + 4 * (1 + 81 * 1548);
    expect_refusal(0, data, at + bytes - 1, NNUE_E_FORMAT, (long long)(at + bytes - 1), "progress section");
    expect_refusal(0, data, at + 100, NNUE_E_FORMAT, (long long)(at + 100), "progress section");
    data[at] ^= 1;
    expect_refusal(0, data, size, NNUE_E_HASH, (long long)at, "progress section hash");
    free(data);
}
END_TEST


/* The eval is YaneuraOu's evaluate(): raw / 16 clamped to +-31753 (FACTS.md section 3; never reached
 * on the goldens). Net B with the fc_2 bias of the start position's stack (FACTS.md section 2:
 * stacks @75,075,423, 10,600 bytes each, the bias 10,532 bytes in) raised and lowered by 10^6. */
START_TEST(eval_clamped_to_value_max_eval)
{
    size_t size;
    unsigned char *data = file_bytes_of(1, &size);
    void *pos = parse("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    const nnue_board *b = shogi()->board(pos);
    nnue_eval_detail d;
    nnue_state *st = nnue_state_new(net_of(1), 0);
    nnue_state_reset(st, b);
    nnue_evaluate(st, b, &d);
    nnue_state_free(st);
    ck_assert_int_eq(d.total, d.positional / 16);
    size_t at = 75075423 + (size_t)d.bucket * 10600 + 10532;
    int32_t bias;
    memcpy(&bias, data + at, 4);
    for (int sign = -1; sign <= 1; sign += 2) {
        int32_t changed = bias + sign * 1000000;
        memcpy(data + at, &changed, 4);
        nnue_arch *a = nets_arch(arch_file[1]);
        nnue_net *net = NULL;
        nnue_error err;
        ck_assert_int_eq(nnue_net_load_memory(a, data, size, "clamp.bin", &net, &err), NNUE_OK);
        nnue_arch_free(a);
        for (int isa = 0; isa <= (int)nnue_isa_best(); isa++) {
            nnue_eval_detail c;
            st = nnue_state_new(net, 0);
            ck_assert_int_eq(nnue_state_set_isa(st, (nnue_isa)isa), 0);
            nnue_state_reset(st, b);
            nnue_evaluate(st, b, &c);
            nnue_state_free(st);
            ck_assert_int_eq(c.bucket, d.bucket);
            ck_assert_int_eq(c.positional, d.positional + sign * 1000000);
            ck_assert_int_eq(c.total, sign * 31753);
        }
        nnue_net_free(net);
    }
    free(pos);
    free(data);
}
END_TEST

/* nnue-usi (argv[1]) plays with each net through EvalFile: the architecture detected from the
 * description, a move found. */
static const char *usi_engine;
START_TEST(engine_plays_with_each_net)
{
    for (int which = 0; which < 2; which++) {
        char cmd[2048], line[512];
        snprintf(cmd, sizeof cmd,
                 "printf 'usi\\nsetoption name EvalFile value %s\\nisready\\nposition startpos moves 7g7f\\n"
                 "go depth 2\\nquit\\n' | '%s' 2>&1",
                 net_path[which], usi_engine);
        FILE *f = popen(cmd, "r");
        ck_assert_ptr_nonnull(f);
        int loaded = 0, moved = 0;
        while (fgets(line, sizeof line, f)) {
            loaded |= strstr(line, "info string loaded") != NULL;
            moved |= strncmp(line, "bestmove ", 9) == 0 && strncmp(line, "bestmove resign", 15) != 0;
            ck_assert_msg(!strstr(line, "error"), "%s: %s", net_path[which], line);
        }
        ck_assert_int_eq(pclose(f), 0);
        ck_assert_msg(loaded && moved, "%s: loaded %d, moved %d", net_path[which], loaded, moved);
    }
}
END_TEST

int main(int argc, char **argv)
{
    usi_engine = argc > 1 ? argv[1] : NULL;
    test_require_shared(DIR "FACTS.md");
    test_require_shared(DIR "make_net.py");
    test_require_shared("oracle/shogi/corpusA.sfen");
    for (int which = 0; which < 2; which++) {
        char name[32], cmd[2048];
        snprintf(name, sizeof name, "yo26%c.bin", 'A' + which);
        net_path[which] = strdup(nets_path(name));
        if (nets_file_size(net_path[which]) != file_bytes[which]) { /* written once, under a temporary name */
            snprintf(cmd, sizeof cmd, "python3 '%s' %c '%s.tmp%d' && mv '%s.tmp%d' '%s'",
                     test_shared_path(DIR "make_net.py"), 'A' + which, net_path[which], (int)getpid(), net_path[which],
                     (int)getpid(), net_path[which]);
            if (system(cmd) != 0 || nets_file_size(net_path[which]) != file_bytes[which]) {
                fprintf(stderr, "FAIL: %s did not write %s of %llu bytes\n", cmd, net_path[which], file_bytes[which]);
                return 1;
            }
        }
    }
    Suite *s = suite_create("shogi_yo26");
    TCase *tc = tcase_create("yo26");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, shard_layer_on_kernels);
    tcase_add_test(tc, goldens_A);
    tcase_add_test(tc, goldens_B);
    tcase_add_test(tc, handicap_A);
    tcase_add_test(tc, handicap_B);
    tcase_add_test(tc, incremental_A);
    tcase_add_test(tc, progress_incremental_equals_fresh);
    tcase_add_test(tc, incremental_B);
    tcase_add_test(tc, description_names_another_shape);
    tcase_add_test(tc, progress_section_cut_short);
    tcase_add_test(tc, eval_clamped_to_value_max_eval);
    if (usi_engine)
        tcase_add_test(tc, engine_plays_with_each_net);
    suite_add_tcase(s, tc);
    return test_run(s);
}
