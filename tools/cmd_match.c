/* tools/cmd_match.c: `nnue match`: two engines play each other over pipes, in the protocol
 * the game's descriptor names (UCI for chess, USI for shogi). Every move is checked with the
 * library's move generator (an illegal move, a bestmove without a move, a crash or a timeout
 * loses the game and makes the command exit 1; tools/match_reply.h reads the engines' lines);
 * games end by the rules of tools/match_rules.h. Colours alternate; with --random-plies each
 * pair of games starts from the same random opening. With --out, writes PGN (games with a human
 * notation: chess; tools/match_pgn.h), the game's own record (shogi: CSA) or one
 * "position ... moves ..." line per game, into a temporary file beside it renamed at the end;
 * prints the score of the first engine as W/D/L. An engine listing a UCI_Variant option with the
 * game among its values is told the game (unless --option gives one); --ranks-from /
 * --opponent-ranks-from translate an engine whose ranks count from 1 (Fairy-Stockfish's
 * xiangqi) to the game's notation and back. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "nnue.h"
#include "tools/commands.h"
#include "tools/match_pgn.h"
#include "tools/match_process.h"
#include "tools/match_reply.h"
#include "tools/match_rules.h"
#include "tools/tool_args.h"

#define MAX_OPTIONS 16

typedef struct match_opts {
    const nnue_game *game;
    const char *command[2];              /* [0] the engine under test, [1] the opponent */
    const char *options[2][MAX_OPTIONS]; /* NAME=VALUE */
    int option_count[2];
    int ranks_from[2];                   /* an engine's first rank number (the game's: 0) */
    int games, movetime, max_plies, random_plies;
    long long timeout_margin;
    uint64_t seed;
    const char *out;
} match_opts;

typedef struct game_result {
    int winner;           /* colour, -1 draw */
    int score;            /* for the engine under test: 2 win, 1 draw, 0 loss */
    int failed;           /* an engine broke the protocol or the rules */
    char reason[1024];    /* room for a move, an engine name and a whole nnue_error message */
    int first_colour;     /* colour of the engine under test */
    double nps_sum;       /* its reported nps, summed over its moves */
    int nps_count;
} game_result;

static char names[2][128];
static int named[2]; /* names[who] came from the engine's "id name", not from its command */

/* The option line offers the game as a value (" var NAME", a whole word). */
static int offers_variant(const char *line, const char *game)
{
    size_t n = strlen(game);
    for (const char *at = line; (at = strstr(at, " var ")); at += 5)
        if (strncmp(at + 5, game, n) == 0 && (at[5 + n] == 0 || at[5 + n] == ' '))
            return 1;
    return 0;
}

static int has_option(const match_opts *o, int who, const char *name)
{
    for (int i = 0; i < o->option_count[who]; i++)
        if (strncasecmp(o->options[who][i], name, strlen(name)) == 0 && o->options[who][i][strlen(name)] == '=')
            return 1;
    return 0;
}

static int start_engine(const match_opts *o, int who, engine_proc *p, char *why, size_t size)
{
    char line[4096];
    const char *proto = o->game->protocol;
    char ok[16];
    snprintf(ok, sizeof ok, "%sok", proto);
    if (proc_start(p, o->command[who]) != 0) {
        snprintf(why, size, "cannot start '%s'", o->command[who]);
        return -1;
    }
    proc_send(p, "%s", proto);
    for (;;) {
        int r = proc_read_line(p, line, sizeof line, 10000);
        if (r <= 0) {
            snprintf(why, size, "'%s' did not answer '%s' with '%sok'", o->command[who], proto, proto);
            return -1;
        }
        /* The first "id name" (cleaned, cut). A flag, not a comparison with the command: the
         * command is cut to fit names[], so a long one never compared equal. */
        if (!named[who] && match_engine_name(line, names[who], sizeof names[who]))
            named[who] = 1;
        if (strncmp(line, "option name UCI_Variant ", 24) == 0 && offers_variant(line, o->game->name) &&
            !has_option(o, who, "UCI_Variant"))
            proc_send(p, "setoption name UCI_Variant value %s", o->game->name);
        if (strcmp(line, ok) == 0)
            break;
    }
    for (int i = 0; i < o->option_count[who]; i++) {
        const char *eq = strchr(o->options[who][i], '=');
        proc_send(p, "setoption name %.*s value %s", (int)(eq - o->options[who][i]), o->options[who][i], eq + 1);
    }
    proc_send(p, "isready");
    if (proc_wait_for(p, "readyok", NULL, 0, 60000) != 1) {
        snprintf(why, size, "'%s' did not answer isready", o->command[who]);
        return -1;
    }
    proc_send(p, "%snewgame", proto);
    return 0;
}

/* The "position" command for the game so far, in the engine's notation. */
static void send_position(engine_proc *p, const match_record *r, int ranks_from)
{
    static char text[MATCH_MAX_PLIES * 10 + 64];
    size_t n = (size_t)snprintf(text, sizeof text, "position startpos%s", r->plies ? " moves" : "");
    for (int i = 0; i < r->plies && n + 11 < sizeof text; i++) {
        char move[16];
        if (move_shift_ranks(r->moves[i], ranks_from, move, sizeof move) != 0)
            snprintf(move, sizeof move, "%s", r->moves[i]);
        n += (size_t)snprintf(text + n, sizeof text - n, " %s", move);
    }
    proc_send(p, "%s", text);
}

/* Value after "nps " in an info line, or -1. */
static double info_nps(const char *line)
{
    const char *at = strstr(line, " nps ");
    return at ? strtod(at + 5, NULL) : -1;
}

static void play(const match_opts *o, int index, match_record *r, const char *const *opening, int opening_len,
                 game_result *res)
{
    engine_proc procs[2];
    memset(procs, 0, sizeof procs);
    memset(res, 0, sizeof *res);
    res->first_colour = index & 1;
    nnue_error err;
    record_init(r, o->game, NULL, &err);
    for (int i = 0; i < opening_len; i++)
        record_play(r, opening[i], &err);
    int winner = -2; /* colour, -1 draw */
    for (int who = 0; who < 2 && winner == -2; who++)
        if (start_engine(o, who, &procs[who], res->reason, sizeof res->reason) != 0) {
            winner = who == 0 ? 1 - res->first_colour : res->first_colour;
            res->failed = 1;
        }
    while (winner == -2) {
        match_outcome out = record_adjudicate(r, o->max_plies);
        if (out.over) {
            winner = out.winner;
            snprintf(res->reason, sizeof res->reason, "%s", out.reason);
            break;
        }
        int stm = r->game->board(r->pos)->side_to_move;
        int who = stm == res->first_colour ? 0 : 1;
        engine_proc *p = &procs[who];
        send_position(p, r, o->ranks_from[who]);
        if (strcmp(o->game->protocol, "usi") == 0) /* USI has no movetime: byoyomi on empty clocks */
            proc_send(p, "go btime 0 wtime 0 byoyomi %d", o->movetime);
        else
            proc_send(p, "go movetime %d", o->movetime);
        char line[4096];
        double nps = -1;
        int got;
        while ((got = proc_read_line(p, line, sizeof line, o->movetime + o->timeout_margin)) == 1 &&
               !match_is_bestmove(line))
            if (strncmp(line, "info ", 5) == 0 && info_nps(line) >= 0)
                nps = info_nps(line);
        if (got != 1) {
            snprintf(res->reason, sizeof res->reason, "%s %s", names[who][0] ? names[who] : o->command[who],
                     got == 0 ? "exceeded the time (no bestmove)" : "exited");
            res->failed = 1;
            winner = 1 - stm;
            break;
        }
        if (who == 0 && nps >= 0) {
            res->nps_sum += nps;
            res->nps_count++;
        }
        match_verdict v = match_bestmove(r, line, o->ranks_from[who], who, names[who]);
        if (v.over) {
            winner = v.winner;
            res->failed |= v.failed;
            snprintf(res->reason, sizeof res->reason, "%s", v.reason);
        }
    }
    proc_stop(&procs[0]);
    proc_stop(&procs[1]);
    res->winner = winner;
    res->score = winner == -1 ? 1 : winner == res->first_colour ? 2 : 0;
}

static const char *result_text(int winner)
{
    return winner == 0 ? "1-0" : winner == 1 ? "0-1" : "1/2-1/2";
}

/* One game in the game's own record format (shogi: CSA), through its descriptor. */
static void write_game_record(FILE *f, const match_opts *o, const match_record *r, const game_result *g)
{
    static const char *moves[MATCH_MAX_PLIES];
    for (int i = 0; i < r->plies; i++)
        moves[i] = r->moves[i];
    nnue_game_record rec = {r->start, moves, r->plies, {names[g->first_colour == 0 ? 0 : 1],
                            names[g->first_colour == 0 ? 1 : 0]}, g->winner, strstr(g->reason, "repetition") != NULL,
                            strstr(g->reason, "declar") != NULL, g->reason};
    if (o->game->write_record(f, &rec) != 0)
        fprintf(stderr, "nnue match: cannot write the record of a game (a move does not replay)\n");
}

/* One game: a comment line and the protocol's position command that replays it. */
static void write_position_record(FILE *f, const match_record *r, const game_result *g, int round)
{
    const char *const *colour = r->game->colour_names;
    const char *first = names[g->first_colour == 0 ? 0 : 1], *second = names[g->first_colour == 0 ? 1 : 0];
    fprintf(f, "# game %d: %s %s, %s %s: ", round, colour[0], first, colour[1], second);
    if (g->winner >= 0)
        fprintf(f, "%s wins", colour[g->winner]);
    else
        fprintf(f, "draw");
    fprintf(f, " (%s), %d plies\nposition startpos%s", g->reason, r->plies, r->plies ? " moves" : "");
    for (int i = 0; i < r->plies; i++)
        fprintf(f, " %s", r->moves[i]);
    fputc('\n', f);
}

/* A random opening of n plies (the same for both games of a pair); stops early at a game end. */
static int random_opening(const match_opts *o, uint64_t seed, char moves[][8], int n)
{
    match_record *r = malloc(sizeof *r);
    nnue_error err;
    int count = 0;
    if (!r || record_init(r, o->game, NULL, &err) != 0) {
        free(r);
        return 0;
    }
    for (; count < n; count++) {
        nnue_move legal[NNUE_MAX_MOVES];
        int k = o->game->legal_moves(r->pos, legal);
        if (k == 0 || record_adjudicate(r, o->max_plies).over)
            break;
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17; /* xorshift64 */
        o->game->format_move(legal[seed % (uint64_t)k], moves[count], 8);
        record_play(r, moves[count], &err);
    }
    record_free(r);
    free(r);
    return count;
}

/* The program a command starts (its first word, after VAR=value settings) must exist: said by
 * name before any game, instead of games lost to an engine that never answered. */
static int program_found(const char *command, const char *option)
{
    char word[1024];
    const char *c = command;
    int n = 0;
    for (;;) {
        while (*c == ' ' || *c == '\t')
            c++;
        n = 0;
        while (c[n] && c[n] != ' ' && c[n] != '\t')
            n++;
        if (n == 0 || !memchr(c, '=', (size_t)n) || memchr(c, '/', (size_t)n))
            break;
        c += n;
    }
    snprintf(word, sizeof word, "%.*s", n, c);
    if (!word[0] || strpbrk(word, "'\"$`\\(;|&<>"))
        return 1; /* shell syntax: let the shell say */
    if (strchr(word, '/')) {
        if (access(word, X_OK) == 0)
            return 1;
        fprintf(stderr, "nnue match: %s '%s': the program %s %s\n", option, command, word,
                access(word, F_OK) == 0 ? "is not executable" : "does not exist");
        return 0;
    }
    const char *path = getenv("PATH");
    for (const char *d = path ? path : "/usr/bin:/bin"; *d;) {
        size_t len = strcspn(d, ":");
        char full[2200];
        snprintf(full, sizeof full, "%.*s/%s", (int)len, len ? d : ".", word);
        if (access(full, X_OK) == 0)
            return 1;
        d += len + (d[len] == ':');
    }
    fprintf(stderr, "nnue match: %s '%s': the program '%s' is not found on PATH (give its path, e.g. "
            "./build/examples/engine/nnue-uci)\n", option, command, word);
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: nnue match --game GAME --engine CMD --opponent CMD [--option NAME=VALUE]...\n"
                    "       [--opponent-option NAME=VALUE]... [--games N] [--movetime MS] [--max-plies N]\n"
                    "       [--random-plies N] [--seed N] [--timeout-margin MS] [--out FILE]\n"
                    "       [--ranks-from N] [--opponent-ranks-from N]\n");
    return 2;
}

/* "chess, shogi, xiangqi": the games --game accepts, for its error message. */
static const char *game_names(void)
{
    static char text[512];
    text[0] = 0;
    for (int i = 0; i < nnue_game_count(); i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", i ? ", " : "", nnue_game_at(i)->name);
    return text;
}

/* One option and its value into o: 0, or 2 after saying what was wrong (tool_args.h). */
static int match_option(match_opts *o, const char *a, const char *v)
{
    int ranks;
    if (strcmp(a, "--game") == 0) {
        if (!(o->game = nnue_game_find(v))) {
            fprintf(stderr, "nnue match: --game: unknown game '%s' (expected one of: %s)\n", v, game_names());
            return 2;
        }
    } else if (strcmp(a, "--engine") == 0)
        o->command[0] = v;
    else if (strcmp(a, "--opponent") == 0)
        o->command[1] = v;
    else if ((strcmp(a, "--option") == 0 || strcmp(a, "--opponent-option") == 0)) {
        int who = a[2] == 'o' && a[3] == 'p' && a[4] == 'p';
        if (!strchr(v, '=') || o->option_count[who] == MAX_OPTIONS) {
            fprintf(stderr, "nnue match: %s: expected NAME=VALUE (at most %d)\n", a, MAX_OPTIONS);
            return 2;
        }
        o->options[who][o->option_count[who]++] = v;
    } else if (strcmp(a, "--games") == 0)
        return tool_parse_int("match", a, v, 1, 1000000, &o->games);
    else if (strcmp(a, "--movetime") == 0)
        return tool_parse_int("match", a, v, 1, 86400000, &o->movetime);
    else if (strcmp(a, "--max-plies") == 0)
        return tool_parse_int("match", a, v, 0, 1000000, &o->max_plies);
    else if (strcmp(a, "--random-plies") == 0)
        return tool_parse_int("match", a, v, 0, 64, &o->random_plies);
    else if (strcmp(a, "--seed") == 0) {
        char *end;
        o->seed = strtoull(v, &end, 10);
        if (*v < '0' || *v > '9' || *end) {
            fprintf(stderr, "nnue match: --seed expects a whole number, found '%s'\n", v);
            return 2;
        }
    } else if (strcmp(a, "--timeout-margin") == 0) {
        int ms;
        if (tool_parse_int("match", a, v, 0, 86400000, &ms) != 0)
            return 2;
        o->timeout_margin = ms;
    } else if (strcmp(a, "--out") == 0)
        o->out = v;
    else if (strcmp(a, "--ranks-from") == 0 || strcmp(a, "--opponent-ranks-from") == 0) {
        if (tool_parse_int("match", a, v, 0, 1, &ranks) != 0)
            return 2;
        o->ranks_from[a[2] == 'o'] = ranks;
    } else
        return tool_bad_argument("match", a, (const char *const[]){NULL});
    return 0;
}

int cmd_match(int argc, char **argv)
{
    match_opts o = {.games = 2, .movetime = 100, .max_plies = 0, .timeout_margin = 5000, .seed = 1};
    static const char *const value_options[] = {"--game", "--engine", "--opponent", "--option", "--opponent-option",
                                                "--games", "--movetime", "--max-plies", "--random-plies", "--seed",
                                                "--timeout-margin", "--out", "--ranks-from",
                                                "--opponent-ranks-from", NULL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int takes_value = 0;
        for (int k = 0; value_options[k]; k++)
            takes_value |= strcmp(a, value_options[k]) == 0;
        if (!takes_value || i + 1 == argc) {
            tool_bad_argument("match", a, value_options);
            return usage();
        }
        if (match_option(&o, a, argv[++i]) != 0)
            return usage();
    }
    const char *missing = !o.game ? "--game" : !o.command[0] ? "--engine" : !o.command[1] ? "--opponent" : NULL;
    if (missing) {
        fprintf(stderr, "nnue match: %s is required\n", missing);
        return usage();
    }
    if (o.max_plies == 0 || o.max_plies >= MATCH_MAX_PLIES)
        o.max_plies = o.game->max_plies > 0 && o.game->max_plies < MATCH_MAX_PLIES ? o.game->max_plies : 400;
    for (int who = 0; who < 2; who++)
        if (!program_found(o.command[who], who ? "--opponent" : "--engine"))
            return 1;
    /* The record goes to a temporary file renamed over --out at the end (nnue_atomic_writer_open,
     * as every file the tool writes): never half-written or truncated in place. */
    nnue_atomic_writer *af = NULL;
    nnue_error err;
    if (o.out && nnue_atomic_writer_open(o.out, &af, &err) != NNUE_OK) {
        fprintf(stderr, "nnue match: --out: %s\n", err.message);
        return 1;
    }
    FILE *out = o.out ? nnue_atomic_writer_stream(af) : NULL;
    match_record *r = malloc(sizeof *r);
    if (!r) {
        if (out)
            nnue_atomic_writer_abort(af);
        return 1;
    }
    /* Until an engine says "id name", the summaries name it by its command. */
    for (int who = 0; who < 2; who++)
        snprintf(names[who], sizeof names[who], "%.127s", o.command[who]);
    int wins = 0, draws = 0, losses = 0, failures = 0;
    double nps_sum = 0;
    int nps_count = 0;
    char opening[64][8];
    const char *opening_ptr[64];
    int opening_len = 0;
    for (int g = 0; g < o.games; g++) {
        if (g % 2 == 0) {
            opening_len = random_opening(&o, o.seed * 0x9E3779B97F4A7C15ull + (uint64_t)g + 1, opening, o.random_plies);
            for (int i = 0; i < opening_len; i++)
                opening_ptr[i] = opening[i];
        }
        game_result res;
        play(&o, g, r, opening_ptr, opening_len, &res);
        wins += res.score == 2;
        draws += res.score == 1;
        losses += res.score == 0;
        failures += res.failed;
        nps_sum += res.nps_sum;
        nps_count += res.nps_count;
        const char *first = names[res.first_colour == 0 ? 0 : 1], *second = names[res.first_colour == 0 ? 1 : 0];
        printf("game %d/%d: %s (%s) - %s (%s): %s, %s, %d plies\n", g + 1, o.games, first, o.game->colour_names[0],
               second, o.game->colour_names[1], result_text(res.winner), res.reason, r->plies);
        fflush(stdout);
        if (out && o.game->write_record)
            write_game_record(out, &o, r, &res);
        else if (out && o.game->human_move)
            match_write_pgn(out, r, first, second, res.winner, res.reason, g + 1);
        else if (out)
            write_position_record(out, r, &res, g + 1);
        record_free(r);
    }
    free(r);
    int unwritten = out && nnue_atomic_writer_commit(af, &err) != NNUE_OK;
    if (unwritten)
        fprintf(stderr, "nnue match: --out: %s\n", err.message);
    printf("%s vs %s: W %d D %d L %d (%d games, %.1f%%)\n", names[0], names[1], wins, draws, losses, o.games,
           100.0 * (wins + 0.5 * draws) / o.games);
    if (nps_count)
        printf("%s: %.0f nps on average over %d moves\n", names[0], nps_sum / nps_count, nps_count);
    if (failures)
        printf("%d game(s) ended by an illegal move, a crash or a timeout\n", failures);
    return failures || unwritten ? 1 : 0;
}
