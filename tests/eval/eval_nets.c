/* tests/eval/eval_nets.c: see eval_nets.h. Sizes and names from FORMATS.md sections 8 and 9 and
 * the FACTS.md files. */
#include "eval_nets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../nets/nets_helpers.h"
#include "core/arch/arch_api.h"
#include "simd/paired_i8.h"
#include "support.h"

const eval_net eval_nets[] = {
    {"sf151", "archs/sfnnv5.yaml", NULL, 47001499, "tests/reference/chess/golden-sf151-A.tsv", NULL},
    {"sfnnv1", "archs/sfnnv1.yaml", "oracle/chess/sfnnv1-random.nnue.xz", 21022657, "oracle/chess/golden-sfnnv1-A.tsv", NULL},
    {"sfnnv2", "archs/sfnnv2.yaml", "oracle/chess/sfnnv2-random.nnue.xz", 47721433, "oracle/chess/golden-sfnnv2-A.tsv", NULL},
    {"sfnnv3", "archs/sfnnv3.yaml", "oracle/chess/sfnnv3-random.nnue.xz", 47001307, "oracle/chess/golden-sfnnv3-A.tsv", NULL},
    {"sfnnv4", "archs/sfnnv4.yaml", "oracle/chess/sfnnv4-random.nnue.xz", 47001561, "oracle/chess/golden-sfnnv4-A.tsv", NULL},
    {"sfnnv5", "archs/sfnnv5.yaml", "oracle/chess/sfnnv5-random.nnue.xz", 47001563, "oracle/chess/golden-sfnnv5-A.tsv", NULL},
    {"sfnnv6", "archs/sfnnv6.yaml", "oracle/chess/sfnnv6-random.nnue.xz", 35133672, "oracle/chess/golden-sfnnv6-A.tsv", NULL},
    {"sfnnv8", "archs/sfnnv8.yaml", "oracle/chess/sfnnv8-random.nnue.xz", 58335268, "oracle/chess/golden-sfnnv8-A.tsv", NULL},
    {"sfnnv9", "archs/sfnnv9.yaml", "oracle/chess/sfnnv9-random.nnue.xz", 69935715, "oracle/chess/golden-sfnnv9-A.tsv", NULL},
    {"sfnnv10", "archs/sfnnv10.yaml", "oracle/chess/sfnnv10-random.nnue.xz", 106448193,
     "oracle/chess/golden-sfnnv10-A.tsv", NULL},
    {"sfnnv8small", "archs/sfnnv8small.yaml", "oracle/chess/sfnnv8small-random.nnue", 3232763,
     "oracle/chess/golden-sfnnv8small-A.tsv", NULL},
    {"cwtch", "archs/cwtch6.yaml", "oracle/third/cwtch/cwtch6-quantised.bin", 3163200, "oracle/third/cwtch/goldensA.tsv", NULL},
    {"obsidian", "archs/obsidian.yaml", "oracle/third/obsidian/obsidian-nn.net", 2411584,
     "oracle/third/obsidian/goldensA.tsv", NULL},
    {"shogi", "archs/shogi_halfkp.yaml", "oracle/shogi/random_halfkp_s20260101.bin.xz", 64217066,
     "oracle/shogi/goldensA_random.tsv", NULL},
    {"multilayer", "docs/examples/multilayer_f32.yaml", "oracle/third/multilayer/multilayer-random.bin", 871968,
     "oracle/third/multilayer/goldensA.tsv", NULL},
    {"stormphrax", "archs/stormphrax.yaml", "oracle/third/stormphrax/stormphrax-random.nnue.xz", 89381984,
     "oracle/third/stormphrax/goldensA.tsv", NULL},
    {"plentychess", "archs/plentychess.yaml", "oracle/third/plentychess/plentychess-random.bin.xz", 75528364,
     "oracle/third/plentychess/goldensA.tsv", NULL},
    {"reckless", "archs/reckless.yaml", "oracle/third/reckless/reckless-random.bin.xz", 63266880,
     "oracle/third/reckless/goldensA.tsv", NULL},
    {"viridithas", "archs/viridithas.yaml", "oracle/third/viridithas/viridithas-random.nnue.zst", 3798126,
     "oracle/third/viridithas/goldensA.tsv", NULL},
    {"sf17", "archs/sfnnv9.yaml", NULL, 74874478, "tests/reference/chess/golden-sf17-A.tsv", "nn-1c0000000000.nnue"},
    {"sf18", "archs/sfnnv10.yaml", NULL, 108919594, "tests/reference/chess/golden-sf18-A.tsv", "nn-c288c895ea92.nnue"},
    {"sf18small", "archs/sfnnv8small.yaml", NULL, 3519630, "tests/reference/chess/golden-sf18small-A.tsv",
     "nn-37f18f62d772.nnue"},
    {"sf19", "archs/sfnnv16.yaml", NULL, 98511183, "tests/reference/chess/golden-sf19-A.tsv", "nn-1a298aa575a0.nnue"},
    {"sfnn1536", "archs/shogi_sfnn1536.yaml", "oracle/shogi/yo-sfnn1536-random.bin.xz", 112831522,
     "oracle/shogi/goldensA_sfnn1536.tsv", NULL},
};
const int eval_net_count = (int)(sizeof eval_nets / sizeof eval_nets[0]);

const eval_net *eval_net_find(const char *name)
{
    for (int i = 0; i < eval_net_count; i++)
        if (strcmp(eval_nets[i].name, name) == 0)
            return &eval_nets[i];
    return NULL;
}

const char *eval_net_file(const eval_net *n)
{
    if (n->release)
        return nets_stockfish_release(n->release, n->size);
    if (!n->shared)
        return nets_sf151();
    const char *base = strrchr(n->shared, '/') + 1;
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(strlen(base) - (strstr(base, ".xz") ? 3 : 0)), base);
    return nets_shared(n->shared, name, n->size);
}

const char *eval_bench_checksum(const char *name)
{
    static char found[64];
    const char *path = test_source_path("tests/reference/chess/bench-checksums.tsv");
    char *text = test_read_file(path, NULL), *save = NULL;
    if (!text) {
        fprintf(stderr, "FAIL: cannot read %s\n", path);
        exit(1);
    }
    found[0] = 0;
    for (char *line = strtok_r(text, "\n", &save); line && !found[0]; line = strtok_r(NULL, "\n", &save)) {
        char *f[4];
        if (line[0] != '#' && test_split_tabs(line, f, 4) == 4 && strcmp(f[0], name) == 0)
            snprintf(found, sizeof found, "checksum_total=%s ", f[2]);
    }
    free(text);
    return found[0] ? found : NULL;
}

nnue_net *eval_net_load(const eval_net *n, const char *path)
{
    nnue_arch *arch = nets_arch(n->arch);
    nnue_net *net = nets_load(arch, path);
    nnue_arch_free(arch);
    return net;
}

void *eval_parse(const nnue_game *game, const char *text)
{
    void *pos = calloc(1, game->pos_size);
    nnue_error err;
    if (game->parse(pos, text, &err) != 0) {
        char msg[1200];
        nnue_error_format(&err, msg, sizeof msg);
        ck_abort_msg("cannot parse '%s': %s", text, msg);
    }
    return pos;
}

void eval_fresh(const nnue_net *net, const nnue_board *board, nnue_eval_detail *detail)
{
    nnue_state *s = nnue_state_new(net, 0);
    ck_assert_ptr_nonnull(s);
    nnue_state_reset(s, board);
    nnue_evaluate(s, board, detail);
    nnue_state_free(s);
}

nnue_net *eval_net_load_main(const eval_net *n, const char *path)
{
    nnue_arch *arch;
    nnue_net *net = NULL;
    nnue_error err;
    if (nnue_arch_load(test_source_path(n->arch), &arch, &err) != NNUE_OK ||
        nnue_net_load(arch, path, &net, &err) != NNUE_OK) {
        char msg[1200];
        nnue_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "FAIL: %s\n", msg);
        net = NULL;
    }
    nnue_arch_free(arch);
    return net;
}

nnue_arch *eval_random_net_main(const char *arch_rel, const char *prefix, uint64_t seed, char *net_path,
                                size_t net_path_size)
{
    nnue_arch *arch = NULL;
    nnue_error err;
    const char *base = strrchr(arch_rel, '/') ? strrchr(arch_rel, '/') + 1 : arch_rel;
    snprintf(net_path, net_path_size, "%s/%s-%s", nets_dir(), prefix, base);
    if (nnue_arch_load(test_source_path(arch_rel), &arch, &err) != NNUE_OK ||
        nnue_net_write_random(arch, net_path, seed, &err) != NNUE_OK) {
        char msg[1200];
        nnue_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "FAIL: %s\n", msg);
        nnue_arch_free(arch);
        return NULL;
    }
    return arch;
}

unsigned eval_random(uint64_t *state, unsigned n)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (unsigned)(*state % n);
}

long long eval_check_narrow_rows(const nnue_net *net, int s)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    const nnue_narrow_rows *nr = &net->narrow[s];
    size_t n = (size_t)ft->sets[s].inputs * ft->width, misfits = 0;
    if (ft->sets[s].weight_type != NNUE_I16) { /* an i8 set: its rows paired in place, or widened to i16 */
        ck_assert_ptr_null(nr->patch_start);
        ck_assert_ptr_null(nr->rows);
        ck_assert_int_eq(net->i8_paired[s], ft->width % 64 == 0);
        ck_assert_int_eq(nr->widened != NULL, ft->width % 64 != 0);
        ck_assert_int_eq(net->row_table[s].i8, ft->width % 64 == 0);
        if (nr->widened) { /* the set's own rows stay plain then */
            const int8_t *w8 = net->set_weights[s];
            size_t bad = n;
            for (size_t j = 0; j < n && bad == n; j++)
                if (nr->widened[j] != w8[j])
                    bad = j;
            if (bad != n)
                ck_abort_msg("i8 set %d: widened value %zu differs from the set's %d", s, bad, w8[bad]);
        }
        return -1;
    }
    const int16_t *w = net->set_weights[s];
    for (size_t j = 0; j < n; j++)
        misfits += w[j] < -128 || w[j] > 127;
    ck_assert_int_eq(nr->rows != NULL, misfits <= n / 256 && ft->width % 64 == 0);
    if (!nr->rows)
        return -1;
    ck_assert_int_eq(nr->patch_start != NULL, misfits > 0);
    int16_t *row = malloc(ft->width * sizeof *row);
    ck_assert_ptr_nonnull(row);
    /* Plain comparisons in the loops, one ck_assert per row: every ck_assert writes a record to
     * Check's pipe, and these nets have up to 10^8 values (a check per value cost minutes). */
    for (uint32_t r = 0; r < ft->sets[s].inputs; r++) {
        const int16_t *want = w + (size_t)r * ft->width;
        const int8_t *got = nr->rows + (size_t)r * ft->width;
        uint32_t bad_col = ft->width;
        for (uint32_t c = 0; c < ft->width; c++) {
            int16_t clamped = want[c] < -128 ? -128 : want[c] > 127 ? 127 : want[c];
            if (nnue_paired_value(got, c) != clamped && bad_col == ft->width)
                bad_col = c;
            row[c] = nnue_paired_value(got, c);
        }
        if (bad_col != ft->width)
            ck_abort_msg("row %u column %u: i8 value %d, i16 value %d", r, bad_col, nnue_paired_value(got, bad_col),
                         want[bad_col]);
        if (misfits)
            for (uint32_t p = nr->patch_start[r]; p < nr->patch_start[r + 1]; p++) {
                if (nr->patches[p].col >= ft->width)
                    ck_abort_msg("row %u: patch column %u >= width %u", r, nr->patches[p].col, ft->width);
                row[nr->patches[p].col] = (int16_t)(row[nr->patches[p].col] + nr->patches[p].delta);
            }
        if (memcmp(row, want, ft->width * sizeof *row) != 0)
            ck_abort_msg("row %u differs after its patches", r);
        if (misfits) { /* the update's route: first[r] always, the rest when it says more follow */
            for (uint32_t c = 0; c < ft->width; c++)
                row[c] = nnue_paired_value(got, c);
            nnue_row_patch f = nr->first[r];
            uint32_t col = f.col & (NNUE_PATCH_MORE - 1), count = nr->patch_start[r + 1] - nr->patch_start[r];
            if (col >= ft->width || (f.col & NNUE_PATCH_MORE) != (count > 1 ? NNUE_PATCH_MORE : 0) ||
                (!count && f.delta))
                ck_abort_msg("row %u: first patch column %u delta %d with %u patches", r, f.col, f.delta, count);
            row[col] = (int16_t)(row[col] + f.delta);
            for (uint32_t p = nr->patch_start[r] + 1; count > 1 && p < nr->patch_start[r + 1]; p++)
                row[nr->patches[p].col] = (int16_t)(row[nr->patches[p].col] + nr->patches[p].delta);
            if (memcmp(row, want, ft->width * sizeof *row) != 0)
                ck_abort_msg("row %u differs after its first patch and the rest", r);
        }
    }
    free(row);
    ck_assert_uint_eq(misfits ? nr->patch_start[ft->sets[s].inputs] : 0, misfits);
    return (long long)misfits;
}

void eval_expect_fresh(const nnue_net *net, nnue_state *s, const nnue_board *board, int lo, int hi, const char *where)
{
    nnue_eval_detail d, f;
    nnue_evaluate(s, board, &d);
    nnue_state *fresh = nnue_state_new(net, 0);
    ck_assert_ptr_nonnull(fresh);
    nnue_state_set_refresh_cache(fresh, 0);
    nnue_state_reset(fresh, board);
    nnue_evaluate(fresh, board, &f);
    const nnue_ft_desc *ft = &net->arch->ft;
    for (int p = lo; p <= hi; p++) {
        const nnue_acc_entry *a = &s->entries[s->ply], *b = &fresh->entries[0];
        ck_assert_msg(memcmp(a->acc[p], b->acc[p], ft->width * sizeof(int16_t)) == 0,
                      "%s: accumulator of perspective %d differs from a full refresh", where, p);
        if (ft->psqt_buckets)
            ck_assert_msg(memcmp(a->psqt[p], b->psqt[p], ft->psqt_buckets * sizeof(int32_t)) == 0,
                          "%s: PSQT of perspective %d differs from a full refresh", where, p);
    }
    ck_assert_msg(lo != 0 || hi != 1 ||
                      (d.bucket == f.bucket && d.psqt == f.psqt && d.positional == f.positional && d.total == f.total &&
                       d.scaled == f.scaled),
                  "%s: %d/%d/%d, a full refresh %d/%d/%d", where, d.psqt, d.positional, d.total, f.psqt, f.positional,
                  f.total);
    nnue_state_free(fresh);
}
