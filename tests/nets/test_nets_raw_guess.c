/* tests/nets/test_nets_raw_guess.c: nets without a Stockfish-format header through
 * nnue_net_load_auto (core/net/net_raw_guess.c), on the 2026 engines' own files
 * (shared/oracle/third/<engine>/):
 *  - Stormphrax's CBNF file names its shape: it loads as stormphrax from a file and from memory,
 *    plain or with its payload as one zstd frame (flag bit 0), and evaluates as its golden (the
 *    start position's raw output, 11,225,119); a header field no built-in carries is refused at
 *    its offset, naming the architecture and the value it expects.
 *  - Header-less files are never taken; the message names the file and the candidate the bytes
 *    allow: Reckless's by its size (63,266,880 bytes), Viridithas's zstd frame by its decompressed
 *    size (89,315,360), PlentyChess's by its LEB128 value count (75,491,208); bytes fitting none
 *    say so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "../eval/eval_nets.h"
#include "core/arch/arch_api.h"
#include "support.h"

static const char *sp_path, *pc_path, *rk_path, *vd_path;

static int32_t startpos_total(const nnue_net *net)
{
    const nnue_game *g = nnue_game_find(net->arch->game);
    void *pos = eval_parse(g, "startpos");
    nnue_eval_detail d;
    eval_fresh(net, g->board(pos), &d);
    free(pos);
    return d.total;
}

static int write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, size, f) == size;
    return (f && fclose(f) != 0) || !ok ? -1 : 0;
}

/* net by address: read after the load call (an argument beside the call would be read in an
 * unspecified order, before it under some compilers). */
static void expect_stormphrax(nnue_status st, nnue_net **loaded, const nnue_error *err)
{
    nnue_net *net = *loaded;
    ck_assert_msg(st == NNUE_OK, "%s", err->message);
    ck_assert_str_eq(net->arch->name, "stormphrax");
    ck_assert_int_eq(startpos_total(net), 11225119); /* goldensA.tsv, first row */
    nnue_net_free(net);
}

START_TEST(cbnf_is_recognised)
{
    nnue_net *net;
    nnue_error err;
    expect_stormphrax(nnue_net_load_auto(sp_path, &net, &err), &net, &err);
    size_t size;
    unsigned char *plain = (unsigned char *)test_read_file(sp_path, &size);
    ck_assert_ptr_nonnull(plain);
    expect_stormphrax(nnue_net_load_auto_memory(plain, size, "plain", &net, &err), &net, &err);
    /* the payload as one zstd frame: the header (flag bit 0 set) still decides */
    size_t bound = ZSTD_compressBound(size - 64);
    unsigned char *packed = malloc(64 + bound);
    ck_assert_ptr_nonnull(packed);
    memcpy(packed, plain, 64);
    packed[6] |= 1;
    size_t z = ZSTD_compress(packed + 64, bound, plain + 64, size - 64, 1);
    ck_assert(!ZSTD_isError(z));
    expect_stormphrax(nnue_net_load_auto_memory(packed, 64 + z, "zstd", &net, &err), &net, &err);
    char path[4200];
    snprintf(path, sizeof path, "%s/raw-guess-%d.nnue", test_build_dir(), (int)getpid());
    ck_assert(write_file(path, packed, 64 + z) == 0);
    expect_stormphrax(nnue_net_load_auto(path, &net, &err), &net, &err);
    /* arch byte 9 = 6: no built-in CBNF architecture carries it */
    packed[9] = 6;
    ck_assert(write_file(path, packed, 64 + z) == 0);
    net = (nnue_net *)0x1;
    ck_assert_int_eq(nnue_net_load_auto(path, &net, &err), NNUE_E_HASH);
    ck_assert_ptr_null(net);
    ck_assert_int_eq(err.offset, 9);
    ck_assert_str_eq(err.file, path);
    ck_assert_msg(strstr(err.message, "arch is 6, stormphrax expects 5 (format.cbnf.arch)"), "%s", err.message);
    remove(path);
    free(packed);
    free(plain);
}
END_TEST

/* nnue_net_load_auto refuses path with NNUE_E_HASH, the message naming the file and holding want. */
static void refused_naming(const char *path, const char *want)
{
    nnue_net *net = (nnue_net *)0x1;
    nnue_error err;
    ck_assert_int_eq(nnue_net_load_auto(path, &net, &err), NNUE_E_HASH);
    ck_assert_ptr_null(net);
    ck_assert_msg(strstr(err.message, path) && strstr(err.message, want), "'%s' lacks '%s'", err.message, want);
    ck_assert_msg(strstr(err.message, "nothing else in the file confirms it"), "%s", err.message);
}

START_TEST(headerless_files_name_their_candidates)
{
    refused_naming(rk_path, "Its size, 63266880 bytes, is that of the built-in raw architecture reckless");
    refused_naming(rk_path, "--arch reckless");
    refused_naming(vd_path, "in one zstd frame");
    refused_naming(vd_path, "Its decompressed size, 89315360 bytes, is that of the built-in raw architecture viridithas");
    refused_naming(pc_path, "as LEB128 varints it holds 75491208 values, the count of the built-in architecture plentychess");
    /* one byte more: no candidate */
    size_t size;
    char *data = test_read_file(rk_path, &size);
    ck_assert_ptr_nonnull(data);
    nnue_net *net;
    nnue_error err;
    ck_assert_int_eq(nnue_net_load_auto_memory(data, size - 1, "cut", &net, &err), NNUE_E_HASH);
    ck_assert_msg(strstr(err.message, "No built-in raw architecture has its size (63266879 bytes)"), "%s", err.message);
    ck_assert_msg(strstr(err.message, "--arch NAME"), "%s", err.message);
    free(data);
}
END_TEST

int main(void)
{
    sp_path = eval_net_file(eval_net_find("stormphrax"));
    pc_path = eval_net_file(eval_net_find("plentychess"));
    rk_path = eval_net_file(eval_net_find("reckless"));
    vd_path = eval_net_file(eval_net_find("viridithas"));
    Suite *s = suite_create("nets_raw_guess");
    TCase *tc = tcase_create("raw_guess");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, cbnf_is_recognised);
    tcase_add_test(tc, headerless_files_name_their_candidates);
    suite_add_tcase(s, tc);
    return test_run(s);
}
