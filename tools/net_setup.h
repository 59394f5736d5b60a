/* tools/net_setup.h: shared by the tool's commands: choose the architecture of a net file (given
 * with --arch, or by the library's chooser, include/nnue_netfile.h nnue_arch_choose, among the
 * built-in architectures and the discovered folders of tools/arch_discovery.h), load both, and
 * report errors the same way everywhere. */
#ifndef NNUE_TOOLS_NET_SETUP_H
#define NNUE_TOOLS_NET_SETUP_H

#include "nnue.h"
#include "tools/arch_discovery.h"
#include "tools/tool_error.h"

/* The library's choice for net_path among the built-in architectures and the discovered folders;
 * a net whose description names its architecture (nnue init's) also finds its YAML beside it.
 * flags: more of nnue_arch_choose's (NNUE_CHOOSE_SHA256). NNUE_OK and *c (free with
 * nnue_choice_free), or the library's error (the file cannot be read, or has no header while
 * some built-in architecture claims its first word). */
nnue_status tool_choose_arch(const char *net_path, unsigned flags, nnue_choice **c, nnue_error *err);

/* Explains on stderr why the choice made none (no hash, size mismatch, the named architecture
 * missing or of another size, ambiguity; a raw or self-describing file: the library's reason). */
void tool_explain_no_choice(const char *cmd, const char *net_path, nnue_choice *c);

/* After a failed choice: 1 when the file opened and has bytes, so it may be a header-less
 * trainer net (worth the --arch hint); 0 for a missing, unreadable or empty file. */
int tool_may_be_raw_net(const char *net_path, const nnue_error *err);

/* Set by `--strict` (tools/nnue.c): tool_load_net refuses nets with a load warning
 * (nnue_net_warning: a worst-case sum can overflow) instead of printing it. */
extern int tool_strict;

/* Set by `--quiet` (eval, rescore) and by info (its ranges say it): no note on a net whose
 * worst case can overflow. Without it the note is printed once per process. */
extern int tool_quiet;

/* Loads the arch (arch_path, or the choice above) and the net; a self-describing file
 * (tools/self_describing.h) brings its own arch when arch_path is NULL. A file with a LEB128 feature
 * transformer loads with an architecture written for plain files and the other way round (the
 * layout is the same). Prints errors, the SFNNv5 default note and the net's load warning itself.
 * Returns 0 on success. */
int tool_load_net(const char *cmd, const char *net_path, const char *arch_path, nnue_net **net);

/* Loads the net with a given arch (its LEB128 flag follows the file). Prints errors and the load
 * warning (refused under --strict). */
int tool_load_net_with(const char *cmd, const char *net_path, const nnue_arch *arch, nnue_net **net);

/* Loads arch_path, or the architecture the choice made for net_path, into *arch (the caller
 * frees it). Prints errors. Returns 0 on success. */
int tool_load_arch_for(const char *cmd, const char *net_path, const char *arch_path, nnue_arch **arch);

#endif
