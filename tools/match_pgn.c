/* tools/match_pgn.c: PGN records of `nnue match` (match_pgn.h). */
#include "tools/match_pgn.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static int control(unsigned char c)
{
    return c < 0x20 || c == 0x7f;
}

void pgn_tag_value(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)in; *c; c++) {
        int escape = *c == '"' || *c == '\\';
        if (n + 1 + (size_t)escape >= size)
            break;
        if (escape)
            out[n++] = '\\';
        out[n++] = control(*c) ? '?' : (char)*c;
    }
    if (size)
        out[n] = 0;
}

void pgn_comment_text(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)in; *c && n + 1 < size; c++)
        out[n++] = control(*c) ? '?' : *c == '}' ? ')' : (char)*c;
    if (size)
        out[n] = 0;
}

static const char *result_text(int winner)
{
    return winner == 0 ? "1-0" : winner == 1 ? "0-1" : "1/2-1/2";
}

void match_write_pgn(FILE *f, const match_record *r, const char *white, const char *black, int winner,
                     const char *reason, int round)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    char w[512], b[512], why[2048], comment[1024];
    pgn_tag_value(white, w, sizeof w);
    pgn_tag_value(black, b, sizeof b);
    pgn_tag_value(reason, why, sizeof why);
    pgn_comment_text(reason, comment, sizeof comment);
    fprintf(f, "[Event \"nnue match\"]\n[Site \"?\"]\n[Date \"%04d.%02d.%02d\"]\n[Round \"%d\"]\n", tm.tm_year + 1900,
            tm.tm_mon + 1, tm.tm_mday, round);
    fprintf(f, "[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n[Termination \"%s\"]\n\n", w, b,
            result_text(winner), why);
    const nnue_game *game = r->game;
    void *pos = calloc(1, game->pos_size);
    nnue_error err;
    if (!pos || game->parse(pos, r->start, &err) != 0) {
        free(pos);
        return;
    }
    int column = 0;
    for (int i = 0; i < r->plies; i++) {
        char san[16], word[32];
        nnue_move m;
        game->parse_move(pos, r->moves[i], &m, &err);
        game->human_move(pos, m, san, sizeof san);
        game->make(pos, m, NULL);
        int n = i % 2 == 0 ? snprintf(word, sizeof word, "%d. %s", i / 2 + 1, san) : snprintf(word, sizeof word, "%s", san);
        if (column + n + 1 > 79) {
            fputc('\n', f);
            column = 0;
        } else if (column) {
            fputc(' ', f);
            column++;
        }
        fputs(word, f);
        column += n;
    }
    fprintf(f, "%s{%s} %s\n\n", column ? " " : "", comment, result_text(winner));
    free(pos);
}
