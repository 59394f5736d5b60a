/* tests/eval/board_nets.c: see board_nets.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../nets/nets_helpers.h"
#include "board_nets.h"
#include "core/arch/arch_api.h"
#include "core/net/net.h"
#include "eval_nets.h"

/* One small net per feature set: an arch file, optionally with one word replaced. */

board_net nets[] = {
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
const int N_NETS = sizeof nets / sizeof nets[0];

const char *chess_start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const char *shogi_start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

nnue_net *make_net(board_net *n)
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

const board_net *find(const char *label)
{
    for (int i = 0; i < N_NETS; i++)
        if (strcmp(nets[i].label, label) == 0)
            return &nets[i];
    ck_abort_msg("no net %s", label);
    return NULL;
}

/* A refusal: -1 (or bucket -1) and an error whose message contains `what`. */
void expect_error(const nnue_state *s, const char *what, const char *where)
{
    const nnue_error *e = nnue_state_error(s);
    ck_assert_msg(e->code == NNUE_E_ARG, "%s: error code %d", where, e->code);
    ck_assert_msg(strstr(e->message, what) != NULL, "%s: \"%s\" lacks \"%s\"", where, e->message, what);
}

void expect_refused_eval(nnue_state *s, const nnue_board *b, const char *what, const char *where)
{
    nnue_eval_detail d = {5, 5, 5, 5, 5};
    ck_assert_int_eq(nnue_evaluate(s, b, &d), 0);
    ck_assert_msg(d.bucket == -1 && d.total == 0, "%s: evaluated a refused board", where);
    expect_error(s, what, where);
}

/* Evaluating `given` equals a fresh evaluation of `truth` (the position the pushed deltas
 * describe; `given` itself when it is that position). */
void expect_value_of(nnue_state *s, const nnue_net *net, const nnue_board *given, const nnue_board *truth,
                            const char *where)
{
    nnue_eval_detail d, f;
    nnue_evaluate(s, given, &d);
    ck_assert_msg(nnue_state_error(s)->code == NNUE_OK, "%s: refused: %s", where, nnue_state_error(s)->message);
    eval_fresh(net, truth, &f);
    ck_assert_msg(d.bucket >= 0 && d.total == f.total && d.positional == f.positional, "%s: %d versus fresh %d",
                  where, d.total, f.total);
}

void expect_exact(nnue_state *s, const nnue_net *net, const nnue_board *b, const char *where)
{
    expect_value_of(s, net, b, b, where);
}

/* The net has a set whose step after a move pushed without its threats reads the board beyond
 * the kings (Full_Threats lists the threats from it): evaluate() then checks the board whole after
 * every such move, not only at a refresh. */
int reads_every_square(const nnue_net *net)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    for (int k = 0; k < ft->n_sets; k++)
        if (ft->sets[k].features->exact_board && !ft->sets[k].features->changed_any_board)
            return 1;
    return 0;
}

/* The move forces some perspective of some set to refresh from the board (evaluate reads it all). */
int forces_refresh(const nnue_net *net, const nnue_board *after, const nnue_delta *delta)
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
nnue_state *state_for(int i, const board_net **n, int *whole)
{
    *whole = i >= N_NETS;
    *n = &nets[i % N_NETS];
    nnue_state *s = nnue_state_new((*n)->net, 8);
    nnue_state_set_whole_board_checks(s, *whole);
    return s;
}

/* Pikafish's sets (xiangqi) declared no piece limit: a crafted board of 72 pieces passed reset
 * and was evaluated although HalfKAv2_hm_xiangqi's ranges assume 32 features and
 * FullThreats_xiangqi cut its lists at 128. Both declare 32 pieces now (256 threats at most). */
#define XQ_SETS "    - {set: FullThreats_xiangqi, weights: i8}\n    - {set: HalfKAv2_hm_xiangqi, weights: i8}\n"
board_net xq_nets[] = {
    {"Pikafish", "xiangqi", "fuzz/archs/pikafish_w8.yaml", NULL, NULL, NULL},
    {"FullThreats_xiangqi", "xiangqi", "fuzz/archs/pikafish_w8.yaml", XQ_SETS, "    - {set: FullThreats_xiangqi, weights: i16}\n",
     NULL},
    {"HalfKAv2_hm_xiangqi", "xiangqi", "fuzz/archs/pikafish_w8.yaml", XQ_SETS, "    - {set: HalfKAv2_hm_xiangqi, weights: i16}\n",
     NULL},
};
const int N_XQ = sizeof xq_nets / sizeof xq_nets[0];

int board_nets_make(void)
{
    for (int i = 0; i < N_NETS; i++)
        if (!(nets[i].net = make_net(&nets[i])))
            return -1;
    for (int i = 0; i < N_XQ; i++)
        if (!(xq_nets[i].net = make_net(&xq_nets[i])))
            return -1;
    return 0;
}

void board_nets_free(void)
{
    for (int i = 0; i < N_NETS; i++)
        nnue_net_free(nets[i].net);
    for (int i = 0; i < N_XQ; i++)
        nnue_net_free(xq_nets[i].net);
}
