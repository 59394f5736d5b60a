/* tests/nets/test_nets_self_describing.c: the self-describing container ("NNUEYAML":
 * formats/self_describing.h) loads through the public calls (nnue_net_load_self_describing
 * and its _memory form) as its two parts load apart: Cwtch 6's header-less net with
 * archs/cwtch6.yaml gives the same evaluations either way; the magic is recognised on 8 bytes and
 * only there; a cut container, a file that is not one, and a broken embedded YAML are refused with
 * the byte offset or the YAML named. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/self_describing.h"
#include "nets_helpers.h"
#include "nnue.h"
#include "nnue_chess.h"
#include "support.h"

#define RAW "oracle/third/cwtch/cwtch6-quantised.bin"

static const char *const fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
};

/* The container of archs/cwtch6.yaml and the raw net, written to BUILD/nets/NAME with the first
 * keep bytes kept (UINT64_MAX: all); *yaml_bytes: the YAML's length. */
static const char *write_container(const char *name, const char *yaml_text, uint64_t keep, size_t *yaml_bytes)
{
    test_require_shared(RAW);
    size_t ylen, nlen;
    char *yaml = yaml_text ? strdup(yaml_text) : test_read_file(test_source_path("archs/cwtch6.yaml"), &ylen);
    char *net = test_read_file(test_shared_path(RAW), &nlen);
    ck_assert_ptr_nonnull(yaml);
    ck_assert_ptr_nonnull(net);
    if (yaml_text)
        ylen = strlen(yaml_text);
    const char *path = nets_path(name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(nnue_sd_write(f, yaml, ylen, net, nlen), 0);
    fclose(f);
    if (keep != UINT64_MAX)
        ck_assert_int_eq(truncate(path, (off_t)keep), 0);
    free(yaml);
    free(net);
    if (yaml_bytes)
        *yaml_bytes = ylen;
    return path;
}

static int32_t eval_fen(const nnue_net *net, const char *fen)
{
    nnue_chess_pos pos;
    nnue_error err;
    ck_assert_int_eq(nnue_chess_parse_fen(&pos, fen, &err), NNUE_OK);
    nnue_state *st = nnue_state_new(net, 8);
    ck_assert_ptr_nonnull(st);
    ck_assert_int_eq(nnue_state_reset(st, &pos.board), 0);
    nnue_eval_detail d;
    int32_t v = nnue_evaluate(st, &pos.board, &d);
    nnue_state_free(st);
    return v;
}

START_TEST(loads_as_its_parts)
{
    nnue_chess_init();
    const char *path = write_container("sd-cwtch6.nnue", NULL, UINT64_MAX, NULL);
    nnue_arch *arch = nets_arch("archs/cwtch6.yaml");
    nnue_net *apart = nets_load(arch, test_shared_path(RAW)), *whole, *from_memory;
    nnue_error err;
    ck_assert_msg(nnue_net_load_self_describing(path, &whole, &err) == NNUE_OK, "%s", err.message);
    size_t size;
    char *bytes = test_read_file(path, &size);
    ck_assert_int_eq(nnue_net_is_self_describing(bytes, size), 1);
    ck_assert_int_eq(nnue_net_is_self_describing(bytes, 7), 0);
    ck_assert_int_eq(nnue_net_is_self_describing(NULL, 8), 0);
    ck_assert_msg(nnue_net_load_self_describing_memory(bytes, size, "mem", &from_memory, &err) == NNUE_OK, "%s",
                  err.message);
    ck_assert_str_eq(nnue_net_arch(whole)->name, nnue_net_arch(apart)->name);
    /* nnue_net_load_auto and the chooser take the container's YAML (docs/detection.md rule 1). */
    nnue_net *auto_file, *auto_memory;
    ck_assert_msg(nnue_net_load_auto(path, &auto_file, &err) == NNUE_OK, "%s", err.message);
    ck_assert_msg(nnue_net_load_auto_memory(bytes, size, "mem", &auto_memory, &err) == NNUE_OK, "%s", err.message);
    nnue_choice *c;
    ck_assert_int_eq(nnue_arch_choose(path, NULL, 0, 0, &c, &err), NNUE_OK);
    ck_assert_int_eq(nnue_choice_kind_of(c), NNUE_CHOICE_SELF_DESCRIBING);
    ck_assert_int_eq(nnue_choice_chosen(c), 0);
    ck_assert_str_eq(nnue_arch_name(nnue_choice_arch(c, 0)), "cwtch6");
    nnue_choice_free(c);
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        int32_t want = eval_fen(apart, fens[i]);
        ck_assert_int_eq(eval_fen(whole, fens[i]), want);
        ck_assert_int_eq(eval_fen(from_memory, fens[i]), want);
        ck_assert_int_eq(eval_fen(auto_file, fens[i]), want);
        ck_assert_int_eq(eval_fen(auto_memory, fens[i]), want);
    }
    nnue_net_free(auto_file);
    nnue_net_free(auto_memory);
    ck_assert_int_ne(eval_fen(whole, fens[0]), eval_fen(whole, fens[1])); /* the evaluations say something */
    free(bytes);
    nnue_net_free(apart);
    nnue_net_free(whole);
    nnue_net_free(from_memory);
    nnue_arch_free(arch);
}
END_TEST

START_TEST(refusals)
{
    nnue_net *net = (nnue_net *)1;
    nnue_error err;
    char msg[1400];
    size_t ylen;
    /* Cut: the lengths do not add up, said at the net length's byte. */
    const char *cut = write_container("sd-cut.nnue", NULL, 3000, &ylen);
    ck_assert_int_eq(nnue_net_load_self_describing(cut, &net, &err), NNUE_E_FORMAT);
    ck_assert_ptr_null(net);
    ck_assert_int_eq(err.offset, (long long)(16 + ylen));
    nnue_error_format(&err, msg, sizeof msg);
    ck_assert_msg(strstr(msg, "do not add up to the file size 3000 (truncated?)") != NULL, "%s", msg);
    /* Not a container: byte 0. */
    ck_assert_int_eq(nnue_net_load_self_describing(test_shared_path(RAW), &net, &err), NNUE_E_FORMAT);
    ck_assert_int_eq(err.offset, 0);
    ck_assert_msg(strstr(err.message, "expected a self-describing net (\"NNUEYAML\", version 1)") != NULL, "%s",
                  err.message);
    /* A broken YAML inside: named as the embedded YAML, with its line. */
    const char *bad = write_container("sd-bad-yaml.nnue", "name: [cwtch6\n", UINT64_MAX, NULL);
    ck_assert_int_ne(nnue_net_load_self_describing(bad, &net, &err), NNUE_OK);
    ck_assert_msg(strstr(err.file, "(embedded YAML)") != NULL && err.line >= 1, "%s: %d: %s", err.file, err.line,
                  err.message);
    /* Arguments. */
    ck_assert_int_eq(nnue_net_load_self_describing_memory(NULL, 8, "x", &net, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_net_load_self_describing(NULL, &net, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_net_load_self_describing(nets_path("sd-missing.nnue"), &net, &err), NNUE_E_IO);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("self_describing");
    TCase *tc = tcase_create("self_describing");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, loads_as_its_parts);
    tcase_add_test(tc, refusals);
    suite_add_tcase(s, tc);
    return test_run(s);
}
