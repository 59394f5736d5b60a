/* tools/net_setup.h: shared by the tool's commands: find the architecture for a net file
 * (given with --arch, or detected by header hash among the YAML files in the archs folder),
 * load both, and report errors the same way everywhere. */
#ifndef NNUE_TOOLS_NET_SETUP_H
#define NNUE_TOOLS_NET_SETUP_H

#include "core/arch_api.h"
#include "core/net.h"

/* Folder of shipped architectures: $NNUE_ARCHS_DIR, else the build-time default. */
const char *tool_archs_dir(void);

/* Every YAML file in the archs folder that fits a Stockfish-format header: same version and
 * file hash, and (uncompressed formats) the same exact file size. Returns the count and fills
 * up to max paths (malloc'ed; caller frees). */
int tool_archs_matching(const nnue_net_header *header, char **paths, int max);

/* Prints "nnue CMD: <formatted error>" to stderr. */
void tool_print_error(const char *cmd, const nnue_error *err);

/* Loads the arch (arch_path, or detection by header hash) and the net. Prints errors itself.
 * Returns 0 on success. */
int tool_load_net(const char *cmd, const char *net_path, const char *arch_path, nnue_net **net);

#endif
