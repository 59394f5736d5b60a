/* tests/core/test_api_null.c: the public API's rule for NULL and lifetimes (include/nnue_error.h,
 * "Rules of every call"): every pointer argument may be NULL; a call given NULL where it needs
 * a handle or a buffer returns its failure value (NNUE_E_ARG, -1, 0, NULL, or nothing for a
 * void call) and never dereferences it. Each case below was a crash or an undefined-behaviour
 * report on some function before the rule was enforced (nnue_eval_batch, nnue_net_arch,
 * nnue_arch_name/game/describe, nnue_train_writer_open, ...); under ASan/UBSan (the suite's
 * second run) any dereference fails the test. A state whose net was freed is detected: its calls
 * fail with an error naming nnue_net_free instead of reading freed memory. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/net/net.h"
#include "nnue.h"
#include "nnue_chess.h"
#include "nnue_protocol.h"
#include "nnue_shogi.h"
#include "nnue_training.h"
#include "support.h"

START_TEST(arch_calls_take_null)
{
    nnue_error err;
    nnue_arch *a = (nnue_arch *)1;
    ck_assert_int_eq(nnue_arch_load(NULL, &a, &err), NNUE_E_ARG);
    ck_assert_ptr_null(a);
    ck_assert_int_eq(nnue_arch_load("x.yaml", NULL, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_arch_load_string(NULL, 4, NULL, &a, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_arch_load_string("a: 1", 4, NULL, NULL, NULL), NNUE_E_ARG);
    ck_assert_int_eq(nnue_arch_load_builtin(NULL, &a, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_arch_load_builtin("sfnnv5", NULL, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_arch_load_named(NULL, &a, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_arch_load_named("sfnnv5", NULL, NULL), NNUE_E_ARG);
    nnue_arch_free(NULL);
    ck_assert_ptr_null(nnue_arch_name(NULL));
    ck_assert_ptr_null(nnue_arch_game(NULL));
    char buf[64] = "unchanged";
    ck_assert_uint_eq(nnue_arch_describe(NULL, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "");
    uint32_t f = 7, t = 7, n = 7;
    nnue_arch_hashes(NULL, &f, &t, &n);
    ck_assert(f == 0 && t == 0 && n == 0);
    nnue_arch *real;
    ck_assert_int_eq(nnue_arch_load_builtin("sfnnv5", &real, &err), NNUE_OK);
    nnue_arch_hashes(real, NULL, NULL, NULL);
    ck_assert_uint_gt(nnue_arch_describe(real, NULL, 0), 10); /* the length it would need */
    ck_assert_ptr_null(nnue_arch_builtin_yaml(-1, NULL));
    ck_assert_ptr_nonnull(nnue_arch_builtin_yaml(0, NULL));
    nnue_arch_free(real);
}
END_TEST

START_TEST(net_calls_take_null)
{
    nnue_error err;
    nnue_net *net = (nnue_net *)1;
    nnue_arch *arch;
    ck_assert_int_eq(nnue_arch_load_builtin("sfnnv5", &arch, &err), NNUE_OK);
    ck_assert_int_eq(nnue_net_load(NULL, "x", &net, &err), NNUE_E_ARG);
    ck_assert_ptr_null(net);
    ck_assert_int_eq(nnue_net_load(arch, NULL, &net, NULL), NNUE_E_ARG);
    ck_assert_int_eq(nnue_net_load_memory(arch, NULL, 10, NULL, &net, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_net_load_memory(NULL, "abc", 3, NULL, &net, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_net_load_auto(NULL, &net, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_net_load_auto("x", NULL, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_net_load_auto_memory(NULL, 5, NULL, &net, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_net_load_auto_memory("abcde", 5, NULL, NULL, &err), NNUE_E_ARG);
    nnue_net_free(NULL);
    ck_assert_ptr_null(nnue_net_arch(NULL));
    ck_assert_ptr_null(nnue_net_warning(NULL));
    char buf[16] = "unchanged";
    ck_assert_uint_eq(nnue_net_range_report(NULL, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "");
    nnue_arch_free(arch);
}
END_TEST

/* include/nnue_netfile.h: the chooser, its answers, conversion and the atomic writer. */
START_TEST(netfile_calls_take_null)
{
    nnue_error err;
    nnue_choice *c = (nnue_choice *)1;
    ck_assert_int_eq(nnue_arch_choose(NULL, NULL, 0, 0, &c, &err), NNUE_E_ARG);
    ck_assert_ptr_null(c);
    ck_assert_int_eq(nnue_arch_choose("x.nnue", NULL, 0, 0, NULL, NULL), NNUE_E_ARG);
    ck_assert_int_eq(nnue_arch_choose("x.nnue", NULL, 2, 0, &c, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_arch_choose_memory(NULL, 5, NULL, 0, &c, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_arch_choose_memory("abcde", 5, NULL, 0, NULL, &err), NNUE_E_ARG);
    nnue_choice_free(NULL);
    ck_assert_int_eq(nnue_choice_count(NULL), 0);
    ck_assert_int_eq(nnue_choice_chosen(NULL), -1);
    ck_assert_ptr_null(nnue_choice_arch(NULL, 0));
    ck_assert_ptr_null(nnue_choice_source(NULL, 0));
    ck_assert_int_eq(nnue_choice_size_fits(NULL, 0), 0);
    ck_assert_uint_eq(nnue_choice_expected_bytes(NULL, 0), 0);
    ck_assert_str_eq(nnue_choice_named(NULL), "");
    ck_assert_str_eq(nnue_choice_sha256(NULL), "");
    const char *arch_name = "unchanged";
    ck_assert_ptr_null(nnue_choice_known_net(NULL, &arch_name));
    ck_assert_ptr_null(arch_name);
    nnue_net_header_facts h = {.version = 7};
    ck_assert_str_eq(nnue_choice_header(NULL, &h, sizeof h), "");
    ck_assert_uint_eq(h.version, 0);
    nnue_arch *a = (nnue_arch *)1;
    ck_assert_int_eq(nnue_choice_result(NULL, &a, &err), NNUE_E_ARG);
    ck_assert_ptr_null(a);
    ck_assert_int_eq(nnue_net_header_read(NULL, &h, sizeof h, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_net_header_read("x.nnue", NULL, 0, NULL), NNUE_E_IO);
    nnue_net *net = (nnue_net *)1;
    ck_assert_int_eq(nnue_net_load_as_encoded(NULL, "x.nnue", &net, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_net_convert(NULL, NULL, NNUE_WRITE_PLAIN, NULL, NULL, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_net_convert_stream(NULL, "x.nnue", NNUE_WRITE_ZSTD, NULL, NULL, NULL, &err), NNUE_E_ARG);
    nnue_atomic_writer *w = (nnue_atomic_writer *)1;
    ck_assert_int_eq(nnue_atomic_writer_open(NULL, &w, &err), NNUE_E_ARG);
    ck_assert_ptr_null(w);
    ck_assert_ptr_null(nnue_atomic_writer_stream(NULL));
    ck_assert_str_eq(nnue_atomic_writer_temp_path(NULL), "");
    ck_assert_int_eq(nnue_atomic_writer_commit(NULL, &err), NNUE_E_ARG);
    nnue_atomic_writer_abort(NULL);
}
END_TEST

START_TEST(state_and_batch_calls_take_null)
{
    ck_assert_ptr_null(nnue_state_new(NULL, 8));
    nnue_state_free(NULL);
    nnue_state_invalidate(NULL);
    nnue_state_set_refresh_cache(NULL, 1);
    nnue_state_set_whole_board_checks(NULL, 1);
    nnue_state_pop(NULL);
    ck_assert_int_eq(nnue_state_reset(NULL, NULL), -1);
    ck_assert_int_eq(nnue_state_push(NULL, NULL, NULL), -1);
    nnue_eval_detail d = {.bucket = 5};
    ck_assert_int_eq(nnue_evaluate(NULL, NULL, &d), 0);
    ck_assert_int_eq(d.bucket, -1);
    ck_assert_ptr_nonnull(nnue_state_error(NULL)); /* a static error saying the state is NULL */
    ck_assert_int_eq(nnue_state_error(NULL)->code, NNUE_E_ARG);

    nnue_error err;
    size_t first = 0;
    const char *positions[1] = {"startpos"};
    nnue_eval_detail out[1];
    ck_assert_uint_eq(nnue_eval_batch(NULL, positions, 1, 1, out, &err, &first), 1);
    ck_assert_int_eq(err.code, NNUE_E_ARG);
    ck_assert_uint_eq(first, 0);
    ck_assert_int_eq(out[0].bucket, -1);
    ck_assert_uint_eq(nnue_eval_batch(NULL, NULL, 3, 1, NULL, NULL, NULL), 3);
}
END_TEST

/* A net with a live state: the state's calls fail after nnue_net_free, naming it; the net's
 * memory stays until the last of its states is freed (no use after free). */
START_TEST(state_outliving_its_net_is_detected)
{
    nnue_error err;
    nnue_arch *arch;
    char path[4096];
    snprintf(path, sizeof path, "%s/null_rule_tiny.nnue", test_build_dir());
    ck_assert_int_eq(nnue_arch_load(test_source_path("tests/nets/tiny_sf.yaml"), &arch, &err), NNUE_OK);
    ck_assert_int_eq(nnue_net_write_random(arch, path, 5, &err), NNUE_OK);
    nnue_net *net;
    ck_assert_msg(nnue_net_load(arch, path, &net, &err) == NNUE_OK, "%s", err.message);
    nnue_state *st = nnue_state_new(net, 8), *other = nnue_state_new(net, 8);
    nnue_chess_pos pos;
    ck_assert_int_eq(nnue_chess_parse_fen(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &err),
                     NNUE_OK);
    ck_assert_int_eq(nnue_state_reset(st, &pos.board), 0);
    nnue_eval_detail before, after;
    nnue_evaluate(st, &pos.board, &before);
    ck_assert_int_ge(before.bucket, 0);
    /* Threads are bounded: 2000 OpenMP threads once stayed alive after such a call. */
    const char *positions[1] = {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"};
    nnue_eval_detail out[1];
    size_t first;
    ck_assert_uint_eq(nnue_eval_batch(net, positions, 1, NNUE_MAX_BATCH_THREADS + 1, out, &err, &first), 1);
    ck_assert_msg(strstr(err.message, "too many threads"), "%s", err.message);
    ck_assert_int_eq(out[0].bucket, -1);
    ck_assert_uint_eq(nnue_eval_batch(net, positions, 1, 64, out, &err, &first), 0); /* capped at 1 position */
    ck_assert_int_eq(out[0].total, before.total);
    nnue_state_free(other);
    nnue_net_free(net);
    ck_assert_int_eq(nnue_evaluate(st, &pos.board, &after), 0);
    ck_assert_int_eq(after.bucket, -1);
    ck_assert_int_eq(nnue_state_error(st)->code, NNUE_E_ARG);
    ck_assert_msg(strstr(nnue_state_error(st)->message, "nnue_net_free"), "%s", nnue_state_error(st)->message);
    ck_assert_int_eq(nnue_state_reset(st, &pos.board), -1);
    nnue_state_free(st); /* frees the net's memory too */
    nnue_arch_free(arch);
    unlink(path);
}
END_TEST

START_TEST(game_calls_take_null)
{
    nnue_error err;
    nnue_move moves[NNUE_MAX_MOVES], m;
    char buf[16] = "unchanged";
    ck_assert_int_eq(nnue_chess_parse_fen(NULL, "startpos", &err), NNUE_E_ARG);
    nnue_chess_pos cp;
    ck_assert_int_eq(nnue_chess_parse_fen(&cp, NULL, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_chess_legal_moves(NULL, moves), 0);
    ck_assert_int_eq(nnue_chess_in_check(NULL), 0);
    nnue_chess_make(NULL, 0, NULL);
    nnue_chess_unmake(NULL, 0);
    nnue_chess_set_chess960(NULL, 1);
    ck_assert_uint_eq(nnue_chess_perft(NULL, 2), 0);
    ck_assert_uint_eq(nnue_chess_to_fen(NULL, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "");
    ck_assert_int_eq(nnue_chess_parse_uci(NULL, "e2e4", &m, &err), NNUE_E_ARG);
    char text[16];
    ck_assert_uint_eq(nnue_chess_move_to_uci(0, NULL, 0), nnue_chess_move_to_uci(0, text, sizeof text)); /* snprintf's rule */
    ck_assert_uint_eq(nnue_chess_move_to_uci_in(NULL, 0, buf, sizeof buf), 0);

    ck_assert_int_eq(nnue_shogi_parse_sfen(NULL, "startpos", &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_shogi_legal_moves(NULL, moves), 0);
    nnue_shogi_pos zeroed;
    memset(&zeroed, 0, sizeof zeroed); /* never parsed: no walls; moves were read off the mailbox */
    ck_assert_int_eq(nnue_shogi_legal_moves(&zeroed, moves), 0);
    ck_assert_int_eq(nnue_shogi_in_check(NULL), 0);
    nnue_shogi_make(NULL, 0, NULL);
    nnue_shogi_unmake(NULL, 0);
    ck_assert_uint_eq(nnue_shogi_perft(NULL, 2), 0);
    ck_assert_uint_eq(nnue_shogi_to_sfen(NULL, buf, sizeof buf), 0);
    ck_assert_int_eq(nnue_shogi_parse_usi(NULL, "7g7f", &m, &err), NNUE_E_ARG);
    ck_assert_uint_eq(nnue_shogi_move_to_usi(0, NULL, 0), nnue_shogi_move_to_usi(0, text, sizeof text));

    ck_assert_ptr_null(nnue_game_find(NULL));
    ck_assert_ptr_null(nnue_game_at(-1));
    ck_assert_int_eq(nnue_register_game(NULL, &err), NNUE_E_ARG);
    nnue_command cmd;
    ck_assert_int_eq(nnue_protocol_parse(NULL, &cmd, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_protocol_parse("uci", NULL, &err), NNUE_E_ARG);
}
END_TEST

START_TEST(error_and_training_calls_take_null)
{
    char buf[16] = "unchanged";
    nnue_error_format(NULL, buf, sizeof buf); /* no error object: no error */
    ck_assert_str_eq(buf, "(no error)");
    nnue_error err = {0};
    nnue_error_format(&err, NULL, 0);
    ck_assert_ptr_nonnull(nnue_status_name((nnue_status)12345));

    nnue_train_reader *r = (nnue_train_reader *)1;
    nnue_train_writer *w = (nnue_train_writer *)1;
    nnue_train_format fmt;
    ck_assert_int_eq(nnue_train_open(NULL, NNUE_TRAIN_PLAIN, &r, &err), NNUE_E_ARG);
    ck_assert_ptr_null(r);
    ck_assert_int_eq(nnue_train_open("x.plain", NNUE_TRAIN_PLAIN, NULL, &err), NNUE_E_ARG);
    nnue_train_record rec;
    ck_assert_int_eq(nnue_train_next(NULL, &rec, &err), -1);
    ck_assert_int_eq(err.code, NNUE_E_ARG);
    nnue_train_close(NULL);
    ck_assert_int_eq(nnue_train_writer_open(NULL, NNUE_TRAIN_PLAIN, &w, &err), NNUE_E_ARG);
    ck_assert_ptr_null(w);
    ck_assert_int_eq(nnue_train_writer_open("x.plain", NNUE_TRAIN_PLAIN, NULL, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_train_write(NULL, &rec, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_train_writer_close(NULL, &err), NNUE_E_ARG);
    nnue_train_writer_abort(NULL);
    ck_assert_int_eq(nnue_train_format_parse(NULL, &fmt, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_train_format_parse("plain", NULL, &err), NNUE_E_ARG);
    ck_assert_int_eq(nnue_train_format_of(NULL), NNUE_TRAIN_BULLET); /* "anything else" */
    ck_assert_uint_eq(nnue_train_format_record(NNUE_TRAIN_PLAIN, NULL, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("api_null");
    TCase *tc = tcase_create("null");
    tcase_add_test(tc, arch_calls_take_null);
    tcase_add_test(tc, net_calls_take_null);
    tcase_add_test(tc, netfile_calls_take_null);
    tcase_add_test(tc, state_and_batch_calls_take_null);
    tcase_add_test(tc, state_outliving_its_net_is_detected);
    tcase_add_test(tc, game_calls_take_null);
    tcase_add_test(tc, error_and_training_calls_take_null);
    suite_add_tcase(s, tc);
    return test_run(s);
}
