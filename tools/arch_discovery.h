/* tools/arch_discovery.h: where the tool looks for architectures when a net comes without
 * --arch (the folders it hands to the library's chooser, nnue_arch_choose), in this order (the
 * first of a name wins): the architectures built into the library, the installed share/nnue/archs (found next to the executable, then under the configured
 * prefix), then $NNUE_ARCHS_DIR. Never the source tree the tool was built from. */
#ifndef NNUE_TOOLS_ARCH_DISCOVERY_H
#define NNUE_TOOLS_ARCH_DISCOVERY_H

/* The folders searched, in order (existing ones only); returns their count. Strings are static. */
int arch_dirs(const char **dirs, int max);

/* "the built-in architectures, DIR, DIR" summary of the searched places, for messages. */
const char *arch_dirs_summary(void);

#endif
