/* tools/arch_discovery.h: where the tool looks for architectures when a net comes without
 * --arch, in this order (the first of a name wins): the architectures built into the library,
 * the installed share/nnue/archs (found next to the executable, then under the configured
 * prefix), then $NNUE_ARCHS_DIR. Never the source tree the tool was built from. */
#ifndef NNUE_TOOLS_ARCH_DISCOVERY_H
#define NNUE_TOOLS_ARCH_DISCOVERY_H

#include "core/arch/arch_api.h"
#include "core/net/net.h"

typedef struct arch_candidate {
    char source[1024];   /* the YAML path, or "built-in (archs/NAME.yaml)" */
    nnue_arch *arch;
    int size_fits;       /* the file's size agrees with the arch (always, for LEB128 files) */
} arch_candidate;

/* The folders searched, in order (existing ones only); returns their count. Strings are static. */
int arch_dirs(const char **dirs, int max);

/* Every discovered Stockfish-format architecture whose version and file hash equal the header's,
 * sorted by name, size_fits set; with beside_net (a net path), the YAML files of the net's folder
 * too. Returns the count; *out is malloc'ed (free with arch_candidates_free), NULL when none. */
int arch_candidates_for(const nnue_net_header *header, const char *beside_net, arch_candidate **out);
/* Bytes of an uncompressed file of this arch with the header's description. */
uint64_t arch_expected_bytes(const nnue_arch *a, const nnue_net_header *h);

void arch_candidates_free(arch_candidate *list, int count);

/* "the built-in architectures, DIR, DIR" summary of the searched places, for messages. */
const char *arch_dirs_summary(void);

#endif
