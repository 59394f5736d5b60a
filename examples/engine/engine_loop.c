/* examples/engine/engine_loop.c: the UCI / USI command loop of the engines: reads lines from
 * the GUI, parses them with the library's nnue_protocol_parse, keeps the position and the
 * options, loads the net, and runs one search at a time in the background (so "stop",
 * "isready" and "quit" are answered while it thinks).
 *
 * Options: EvalFile (the net; its architecture is detected from the header by
 * nnue_net_load_auto), EvalArch (a built-in architecture name such as "sfnnv5", or a YAML file:
 * needed when the header fits several architectures), Threads (search threads sharing the one
 * net), Hash (MB; USI_Hash too), MultiPV (root lines reported), Ponder / USI_Ponder (accepted:
 * "go ponder" and "ponderhit" work either way), UCI_Chess960 (chess: castling as king takes
 * rook), UCI_Variant (nnue-uci: chess or xiangqi; without it the game follows the loaded net's
 * game). A net of another game than the position's is said at every isready and go and is not
 * used (every evaluation 0), so the engine never plays one game's moves with another's net.
 * Extension (a shared object registering layer types, feature sets or games,
 * include/nnue_extend.h; loaded at once, before the net that names them; so are the files of the
 * environment variable NNUE_EXTENSIONS, at start).
 * "go searchmoves M..." limits the root moves (read here: the library's parser does not
 * know it). The net is (re)loaded at the next isready or go; without a
 * usable one, every isready and go says so (info string) before answering. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine.h"

typedef struct engine {
    const engine_rules *r;                 /* the game being played */
    const engine_rules *const *games;      /* the games this engine plays, NULL-terminated */
    int variant_set;                       /* UCI_Variant given: the net no longer chooses */
    int net_fits;                          /* the net evaluates r's boards */
    const engine_rules *net_rules;         /* the game among games the net is for, or NULL */
    nnue_command last_position;            /* replayed when the game changes */
    int has_position;
    char eval_file[1024], eval_arch[1024];
    int net_dirty;
    nnue_net *net;
    nnue_cp_rule cp;                       /* the net's centipawns (include/nnue.h), for `eval` */
    int threads, hash_mb, multipv, chess960;
    tt_table tt;
    void *pos;                             /* the position of the last "position" command */
    uint64_t history[MAX_GAME_PLIES + 1];  /* keys of the game's positions, the current last */
    int history_count;
    search_shared *search;                 /* running search or NULL */
    int search_endless;                    /* it runs until "stop" (go infinite / ponder) */
    int search_infinite;                   /* go infinite: still endless after ponderhit */
} engine;

static void info_error(const char *what, const nnue_error *err)
{
    char msg[1200];
    nnue_error_format(err, msg, sizeof msg);
    engine_print("info string error: %s: %s", what, msg);
}

static void finish_search(engine *e)
{
    if (e->search) {
        search_stop(e->search);
        search_wait(e->search);
        e->search = NULL;
    }
}

/* Whether the net was made for these rules' game (the game its architecture names). */
static int net_takes(const engine *e, const engine_rules *r)
{
    return e->net && nnue_arch_game(nnue_net_arch(e->net)) == r->game;
}

static void set_position(engine *e, const nnue_command *c);

/* Plays another game from now: the last position command is read again in its rules. */
static void switch_game(engine *e, const engine_rules *r, const char *why)
{
    if (r != e->r) {
        e->r = r;
        tt_clear(&e->tt);
        nnue_command start = {.kind = NNUE_CMD_POSITION, .startpos = 1};
        set_position(e, e->has_position ? &e->last_position : &start);
        engine_print("info string game %s (%s)", r->game->name, why);
    }
    e->net_fits = e->net && e->net_rules == e->r;
}

/* Loads EvalFile (with EvalArch when given) if an option changed since the last load; the game
 * follows the net's unless UCI_Variant chose it. */
static void load_net(engine *e)
{
    if (!e->net_dirty)
        return;
    e->net_dirty = 0;
    nnue_net_free(e->net);
    e->net = NULL;
    e->net_rules = NULL;
    e->net_fits = 0;
    if (!e->eval_file[0])
        return; /* said by warn_no_net at every isready and go */
    nnue_error err;
    nnue_status st;
    if (!e->eval_arch[0]) {
        st = nnue_net_load_auto(e->eval_file, &e->net, &err);
    } else {
        nnue_arch *arch;
        st = nnue_arch_load_named(e->eval_arch, &arch, &err); /* a built-in name, or a YAML file */
        if (st == NNUE_OK) {
            st = nnue_net_load(arch, e->eval_file, &e->net, &err);
            nnue_arch_free(arch);
        }
    }
    if (st != NNUE_OK) {
        info_error("EvalFile", &err);
        return;
    }
    engine_print("info string loaded %s (nnue %s, %s kernels)", e->eval_file, nnue_version(), nnue_isa_name());
    nnue_cp_rule_for_file(nnue_net_arch(e->net), e->eval_file, &e->cp);
    e->net_rules = NULL;
    for (int i = 0; e->games[i] && !e->net_rules; i++)
        if (net_takes(e, e->games[i]))
            e->net_rules = e->games[i];
    switch_game(e, e->net_rules && !e->variant_set ? e->net_rules : e->r, "the net's game");
}

/* Without a usable net every evaluation is 0 and the moves are close to random: a GUI must
 * hear that at every isready and go, not only once when the option was set. */
static void warn_no_net(const engine *e)
{
    if (e->net && !e->net_fits) {
        if (e->net_rules)
            engine_print("info string error: the net is for %s, the position is %s (UCI_Variant): the net is not "
                         "used, every position evaluates to 0", e->net_rules->game->name, e->r->game->name);
        else
            engine_print("info string error: the net does not fit %s boards: the net is not used, every position "
                         "evaluates to 0", e->r->game->name);
    }
    if (e->net)
        return;
    if (!e->eval_file[0])
        engine_print("info string error: no net: EvalFile is not set, every position evaluates to 0 "
                     "(setoption name EvalFile value PATH)");
    else
        engine_print("info string error: no net: EvalFile %s did not load, every position evaluates to 0",
                     e->eval_file);
}

static int any_chess960(const engine *e)
{
    int any = 0;
    for (int i = 0; e->games[i]; i++)
        any |= e->games[i]->set_chess960 != NULL;
    return any;
}

static void print_identity(const engine *e)
{
    engine_print("id name %s %s", e->r->name, nnue_version());
    engine_print("id author the nnue project");
    engine_print("option name EvalFile type string default <empty>");
    engine_print("option name EvalArch type string default <empty>");
    engine_print("option name Extension type string default <empty>");
    engine_print("option name Threads type spin default 1 min 1 max 256");
    engine_print("option name %s type spin default 16 min 1 max 65536", e->r->protocol[1] == 's' ? "USI_Hash" : "Hash");
    engine_print("option name MultiPV type spin default 1 min 1 max %d", MULTIPV_MAX);
    engine_print("option name %s type check default false", e->r->protocol[1] == 's' ? "USI_Ponder" : "Ponder");
    if (any_chess960(e))
        engine_print("option name UCI_Chess960 type check default false");
    if (e->games[1]) {
        char vars[256] = "";
        for (int i = 0; e->games[i]; i++)
            snprintf(vars + strlen(vars), sizeof vars - strlen(vars), " var %s", e->games[i]->game->name);
        engine_print("option name UCI_Variant type combo default %s%s", e->games[0]->game->name, vars);
    }
    engine_print("%sok", e->r->protocol);
}

static const char *variant_list(const engine *e)
{
    static char list[256];
    list[0] = 0;
    for (int i = 0; e->games[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", e->games[i]->game->name);
    return list;
}

static void set_option(engine *e, const nnue_command *c)
{
    const char *v = c->has_value ? c->option_value : "";
    if (strcmp(v, "<empty>") == 0)
        v = "";
    if (strcasecmp(c->option_name, "EvalFile") == 0 || strcasecmp(c->option_name, "EvalArch") == 0) {
        char *dst = strcasecmp(c->option_name, "EvalFile") == 0 ? e->eval_file : e->eval_arch;
        snprintf(dst, sizeof e->eval_file, "%s", v);
        e->net_dirty = 1;
    } else if (strcasecmp(c->option_name, "Extension") == 0) {
        nnue_error err;
        if (v[0] && nnue_ext_load(v, &err) != NNUE_OK)
            info_error("Extension", &err);
        e->net_dirty = 1; /* a net that failed for want of a name it registers loads now */
    } else if (strcasecmp(c->option_name, "Threads") == 0) {
        int n = atoi(v);
        e->threads = n < 1 ? 1 : n > 256 ? 256 : n;
    } else if (strcasecmp(c->option_name, "Hash") == 0 || strcasecmp(c->option_name, "USI_Hash") == 0) {
        int mb = atoi(v);
        if (mb >= 1 && tt_resize(&e->tt, mb) == 0)
            e->hash_mb = mb;
        else
            engine_print("info string Hash %s: expected 1 to 65536 MB that can be allocated", v);
    } else if (strcasecmp(c->option_name, "MultiPV") == 0) {
        int n = atoi(v);
        e->multipv = n < 1 ? 1 : n > MULTIPV_MAX ? MULTIPV_MAX : n;
    } else if (any_chess960(e) && strcasecmp(c->option_name, "UCI_Chess960") == 0) {
        e->chess960 = strcasecmp(v, "true") == 0;
    } else if (e->games[1] && strcasecmp(c->option_name, "UCI_Variant") == 0) {
        int i = 0;
        while (e->games[i] && strcasecmp(e->games[i]->game->name, v) != 0)
            i++;
        if (!e->games[i]) {
            engine_print("info string UCI_Variant %s: this engine plays %s", v, variant_list(e));
            return;
        }
        e->variant_set = 1;
        switch_game(e, e->games[i], "UCI_Variant");
    } else if (strcasecmp(c->option_name, "USI_Ponder") != 0 && strcasecmp(c->option_name, "Ponder") != 0) {
        engine_print("info string unknown option '%s'", c->option_name);
    }
}

static uint64_t position_key(const engine *e)
{
    return key_of_board(e->r->game->board(e->pos)) ^ e->r->key_extra(e->pos);
}

/* "position ...": the start (or given) position, then the moves; an error keeps the moves
 * before it and says so. */
/* `eval` (as Stockfish's): the current position's evaluation by the net, from a fresh state, in
 * the library's raw terms (include/nnue.h nnue_eval_detail, side to move's view), then in
 * centipawns as the net's own engine prints them where the library has that conversion
 * (nnue_cp_convert), else why not. */
static void print_eval(engine *e)
{
    load_net(e);
    if (!e->net || !e->net_fits) {
        warn_no_net(e);
        return;
    }
    nnue_state *st = nnue_state_new(e->net, 0);
    nnue_eval_detail d;
    if (!st || nnue_state_reset(st, e->r->game->board(e->pos)) != 0) {
        engine_print("info string error: the position does not fit the net");
    } else {
        nnue_evaluate(st, e->r->game->board(e->pos), &d);
        engine_print("info string eval bucket %d psqt %d positional %d total %d", d.bucket, d.psqt, d.positional,
                     d.total);
        char text[512];
        int cp;
        e->r->game->format(e->pos, text, sizeof text);
        if (nnue_cp_convert(&e->cp, &d, text, &cp))
            engine_print("info string centipawns %d (%s)", cp, e->cp.engine[0] ? e->cp.engine : "the net's output scale");
        else
            engine_print("info string centipawns none: %s", e->cp.why);
    }
    nnue_state_free(st);
}

static void set_position(engine *e, const nnue_command *c)
{
    const nnue_game *g = e->r->game;
    nnue_error err;
    const char *text = c->startpos ? e->r->start_position : c->position;
    if (c != &e->last_position) {
        e->last_position = *c;
        e->has_position = 1;
    }
    if (g->parse(e->pos, text, &err) != 0) {
        info_error("position", &err);
        g->parse(e->pos, e->r->start_position, &err);
    }
    if (e->chess960 && e->r->set_chess960) /* a Chess960 FEN sets it; a standard one needs the option */
        e->r->set_chess960(e->pos, 1);
    e->history_count = 0;
    e->history[e->history_count++] = position_key(e);
    for (int i = 0; i < c->move_count; i++) {
        nnue_move m;
        if (g->parse_move(e->pos, c->moves[i], &m, &err) != 0) {
            info_error("position moves", &err);
            break;
        }
        g->make(e->pos, m, NULL);
        if (e->history_count == MAX_GAME_PLIES) { /* keep the most recent positions */
            memmove(e->history, e->history + 1, (MAX_GAME_PLIES - 1) * sizeof e->history[0]);
            e->history_count--;
        }
        e->history[e->history_count++] = position_key(e);
    }
}

/* "go ... searchmoves M1 M2 ...": the moves are taken out of line (up to the next go keyword)
 * and parsed against the position; the rest of the line goes to nnue_protocol_parse. */
static void take_searchmoves(engine *e, char *line, search_setup *setup)
{
    static const char *const keywords[] = {"wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth",
                                            "nodes", "byoyomi", "infinite", "ponder", "mate", NULL};
    setup->searchmove_count = 0;
    char *at = strstr(line, "searchmoves");
    if (strncmp(line + strspn(line, " \t"), "go", 2) != 0 || !at || (at[11] && !strchr(" \t\r\n", at[11])))
        return;
    char *p = at + 11, *rest = p;
    for (;;) {
        p += strspn(p, " \t\r\n");
        size_t n = strcspn(p, " \t\r\n");
        if (n == 0)
            break;
        char word[16];
        snprintf(word, sizeof word, "%.*s", (int)(n < 15 ? n : 15), p);
        int keyword = 0;
        for (int i = 0; keywords[i]; i++)
            keyword |= strcmp(word, keywords[i]) == 0;
        if (keyword)
            break;
        nnue_move m;
        nnue_error err;
        if (e->r->game->parse_move(e->pos, word, &m, &err) == 0 && setup->searchmove_count < SEARCHMOVES_MAX)
            setup->searchmoves[setup->searchmove_count++] = m;
        else
            engine_print("info string searchmoves: '%s' is not a legal move here, ignored", word);
        p += n;
        rest = p;
    }
    memmove(at, rest, strlen(rest) + 1);
}

static void go(engine *e, const nnue_command *c, const search_setup *moves)
{
    finish_search(e);
    load_net(e);
    warn_no_net(e);
    search_setup setup = {.rules = e->r, .net = e->net_fits ? e->net : NULL, .tt = &e->tt, .threads = e->threads,
                          .root = e->pos, .history = e->history, .history_count = e->history_count, .go = c->go,
                          .multipv = e->multipv};
    setup.searchmove_count = moves->searchmove_count;
    memcpy(setup.searchmoves, moves->searchmoves, sizeof setup.searchmoves);
    e->search = search_start(&setup);
    e->search_endless = c->go.infinite || c->go.ponder;
    e->search_infinite = c->go.infinite;
    if (!e->search)
        engine_print("info string error: out of memory starting the search");
}

static void usage(const engine_rules *const *games)
{
    const engine_rules *r = games[0];
    int usi = r->protocol[1] == 's';
    char names[128] = "", variant[256] = "";
    for (int i = 0; games[i]; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                 i == 0 ? "" : games[i + 1] ? ", " : " and ", games[i]->game->name);
    if (games[1])
        snprintf(variant, sizeof variant, "  UCI_Variant V   the game: %s (default: the net's game)\n", names);
    printf("usage: %s [--help | --version]\n\n"
           "A %s engine on the nnue library: speaks %s on standard input and output.\n\n"
           "options (setoption name N value V):\n"
           "  EvalFile PATH   the net (needed: without it every position evaluates to 0)\n"
           "  EvalArch A      a built-in architecture name (sfnnv5) or a YAML file, when the\n"
           "                  net's header fits several architectures\n"
           "  Extension FILE  a shared object registering layer types or feature sets\n"
           "                  (include/nnue_extend.h); NNUE_EXTENSIONS=FILE:FILE loads at start\n"
           "  Threads N       search threads sharing the net (1)\n"
           "  %-15s hash table megabytes (16)\n"
           "  MultiPV N       best lines reported in info (1)\n"
           "  %-15s accepted; go ponder / ponderhit work either way\n%s%s\n"
           "example:\n"
           "  printf '%s\\nsetoption name EvalFile value NET\\nisready\\nposition startpos\\n"
           "go movetime 1000\\n' | %s\n",
           r->name, names, usi ? "USI" : "UCI", usi ? "USI_Hash MB" : "Hash MB",
           usi ? "USI_Ponder" : "Ponder",
           r->set_chess960 ? "  UCI_Chess960    castling written as king takes rook (false)\n" : "", variant,
           r->protocol, r->name);
}

/* --help and --version answer and exit 0; any other argument is bad usage (2); none: -1, run. */
static int command_line(const engine_rules *const *games, int argc, char **argv)
{
    const engine_rules *r = games[0];
    if (argc < 2)
        return -1;
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(games);
        return 0;
    }
    if (argc == 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
        printf("%s %s\n", r->name, nnue_version());
        return 0;
    }
    fprintf(stderr, "%s: unexpected argument '%s' (the engine takes no arguments: options come by "
            "setoption; --help)\n", r->name, argv[1]);
    return 2;
}

int engine_main(const engine_rules *const *games, int argc, char **argv)
{
    const engine_rules *r = games[0];
    int rc = command_line(games, argc, argv);
    if (rc >= 0)
        return rc;
    static engine e;   /* large (history); one per process */
    static nnue_command cmd;
    static char line[NNUE_PROTOCOL_MAX_LINE + 1];
    e.r = r;
    e.games = games;
    unsigned pos_size = 0;
    for (int i = 0; games[i]; i++)
        pos_size = games[i]->game->pos_size > pos_size ? games[i]->game->pos_size : pos_size;
    e.threads = 1;
    e.hash_mb = 16;
    e.multipv = 1;
    e.pos = calloc(1, pos_size); /* room for any of the games */
    if (!e.pos || tt_resize(&e.tt, e.hash_mb) != 0) {
        fprintf(stderr, "%s: out of memory\n", r->name);
        return 1;
    }
    nnue_error err;
    if (nnue_ext_load_env(&err) != NNUE_OK) {
        char text[1100];
        nnue_error_format(&err, text, sizeof text);
        fprintf(stderr, "%s: NNUE_EXTENSIONS: %s\n", r->name, text);
        return 1;
    }
    r->game->parse(e.pos, r->start_position, &err);
    e.history[e.history_count++] = position_key(&e);
    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    static search_setup searchmoves;
    long got;
    while ((got = engine_read_line(stdin, line, NNUE_PROTOCOL_MAX_LINE)) != ENGINE_LINE_END) {
        if (got == ENGINE_LINE_TOO_LONG) {
            engine_print("info string error: command: line longer than %d characters: ignored whole",
                         NNUE_PROTOCOL_MAX_LINE);
            continue;
        }
        take_searchmoves(&e, line, &searchmoves);
        if (nnue_protocol_parse(line, &cmd, &err) != NNUE_OK) {
            info_error("command", &err);
            continue;
        }
        switch (cmd.kind) {
        case NNUE_CMD_UCI:
        case NNUE_CMD_USI: print_identity(&e); break;
        case NNUE_CMD_ISREADY:
            if (!e.search) {
                load_net(&e);
                warn_no_net(&e);
            }
            engine_print("readyok");
            break;
        case NNUE_CMD_SETOPTION: finish_search(&e); set_option(&e, &cmd); break;
        case NNUE_CMD_NEWGAME: finish_search(&e); tt_clear(&e.tt); break;
        case NNUE_CMD_POSITION: finish_search(&e); set_position(&e, &cmd); break;
        case NNUE_CMD_GO: go(&e, &cmd, &searchmoves); break;
        case NNUE_CMD_STOP: finish_search(&e); break;
        case NNUE_CMD_PONDERHIT:
            search_ponderhit(e.search);
            e.search_endless = e.search_infinite; /* now a timed search: it ends by itself */
            break;
        case NNUE_CMD_EVAL: finish_search(&e); print_eval(&e); break;
        case NNUE_CMD_QUIT: finish_search(&e); goto done;
        default: break; /* blank lines, debug, register, gameover */
        }
    }
    /* End of input: a limited search still finishes and prints its bestmove. */
    if (e.search && !e.search_endless) {
        search_wait(e.search);
        e.search = NULL;
    }
    finish_search(&e);
done:
    nnue_net_free(e.net);
    tt_free(&e.tt);
    free(e.pos);
    return 0;
}
