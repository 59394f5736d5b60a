/* tools/match_reply.c: an engine's "id name" and "bestmove" lines in `nnue match`
 * (match_reply.h). */
#include "tools/match_reply.h"

#include <stdio.h>
#include <string.h>

void match_clean_text(char *text)
{
    for (unsigned char *c = (unsigned char *)text; *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            *c = '?';
}

int match_engine_name(const char *line, char *name, size_t size)
{
    if (strncmp(line, "id name ", 8) != 0 || line[8 + strspn(line + 8, " \t")] == 0 || size == 0)
        return 0;
    snprintf(name, size, "%s", line + 8); /* a long name is cut */
    match_clean_text(name);
    return 1;
}

int match_is_bestmove(const char *line)
{
    return strncmp(line, "bestmove", 8) == 0 && (line[8] == 0 || line[8] == ' ' || line[8] == '\t');
}

/* For an illegal move that is legal with the ranks counted from the other base (0 or 1): the
 * option to give. */
static const char *ranks_hint(const match_record *r, const char *move, int ranks_from, int who)
{
    static char hint[96];
    for (int from = 0; from <= 1; from++) {
        char shifted[64];
        nnue_move m;
        nnue_error err;
        if (from != ranks_from && move_shift_ranks(move, -from, shifted, sizeof shifted) == 0 &&
            r->game->parse_move(r->pos, shifted, &m, &err) == 0) {
            snprintf(hint, sizeof hint, " (ranks counted from %d? give --%sranks-from %d)", from,
                     who ? "opponent-" : "", from);
            return hint;
        }
    }
    return "";
}

static match_verdict ends(int winner, int failed)
{
    match_verdict v = {1, winner, failed, ""};
    return v;
}

match_verdict match_bestmove(match_record *r, const char *line, int ranks_from, int who, const char *name)
{
    int stm = r->game->board(r->pos)->side_to_move;
    const char *at = line + 8 + strspn(line + 8, " \t");
    size_t n = strcspn(at, " \t");
    match_verdict v;
    /* A reply without a move is a broken protocol, as an illegal move is: the engine loses. */
    if (n == 0) {
        v = ends(1 - stm, 1);
        snprintf(v.reason, sizeof v.reason, "%s sent 'bestmove' without a move", name);
        return v;
    }
    if (n > MATCH_MOVE_MAX) {
        v = ends(1 - stm, 1);
        snprintf(v.reason, sizeof v.reason, "%s sent a bestmove of %zu characters (not a move)", name, n);
        return v;
    }
    char said[MATCH_MOVE_MAX + 1], move[MATCH_MOVE_MAX + 8];
    memcpy(said, at, n);
    said[n] = 0;
    match_clean_text(said);
    if (move_shift_ranks(said, -ranks_from, move, sizeof move) != 0)
        snprintf(move, sizeof move, "%s", said);
    nnue_error err;
    if (strcmp(move, "resign") == 0) {
        v = ends(1 - stm, 0);
        snprintf(v.reason, sizeof v.reason, "%s resigns", name);
    } else if (r->game->declaration_valid && strcmp(move, "win") == 0) {
        int valid = record_declaration_valid(r);
        v = ends(valid ? stm : 1 - stm, 0);
        snprintf(v.reason, sizeof v.reason, "%s declares a win (%s)", name,
                 valid ? "entering king, 27-point rule" : "invalid declaration");
    } else if (record_play(r, move, &err) != 0) {
        v = ends(1 - stm, 1);
        match_clean_text(err.message); /* it may quote the move */
        snprintf(v.reason, sizeof v.reason, "illegal move '%s' by %s: %s%s", said, name, err.message,
                 ranks_hint(r, said, ranks_from, who));
    } else {
        v = (match_verdict){0, -1, 0, ""};
    }
    return v;
}
