/* tools/cmd_rescore.c: `nnue rescore --net NET [--arch A.yaml] [--format plain|bullet|binpack]
 * [--score total|scaled|cp] [--threads N] [--quiet] IN OUT`: training data written back in its
 * own format with every score replaced by the net's (include/nnue_training.h reads and writes
 * it; nnue_eval_batch scores it). Scores: .plain and .binpack keep the side to move's view and
 * get `total` by default (Stockfish's internal units, as its data generators write them);
 * bullet text keeps white's view and gets `scaled` (centipawns for bullet nets, `total` for
 * Stockfish nets). `--score cp` writes the centipawns of the net's checked conversion
 * (docs/units.md; refused for a net without one), for data whose scores are UCI centipawns.
 * OUT appears whole when everything went well (the writer's temporary file), else not at all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue.h"
#include "nnue_training.h"
#include "tools/commands.h"
#include "tools/eval_batch.h"
#include "tools/net_setup.h"
#include "tools/progress.h"
#include "tools/tool_args.h"

enum { BATCH = 1 << 14 };

static int usage(void)
{
    fprintf(stderr, "usage: nnue rescore --net NET [--arch A.yaml] [--format plain|bullet|binpack] "
                    "[--score total|scaled|cp] [--threads N] [--quiet] IN OUT\n");
    return 2;
}

static void print_error(const nnue_error *err)
{
    char msg[1200];
    nnue_error_format(err, msg, sizeof msg);
    fprintf(stderr, "nnue rescore: %s\n", msg);
}

typedef enum score_kind { SCORE_DEFAULT, SCORE_TOTAL, SCORE_SCALED, SCORE_CP } score_kind;

/* The score written for one evaluation, in the side to move's view. */
static int32_t score_of(const nnue_net *net, score_kind kind, const nnue_eval_detail *d, const char *position)
{
    (void)net;
    int cp = 0;
    switch (kind) {
    case SCORE_TOTAL:
        return d->total;
    case SCORE_SCALED:
        return d->scaled;
    case SCORE_CP:
        eval_centipawns(d, position, &cp); /* checked available before the run */
        return cp;
    default:
        return d->total;
    }
}

/* Scores one batch of records and writes them; returns 0, or 1 on a bad position or a write
 * error. */
static int flush(const nnue_net *net, nnue_train_format fmt, score_kind kind, nnue_train_record *recs, int n,
                 int threads, nnue_train_writer *out, const char *in_name)
{
    const char **texts = malloc(sizeof *texts * (size_t)n);
    nnue_eval_detail *d = malloc(sizeof *d * (size_t)n);
    if (!texts || !d) {
        free(texts);
        free(d);
        fprintf(stderr, "nnue rescore: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++)
        texts[i] = recs[i].position;
    nnue_error err;
    size_t first;
    int rc = 0;
    if (nnue_eval_batch(net, texts, (size_t)n, threads, d, &err, &first) > 0) {
        if (fmt == NNUE_TRAIN_BINPACK)
            fprintf(stderr, "nnue rescore: %s: byte %llu: %s\n", in_name, (unsigned long long)recs[first].line,
                    err.message);
        else
            fprintf(stderr, "nnue rescore: %s:%llu:%d: %s\n", in_name, (unsigned long long)recs[first].line,
                    err.column, err.message);
        rc = 1;
    }
    for (int i = 0; !rc && i < n; i++) {
        if (fmt != NNUE_TRAIN_BULLET) {
            recs[i].score = score_of(net, kind == SCORE_DEFAULT ? SCORE_TOTAL : kind, &d[i], recs[i].position);
        } else {
            int white_to_move = strstr(recs[i].position, " w") != NULL;
            int32_t v = score_of(net, kind == SCORE_DEFAULT ? SCORE_SCALED : kind, &d[i], recs[i].position);
            recs[i].score = white_to_move ? v : -v;
        }
        if (nnue_train_write(out, &recs[i], &err) != NNUE_OK) {
            print_error(&err);
            rc = 1;
        }
    }
    free(texts);
    free(d);
    return rc;
}

int cmd_rescore(int argc, char **argv)
{
    const char *net_path = NULL, *arch_path = NULL, *files[2] = {NULL, NULL}, *format = NULL;
    int threads = 0, quiet = 0, n_files = 0;
    score_kind kind = SCORE_DEFAULT;
    static const char *const value_options[] = {"--net", "--arch", "--format", "--score", "--threads", NULL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0 ? argv[i + 1] : NULL;
        if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            quiet = 1;
            tool_quiet = 1; /* no overflow note either */
        } else if (v && strcmp(a, "--net") == 0)
            net_path = argv[++i];
        else if (v && strcmp(a, "--arch") == 0)
            arch_path = argv[++i];
        else if (v && strcmp(a, "--format") == 0)
            format = argv[++i];
        else if (v && strcmp(a, "--score") == 0) {
            const char *k = argv[++i];
            kind = strcmp(k, "total") == 0 ? SCORE_TOTAL : strcmp(k, "scaled") == 0 ? SCORE_SCALED
                 : strcmp(k, "cp") == 0    ? SCORE_CP : SCORE_DEFAULT;
            if (kind == SCORE_DEFAULT) {
                fprintf(stderr, "nnue rescore: --score: expected total, scaled or cp, got '%s'\n", k);
                return usage();
            }
        }        else if (v && strcmp(a, "--threads") == 0) {
            if (tool_parse_int("rescore", a, argv[++i], 1, 1024, &threads) != 0)
                return 2;
        } else if ((a[0] != '-' || strcmp(a, "-") == 0) && n_files < 2) {
            files[n_files++] = a;
        } else {
            tool_bad_argument("rescore", a, value_options);
            return usage();
        }
    }
    nnue_error err;
    nnue_train_format fmt = NNUE_TRAIN_BULLET;
    if (!net_path || n_files != 2)
        return usage();
    if (format && nnue_train_format_parse(format, &fmt, &err) != NNUE_OK) {
        fprintf(stderr, "nnue rescore: --format: %s\n", err.message);
        return usage();
    }
    if (!format)
        fmt = nnue_train_format_of(files[0]);
    nnue_net *net;
    if (tool_load_net("rescore", net_path, arch_path, &net) != 0)
        return 1;
    tool_cp_setup(net, net_path);
    if (kind == SCORE_CP && tool_cp.kind == NNUE_CP_NONE) {
        fprintf(stderr, "nnue rescore: --score cp: %s (%s) has no checked centipawn conversion: %s (docs/units.md); "
                        "use total or scaled\n", net_path, nnue_arch_name(nnue_net_arch(net)), tool_cp.why);
        nnue_net_free(net);
        return 1;
    }
    nnue_train_reader *r = NULL;
    nnue_train_writer *out = NULL;
    nnue_train_record *recs = malloc(sizeof *recs * BATCH);
    int rc = 0;
    if (!recs) {
        fprintf(stderr, "nnue rescore: out of memory\n");
        rc = 1;
    } else if (nnue_train_open(files[0], fmt, &r, &err) != NNUE_OK ||
               nnue_train_writer_open(files[1], fmt, &out, &err) != NNUE_OK) {
        print_error(&err);
        rc = 1;
    }
    uint64_t total = 0;
    double t0 = progress_now();
    for (int n = 0, got = 1; !rc && got;) {
        got = nnue_train_next(r, &recs[n], &err);
        if (got < 0) {
            print_error(&err);
            rc = 1;
        } else if (got)
            n++;
        if (!rc && n > 0 && (n == BATCH || !got)) {
            rc = flush(net, fmt, kind, recs, n, threads, out, files[0]);
            total += (uint64_t)n;
            n = 0;
        }
    }
    if (rc) {
        nnue_train_writer_abort(out);
    } else if (nnue_train_writer_close(out, &err) != NNUE_OK) {
        print_error(&err);
        rc = 1;
    }
    double secs = progress_now() - t0;
    if (!rc && !quiet)
        fprintf(stderr, "nnue rescore: %llu records in %.2f s (%.0f positions/s)\n", (unsigned long long)total, secs,
                secs > 0 ? (double)total / secs : 0.0);
    nnue_train_close(r);
    free(recs);
    nnue_net_free(net);
    return rc;
}
