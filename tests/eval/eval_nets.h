/* tests/eval/eval_nets.h: the reference nets the evaluation tests use, by short name, and
 * helpers to evaluate a position from its text with a fresh state (full refresh). */
#ifndef NNUE_TESTS_EVAL_NETS_H
#define NNUE_TESTS_EVAL_NETS_H

#include "core/eval/state.h"
#include "core/net/net.h"
#include "nnue.h"

typedef struct eval_net {
    const char *name;      /* sf151, sfnnv1, ..., cwtch, obsidian, shogi */
    const char *arch;      /* archs/... relative to the source tree */
    const char *shared;    /* net under shared/ (or NULL for sf151: Debian's stockfish) */
    unsigned long long size;
    const char *golden;    /* golden file: under shared/, or tests/... in the repository (test_data_path) */
    const char *release;   /* Stockfish's release net file name (nets_stockfish_release), or NULL */
} eval_net;

/* The repository's own chess corpus A and its moves (tests/reference/chess; test_data_path). */
#define EVAL_CHESS_CORPUS "tests/reference/chess/corpusA.fen"
#define EVAL_CHESS_MOVES "tests/reference/chess/movesA.tsv"

extern const eval_net eval_nets[];
extern const int eval_net_count;
const eval_net *eval_net_find(const char *name);

/* Makes the net file available (decompressing or exporting it); exits 77 loudly when the
 * data for it is absent. Call from main(), before the Check runner forks. */
const char *eval_net_file(const eval_net *n);

/* "checksum_total=N " (N per iteration of the BENCH.md workload, as the engine printed it) for a
 * net of tests/reference/chess/bench-checksums.tsv, or NULL when no engine printed one. */
const char *eval_bench_checksum(const char *name);

/* Loads (arch + net) outside a Check test (in main): prints "FAIL: ..." and returns NULL on error. */
nnue_net *eval_net_load_main(const eval_net *n, const char *path);

/* In main(): loads the arch (relative to the source tree) and writes `nnue init`'s random net
 * for it (seed) to BUILD/nets/PREFIX-BASENAME into net_path. Prints "FAIL: ..." and returns
 * NULL on error; the caller frees the arch. */
nnue_arch *eval_random_net_main(const char *arch_rel, const char *prefix, uint64_t seed, char *net_path,
                                size_t net_path_size);

/* Deterministic xorshift64 stream shared by the tests: a value in [0, n). */
unsigned eval_random(uint64_t *state, unsigned n);

/* Loads (arch + net) or fails the test. */
nnue_net *eval_net_load(const eval_net *n, const char *path);

/* Parses a position of the net's game into a malloc'ed blob; fails the test on error. */
void *eval_parse(const nnue_game *game, const char *text);

/* Full-refresh evaluation of a board with a fresh state. */
void eval_fresh(const nnue_net *net, const nnue_board *board, nnue_eval_detail *detail);

/* Evaluates board on s (a state of net, brought up to date however it is: incrementally, from its
 * cache, ...) and fails the test (naming `where`) unless perspectives lo..hi of its current entry
 * hold a fresh state's accumulators and PSQT sums value for value, and, when lo..hi is 0..1, the
 * evaluation is the fresh one's too. */
void eval_expect_fresh(const nnue_net *net, nnue_state *s, const nnue_board *board, int lo, int hi,
                       const char *where);

/* Checks feature set s's i8 rows (core/net/net_narrow.c) against its i16 rows: built exactly when
 * the set is i16 with at most 1 value in 256 outside -128..127 and a width that is a multiple of
 * 64; each i8 value (paired: simd/paired_i8.h) is the i16 one clamped; the row's patches give back
 * every i16 value exactly. An i8 set's rows are paired in place (width a multiple of 64; their
 * values are the goldens' business) or read widened, equal to its own. Returns the number of
 * patched values, or -1 when no i8 copy of i16 rows is (rightly) built. Fails the test
 * otherwise. */
long long eval_check_narrow_rows(const nnue_net *net, int s);

#endif
