/* tools/nnue.c: entry point of the `nnue` command-line tool; dispatches to subcommands, and
 * answers `nnue --version`, `nnue --help`, `nnue help CMD` and `nnue CMD --help` (usage on
 * stdout, exit 0) for every command from the one table below. Exit codes: tools/commands.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/commands.h"
#include "tools/net_setup.h"
#include "tools/tool_error.h"
#include "nnue_extend.h"

#ifndef NNUE_TOOL_VERSION
#define NNUE_TOOL_VERSION "unknown"
#endif

static const nnue_command commands[] = {
    {"arch", "[--json | --dot] FILE.yaml...",
     "description string, hashes, parameter count and file size of architectures",
     "  --json        one JSON object per architecture, in a list\n"
     "  --dot         a Graphviz picture of the layer graph (render with dot -Tsvg)\n",
     cmd_arch, 0},
    {"info", "[--json] [--arch A.yaml] NET", "header, SHA-256, hashes and matching architectures of a net file",
     "  --json        the same facts as one JSON object (with the worst-case ranges)\n"
     "  --arch A.yaml the net's architecture (a built-in name or a YAML file): for header-less nets;\n"
     "                the facts of the net loaded with it\n"
     "exit 1 when the header cannot be read or the file does not fit the architecture its hash names\n",
     cmd_info, 1},
    {"eval", "--net NET [--arch A.yaml] (--fen POSITION | --file FILE [--format plain|binpack|bullet]) [--json]\n"
     "                  [--threads N] [--quiet]",
     "evaluate positions: bucket, psqt, positional, total, scaled (side to move's view)",
     "  --net NET     the net file; its architecture is detected unless --arch names one\n"
     "  --arch A.yaml the architecture of the net (needed for header-less nets)\n"
     "  --fen POS     one position: FEN (6 fields, or 4 without the clocks), SFEN for shogi nets\n"
     "                (move number optional), or startpos\n"
     "  --file FILE   one position per line, in those forms or as EPD (operations ignored), TSV\n"
     "                (the first column) or bullet text 'FEN | score | result'; '#' comments and\n"
     "                empty lines skipped; - reads standard input; any length: read in chunks;\n"
     "                a training file (.plain, .binpack) gives its records' positions\n"
     "  --format F    read FILE as training data of format F (plain, binpack; bullet: a position\n"
     "                list as above); default: from the extension (.plain, .binpack)\n"
     "  --json        JSON list instead of TSV\n"
     "  --threads N   OpenMP threads (default: all cores)\n"
     "  --quiet, -q   no progress bar and no summary line\n"
     "with --file, a progress bar (percentage, positions/s, ETA) is drawn on stderr when it is a\n"
     "terminal; a bad line is reported as FILE:LINE:COLUMN (a binpack's position: FILE: byte N) and\n"
     "skipped, the run goes on (a malformed training record ends it); a summary\n"
     "line (positions, bad lines, time, rate) ends the run on stderr; the exit status is 1 when any\n"
     "line was bad\n",
     cmd_eval, 1},
    {"rescore",
     "--net NET [--arch A.yaml] [--format plain|bullet|binpack] [--score total|scaled|cp] [--threads N] [--quiet]\n"
     "                  IN OUT",
     "training data (Stockfish .plain and .binpack, bullet text) written back with the net's scores",
     "  --net NET     the net file; its architecture is detected unless --arch names one\n"
     "  --arch A.yaml the architecture of the net (needed for header-less nets)\n"
     "  --format F    plain (Stockfish: fen/move/score/ply/result/e records), binpack (Stockfish's\n"
     "                binary chunks of chained records) or bullet ('FEN | score | result' lines);\n"
     "                default: plain for IN ending in .plain, binpack for .binpack, else bullet\n"
     "  --score S     total (internal units), scaled, or cp (centipawns, only for a net whose\n"
     "                conversion is checked: docs/units.md); default: total for plain and\n"
     "                binpack, scaled for bullet\n"
     "  --threads N   OpenMP threads (default: all cores)\n"
     "  --quiet, -q   no summary line\n"
     "scores are in the side to move's view (bullet: white's); every other field is kept;\n"
     "IN or OUT may be - (standard input, output); OUT appears only whole (a temporary file beside\n"
     "it until the end); a malformed record or a position that does not parse stops the run with\n"
     "FILE:LINE:COLUMN (binpack: FILE: byte N); a binpack score must fit 16 bits\n",
     cmd_rescore, 1},
    {"bench",
     "--net NET [--arch A.yaml] --file POSITIONS [--iter N] [--mode incremental|refresh|moves|all|tree|tree-refresh]\n"
     "                  [--depth N] [--cache on|off] [--clock wall|cpu] [--threats adapter|boards]",
     "every position, then every legal child: ns/eval and evals/s per mode, with checksums (docs/speed.md)",
     "  --net NET     the net file; its architecture is detected unless --arch names one\n"
     "  --arch A.yaml the architecture of the net (needed for header-less nets)\n"
     "  --file FILE   the positions, one a line (as eval --file; bad lines reported and skipped)\n"
     "  --iter N      iterations over the positions (default 20)\n"
     "  --mode M      incremental, refresh, moves or all (default all: the first three), or\n"
     "                tree / tree-refresh: a search-shaped walk, depth-first to --depth plies with\n"
     "                legal moves generated at every node (tree-refresh: every node from scratch)\n"
     "  --depth N     plies of the tree modes, 0 to 64 (default 2)\n"
     "  --cache on|off the refresh cache in incremental and tree modes (default: the library's)\n"
     "  --clock wall|cpu\n"
     "                wall time (default) or the thread's CPU time, for A/B runs on a busy machine\n"
     "  --threats adapter|boards\n"
     "                adapter (default): where the game's adapter records a move's threat changes\n"
     "                at make time (chess, xiangqi), pushes hand them in (lines say threats=adapter;\n"
     "                not in the refresh modes, which never read them);\n"
     "                boards: plain pushes, the feature sets list them from the boards\n",
     cmd_bench, 1},
    {"convert", "[--arch A.yaml] --to plain|leb128|self-describing IN OUT",
     "re-encode a net: Stockfish FT plain <-> LEB128, or a header-less net + its YAML in one file",
     "  --to plain    Stockfish-format net (or YaneuraOu HalfKP nn.bin) with uncompressed FT arrays\n"
     "  --to leb128   the same with the FT arrays as COMPRESSED_LEB128 blocks (as Stockfish 16+)\n"
     "                (all other bytes are copied: plain -> leb128 -> plain gives the same file)\n"
     "  --to self-describing\n"
     "                a header-less trainer net (bullet) and its --arch YAML in one file that\n"
     "                loads without --arch\n"
     "  --arch A.yaml the input's architecture (detected for Stockfish-format nets)\n"
     "the output is loaded back and must evaluate probe positions exactly as the input; it is\n"
     "written as OUT.tmp and renamed to OUT only then\n",
     cmd_convert, 1},
    {"init", "[--seed N] ARCH.yaml OUT", "write a net with deterministic random weights for an architecture",
     "  --seed N      seed of the random stream (default 1)\n", cmd_init, 0},
    {"perft", "[--game GAME] [--divide] POSITION DEPTH",
     "count leaf nodes of the legal move tree (game guessed from the position)",
     "  --game G      a game (chess, shogi, or one registered), when the position does not tell\n"
     "  --divide      the count below each root move\n",
     cmd_perft, 0},
    {"match", "--game GAME --engine CMD --opponent CMD [options]",
     "play two UCI/USI engines against each other, every move checked; prints W/D/L of the first",
     "  --game GAME           chess, shogi, xiangqi or a registered game\n"
     "  --engine CMD          the engine under test (a shell command)\n"
     "  --opponent CMD        the other engine (fairy-stockfish: speaks USI when sent 'usi')\n"
     "  --option N=V          setoption for the engine (repeatable); --opponent-option for the other\n"
     "  --games N             games, colours alternating (default 2)\n"
     "  --movetime MS         per move: chess 'go movetime', shogi 'go byoyomi' (default 100)\n"
     "  --max-plies N         draw at this many plies (default 400 chess, 512 shogi)\n"
     "  --random-plies N      random opening plies, the same for both games of a pair (default 0)\n"
     "  --seed N              seed of the random openings (default 1)\n"
     "  --timeout-margin MS   time past movetime before a silent engine loses (default 5000)\n"
     "  --ranks-from N        1: the engine numbers xiangqi ranks 1..10 (Fairy-Stockfish), 0: 0..9\n"
     "                        (default 0); --opponent-ranks-from N for the other\n"
     "  --out FILE            PGN (chess), CSA (shogi), 'position startpos moves ...' lines (other games)\n"
     "exit 1 when a game ended by an illegal move, a crash or a timeout\n",
     cmd_match, 0},
    {NULL, NULL, NULL, NULL, NULL, 0},
};

static const char exit_codes[] = "exit status: 0 success, 1 the work failed (bad file, bad position, I/O), "
                                 "2 bad usage\n";
static const char strict_note[] = "--strict: refuse a net whose worst-case sums can overflow (int16 accumulator,\n"
                                  "int32 PSQT or layer sums; `nnue info` shows the ranges); without it, a warning on stderr\n";

static const char extension_note[] =
    "--extension FILE (any command; repeatable): load a shared object that registers layer types,\n"
    "feature sets or games (include/nnue_extend.h), before the command runs; so do the files listed\n"
    "in the environment variable NNUE_EXTENSIONS (separated by ':')\n";

static void usage(FILE *out)
{
    fprintf(out, "usage: nnue COMMAND [ARGS]    (nnue COMMAND --help for its options)\n"
                 "       nnue --version\n\ncommands:\n");
    for (const nnue_command *c = commands; c->name; c++)
        fprintf(out, "  %-7s %s\n          %s\n", c->name, c->usage, c->summary);
    fprintf(out, "\n%s%s%s", exit_codes, "--strict (eval, bench, info, convert: the commands that load a net): "
                                         "refuse a net whose worst-case sums can overflow\n", extension_note);
}

static void command_help(const nnue_command *c)
{
    printf("usage: nnue %s %s\n\n%s\n\noptions:\n%s\n%s%s%s", c->name, c->usage, c->summary, c->options,
           exit_codes, c->loads_net ? strict_note : "", extension_note);
}

static const nnue_command *find(const char *name)
{
    for (const nnue_command *c = commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

static int is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int main(int argc, char **argv)
{
    /* `nnue --extension FILE ... COMMAND`: the same as after the command. Moved behind it. */
    int lead = 1;
    while (lead + 1 < argc && strcmp(argv[lead], "--extension") == 0)
        lead += 2;
    if (lead > 1 && lead < argc) {
        char *pairs[2 * 64];
        int n = lead - 1 > (int)(sizeof pairs / sizeof *pairs) ? (int)(sizeof pairs / sizeof *pairs) : lead - 1;
        memcpy(pairs, argv + 1, (size_t)n * sizeof *argv);
        char *command = argv[lead];
        memmove(argv + 2, argv + 1, (size_t)n * sizeof *argv);
        argv[1] = command;
        memcpy(argv + 2, pairs, (size_t)n * sizeof *argv);
        if (n < lead - 1) {
            fprintf(stderr, "nnue: at most %d --extension options\n", (int)(sizeof pairs / sizeof *pairs) / 2);
            return 2;
        }
    }
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (is_help(argv[1]) || (strcmp(argv[1], "help") == 0 && argc == 2)) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("nnue %s\n", NNUE_TOOL_VERSION);
        return 0;
    }
    const char *name = strcmp(argv[1], "help") == 0 ? argv[2] : argv[1];
    const nnue_command *c = find(name);
    if (!c) {
        fprintf(stderr, "nnue: unknown command '%s'\n", name);
        usage(stderr);
        return 2;
    }
    if (name != argv[1]) {
        command_help(c);
        return 0;
    }
    int kept = 2, n_extensions = 0;
    const char *extensions[64];
    for (int i = 2; i < argc; i++) {
        if (is_help(argv[i])) {
            command_help(c);
            return 0;
        }
        if (strcmp(argv[i], "--extension") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "nnue %s: --extension needs a FILE (a shared object: include/nnue_extend.h)\n", c->name);
                return 2;
            }
            if (n_extensions == (int)(sizeof extensions / sizeof *extensions)) {
                fprintf(stderr, "nnue %s: at most %d --extension options\n", c->name,
                        (int)(sizeof extensions / sizeof *extensions));
                return 2;
            }
            extensions[n_extensions++] = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--strict") == 0 && c->loads_net)
            tool_strict = 1; /* global: every command loads nets through tools/net_setup.c */
        else if (strcmp(argv[i], "--strict") == 0) {
            fprintf(stderr, "nnue %s: --strict applies only to the commands that load a net (eval, bench, info, "
                    "convert)\n", c->name);
            return 2;
        } else
            argv[kept++] = argv[i];
    }
    argv[kept] = NULL;
    /* Extensions register names the command's YAML may use: the environment's first, then the
     * command line's, in order. */
    nnue_error err;
    nnue_status st = nnue_ext_load_env(&err);
    for (int i = 0; st == NNUE_OK && i < n_extensions; i++)
        st = nnue_ext_load(extensions[i], &err);
    if (st != NNUE_OK) {
        tool_print_error(c->name, &err);
        return 1;
    }
    return c->run(kept - 1, argv + 1);
}
