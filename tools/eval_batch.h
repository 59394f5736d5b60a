/* tools/eval_batch.h: `nnue eval --file` on files of any length (position lists, or training
 * files through include/nnue_training.h's reader): positions are read in chunks,
 * parsed and evaluated in parallel (OpenMP, one state per thread), printed in input order. A bad
 * line is reported with its line and column and skipped; a progress bar runs on a terminal; a
 * summary ends the run. */
#ifndef NNUE_TOOLS_EVAL_BATCH_H
#define NNUE_TOOLS_EVAL_BATCH_H

#include "nnue.h"
#include "nnue_board.h"

typedef struct eval_batch_options {
    int json;
    int quiet;     /* no progress bar, no summary */
    int threads;   /* 0 = OpenMP's default */
    const char *format;  /* a training-data format name (include/nnue_training.h), NULL = from the
                            file's extension: plain and binpack are read as training files,
                            bullet (and any other extension) as a position list */
} eval_batch_options;

/* The centipawn rule of the net the command loaded (include/nnue.h nnue_cp_rule_for_file, the
 * file read for its SHA-256 only where the rule needs it), used by the eval and rescore paths. */
extern nnue_cp_rule tool_cp;
void tool_cp_setup(const nnue_net *net, const char *net_path);

/* Centipawns as the net's own engine prints them, where that conversion was checked against the
 * engine (docs/units.md; the rule of the loaded net: tool_cp_setup first),
 * for an evaluation of position (its FEN text: Stockfish 17+ scale by material). Returns 1 and
 * sets *cp, or 0 when the net has no such conversion. */
int eval_centipawns(const nnue_eval_detail *d, const char *position, int *cp);

/* The header line of eval's table (position ... cp, then place: "line" / "offset" for a file, or
 * NULL) and, unless quiet, a note on stderr when the net has no checked conversion, saying why
 * (its values are raw internal units). */
void eval_print_header(const char *place, int json, int quiet);

/* The cp column's text: the centipawns, or "-" (json: null). */
const char *eval_cp_text(const nnue_eval_detail *d, const char *position, int json, char buf[16]);

/* path "-" reads standard input. Returns the exit status: 0 all lines evaluated, 1 some line was
 * bad or the file could not be read. A training file's bad position is reported at its record's
 * line (.plain) or byte offset (.binpack; JSON "offset" instead of "line"); a malformed record
 * ends the run. */
int eval_batch(const nnue_net *net, const nnue_game *game, const char *path, const eval_batch_options *opt);

#endif
