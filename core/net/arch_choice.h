/* core/net/arch_choice.h: the one architecture chooser (include/nnue_netfile.h nnue_arch_choose;
 * its rules in docs/detection.md): the choice object and the steps its files share. Not a public
 * API: arch_candidates.c gathers the candidates, arch_choice.c applies the rules,
 * arch_choice_query.c answers the public questions and words the errors. */
#ifndef NNUE_CORE_NET_ARCH_CHOICE_H
#define NNUE_CORE_NET_ARCH_CHOICE_H

#include <pthread.h>
#include <stdint.h>

#include "core/arch/arch.h"
#include "formats/net_header.h"
#include "core/net/known_nets.h"
#include "nnue.h"

typedef struct choice_candidate {
    char source[1024];   /* "built-in (archs/NAME.yaml)", a YAML path, ... */
    nnue_arch *arch;     /* owned */
    int size_fits;       /* the file's size agrees (always, for LEB128 and zstd-described files) */
    uint64_t expected;   /* bytes of a plain file of this arch with the header's description */
} choice_candidate;

struct nnue_choice {
    nnue_choice_kind kind;
    char name[1024];               /* the file's path or label, for messages */
    choice_candidate *list;
    int count, cap, chosen;
    int has_header;
    nnue_net_header h;
    char *description;             /* the header's ("" when none), owned */
    char named[NNUE_NAME_MAX];     /* the architecture the description names (nnue init), or "" */
    char sha256[65];               /* "" until computed */
    const known_net *known;
    pthread_t sha_thread;          /* NNUE_CHOOSE_SHA256 on a file: the digest computed beside */
    int sha_running, sha_rc;
    nnue_error raw_error;          /* NNUE_CHOICE_RAW without an architecture: why */
};

/* Appends arch (owned) unless a candidate of its name is listed (then a listed one whose size does
 * not fit gives way to it when its does); frees it when not kept. */
void choice_add(nnue_choice *c, nnue_arch *arch, const char *source, int size_fits, uint64_t expected);

/* Rule 3's list: every built-in Stockfish-format architecture, then those of the YAML files of
 * dirs (and of the net's folder when beside_net is set), with the header's version and file
 * hash; then the description's filter for generated shapes. */
void choice_gather(nnue_choice *c, const char *const *dirs, int n_dirs, const char *beside_net);

/* Plain bytes of a file of arch with the header's description. */
uint64_t choice_expected_bytes(const nnue_arch *arch, const nnue_net_header *h);

#endif
