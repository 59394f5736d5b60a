/* base/registry.c: see base/registry.h. The lock is held for every lookup too: run-time
 * additions may happen while another thread resolves names, and lookups are only made while
 * loading architectures, never per evaluation. */
#include "base/registry.h"

#include <pthread.h>
#include <string.h>

#include "base/error.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int builtin_count(const nnue_registry *r)
{
    int n = 0;
    while (r->builtin[n])
        n++;
    return n;
}

int nnue_registry_count(nnue_registry *r)
{
    pthread_mutex_lock(&lock);
    int n = builtin_count(r) + r->n_registered;
    pthread_mutex_unlock(&lock);
    return n;
}

const void *nnue_registry_at(nnue_registry *r, int index)
{
    if (index < 0)
        return NULL;
    pthread_mutex_lock(&lock);
    int builtin = builtin_count(r);
    const void *e = index < builtin ? r->builtin[index]
                    : index - builtin < r->n_registered ? r->registered[index - builtin]
                                                        : NULL;
    pthread_mutex_unlock(&lock);
    return e;
}

/* Under the lock. */
static const void *find_locked(const nnue_registry *r, const char *name)
{
    for (int i = 0; r->builtin[i]; i++)
        if (strcmp(r->name_of(r->builtin[i]), name) == 0)
            return r->builtin[i];
    for (int i = 0; i < r->n_registered; i++)
        if (strcmp(r->name_of(r->registered[i]), name) == 0)
            return r->registered[i];
    return NULL;
}

const void *nnue_registry_find(nnue_registry *r, const char *name)
{
    if (!name)
        return NULL;
    pthread_mutex_lock(&lock);
    const void *e = find_locked(r, name);
    pthread_mutex_unlock(&lock);
    return e;
}

nnue_status nnue_registry_add(nnue_registry *r, const void *entry, const char *problem, nnue_error *err)
{
    nnue_error_clear(err);
    if (!entry)
        return nnue_fail(err, NNUE_E_ARG, "registering a %s: expected a descriptor (got NULL)", r->kind);
    const char *name = r->name_of(entry);
    if (problem)
        return nnue_fail(err, NNUE_E_ARG, "registering %s '%s': expected %s", r->kind, name ? name : "", problem);
    nnue_status st = NNUE_OK;
    pthread_mutex_lock(&lock);
    const void *known = find_locked(r, name);
    if (known && known != entry)
        st = nnue_fail(err, NNUE_E_ARG, "registering %s '%s': the name is taken by another %s", r->kind, name, r->kind);
    else if (!known && r->n_registered >= r->capacity)
        st = nnue_fail(err, NNUE_E_ARG, "registering %s '%s': at most %d %ss can be registered", r->kind, name,
                       r->capacity, r->kind);
    else if (!known)
        r->registered[r->n_registered++] = entry;
    pthread_mutex_unlock(&lock);
    return st;
}
