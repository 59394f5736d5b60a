/* tools/eval_batch.c: the streaming batch evaluation of tools/eval_batch.h. Input format as for
 * every position list of the tool: one position per line in the forms of tools/position_line.h
 * (FEN / SFEN, "startpos", TSV, bullet text, EPD), '#' comments, empty lines and a
 * "fen"/"sfen" header line skipped; or a training file (Stockfish's .plain or .binpack, by its
 * extension or --format) read by the library's training reader (include/nnue_training.h), the
 * one `nnue rescore` uses: its records' positions. */
#include "tools/eval_batch.h"

#include <errno.h>
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnue_training.h"
#include "tools/json_out.h"
#include "tools/line_input.h"
#include "tools/tool_error.h"
#include "tools/position_line.h"
#include "tools/progress.h"

enum { CHUNK = 4096 };   /* positions per parallel step (each keeps a 1 KB error record) */

typedef struct chunk {
    int count;
    char *text[CHUNK];
    uint64_t line[CHUNK];
    nnue_eval_detail result[CHUNK];
    nnue_error err[CHUNK];
    int bad[CHUNK];
} chunk;

/* Lines of a regular file (for the percentage); 0 when unknown (a pipe). */
static uint64_t count_lines(FILE *f)
{
    long start = ftell(f);
    if (start < 0)
        return 0;
    char buf[1 << 16];
    uint64_t lines = 0;
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++)
            lines += buf[i] == '\n';
    clearerr(f);
    if (fseek(f, start, SEEK_SET) != 0)
        return 0;
    return lines;
}

/* Where positions come from: a position list, or a training file through the library's reader. */
typedef struct source {
    FILE *f;
    nnue_train_reader *train;
    int offsets;            /* binpack: a record's place is a byte offset, not a line */
    char *buf;
    size_t cap;
    uint64_t lines;         /* lines read (a position list), records read (a training file) */
} source;

/* Reads the next positions into c; returns 0, or -1 on a read error (err filled). */
static int read_chunk(source *s, const nnue_game *game, chunk *c, nnue_error *err)
{
    for (int i = 0; i < c->count; i++)
        free(c->text[i]);
    c->count = 0;
    while (s->train && c->count < CHUNK) {
        nnue_train_record rec;
        int got = nnue_train_next(s->train, &rec, err);
        if (got <= 0)
            return got;
        s->lines++;
        if (!(c->text[c->count] = strdup(rec.position)))
            return tool_fail(err, NNUE_E_NOMEM, "out of memory"), -1;
        c->line[c->count++] = rec.line;
    }
    size_t len;
    tool_line_status got;
    while (!s->train && c->count < CHUNK &&
           (got = tool_line_read(s->f, &s->buf, &s->cap, POSITION_LINE_MAX, &len)) != TOOL_LINE_END) {
        ++s->lines;
        if (got == TOOL_LINE_NOMEM)
            return tool_fail(err, NNUE_E_NOMEM, "out of memory reading line %" PRIu64, s->lines), -1;
        /* an over-long line is reported bad; the next one is read */
        const char *text = got == TOOL_LINE_TOO_LONG ? NULL : position_line(game, s->buf, s->lines);
        if (got == TOOL_LINE_OK && !text)
            continue;
        c->text[c->count] = NULL; /* an over-long line: a bad entry with its reason, not evaluated */
        if (!text)
            tool_fail_at(&c->err[c->count], NNUE_E_SYNTAX, "", 0, 1, "line longer than %d bytes (a position line is short)",
                         POSITION_LINE_MAX);
        else if (!(c->text[c->count] = strdup(text)))
            return tool_fail(err, NNUE_E_NOMEM, "out of memory"), -1;
        c->line[c->count] = s->lines;
        c->count++;
    }
    if (!s->train && ferror(s->f))
        return tool_fail(err, NNUE_E_IO, "read error after line %" PRIu64 ": %s", s->lines, strerror(errno)), -1;
    return 0;
}

nnue_cp_rule tool_cp;

void tool_cp_setup(const nnue_net *net, const char *net_path)
{
    nnue_cp_rule_for_file(nnue_net_arch(net), net_path, &tool_cp);
}

int eval_centipawns(const nnue_eval_detail *d, const char *position, int *cp)
{
    return nnue_cp_convert(&tool_cp, d, position, cp);
}

const char *eval_cp_text(const nnue_eval_detail *d, const char *position, int json, char buf[16])
{
    int cp;
    if (!eval_centipawns(d, position, &cp))
        return json ? "null" : "-";
    snprintf(buf, 16, "%d", cp);
    return buf;
}

void eval_print_header(const char *place, int json, int quiet)
{
    if (!quiet && tool_cp.kind == NNUE_CP_NONE)
        fprintf(stderr, "nnue eval: no centipawns: %s (docs/units.md); psqt, positional, total and scaled are the "
                "net's internal units; cp is '-'\n", tool_cp.why);
    if (!json) /* the words of the JSON keys */
        printf("position\tbucket\tpsqt\tpositional\ttotal\tscaled\tcp%s%s\n", place ? "\t" : "", place ? place : "");
}

static void print_chunk(const chunk *c, const char *path, int json, int offsets,
                        uint64_t *printed, uint64_t *bad, uint64_t *first_bad)
{
    char cp[16];
    for (int i = 0; i < c->count; i++) {
        if (c->bad[i]) {
            if (offsets)
                fprintf(stderr, "nnue eval: %s: byte %" PRIu64 ": %s\n", path, c->line[i], c->err[i].message);
            else
                fprintf(stderr, "nnue eval: %s:%" PRIu64 ":%d: %s\n", path, c->line[i], c->err[i].column,
                        c->err[i].message);
            if (!*bad)
                *first_bad = c->line[i];
            ++*bad;
            continue;
        }
        const nnue_eval_detail *d = &c->result[i];
        if (json) {
            printf("%s\n  {", *printed ? "," : "");
            json_key_string("position", c->text[i], 1);
            printf(", \"%s\": %" PRIu64 ", \"bucket\": %d, \"psqt\": %d, \"positional\": %d, \"total\": %d, "
                   "\"scaled\": %d, \"cp\": %s}",
                   offsets ? "offset" : "line", c->line[i], d->bucket, d->psqt, d->positional, d->total, d->scaled,
                   eval_cp_text(d, c->text[i], 1, cp));
        } else {
            /* The input's line (binpack: byte offset) last: rows stay traceable past skipped lines. */
            printf("%s\t%d\t%d\t%d\t%d\t%d\t%s\t%" PRIu64 "\n", c->text[i], d->bucket, d->psqt, d->positional,
                   d->total, d->scaled, eval_cp_text(d, c->text[i], 0, cp), c->line[i]);
        }
        ++*printed;
    }
}

/* Opens the input: a training file when the format (given or from the extension) is .plain or
 * .binpack, else a position list. Returns 0, or 1 after saying why. */
static int open_source(source *s, const char *path, const eval_batch_options *opt)
{
    nnue_error err;
    nnue_train_format fmt = nnue_train_format_of(path);
    if (opt->format && nnue_train_format_parse(opt->format, &fmt, &err) != NNUE_OK) {
        fprintf(stderr, "nnue eval: --format: %s\n", err.message);
        return 1;
    }
    if (fmt != NNUE_TRAIN_BULLET) { /* bullet text is a position list (tools/position_line.h) */
        if (nnue_train_open(path, fmt, &s->train, &err) != NNUE_OK) {
            char msg[1200];
            nnue_error_format(&err, msg, sizeof msg);
            fprintf(stderr, "nnue eval: %s\n", msg);
            return 1;
        }
        s->offsets = fmt == NNUE_TRAIN_BINPACK;
        return 0;
    }
    s->f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!s->f) {
        fprintf(stderr, "nnue eval: %s: cannot open: %s\n", path, strerror(errno));
        return 1;
    }
    return 0;
}

int eval_batch(const nnue_net *net, const nnue_game *game, const char *path, const eval_batch_options *opt)
{
    source src = {0};
    if (open_source(&src, path, opt) != 0)
        return 1;
    int from_stdin = strcmp(path, "-") == 0;
    const char *name = from_stdin ? "(stdin)" : path;
    if (opt->threads > 0)
        omp_set_num_threads(opt->threads);
    int n_threads = omp_get_max_threads();
    nnue_state **states = calloc((size_t)n_threads, sizeof *states);
    chunk *c = calloc(1, sizeof *c);
    unsigned char *blobs = malloc((size_t)game->pos_size * (size_t)n_threads);
    int rc = 0;
    for (int t = 0; states && t < n_threads; t++)
        if (!(states[t] = nnue_state_new(net, 0)))
            rc = 1;
    if (!states || !c || !blobs || rc) {
        fprintf(stderr, "nnue eval: out of memory for %d evaluation states\n", n_threads);
        rc = 1;
        goto done;
    }
    progress bar;
    int show = !opt->quiet && isatty(STDERR_FILENO);
    progress_start(&bar, show, show && !from_stdin && src.f ? count_lines(src.f) : 0);
    uint64_t printed = 0, bad = 0, first_bad = 0;
    eval_print_header(src.offsets ? "offset" : "line", opt->json, opt->quiet);
    if (opt->json)
        printf("[");
    for (;;) {
        nnue_error err;
        if (read_chunk(&src, game, c, &err) != 0) {
            char msg[1200];
            nnue_error_format(&err, msg, sizeof msg);
            progress_finish(&bar);
            fprintf(stderr, "nnue eval: %s%s%s\n", err.file[0] ? "" : name, err.file[0] ? "" : ": ", msg);
            rc = 1;
            break;
        }
        if (c->count == 0)
            break;
#pragma omp parallel
        {
            int t = omp_get_thread_num();
            void *pos = blobs + (size_t)t * game->pos_size;
#pragma omp for schedule(dynamic, 256)
            for (int i = 0; i < c->count; i++) {
                memset(pos, 0, game->pos_size);
                c->bad[i] = !c->text[i] || game->parse(pos, c->text[i], &c->err[i]) != 0;
                if (c->bad[i])
                    continue;
                const nnue_board *board = game->board(pos);
                nnue_state_reset(states[t], board);
                nnue_evaluate(states[t], board, &c->result[i]);
            }
        }
        print_chunk(c, name, opt->json, src.offsets, &printed, &bad, &first_bad);
        progress_update(&bar, src.lines);
    }
    if (opt->json)
        printf("\n]\n");
    fflush(stdout);
    progress_finish(&bar);
    double secs = progress_now() - bar.start;
    if (bad) {
        rc = 1;
        const char *unit = src.train ? "record" : "line";
        fprintf(stderr, "nnue eval: %s: %" PRIu64 " bad %s%s (the first: %s %" PRIu64 "), skipped\n", name, bad, unit,
                bad == 1 ? "" : "s", src.offsets ? "byte" : "line", first_bad);
    }
    if (!opt->quiet)
        fprintf(stderr, "nnue eval: %" PRIu64 " position%s evaluated, %" PRIu64 " bad, in %.2f s (%.0f positions/s, %d "
                "thread%s)\n",
                printed, printed == 1 ? "" : "s", bad, secs, secs > 0 ? (double)printed / secs : 0.0, n_threads,
                n_threads == 1 ? "" : "s");
done:
    if (c)
        for (int i = 0; i < c->count; i++)
            free(c->text[i]);
    for (int t = 0; states && t < n_threads; t++)
        nnue_state_free(states[t]);
    free(states);
    free(c);
    free(blobs);
    free(src.buf);
    nnue_train_close(src.train);
    if (src.f && !from_stdin)
        fclose(src.f);
    return rc;
}
