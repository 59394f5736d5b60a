/* games/protocol.c: one UCI / USI protocol line into an nnue_command (include/nnue_protocol.h).
 *
 * Facts relied on: the UCI protocol description (commands, "position startpos|fen ... moves",
 * go parameters, "setoption name <id> [value <x>]", tokens separated by any whitespace) and the
 * USI protocol (usi, usinewgame, "position sfen <board> <side> <hands> <ply>", go byoyomi,
 * gameover). Only the text is checked here; positions and moves are checked by the games. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "nnue_protocol.h"

typedef struct tokens {
    const char *line;
    const char *at;      /* next character to read */
    const char *tok;     /* current token */
    size_t len;          /* its length, 0 at the end of the line */
    nnue_error *err;
} tokens;

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Advances to the next token; returns its length (0 at the end). */
static size_t next(tokens *t)
{
    while (*t->at && is_space(*t->at))
        t->at++;
    t->tok = t->at;
    while (*t->at && !is_space(*t->at))
        t->at++;
    t->len = (size_t)(t->at - t->tok);
    return t->len;
}

static int is(const tokens *t, const char *word)
{
    return t->len == strlen(word) && memcmp(t->tok, word, t->len) == 0;
}

static int column(const tokens *t)
{
    return (int)(t->tok - t->line) + 1;
}

static nnue_status fail(tokens *t, const char *fmt, const char *what)
{
    return nnue_fail_at(t->err, NNUE_E_SYNTAX, "protocol", 1, column(t), fmt, what, (int)t->len, t->tok);
}

/* The rest of the line after the current token, trimmed, into out. */
static void rest_of_line(tokens *t, char *out, size_t size)
{
    const char *s = t->at;
    while (*s && is_space(*s))
        s++;
    size_t n = strlen(s);
    while (n && is_space(s[n - 1]))
        n--;
    if (n >= size)
        n = size - 1;
    memcpy(out, s, n);
    out[n] = 0;
    t->at += strlen(t->at);
}

/* Reads a non-negative integer token after a go parameter. */
static nnue_status read_number(tokens *t, const char *param, long long *out)
{
    next(t);
    if (t->len == 0)
        return nnue_fail_at(t->err, NNUE_E_SYNTAX, "protocol", 1, column(t), "go %s: expected a number, found the end of the line", param);
    char buf[24];
    int neg = t->tok[0] == '-';
    if (t->len > 18 + (size_t)neg)
        return fail(t, "go %s: expected a number of at most 18 digits, found '%.*s'", param);
    memcpy(buf, t->tok, t->len);
    buf[t->len] = 0;
    char *end;
    long long v = strtoll(buf, &end, 10);
    if (*end || end == buf + neg)
        return fail(t, "go %s: expected a number, found '%.*s'", param);
    /* Negative clock times happen (a GUI reporting an overdrawn clock): treated as 0. */
    *out = v < 0 ? 0 : v;
    return NNUE_OK;
}

static nnue_status parse_setoption(tokens *t, nnue_command *c)
{
    next(t);
    if (!is(t, "name"))
        return fail(t, "setoption: expected 'name', found '%s%.*s'", "");
    /* The name runs up to " value " (names may contain spaces). */
    const char *start = t->at;
    while (*start && is_space(*start))
        start++;
    const char *value = NULL, *s = start;
    int no_name = strncmp(start, "value", 5) == 0 && (start[5] == 0 || is_space(start[5]));
    while (*s && !no_name) {
        if (is_space(*s) && strncmp(s + 1, "value", 5) == 0 && (s[6] == 0 || is_space(s[6]))) {
            value = s + 6;
            break;
        }
        s++;
    }
    size_t n = (size_t)((value ? s : start + strlen(start)) - start);
    while (n && is_space(start[n - 1]))
        n--;
    if (no_name || n == 0 || n >= sizeof c->option_name) {
        t->tok = start;
        t->len = 0;
        return fail(t, "setoption: expected an option name of 1 to 127 characters after 'name'%s%.*s", "");
    }
    memcpy(c->option_name, start, n);
    c->option_name[n] = 0;
    if (value) {
        t->at = value;
        c->has_value = 1;
        rest_of_line(t, c->option_value, sizeof c->option_value);
    }
    c->kind = NNUE_CMD_SETOPTION;
    return NNUE_OK;
}

static nnue_status parse_position(tokens *t, nnue_command *c)
{
    next(t);
    int fields = 0;
    if (is(t, "startpos")) {
        c->startpos = 1;
        next(t);
    } else if (is(t, "fen") || is(t, "sfen")) {
        int want = is(t, "fen") ? 6 : 4, min = is(t, "fen") ? 4 : 3; /* FEN counters, SFEN ply optional */
        const char *what = is(t, "fen") ? "FEN" : "SFEN";
        size_t used = 0;
        while (next(t) && !is(t, "moves")) {
            if (fields == want)
                return nnue_fail_at(t->err, NNUE_E_SYNTAX, "protocol", 1, column(t),
                                    "position: a %s has %d fields, found more ('%.*s')", what, want, (int)t->len, t->tok);
            if (used + t->len + 2 > sizeof c->position)
                return nnue_fail_at(t->err, NNUE_E_SYNTAX, "protocol", 1, column(t), "position: the %s is too long", what);
            if (used)
                c->position[used++] = ' ';
            memcpy(c->position + used, t->tok, t->len);
            used += t->len;
            c->position[used] = 0;
            fields++;
        }
        if (fields < min)
            return nnue_fail_at(t->err, NNUE_E_SYNTAX, "protocol", 1, column(t),
                                "position: expected a %s of %d fields, found %d", what, want, fields);
    } else {
        return fail(t, "position: expected 'startpos', 'fen' or 'sfen', found '%s%.*s'", "");
    }
    if (t->len && !is(t, "moves"))
        return fail(t, "position: expected 'moves' or the end of the line, found '%s%.*s'", "");
    if (is(t, "moves")) {
        while (next(t)) {
            if (c->move_count == NNUE_PROTOCOL_MAX_MOVES)
                return fail(t, "position: more than 2048 moves%s (at '%.*s')", "");
            if (t->len >= sizeof c->moves[0])
                return fail(t, "position: a move has at most 7 characters%s, found '%.*s'", "");
            memcpy(c->moves[c->move_count], t->tok, t->len);
            c->moves[c->move_count][t->len] = 0;
            c->move_count++;
        }
    }
    c->kind = NNUE_CMD_POSITION;
    return NNUE_OK;
}

static nnue_status parse_go(tokens *t, nnue_command *c)
{
    nnue_go_limits *g = &c->go;
    static const char *const names[] = {"wtime", "btime", "winc", "binc", "movetime", "byoyomi", "nodes", NULL};
    long long *values[] = {&g->wtime, &g->btime, &g->winc, &g->binc, &g->movetime, &g->byoyomi, &g->nodes};
    while (next(t)) {
        int i = 0;
        while (names[i] && !is(t, names[i]))
            i++;
        long long v;
        nnue_status st;
        if (names[i]) {
            if ((st = read_number(t, names[i], values[i])) != NNUE_OK)
                return st;
        } else if (is(t, "movestogo") || is(t, "depth")) {
            const char *p = is(t, "depth") ? "depth" : "movestogo";
            if ((st = read_number(t, p, &v)) != NNUE_OK)
                return st;
            *(p[0] == 'd' ? &g->depth : &g->movestogo) = v > 100000 ? 100000 : (int)v;
        } else if (is(t, "mate")) {
            const char *save = t->at;
            next(t);
            if (is(t, "infinite")) {
                g->mate = 0;
                g->infinite = 1;
            } else {
                t->at = save;
                if ((st = read_number(t, "mate", &v)) != NNUE_OK)
                    return st;
                g->mate = v > 100000 ? 100000 : (int)v;
            }
        } else if (is(t, "infinite")) {
            g->infinite = 1;
        } else if (is(t, "ponder")) {
            g->ponder = 1;
        } else if (is(t, "searchmoves")) {
            while (next(t)) /* accepted, not used: the engines search every move */
                ;
        } else {
            return fail(t, "go: unknown parameter '%s%.*s'", "");
        }
    }
    c->kind = NNUE_CMD_GO;
    return NNUE_OK;
}

nnue_status nnue_protocol_parse(const char *line, nnue_command *c, nnue_error *err)
{
    nnue_error_clear(err);
    if (!line || !c)
        return nnue_fail(err, NNUE_E_ARG, "nnue_protocol_parse: expected a line and a command");
    memset(c, 0, offsetof(nnue_command, moves));
    c->move_count = 0;
    c->result[0] = 0;
    c->go = (nnue_go_limits){-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0};
    tokens t = {line, line, line, 0, err};
    if (strlen(line) > NNUE_PROTOCOL_MAX_LINE) {
        c->kind = NNUE_CMD_ERROR;
        return nnue_fail_at(err, NNUE_E_SYNTAX, "protocol", 1, NNUE_PROTOCOL_MAX_LINE + 1,
                            "line longer than %d characters", NNUE_PROTOCOL_MAX_LINE);
    }
    static const struct { const char *word; nnue_cmd_kind kind; } simple[] = {
        {"uci", NNUE_CMD_UCI}, {"usi", NNUE_CMD_USI}, {"isready", NNUE_CMD_ISREADY},
        {"ucinewgame", NNUE_CMD_NEWGAME}, {"usinewgame", NNUE_CMD_NEWGAME}, {"stop", NNUE_CMD_STOP},
        {"ponderhit", NNUE_CMD_PONDERHIT}, {"quit", NNUE_CMD_QUIT}, {"debug", NNUE_CMD_DEBUG},
        {"register", NNUE_CMD_REGISTER}, {"eval", NNUE_CMD_EVAL},
    };
    nnue_status st = NNUE_OK;
    if (next(&t) == 0) {
        c->kind = NNUE_CMD_EMPTY;
        return NNUE_OK;
    }
    for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++)
        if (is(&t, simple[i].word)) {
            c->kind = simple[i].kind;
            return NNUE_OK; /* arguments of debug/register are not used */
        }
    if (is(&t, "setoption"))
        st = parse_setoption(&t, c);
    else if (is(&t, "position"))
        st = parse_position(&t, c);
    else if (is(&t, "go"))
        st = parse_go(&t, c);
    else if (is(&t, "gameover")) {
        next(&t);
        if (!is(&t, "win") && !is(&t, "lose") && !is(&t, "draw"))
            st = fail(&t, "gameover: expected win, lose or draw, found '%s%.*s'", "");
        else {
            memcpy(c->result, t.tok, t.len);
            c->result[t.len] = 0;
            c->kind = NNUE_CMD_GAMEOVER;
        }
    } else
        st = fail(&t, "unknown command '%s%.*s'", "");
    if (st != NNUE_OK)
        c->kind = NNUE_CMD_ERROR;
    return st;
}
