/* tests/eval/test_eval_boards.c: hostile boards through the public API (include/nnue.h), on a
 * small random net of every feature set: every byte of a board that reset, push or evaluate
 * reads is checked first (issue 26, finding 6; with whole-board checks on, every board given),
 * boards and move chains past the feature sets' declared maximum of pieces are refused (finding
 * 1), and the refusal says which field, square, piece or limit (nnue_state_error). Nets:
 * `nnue init`-style random weights (nnue_net_write_random), width 8. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../nets/nets_helpers.h"
#include "core/arch/arch_api.h"
#include "core/net/net.h"
#include "eval_nets.h"
#include "support.h"

/* One small net per feature set: an arch file, optionally with one word replaced. */
typedef struct board_net {
    const char *label, *game, *file, *from, *to;
    nnue_net *net;
} board_net;

static board_net nets[] = {
    {"HalfKP", "chess", "tests/nets/tiny_sf.yaml", "features: Chess768", "features: HalfKP", NULL},
    {"HalfKA", "chess", "tests/nets/tiny_sf.yaml", "features: Chess768", "features: HalfKA", NULL},
    {"HalfKAv2", "chess", "tests/nets/tiny_sf.yaml", "features: Chess768", "features: HalfKAv2", NULL},
    {"HalfKAv2_hm", "chess", "tests/nets/tiny_sf.yaml", "features: Chess768", "features: HalfKAv2_hm", NULL},
    {"Chess768", "chess", "tests/nets/tiny_sf.yaml", NULL, NULL, NULL},
    {"Chess768-buckets", "chess", "archs/cwtch6.yaml", NULL, NULL, NULL},
    {"Full_Threats", "chess", "fuzz/archs/threats_w8.yaml", NULL, NULL, NULL},
    {"Full_Threats-alone", "chess", "fuzz/archs/threats_w8.yaml", "    - {set: Full_Threats, weights: i8}\n    - {set: HalfKAv2_hm, weights: i16}\n", "    - {set: Full_Threats, weights: i16}\n", NULL},
    {"PP_3Wide", "chess", "docs/examples/sfnnv16_w64.yaml", NULL, NULL, NULL},
    {"HalfKP_shogi", "shogi", "tests/threads/tiny_shogi.yaml", NULL, NULL, NULL},
    {"HalfKA_hm2_shogi", "shogi", "fuzz/archs/sfnn_shogi_w8.yaml", NULL, NULL, NULL},
    {"HalfKA2_shogi", "shogi", "fuzz/archs/sfnn_shogi_w8.yaml", "features: HalfKA_hm2_shogi", "features: HalfKA2_shogi", NULL},
};
enum { N_NETS = sizeof nets / sizeof nets[0] };

static const char *chess_start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
static const char *shogi_start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

static nnue_net *make_net(board_net *n)
{
    size_t len;
    char *yaml = test_read_file(test_source_path(n->file), &len);
    if (!yaml)
        return NULL;
    char text[8192];
    snprintf(text, sizeof text, "%s", yaml);
    char *at = n->from ? strstr(text, n->from) : NULL;
    if (at) {
        char rest[8192];
        snprintf(rest, sizeof rest, "%s", at + strlen(n->from));
        snprintf(at, sizeof text - (size_t)(at - text), "%s%s", n->to, rest);
    }
    free(yaml);
    if (n->from && !at) {
        fprintf(stderr, "FAIL: %s: no \"%s\" in %s\n", n->label, n->from, n->file);
        return NULL;
    }
    nnue_arch *arch = NULL;
    nnue_net *net = NULL;
    nnue_error err;
    char path[4096];
    snprintf(path, sizeof path, "%s/boards-%s.bin", nets_dir(), n->label);
    if (nnue_arch_load_string(text, strlen(text), n->file, &arch, &err) != NNUE_OK ||
        nnue_net_write_random(arch, path, 11, &err) != NNUE_OK || nnue_net_load(arch, path, &net, &err) != NNUE_OK) {
        char msg[1200];
        nnue_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "FAIL: %s: %s\n", n->label, msg);
    }
    nnue_arch_free(arch);
    return net;
}

static const board_net *find(const char *label)
{
    for (int i = 0; i < N_NETS; i++)
        if (strcmp(nets[i].label, label) == 0)
            return &nets[i];
    ck_abort_msg("no net %s", label);
    return NULL;
}

/* A refusal: -1 (or bucket -1) and an error whose message contains `what`. */
static void expect_error(const nnue_state *s, const char *what, const char *where)
{
    const nnue_error *e = nnue_state_error(s);
    ck_assert_msg(e->code == NNUE_E_ARG, "%s: error code %d", where, e->code);
    ck_assert_msg(strstr(e->message, what) != NULL, "%s: \"%s\" lacks \"%s\"", where, e->message, what);
}

static void expect_refused_eval(nnue_state *s, const nnue_board *b, const char *what, const char *where)
{
    nnue_eval_detail d = {5, 5, 5, 5, 5};
    ck_assert_int_eq(nnue_evaluate(s, b, &d), 0);
    ck_assert_msg(d.bucket == -1 && d.total == 0, "%s: evaluated a refused board", where);
    expect_error(s, what, where);
}

/* Evaluating `given` equals a fresh evaluation of `truth` (the position the pushed deltas
 * describe; `given` itself when it is that position). */
static void expect_value_of(nnue_state *s, const nnue_net *net, const nnue_board *given, const nnue_board *truth,
                            const char *where)
{
    nnue_eval_detail d, f;
    nnue_evaluate(s, given, &d);
    ck_assert_msg(nnue_state_error(s)->code == NNUE_OK, "%s: refused: %s", where, nnue_state_error(s)->message);
    eval_fresh(net, truth, &f);
    ck_assert_msg(d.bucket >= 0 && d.total == f.total && d.positional == f.positional, "%s: %d versus fresh %d",
                  where, d.total, f.total);
}

static void expect_exact(nnue_state *s, const nnue_net *net, const nnue_board *b, const char *where)
{
    expect_value_of(s, net, b, b, where);
}

/* The net has a set that reads every square at each update (threat sets): evaluate() then checks
 * the board whole after every move, not only at a refresh. */
static int reads_every_square(const nnue_net *net)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    for (int k = 0; k < ft->n_sets; k++)
        if (ft->sets[k].features->exact_board)
            return 1;
    return 0;
}

/* The move forces some perspective of some set to refresh from the board (evaluate reads it all). */
static int forces_refresh(const nnue_net *net, const nnue_board *after, const nnue_delta *delta)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    for (int k = 0; k < ft->n_sets; k++)
        for (int p = 0; p < 2; p++)
            if (ft->sets[k].features->needs_refresh(&ft->sets[k].params, after, delta, p))
                return 1;
    return 0;
}

/* Loop tests run each net twice: _i < N_NETS with the default checks (what is read), then with
 * whole-board checks on. */
static nnue_state *state_for(int i, const board_net **n, int *whole)
{
    *whole = i >= N_NETS;
    *n = &nets[i % N_NETS];
    nnue_state *s = nnue_state_new((*n)->net, 8);
    nnue_state_set_whole_board_checks(s, *whole);
    return s;
}

/* Finding 6: a board pushed after a legal move, with its king square or a piece code corrupted,
 * was handed unchecked to needs_refresh() and to the features (UBSan: index 200 out of bounds in
 * features/chess768.c; Full_Threats' target_map read at index 15). Every net. */
START_TEST(pushed_boards_are_checked)
{
    const board_net *n;
    int whole;
    nnue_state *s = state_for(_i, &n, &whole);
    const nnue_game *game = nnue_game_find(n->game);
    int shogi = strcmp(n->game, "shogi") == 0;
    void *pos = eval_parse(game, shogi ? "4k4/9/9/9/9/9/9/9/4K4 b G 1" : "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1");
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0);
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_move move;
    nnue_error err;
    ck_assert_int_eq(game->parse_move(pos, shogi ? "5i4i" : "e1f1", &move, &err), 0); /* a king move */
    nnue_delta delta;
    game->make(pos, move, &delta);
    nnue_board bad = *game->board(pos);
    bad.king_sq[0] = 200; /* read by every push: refused in both modes */
    ck_assert_int_eq(nnue_state_push(s, &bad, &delta), -1);
    expect_error(s, "king_sq[0] is 200", n->label);
    expect_refused_eval(s, &bad, "king_sq[0] is 200", n->label);
    nnue_state_pop(s);
    bad = *game->board(pos);
    bad.piece_on[shogi ? 40 : 36] = NNUE_PIECE(0, 15); /* an empty square: a code no game has */
    const char *code = shogi ? "square 40 holds piece code 0x0f" : "square 36 holds piece code 0x0f";
    if (whole) {
        ck_assert_int_eq(nnue_state_push(s, &bad, &delta), -1);
        expect_error(s, code, n->label);
        expect_refused_eval(s, &bad, "holds piece code 0x0f", n->label);
    } else {
        /* Push reads the delta and the kings only; a king move that refreshes its side from the
         * board, or a set that reads every square, has evaluate read (and refuse) it. */
        ck_assert_int_eq(nnue_state_push(s, &bad, &delta), 0);
        if (forces_refresh(n->net, game->board(pos), &delta) || reads_every_square(n->net))
            expect_refused_eval(s, &bad, code, n->label);
        else
            expect_value_of(s, n->net, &bad, game->board(pos), n->label);
    }
    nnue_state_pop(s);
    /* A fitting push after the refusals is exact. */
    ck_assert_int_eq(nnue_state_push(s, game->board(pos), &delta), 0);
    expect_exact(s, n->net, game->board(pos), n->label);
    /* evaluate() is given a corrupted copy of the pushed board: refused, not read. */
    bad = *game->board(pos);
    bad.king_sq[1] = 99;
    expect_refused_eval(s, &bad, "king_sq[1] is 99", n->label);
    expect_exact(s, n->net, game->board(pos), n->label);
    /* A quiet move after it (no refresh): a corrupted square is read only by sets that read every
     * square (refused then, or with whole-board checks); the others evaluate the position the
     * deltas describe. */
    nnue_state_pop(s);
    game->unmake(pos, move);
    ck_assert_int_eq(game->parse_move(pos, shogi ? "G*5e" : "d2d3", &move, &err), 0);
    game->make(pos, move, &delta);
    bad = *game->board(pos);
    bad.piece_on[shogi ? 40 : 36] = NNUE_PIECE(0, 15); /* piece_count kept: the bucket reads it */
    ck_assert_int_eq(nnue_state_push(s, &bad, &delta), whole ? -1 : 0);
    if (whole || reads_every_square(n->net))
        expect_refused_eval(s, &bad, code, n->label);
    else
        expect_value_of(s, n->net, &bad, game->board(pos), n->label);
    nnue_state_free(s);
    free(pos);
}
END_TEST

/* Corrupt fields of a fitting root board, each refused with its own message. */
START_TEST(reset_names_what_does_not_fit)
{
    const board_net *n = find("HalfKP_shogi");
    const nnue_game *shogi = nnue_game_find("shogi"), *chess = nnue_game_find("chess");
    void *pos = eval_parse(shogi, shogi_start), *cpos = eval_parse(chess, chess_start);
    nnue_state *s = nnue_state_new(n->net, 8);
    ck_assert_int_eq(nnue_state_reset(s, chess->board(cpos)), -1);
    expect_error(s, "num_squares is 64, a shogi board has 81", "chess view");
    nnue_board b = *shogi->board(pos);
    b.side_to_move = 2;
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "side_to_move is 2", "side");
    b = *shogi->board(pos);
    b.piece_count = 39;
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "piece_count is 39, the squares hold 40", "count");
    b = *shogi->board(pos);
    b.king_sq[1] = 3;
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "king_sq[1] is 3, whose square holds", "king");
    b = *shogi->board(pos);
    b.hand[0][NNUE_SHOGI_LANCE] = 5; /* a slot past a full set of lances: another type's feature */
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "hand[0][2] is 5, at most 4", "hand");
    ck_assert_int_eq(nnue_state_reset(s, shogi->board(pos)), 0);
    ck_assert_int_eq(nnue_state_error(s)->code, NNUE_OK);
    nnue_delta d = {.count = 1};
    d.dirty[0] = (nnue_dirty){NNUE_PIECE(0, 1), NNUE_PIECE(0, 1), 100, 5, 0, 0};
    ck_assert_int_eq(nnue_state_push(s, shogi->board(pos), &d), -1);
    expect_error(s, "dirty[0]: old square 100", "delta");
    nnue_state_free(s);
    free(pos);
    free(cpos);
}
END_TEST

/* Finding 1: a shogi board of the caller's (78 golds, one empty square, kings on 0 and 80,
 * piece_count 80) passed reset; with the refresh cache on, a king move's push and evaluate wrote
 * past the cache's index list (core/eval/refresh_cache.c, from shogi_halfkp_active: ASan
 * stack-buffer-overflow). Every shogi set declares 40 pieces; such boards are refused. */
START_TEST(shogi_golds_refused)
{
    const board_net *n;
    int whole;
    nnue_state *s = state_for(_i, &n, &whole);
    if (strcmp(n->game, "shogi") != 0) {
        nnue_state_free(s);
        return;
    }
    nnue_board b = {.num_squares = 81, .side_to_move = 0, .king_sq = {0, 80}, .piece_count = 80};
    for (int sq = 0; sq < 81; sq++)
        b.piece_on[sq] = sq == 40 ? 0 : NNUE_PIECE(sq & 1, NNUE_SHOGI_GOLD);
    b.piece_on[0] = NNUE_PIECE(0, NNUE_SHOGI_KING);
    b.piece_on[80] = NNUE_PIECE(1, NNUE_SHOGI_KING);
    nnue_state_set_refresh_cache(s, 1);
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "80 pieces (board and hands, kings included)", n->label);
    expect_error(s, "takes at most 40", n->label);
    expect_error(s, "piece 41 is the piece 0x15 on square 41", n->label);
    expect_refused_eval(s, &b, "80 pieces", n->label);
    /* the king move of the report: 0 -> 40 */
    nnue_delta d = {.count = 1, .king_moved = {1, 0}};
    d.dirty[0] = (nnue_dirty){b.piece_on[0], b.piece_on[0], 0, 40, 0, 0};
    b.piece_on[40] = b.piece_on[0];
    b.piece_on[0] = 0;
    b.king_sq[0] = 40;
    /* Push reads the kings and the delta (it keeps the count); the board, read by the refresh
     * that follows a refused root, is refused by evaluate (already by push when checked whole). */
    ck_assert_int_eq(nnue_state_push(s, &b, &d), whole ? -1 : 0);
    if (whole)
        expect_error(s, "80 pieces", n->label);
    expect_refused_eval(s, &b, "80 pieces", n->label);
    nnue_state_free(s);
}
END_TEST

/* Finding 1: chess boards of 62 queens were accepted and their lists cut short silently. Every
 * chess set declares 32 pieces. */
START_TEST(chess_queens_refused)
{
    const board_net *n = &nets[_i];
    if (strcmp(n->game, "chess") != 0)
        return;
    nnue_board b = {.num_squares = 64, .side_to_move = 0, .king_sq = {4, 60}, .piece_count = 64};
    for (int sq = 0; sq < 64; sq++)
        b.piece_on[sq] = NNUE_PIECE(sq >= 32, NNUE_CHESS_QUEEN);
    b.piece_on[4] = NNUE_PIECE(0, NNUE_CHESS_KING);
    b.piece_on[60] = NNUE_PIECE(1, NNUE_CHESS_KING);
    nnue_state *s = nnue_state_new(n->net, 8);
    nnue_state_set_refresh_cache(s, 1);
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "64 pieces (board and hands, kings included)", n->label);
    expect_error(s, "takes at most 32", n->label);
    expect_error(s, "piece 33 is the piece 0x15 on square 32", n->label);
    expect_refused_eval(s, &b, "64 pieces", n->label);
    nnue_state_free(s);
}
END_TEST

/* At the limit a board is taken; one piece more, at the root or pushed, is refused. */
START_TEST(limit_is_exact)
{
    const board_net *n;
    int whole;
    nnue_state *s = state_for(_i, &n, &whole);
    const nnue_game *game = nnue_game_find(n->game);
    int shogi = strcmp(n->game, "shogi") == 0;
    void *pos = eval_parse(game, shogi ? shogi_start : chess_start);
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0); /* 32 / 40 pieces */
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_move move;
    nnue_error err;
    ck_assert_int_eq(game->parse_move(pos, shogi ? "7g7f" : "e2e4", &move, &err), 0);
    nnue_delta delta;
    game->make(pos, move, &delta);
    nnue_board more = *game->board(pos);
    if (shogi) {
        more.hand[1][NNUE_SHOGI_PAWN] = 1;
    } else {
        more.piece_on[35] = NNUE_PIECE(1, NNUE_CHESS_QUEEN); /* d5 */
        more.piece_count++;
    }
    /* A piece the delta does not bring: refused where the board is read whole (with whole-board
     * checks at push; sets that read every square at evaluate); the others evaluate the deltas'
     * position, whose 32 / 40 pieces fit. */
    if (whole) {
        ck_assert_int_eq(nnue_state_push(s, &more, &delta), -1);
        expect_error(s, shogi ? "41 pieces" : "33 pieces", n->label);
        expect_error(s, shogi ? "piece 41 is the in hand[1][1]" : "piece 33 is the piece 0x14 on square 63", n->label);
    } else {
        ck_assert_int_eq(nnue_state_push(s, &more, &delta), 0);
        if (reads_every_square(n->net)) {
            expect_refused_eval(s, &more, shogi ? "41 pieces" : "33 pieces", n->label);
        } else {
            /* an incremental step reads the kings, the side to move and, for the layer-stack
             * bucket, piece_count and hands as given: with those of the true position, the value
             * is the true position's */
            nnue_board same = more;
            same.piece_count = game->board(pos)->piece_count;
            memcpy(same.hand, game->board(pos)->hand, sizeof same.hand);
            expect_value_of(s, n->net, &same, game->board(pos), n->label);
        }
    }
    nnue_state_pop(s);
    ck_assert_int_eq(nnue_state_reset(s, &more), -1);
    expect_error(s, shogi ? "41 pieces" : "33 pieces", n->label);
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0);
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_state_free(s);
    free(pos);
}
END_TEST

/* The pieces a chain of moves brings are counted from the deltas at push (what the incremental
 * updates apply), not read from the boards: a delta that puts a piece on the board from nowhere
 * past the limit is refused at push, naming it; up to the limit the chain is exact. */
START_TEST(move_chain_limit)
{
    const board_net *n = &nets[_i];
    if (strcmp(n->game, "chess") != 0)
        return;
    const nnue_game *game = nnue_game_find("chess");
    nnue_state *s = nnue_state_new(n->net, 8);
    void *pos = eval_parse(game, chess_start);
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0); /* 32 pieces */
    expect_exact(s, n->net, game->board(pos), n->label);
    /* a7 taken off (31), then a queen put on d5 from nowhere (32): exact */
    nnue_delta off = {.count = 1}, on = {.count = 1};
    off.dirty[0] = (nnue_dirty){NNUE_PIECE(1, NNUE_CHESS_PAWN), 0, 48, NNUE_SQ_NONE, 0, 0};
    on.dirty[0] = (nnue_dirty){0, NNUE_PIECE(1, NNUE_CHESS_QUEEN), NNUE_SQ_NONE, 35, 0, 0};
    void *p31 = eval_parse(game, "rnbqkbnr/1ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    void *p32 = eval_parse(game, "rnbqkbnr/1ppppppp/8/3q4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    nnue_board b33 = *game->board(p32); /* the FEN reader refuses 17 black pieces */
    b33.piece_on[27] = NNUE_PIECE(1, NNUE_CHESS_QUEEN);
    b33.piece_count++;
    ck_assert_int_eq(nnue_state_push(s, game->board(p31), &off), 0);
    expect_exact(s, n->net, game->board(p31), n->label);
    ck_assert_int_eq(nnue_state_push(s, game->board(p32), &on), 0);
    expect_exact(s, n->net, game->board(p32), n->label);
    /* a second queen from nowhere (d4): 33 */
    on.dirty[0].new_sq = 27;
    ck_assert_int_eq(nnue_state_push(s, &b33, &on), -1);
    expect_error(s, "33 pieces after this move", n->label);
    expect_error(s, "dirty[0] adds piece 0x15 (to square 27)", n->label);
    nnue_state_pop(s);
    expect_exact(s, n->net, game->board(p32), n->label);
    nnue_state_free(s);
    free(pos);
    free(p31);
    free(p32);
}
END_TEST

/* A perspective refreshed from the board holds that board's pieces, not the deltas' count: here
 * the board given after a king move still has a pawn the previous delta took off (32 pieces for
 * the king's side, 31 for the other); one piece more from nowhere is 33 for that side: refused. */
START_TEST(refreshed_side_keeps_its_count)
{
    const board_net *n = find("HalfKAv2_hm");
    const nnue_game *game = nnue_game_find("chess");
    nnue_state *s = nnue_state_new(n->net, 8);
    void *root = eval_parse(game, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
    void *after_a7 = eval_parse(game, "rnbqkbnr/1ppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
    void *king_up = eval_parse(game, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPKPPP/RNBQ1BNR b kq - 1 1");
    nnue_board queen = *game->board(king_up); /* the FEN reader refuses 17 black pieces */
    queen.piece_on[35] = NNUE_PIECE(1, NNUE_CHESS_QUEEN);
    queen.piece_count++;
    queen.side_to_move = 0;
    ck_assert_int_eq(nnue_state_reset(s, game->board(root)), 0);
    expect_exact(s, n->net, game->board(root), "root");
    nnue_delta off = {.count = 1}, king = {.count = 1, .king_moved = {1, 0}}, on = {.count = 1};
    off.dirty[0] = (nnue_dirty){NNUE_PIECE(1, NNUE_CHESS_PAWN), 0, 48, NNUE_SQ_NONE, 0, 0};
    king.dirty[0] = (nnue_dirty){NNUE_PIECE(0, NNUE_CHESS_KING), NNUE_PIECE(0, NNUE_CHESS_KING), 4, 12, 0, 0};
    on.dirty[0] = (nnue_dirty){0, NNUE_PIECE(1, NNUE_CHESS_QUEEN), NNUE_SQ_NONE, 35, 0, 0};
    ck_assert_int_eq(nnue_state_push(s, game->board(after_a7), &off), 0);
    expect_exact(s, n->net, game->board(after_a7), "a7 off");
    ck_assert_int_eq(nnue_state_push(s, game->board(king_up), &king), 0); /* the board has a7 again */
    nnue_eval_detail d;
    nnue_evaluate(s, game->board(king_up), &d);
    ck_assert_int_eq(nnue_state_error(s)->code, NNUE_OK);
    ck_assert_int_eq(nnue_state_push(s, &queen, &on), -1);
    expect_error(s, "33 pieces after this move", "queen from nowhere");
    nnue_state_free(s);
    free(root);
    free(after_a7);
    free(king_up);
}
END_TEST

/* YaneuraOu's shogi sets pad their lists to 40 pieces' worth of features: a board of the two
 * kings alone holds 40 after a refresh, so a delta that brings a piece from nowhere is refused
 * (without the padding counted, 38 such pieces would fit and the accumulator hold 78 features). */
START_TEST(padded_sets_count_their_padding)
{
    const board_net *n = &nets[_i];
    if (strcmp(n->game, "shogi") != 0)
        return;
    const nnue_game *game = nnue_game_find("shogi");
    void *pos = eval_parse(game, "4k4/9/9/9/9/9/9/9/4K4 b - 1");
    nnue_state *s = nnue_state_new(n->net, 8);
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0);
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_board b = *game->board(pos);
    b.piece_on[40] = NNUE_PIECE(0, NNUE_SHOGI_GOLD);
    b.piece_count++;
    nnue_delta d = {.count = 1};
    d.dirty[0] = (nnue_dirty){0, NNUE_PIECE(0, NNUE_SHOGI_GOLD), NNUE_SQ_NONE, 40, 0, 0};
    ck_assert_int_eq(nnue_state_push(s, &b, &d), -1);
    expect_error(s, "41 pieces after this move (board and hands, kings included, the padding of a feature list counted)",
                 n->label);
    nnue_state_free(s);
    free(pos);
}
END_TEST

/* Finding 9: Full_Threats cut its lists at 256 threats and took boards of any number of pieces;
 * the worst-case ranges assume its max_active. It declares 32 pieces (8 threats each at most):
 * a net of Full_Threats alone refuses 33, and 32 pieces of the most threats are exact. */
START_TEST(threats_limit)
{
    const board_net *n = find("Full_Threats-alone");
    /* ranks 3-6 full: kings on a3 and h6, queens and knights of both colours, 8 neighbours each */
    nnue_board b = {.num_squares = 64, .king_sq = {16, 47}, .piece_count = 32};
    for (int sq = 16; sq < 48; sq++)
        b.piece_on[sq] = NNUE_PIECE(sq & 1, sq % 3 ? NNUE_CHESS_QUEEN : NNUE_CHESS_KNIGHT);
    b.piece_on[16] = NNUE_PIECE(0, NNUE_CHESS_KING);
    b.piece_on[47] = NNUE_PIECE(1, NNUE_CHESS_KING);
    nnue_state *s = nnue_state_new(n->net, 8);
    ck_assert_int_eq(nnue_state_reset(s, &b), 0);
    expect_exact(s, n->net, &b, "32 pieces");
    nnue_delta d = {.count = 1};
    d.dirty[0] = (nnue_dirty){b.piece_on[40], b.piece_on[40], 40, 56, 0, 0};
    b.piece_on[56] = b.piece_on[40];
    b.piece_on[40] = 0;
    ck_assert_int_eq(nnue_state_push(s, &b, &d), 0);
    expect_exact(s, n->net, &b, "32 pieces, a piece moved");
    b.piece_on[4] = NNUE_PIECE(1, NNUE_CHESS_QUEEN);
    b.piece_count++;
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "33 pieces (board and hands, kings included): the net's feature set Full_Threats takes at most 32 "
                    "(at most 256 active features per perspective)", "33 pieces");
    nnue_state_free(s);
}
END_TEST

/* PP_3Wide's pairs fit its list only with at most 16 pawns: a 17th (a crafted board of 32
 * pieces) is refused by the set's own board_fits, naming it, at reset and at push. */
START_TEST(pawn_pairs_limit)
{
    const board_net *n = find("PP_3Wide");
    nnue_board b = {.num_squares = 64, .king_sq = {0, 63}, .piece_count = 18};
    b.piece_on[0] = NNUE_PIECE(0, NNUE_CHESS_KING);
    b.piece_on[63] = NNUE_PIECE(1, NNUE_CHESS_KING);
    for (int sq = 16; sq < 32; sq++) /* ranks 3 and 4 full of pawns: 16 */
        b.piece_on[sq] = NNUE_PIECE(sq & 1, NNUE_CHESS_PAWN);
    nnue_state *s = nnue_state_new(n->net, 8);
    ck_assert_int_eq(nnue_state_reset(s, &b), 0);
    expect_exact(s, n->net, &b, "16 pawns");
    b.piece_on[40] = NNUE_PIECE(1, NNUE_CHESS_PAWN);
    b.piece_count++;
    ck_assert_int_eq(nnue_state_reset(s, &b), -1);
    expect_error(s, "the net's feature set PP_3Wide: 17 pawns, at most 16", "17 pawns at reset");
    nnue_delta d = {.count = 0};
    b.piece_on[40] = 0;
    b.piece_count--;
    ck_assert_int_eq(nnue_state_reset(s, &b), 0);
    b.piece_on[40] = NNUE_PIECE(1, NNUE_CHESS_PAWN);
    b.piece_count++;
    ck_assert_int_eq(nnue_state_push(s, &b, &d), 0); /* push reads the kings and the delta */
    expect_refused_eval(s, &b, "17 pawns", "17 pawns at evaluate"); /* its pairs read every square */
    nnue_state_pop(s);
    nnue_state_set_whole_board_checks(s, 1);
    ck_assert_int_eq(nnue_state_push(s, &b, &d), -1);
    expect_error(s, "17 pawns", "17 pawns at push");
    nnue_state_free(s);
}
END_TEST

/* Pikafish's sets (xiangqi) declared no piece limit: a crafted board of 72 pieces passed reset
 * and was evaluated although HalfKAv2_hm_xiangqi's ranges assume 32 features and
 * FullThreats_xiangqi cut its lists at 128. Both declare 32 pieces now (256 threats at most). */
#define XQ_SETS "    - {set: FullThreats_xiangqi, weights: i8}\n    - {set: HalfKAv2_hm_xiangqi, weights: i8}\n"
static board_net xq_nets[] = {
    {"Pikafish", "xiangqi", "fuzz/archs/pikafish_w8.yaml", NULL, NULL, NULL},
    {"FullThreats_xiangqi", "xiangqi", "fuzz/archs/pikafish_w8.yaml", XQ_SETS, "    - {set: FullThreats_xiangqi, weights: i16}\n",
     NULL},
    {"HalfKAv2_hm_xiangqi", "xiangqi", "fuzz/archs/pikafish_w8.yaml", XQ_SETS, "    - {set: HalfKAv2_hm_xiangqi, weights: i16}\n",
     NULL},
};
enum { N_XQ = sizeof xq_nets / sizeof xq_nets[0] };

START_TEST(xiangqi_limit)
{
    const board_net *n = &xq_nets[_i];
    const nnue_game *game = nnue_game_find("xiangqi");
    void *pos = eval_parse(game, game->start);
    nnue_state *s = nnue_state_new(n->net, 8);
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0); /* 32 pieces */
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_move move;
    nnue_error err;
    ck_assert_int_eq(game->parse_move(pos, "h2e2", &move, &err), 0);
    nnue_delta delta;
    game->make(pos, move, &delta);
    nnue_board more = *game->board(pos);
    int empty = 0;
    while (more.piece_on[empty])
        empty++;
    more.piece_on[empty] = NNUE_PIECE(1, 4); /* a 33rd piece: a pawn */
    more.piece_count++;
    ck_assert_int_eq(nnue_state_push(s, &more, &delta), -1);
    expect_error(s, "33 pieces", n->label);
    expect_error(s, "takes at most 32", n->label);
    expect_refused_eval(s, &more, "33 pieces", n->label);
    nnue_state_pop(s);
    nnue_state_set_refresh_cache(s, 1);
    ck_assert_int_eq(nnue_state_reset(s, &more), -1);
    expect_error(s, "33 pieces", n->label);
    ck_assert_int_eq(nnue_state_reset(s, game->board(pos)), 0);
    expect_exact(s, n->net, game->board(pos), n->label);
    nnue_state_free(s);
    free(pos);
}
END_TEST

int main(void)
{
    for (int i = 0; i < N_NETS; i++)
        if (!(nets[i].net = make_net(&nets[i])))
            return 1;
    for (int i = 0; i < N_XQ; i++)
        if (!(xq_nets[i].net = make_net(&xq_nets[i])))
            return 1;
    Suite *s = suite_create("eval_boards");
    TCase *tc = tcase_create("boards");
    tcase_add_loop_test(tc, pushed_boards_are_checked, 0, 2 * N_NETS);
    tcase_add_test(tc, reset_names_what_does_not_fit);
    tcase_add_loop_test(tc, shogi_golds_refused, 0, 2 * N_NETS);
    tcase_add_loop_test(tc, chess_queens_refused, 0, N_NETS);
    tcase_add_loop_test(tc, limit_is_exact, 0, 2 * N_NETS);
    tcase_add_loop_test(tc, move_chain_limit, 0, N_NETS);
    tcase_add_test(tc, refreshed_side_keeps_its_count);
    tcase_add_loop_test(tc, padded_sets_count_their_padding, 0, N_NETS);
    tcase_add_test(tc, threats_limit);
    tcase_add_test(tc, pawn_pairs_limit);
    tcase_add_loop_test(tc, xiangqi_limit, 0, N_XQ);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    for (int i = 0; i < N_NETS; i++)
        nnue_net_free(nets[i].net);
    for (int i = 0; i < N_XQ; i++)
        nnue_net_free(xq_nets[i].net);
    return rc;
}
