/* fuzz/fuzz_match.c: libFuzzer target for `nnue match`'s judging of engine output: the input is
 * a scripted fake engine's replies. Starting processes from a fuzzer is slow and flaky, so
 * the functions the match runs on each line an engine sends are driven directly: "id name"
 * (tools/match_reply.c match_engine_name), the bestmove line (match_bestmove: the move played
 * and checked, resignations, declarations, protocol errors) and the game's end after each move
 * (tools/match_rules.c record_adjudicate); then the records are written as the match writes
 * them (tools/match_pgn.c for chess, the game's own record writer otherwise).
 *
 * Input: byte 0 chooses the game (bits 0-1: chess, shogi, xiangqi) and the engine's first rank
 * (bit 2: ranks counted from 1); then text lines, each from the engine of the side to move.
 * Checks: a game over has a reason and a winner in -1..1; a failed reply ends the game; every
 * PGN line starting with '[' is one tag with only \" and \\ escapes (engine text cannot add a
 * tag); the movetext holds exactly one '}' (its closing comment). Never a crash, leak or UB.
 * Seeds: fuzz/seeds/match. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue_board.h"
#include "tools/match_pgn.h"
#include "tools/match_reply.h"
#include "tools/match_rules.h"

static match_record rec; /* large (every position's key): once */

/* One PGN line: a tag [Name "value"] whose value has only \" and \\ escapes, or movetext. */
static void check_pgn(char *text)
{
    int closing = 0;
    for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
        if (l[0] != '[') {
            for (const char *c = l; *c; c++)
                closing += *c == '}';
            continue;
        }
        const char *c = l + 1;
        while ((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z'))
            c++;
        if (c == l + 1 || c[0] != ' ' || c[1] != '"')
            __builtin_trap();
        for (c += 2; *c != '"'; c++) {
            if (!*c || (unsigned char)*c < 0x20)
                __builtin_trap(); /* unterminated value, or a control character */
            if (*c == '\\' && c[1] != '"' && c[1] != '\\')
                __builtin_trap();
            c += *c == '\\';
        }
        if (strcmp(c, "\"]") != 0)
            __builtin_trap(); /* text after the value: a second tag */
    }
    if (closing != 1)
        __builtin_trap();
}

static void write_records(const nnue_game *game, const char names[2][128], const match_verdict *v, int winner)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return;
    const char *reason = v->over ? v->reason : "ply cap";
    if (game->write_record) {
        static const char *moves[MATCH_MAX_PLIES];
        for (int i = 0; i < rec.plies; i++)
            moves[i] = rec.moves[i];
        nnue_game_record r = {rec.start, moves, rec.plies, {names[0], names[1]}, winner,
                              strstr(reason, "repetition") != NULL, strstr(reason, "declar") != NULL, reason};
        game->write_record(f, &r);
        fclose(f);
    } else if (game->human_move) {
        match_write_pgn(f, &rec, names[0], names[1], winner, reason, 1);
        fclose(f);
        check_pgn(text);
    } else {
        fclose(f);
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 1 << 16)
        return 0;
    static const char *const games[] = {"chess", "shogi", "xiangqi", "chess"};
    const nnue_game *game = nnue_game_find(games[data[0] & 3]);
    int ranks_from = (data[0] >> 2) & 1;
    nnue_error err;
    if (!game || record_init(&rec, game, NULL, &err) != 0) {
        record_free(&rec);
        return 0;
    }
    char *text = malloc(size);
    if (!text) {
        record_free(&rec);
        return 0;
    }
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    char names[2][128] = {"engine", "opponent"};
    match_verdict v = {0, -1, 0, ""};
    int winner = -1;
    for (char *l = text, *next; l && !v.over; l = next) {
        next = strchr(l, '\n');
        if (next)
            *next++ = 0;
        int stm = game->board(rec.pos)->side_to_move;
        if (match_engine_name(l, names[stm], sizeof names[stm]))
            continue;
        if (!match_is_bestmove(l))
            continue; /* info lines and the like */
        v = match_bestmove(&rec, l, ranks_from, stm, names[stm]);
        if (v.over) {
            if (!v.reason[0] || v.winner < -1 || v.winner > 1)
                __builtin_trap();
            winner = v.winner;
            break;
        }
        if (v.failed)
            __builtin_trap(); /* a failure that did not end the game */
        match_outcome o = record_adjudicate(&rec, 400);
        if (o.over) {
            if (!o.reason[0] || o.winner < -1 || o.winner > 1)
                __builtin_trap();
            v.over = 1;
            winner = o.winner;
            snprintf(v.reason, sizeof v.reason, "%s", o.reason);
        }
    }
    write_records(game, (const char (*)[128])names, &v, winner);
    free(text);
    record_free(&rec);
    return 0;
}
