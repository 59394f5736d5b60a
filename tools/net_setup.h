/* tools/net_setup.h: shared by the tool's commands: choose the architecture of a net file (given
 * with --arch, or among the discovered ones by header hash and size, then by the file's SHA-256
 * where the header cannot tell), load both, and report errors the same way everywhere. */
#ifndef NNUE_TOOLS_NET_SETUP_H
#define NNUE_TOOLS_NET_SETUP_H

#include "core/arch/arch_api.h"
#include "core/net/net.h"
#include "tools/arch_discovery.h"
#include "core/net/known_nets.h"
#include "core/net/net_raw_guess.h"
#include "tools/tool_error.h"

typedef enum {
    CHOICE_NO_HASH,       /* no discovered architecture has the file's hash */
    CHOICE_SIZE_MISMATCH, /* some have the hash, none the file's size (truncated or damaged file) */
    CHOICE_ONLY,          /* exactly one fits */
    CHOICE_KNOWN_NET,     /* several fit; the SHA-256 names a known net of one of them */
    CHOICE_WRITTEN_FOR,   /* several fit; `nnue init` wrote it for one (its description says so) */
    CHOICE_DEFAULT,       /* several fit, unknown file: the documented default (SFNNv5 over v4) */
    CHOICE_AMBIGUOUS,     /* several fit and nothing tells them apart */
    CHOICE_NAMED_MISSING, /* `nnue init` wrote it for an architecture not found, another shares its hash */
} choice_kind;

typedef struct arch_choice {
    choice_kind kind;
    arch_candidate *list;  /* every architecture with the file's hash (sorted by name) */
    int count;
    int chosen;            /* index into list, -1 when none */
    char sha256[65];       /* "" unless computed (several fit, or asked for) */
    const known_net *known;
    char named[NNUE_NAME_MAX]; /* the architecture nnue init wrote the net for (its description), or "" */
} arch_choice;

/* Fills *c for a Stockfish-format header. A net whose description names its architecture (nnue
 * init's) takes it, found among the discovered ones or as a YAML beside the net, never another that
 * only shares its hash. want_sha256 computes the SHA-256 even when one
 * architecture fits (nnue info shows it). Free with arch_choice_free. */
void tool_choose_arch(const char *net_path, const nnue_net_header *h, int want_sha256, arch_choice *c);
void arch_choice_free(arch_choice *c);

/* Explains on stderr why the choice made none (no hash, size mismatch, ambiguity). */
void tool_explain_no_choice(const char *cmd, const char *net_path, const nnue_net_header *h, const arch_choice *c);

/* After a failed header read: 1 when the file opened and has bytes, so it may be a header-less
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

/* A file no Stockfish-format architecture claims (core/net/net_raw_guess.h): the built-in raw
 * architecture its CBNF header names into *arch (0), or the reason printed, naming the
 * candidates a header-less file's size allows (1). */
int tool_raw_guess(const char *cmd, const char *net_path, nnue_arch **arch);

/* Loads arch_path, or the architecture the choice made for net_path, into *arch (the caller
 * frees it). Prints errors. Returns 0 on success. */
int tool_load_arch_for(const char *cmd, const char *net_path, const char *arch_path, nnue_arch **arch);

#endif
