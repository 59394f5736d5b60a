/* tests/tools/test_cli_inputs.c: the position forms users bring to the tool (tools/position_line.h):
 * "startpos", FEN without the clocks, EPD lines with operations, bullet's text format
 * "FEN | score | result", SFEN without the move number; each evaluates as its plain FEN does
 * (values: golden-sfnnv1-A.tsv, printed by Stockfish 12) and real garbage is still refused at
 * FILE:LINE:COLUMN. perft counts from "startpos" in both games. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "eval/eval_nets.h"
#include "support.h"

static const char *net_v1;
static char fens[3][256];          /* corpus A rows 1..3 (row 1 is the start position) */
static char values[3][128];        /* "\tbucket\tpsqt\tpositional\ttotal\t" of those rows */

/* fen without its last two fields (the clocks). */
static void four_fields(const char *fen, char *out, size_t size)
{
    snprintf(out, size, "%s", fen);
    *strrchr(out, ' ') = 0;
    *strrchr(out, ' ') = 0;
}

/* out holds a TSV row "text<values>". */
static void expect_row(const char *out, const char *text, const char *vals)
{
    char row[512];
    snprintf(row, sizeof row, "%s%s", text, vals);
    cli_expect_contains(out, row);
}

START_TEST(eval_fen_forms)
{
    char *out, args[4096], fen4[256];
    snprintf(args, sizeof args, "eval --net '%s' --fen startpos", net_v1);
    ck_assert_int_eq(cli_run(args, &out), 0);
    expect_row(out, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", values[0]);
    free(out);
    four_fields(fens[1], fen4, sizeof fen4);
    snprintf(args, sizeof args, "eval --net '%s' --fen '%s'", net_v1, fen4);
    ck_assert_int_eq(cli_run(args, &out), 0);
    expect_row(out, fen4, values[1]);
    free(out);
    snprintf(args, sizeof args, "eval --net '%s' --fen '%s bm Qxh3; id \"A.2\";'", net_v1, fen4);
    ck_assert_int_eq(cli_run(args, &out), 0);
    expect_row(out, fen4, values[1]);
    free(out);
}
END_TEST

START_TEST(eval_file_forms_and_garbage)
{
    char path[4096], fen4_1[256], fen4_2[256];
    snprintf(path, sizeof path, "%s/cli-inputs.epd", test_build_dir());
    four_fields(fens[1], fen4_1, sizeof fen4_1);
    four_fields(fens[2], fen4_2, sizeof fen4_2);
    FILE *f = fopen(path, "w");
    fprintf(f, "startpos\n"                                 /* line 1 */
               "%s\n"                                       /* 2: four fields */
               "%s bm Qxh3; id \"A.2\";\n"                  /* 3: EPD */
               "%s | 0.25 | 0.5\n"                          /* 4: bullet text */
               "%s c0 \"six fields and an operation\";\n"   /* 5: FEN + EPD operation */
               "%s garbage\n"                               /* 6: five fields: refused */
               "%s 0 1 9\n",                                /* 7: seven fields: refused */
            fen4_1, fen4_1, fens[0], fens[2], fen4_2, fen4_2);
    fclose(f);
    char *out, args[8192];
    snprintf(args, sizeof args, "eval --net '%s' --file '%s'", net_v1, path);
    ck_assert_int_eq(cli_run(args, &out), 1);
    expect_row(out, fens[0], values[0]);   /* startpos and the bullet line */
    expect_row(out, fen4_1, values[1]);
    expect_row(out, fens[2], values[2]);
    char where[512];
    snprintf(where, sizeof where, "cli-inputs.epd:6:%d: expected 6 fields (or 4, without the clocks) separated by "
             "single spaces, found 5", (int)strlen(fen4_2) + (int)strlen(" garbage") + 1);
    cli_expect_contains(out, where);
    snprintf(where, sizeof where, "cli-inputs.epd:7:%d: expected 6 fields, found more", (int)strlen(fen4_2) + 6);
    cli_expect_contains(out, where);
    cli_expect_contains(out, "nnue eval: 5 positions evaluated, 2 bad, in ");
    free(out);
    /* Exactly five rows on stdout, in input order. */
    snprintf(args, sizeof args, "eval --net '%s' --file '%s' 2>/dev/null", net_v1, path);
    ck_assert_int_eq(cli_run_stdout(args, &out), 1);
    int rows = 0;
    for (char *p = out; *p; p++)
        rows += *p == '\n';
    ck_assert_int_eq(rows, 1 + 5);
    free(out);
}
END_TEST

START_TEST(perft_from_startpos)
{
    char *out;
    ck_assert_int_eq(cli_run("perft startpos 3", &out), 0);
    cli_expect_contains(out, "nodes 8902\n");
    free(out);
    ck_assert_int_eq(cli_run("perft --game shogi startpos 2", &out), 0);
    cli_expect_contains(out, "nodes 900\n");
    free(out);
    /* SFEN without the move number, as USI GUIs and many files write it. */
    ck_assert_int_eq(cli_run("perft 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -' 1", &out), 0);
    cli_expect_contains(out, "nodes 30\n");
    free(out);
    ck_assert_int_eq(cli_run("perft 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;' 2", &out), 0);
    cli_expect_contains(out, "nodes 400\n");
    free(out);
}
END_TEST

int main(void)
{
    test_require_shared("oracle/chess/golden-sfnnv1-A.tsv");
    cli_use_source_archs();
    net_v1 = eval_net_file(eval_net_find("sfnnv1"));
    char *golden = test_read_file(test_shared_path("oracle/chess/golden-sfnnv1-A.tsv"), NULL);
    char *line = strchr(golden, '\n') + 1;
    for (int i = 0; i < 3; i++) {
        char *end = strchr(line, '\n'), *f[6];
        *end = 0;
        test_split_tabs(line, f, 6);
        snprintf(fens[i], sizeof fens[i], "%s", f[0]);
        snprintf(values[i], sizeof values[i], "\t%s\t%s\t%s\t%s\t", f[1], f[2], f[3], f[4]);
        line = end + 1;
    }
    free(golden);
    Suite *s = suite_create("cli_inputs");
    TCase *tc = tcase_create("inputs");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, eval_fen_forms);
    tcase_add_test(tc, eval_file_forms_and_garbage);
    tcase_add_test(tc, perft_from_startpos);
    suite_add_tcase(s, tc);
    return test_run(s);
}
