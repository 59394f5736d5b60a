/* tools/centipawns.h: the cp column of `nnue eval` and `nnue rescore --score cp`: a net's values
 * in centipawns as the net's own engine converts them, only where that conversion was checked
 * against the engine (docs/units.md), else none and why. */
#ifndef NNUE_TOOLS_CENTIPAWNS_H
#define NNUE_TOOLS_CENTIPAWNS_H

#include "nnue.h"

typedef enum cp_kind {
    CP_NONE,     /* no checked conversion: why says why */
    CP_DIVIDE,   /* total * 100 / divisor, truncated (Stockfish 15.1) */
    CP_SCALED,   /* the scaled value (bullet nets with output.scale) */
    CP_MATERIAL, /* Stockfish 17+: round(100 * v / a(material)), v = psqt / 16 + positional / 16 */
} cp_kind;

typedef struct cp_rule {
    cp_kind kind;
    int divisor;           /* CP_DIVIDE */
    const double *a_poly;  /* CP_MATERIAL: a = ((a0 * m + a1) * m + a2) * m + a3 */
    const char *engine;    /* whose conversion ("Stockfish 18"), or NULL */
    char why[400];         /* CP_NONE: why there is none, for the note on stderr */
} cp_rule;

/* The rule of a loaded net (its file read for its SHA-256 where only the release tells). */
void cp_rule_for(const nnue_arch *arch, const char *net_path, cp_rule *rule);
/* The same from the file's SHA-256 in lowercase hex ("" or NULL: unknown), for callers that hold
 * the bytes rather than a file (the WebAssembly build computes it in JavaScript). */
void cp_rule_for_sha(const nnue_arch *arch, const char *sha256_hex, cp_rule *rule);

/* cp from an evaluation of position (the FEN text it was evaluated on: its first field gives the
 * material), in the side to move's view as the detail. Returns 1, or 0 with CP_NONE. */
int cp_convert(const cp_rule *rule, const nnue_eval_detail *d, const char *position, int *cp);

/* The rule of the net the command loaded (tool_cp_setup), used by the eval and rescore paths. */
extern cp_rule tool_cp;
void tool_cp_setup(const nnue_net *net, const char *net_path);

#endif
