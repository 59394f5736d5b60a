/* base/registry.h: the one mechanism behind the library's three registries (layer types:
 * layers/registry.c, feature sets: features/registry.c, games: games/registry.c). Each is
 * a NULL-terminated table of built-in descriptors, then descriptors registered at run time;
 * entries are found by index or by name; one lock covers every registry, so registering from
 * several threads, or while another thread loads an architecture, is safe. Errors follow the
 * library's convention: nnue_status and a message naming the entry. */
#ifndef NNUE_BASE_REGISTRY_H
#define NNUE_BASE_REGISTRY_H

#include "nnue_error.h"

/* The most descriptors one registry takes at run time. */
#define NNUE_REGISTRY_MAX 32

typedef struct nnue_registry {
    const char *kind;                         /* "layer type", "feature set", "game": for messages */
    const void *const *builtin;               /* the built-in descriptors, NULL-terminated */
    const char *(*name_of)(const void *entry);
    int capacity;                             /* registered descriptors at most (<= NNUE_REGISTRY_MAX) */
    const void *registered[NNUE_REGISTRY_MAX];
    int n_registered;
} nnue_registry;

/* Entries in order (built-in, then registered): count, entry i (NULL out of range), by name
 * (NULL when unknown or name is NULL). */
int nnue_registry_count(nnue_registry *r);
const void *nnue_registry_at(nnue_registry *r, int index);
const void *nnue_registry_find(nnue_registry *r, const char *name);

/* Registers entry. problem: NULL for a complete descriptor, else what it lacks ("a name and the
 * functions ..."), refused with it. The same descriptor registered again is a no-op (NNUE_OK);
 * another descriptor under a name already known, or a full registry, is NNUE_E_ARG. */
nnue_status nnue_registry_add(nnue_registry *r, const void *entry, const char *problem, nnue_error *err);

#endif
