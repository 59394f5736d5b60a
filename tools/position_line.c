/* tools/position_line.c: see position_line.h. The FEN / SFEN parsers stay strict; this file
 * only peels off what surrounds a position in the files users have. */
#include "tools/position_line.h"

#include <ctype.h>
#include <string.h>

/* Length of the text after cutting trailing spaces, tabs, CR and LF. */
static size_t trimmed(const char *text, size_t len)
{
    while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t' || text[len - 1] == '\r' ||
                       text[len - 1] == '\n'))
        len--;
    return len;
}

/* Offset just past the n-th space-separated field (fields separated by single spaces, as the
 * FEN parser wants them), or -1 when there are fewer. */
static long end_of_field(const char *text, int n)
{
    long i = 0;
    for (int f = 0; f < n; f++) {
        if (f > 0) {
            if (text[i] != ' ')
                return -1;
            i++;
        }
        if (!text[i] || text[i] == ' ')
            return -1;
        while (text[i] && text[i] != ' ')
            i++;
    }
    return i;
}

static int all_digits(const char *text, long from, long to)
{
    if (from >= to)
        return 0;
    for (long i = from; i < to; i++)
        if (!isdigit((unsigned char)text[i]))
            return 0;
    return 1;
}

/* EPD operations ("bm Nd5; id \"x\";"): an opcode starting with a letter, the last operation
 * closed by ';'. Garbage without them stays in the FEN and fails there, at its column. */
static int epd_operations(const char *rest)
{
    size_t len = trimmed(rest, strlen(rest));
    return len > 1 && isalpha((unsigned char)rest[0]) && rest[len - 1] == ';';
}

/* Cuts EPD operations after four position fields, or after six (a full FEN with operations). */
static void cut_epd(char *text)
{
    long four = end_of_field(text, 4);
    if (four < 0 || text[four] != ' ')
        return;
    long five = end_of_field(text, 5), six = end_of_field(text, 6);
    long keep = four;
    if (six > 0 && all_digits(text, four + 1, five) && all_digits(text, five + 1, six)) {
        if (text[six] != ' ')
            return; /* a plain six-field FEN */
        keep = six;
    }
    if (epd_operations(text + keep + 1))
        text[keep] = 0;
}

/* A TSV header: the first column is a game's position word ("fen", "sfen"). */
static int is_header(const char *line)
{
    for (int g = 0; g < nnue_game_count(); g++) {
        const char *word = nnue_game_at(g)->position_word;
        size_t n = strlen(word);
        if (strncmp(line, word, n) == 0 && (line[n] == 0 || line[n] == ' '))
            return 1;
    }
    return 0;
}

const char *position_line(const nnue_game *game, char *line, uint64_t number)
{
    line[strcspn(line, "\t|")] = 0;   /* TSV columns, bullet's " | score | result" */
    line[trimmed(line, strlen(line))] = 0;
    if (number > 0) {
        if (!line[0] || line[0] == '#')
            return NULL;
        if (number == 1 && is_header(line))
            return NULL;   /* a TSV header */
    }
    if (strcmp(line, "startpos") == 0 && game->start)
        return game->start;
    cut_epd(line);
    return line;
}
