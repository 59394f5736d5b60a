/* fuzz/fuzz_util.h: helpers shared by the libFuzzer targets: the input as a temporary file
 * (the loaders take paths), and a net evaluated on its game's start position. */
#ifndef NNUE_FUZZ_UTIL_H
#define NNUE_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "nnue.h"

/* Writes data to /dev/shm (else /tmp)/nnue-fuzz-TAG-PID and returns that path (static per tag slot 0..3);
 * NULL when the file cannot be written. */
const char *fuzz_temp_file(int slot, const char *tag, const void *data, size_t size);

/* A state of net on the scalar kernels (the definition the machine's kernels must equal), or
 * abort. */
nnue_state *fuzz_scalar_state(const nnue_net *net, int max_ply);

/* Evaluates a loaded net on its game's start position and after each legal first move, with the
 * machine's kernels and with the scalar ones: traps unless both give the same values. */
void fuzz_evaluate_start(const nnue_net *net);

/* Loads an arch YAML relative to the source tree or aborts (the targets' fixed archs). */
nnue_arch *fuzz_arch_or_abort(const char *relative);

/* Random weights (seed) for the arch YAML at `relative` in the source tree, with its first `from`
 * replaced by `to` when from is not NULL (a missing `from` aborts), written to a temporary file
 * named by tag and loaded; aborts on any failure (the targets' fixed nets). */
nnue_net *fuzz_random_net(const char *relative, const char *from, const char *to, uint64_t seed, const char *tag);

#endif
