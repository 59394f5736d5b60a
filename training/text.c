/* training/text.c: the text training-data formats of include/nnue_training.h (bullet text,
 * Stockfish's .plain). Strict: a record missing a field or with a number that does not parse is
 * an error at its line. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/line_read.h"
#include "training/internal.h"

/* Longest line taken (a record's line is under 300 bytes): a hostile file without newlines is
 * refused at this length instead of growing one buffer without end. */
#define TEXT_MAX_LINE (64 * 1024)

/* The next line without its newline (and CR); NULL at the end, or on a line that cannot be
 * taken (r->line_problem says why: too long, a NUL byte inside, out of memory). */
static char *next_line(nnue_train_reader *r)
{
    r->line_problem = NULL;
    errno = 0;
    size_t n;
    line_read_status got = line_read(r->f, &r->buf, &r->cap, TEXT_MAX_LINE, &n);
    if (got == LINE_READ_END)
        return NULL;
    if (got == LINE_READ_NOMEM) {
        r->line_problem = "out of memory reading the line", r->line_column = 0;
        return NULL;
    }
    r->line++;
    if (got == LINE_READ_TOO_LONG) {
        r->line_problem = "line longer than 65536 bytes (a record's lines are short)", r->line_column = 0;
        return NULL;
    }
    size_t len = strlen(r->buf);
    if (len < n) {
        r->line_problem = "a NUL byte inside the line", r->line_column = (long long)len + 1;
        return NULL;
    }
    return r->buf;
}

/* A whole-text int32 (an optional sign and digits, spaces around allowed). */
static int parse_int(const char *text, int32_t *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    while (*end == ' ')
        end++;
    if (end == text || *end || errno || v < INT32_MIN || v > INT32_MAX)
        return -1;
    *out = (int32_t)v;
    return 0;
}

static int copy_field(char *dst, size_t size, const char *from, size_t len)
{
    while (len > 0 && from[0] == ' ')
        from++, len--;
    while (len > 0 && from[len - 1] == ' ')
        len--;
    if (len == 0 || len >= size)
        return -1;
    memcpy(dst, from, len);
    dst[len] = 0;
    return 0;
}

/* nnue_error.line is an int: a line past INT_MAX is given in the message, the field saturates. */
static int fail(nnue_train_reader *r, nnue_error *err, int column, const char *what)
{
    if (r->line > INT_MAX)
        nnue_fail_at(err, NNUE_E_SYNTAX, r->name, INT_MAX, column, "line %" PRIu64 ": %s", r->line, what);
    else
        nnue_fail_at(err, NNUE_E_SYNTAX, r->name, (int)r->line, column, "%s", what);
    return -1;
}

static int next_bullet(nnue_train_reader *r, nnue_train_record *rec, nnue_error *err)
{
    char *line;
    do {
        if (!(line = next_line(r)))
            return r->line_problem ? fail(r, err, (int)r->line_column, r->line_problem) : 0;
    } while (!line[0] || line[0] == '#');
    rec->line = r->line;
    rec->move[0] = 0;
    rec->ply = -1;
    char *bar1 = strchr(line, '|'), *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
    if (!bar2 || strchr(bar2 + 1, '|'))
        return fail(r, err, 1, "expected 'FEN | score | result' (three fields separated by '|')");
    if (copy_field(rec->position, sizeof rec->position, line, (size_t)(bar1 - line)) != 0)
        return fail(r, err, 1, "empty or over-long FEN field");
    *bar2 = 0;
    if (parse_int(bar1 + 1, &rec->score) != 0)
        return fail(r, err, (int)(bar1 - line) + 2, "the score is not an integer");
    if (copy_field(rec->result, sizeof rec->result, bar2 + 1, strlen(bar2 + 1)) != 0)
        return fail(r, err, (int)(bar2 - line) + 2, "empty or over-long result field");
    return 1;
}

/* plain: keys in any order, each once, every one of them before "e". */
static int next_plain(nnue_train_reader *r, nnue_train_record *rec, nnue_error *err)
{
    static const char *const keys[] = {"fen ", "move ", "score ", "ply ", "result "};
    int seen = 0;
    char *line;
    rec->line = 0;
    while ((line = next_line(r))) {
        if (!rec->line)
            rec->line = r->line;
        if (strcmp(line, "e") == 0) {
            if (seen != 31)
                return fail(r, err, 1, "record ends before fen, move, score, ply and result were all given");
            return 1;
        }
        int k = 0;
        while (k < 5 && strncmp(line, keys[k], strlen(keys[k])) != 0)
            k++;
        if (k == 5 || (seen & (1 << k)))
            return fail(r, err, 1, k == 5 ? "expected fen, move, score, ply, result or e" : "a key given twice");
        seen |= 1 << k;
        const char *v = line + strlen(keys[k]);
        int bad = k == 0   ? copy_field(rec->position, sizeof rec->position, v, strlen(v))
                  : k == 1 ? copy_field(rec->move, sizeof rec->move, v, strlen(v))
                  : k == 2 ? parse_int(v, &rec->score)
                  : k == 3 ? parse_int(v, &rec->ply)
                           : copy_field(rec->result, sizeof rec->result, v, strlen(v));
        if (bad)
            return fail(r, err, (int)strlen(keys[k]) + 1, "malformed value");
    }
    if (r->line_problem)
        return fail(r, err, (int)r->line_column, r->line_problem);
    if (seen && ferror(r->f))
        return 0; /* a read error: text_next names it */
    if (seen)
        return fail(r, err, 1, "the file ends inside a record (no 'e' line)");
    return 0;
}

int text_next(nnue_train_reader *r, nnue_train_record *rec, nnue_error *err)
{
    int rc = r->format == NNUE_TRAIN_PLAIN ? next_plain(r, rec, err) : next_bullet(r, rec, err);
    if (rc == 0 && ferror(r->f))
        return nnue_fail_at(err, NNUE_E_IO, r->name, r->line > INT_MAX ? INT_MAX : (int)r->line, 0,
                            "read error after line %" PRIu64 ": %s", r->line, strerror(errno)), -1;
    return rc;
}

size_t text_format_record(nnue_train_format format, const nnue_train_record *rec, char *buf, size_t size)
{
    int n = format == NNUE_TRAIN_PLAIN
                ? snprintf(buf, size, "fen %s\nmove %s\nscore %d\nply %d\nresult %s\ne\n", rec->position, rec->move,
                           rec->score, rec->ply, rec->result)
                : snprintf(buf, size, "%s | %d | %s\n", rec->position, rec->score, rec->result);
    return n < 0 ? 0 : (size_t)n;
}

/* A field the reader gives back as written: not empty, no line break, and for bullet no '|'.
 * The reason goes to why[WHY_SIZE] (the caller's: writers run on many threads at once). */
enum { WHY_SIZE = TEXT_WHY_SIZE };
static const char *bad_field(nnue_train_format format, const char *name, const char *v, int may_be_empty, char *why)
{
    if (!may_be_empty && !v[0])
        snprintf(why, WHY_SIZE, "the %s is empty", name);
    else if (strpbrk(v, "\n\r"))
        snprintf(why, WHY_SIZE, "the %s holds a line break", name);
    else if (format == NNUE_TRAIN_BULLET && strchr(v, '|'))
        snprintf(why, WHY_SIZE, "the %s holds a '|' (bullet's field separator)", name);
    else if (v[0] == ' ' || (v[0] && v[strlen(v) - 1] == ' '))
        snprintf(why, WHY_SIZE, "the %s starts or ends with a space (the reader trims them)", name);
    else
        return NULL;
    return why;
}

const char *text_check_record(nnue_train_format format, const nnue_train_record *rec, char *buf)
{
    const char *why;
    if ((why = bad_field(format, "position", rec->position, 0, buf)) ||
        (why = bad_field(format, "result", rec->result, 0, buf)))
        return why;
    if (format == NNUE_TRAIN_PLAIN)
        return bad_field(format, "move", rec->move, 0, buf);
    if (rec->position[0] == '#')
        return "the position starts with '#' (a comment line in bullet text)";
    return NULL;
}
