/* core/net/known_nets.h: nets known by their SHA-256 (Stockfish names each net nn-<first 12 hex
 * digits of its SHA-256>.nnue), and which architecture each one is. Needed where the file cannot
 * tell: SFNNv4 (Stockfish 15) and SFNNv5 (Stockfish 15.1) nets share every hash and their size. */
#ifndef NNUE_CORE_NET_KNOWN_NETS_H
#define NNUE_CORE_NET_KNOWN_NETS_H

#include <stddef.h>

#include "io/sha256.h" /* the SHA-256 a known net is found by */

typedef struct known_net {
    const char *sha12;  /* first 12 hex digits of the file's SHA-256 */
    const char *arch;   /* architecture name (the YAML's name:) */
    const char *what;   /* where the net comes from */
    /* Its engine's centipawns where the architecture leaves them to the release (its YAML's
     * `centipawns: release`, SFNNv9): whose conversion and the material model's a0..a3
     * (core/net/net_centipawns.c); NULL otherwise. */
    const char *cp_engine;
    const double *cp_material;
} known_net;

/* The known net with this SHA-256, or NULL. */
const known_net *known_net_find(const char *sha256_hex);

/* The architecture chosen when the file fits several that differ only in what the file cannot
 * show (today: SFNNv4 and SFNNv5, which share every hash): the name of the one to take when every
 * fitting name is in the same group, else NULL. */
const char *known_nets_default_choice(const char *const *names, int count);

/* A net written by `nnue init` (core/net/net_write.c) names its architecture in its description
 * ("Random net for NAME (seed N), written by nnue init."): NAME into name, returns 1; else 0.
 * Detection takes it among architectures that share a header (SFNNv4 and SFNNv5), after a
 * known net's SHA-256 and before the group's default. */
int known_nets_written_for(const char *description, char *name, size_t size);

#endif
