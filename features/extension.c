/* features/extension.c: feature sets from outside the library (include/nnue_extend.h).
 *
 * The public descriptor (nnue_ext_feature_set) is a narrow, frozen ABI with no parameters; each
 * one registered becomes an internal nnue_feature_set (features/feature_set.h) whose hooks find
 * their descriptor through the parameters' `set` back-pointer and call it. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/names.h"
#include "base/registry.h"
#include "features/feature_set.h"
#include "nnue_extend.h"

/* An internal set made for one public descriptor; `set` first, so params->set leads back here. */
typedef struct ext_set {
    nnue_feature_set set;
    const nnue_ext_feature_set *ext;
} ext_set;

static ext_set sets[NNUE_MAX_REGISTERED_SETS];
static int n_sets;
static pthread_mutex_t sets_lock = PTHREAD_MUTEX_INITIALIZER;

static const nnue_ext_feature_set *ext_of(const nnue_feature_params *p)
{
    return ((const ext_set *)(const void *)p->set)->ext;
}

static uint32_t dimensions(const nnue_feature_params *p)
{
    return ext_of(p)->dimensions;
}

/* The hooks' outputs are checked here, at the boundary: a count past the set's bound or an index
 * past its dimensions would make the accumulator read outside the weights. A bad output becomes
 * an empty list and the first fault of this thread is kept, for the evaluation under way to
 * report (nnue_fs_extension_fault) instead of a value. */
static _Thread_local char fault[256];

static int checked_list(const nnue_ext_feature_set *e, const char *what, int persp, uint32_t *list, int n, int max)
{
    int bad = n < 0 || n > max ? -1 : 0;
    for (int i = 0; i < n && !bad; i++)
        if (list[i] >= e->dimensions)
            bad = i + 1;
    if (!bad)
        return n; /* else -1 */
    if (!fault[0]) {
        if (bad < 0)
            snprintf(fault, sizeof fault, "feature set '%s': %s (perspective %d) returned %d features, expected 0 to %d",
                     e->name, what, persp, n, max);
        else
            snprintf(fault, sizeof fault,
                     "feature set '%s': %s (perspective %d) returned index %u at position %d, expected below its "
                     "dimensions (%u)",
                     e->name, what, persp, list[bad - 1], bad - 1, e->dimensions);
    }
    return -1;
}

static int active(const nnue_feature_params *p, const nnue_board *board, int persp, uint32_t *out)
{
    const nnue_ext_feature_set *e = ext_of(p);
    int n = checked_list(e, "active()", persp, out, e->active(board, persp, out),
                         e->max_active ? e->max_active : NNUE_MAX_ACTIVE);
    return n < 0 ? 0 : n;
}

static void changed(const nnue_feature_params *p, const nnue_board *after, const nnue_delta *delta, int persp,
                    uint32_t *removed, int *n_removed, uint32_t *added, int *n_added)
{
    const nnue_ext_feature_set *e = ext_of(p);
    int nr = 0, na = 0, max = e->max_changed ? e->max_changed : NNUE_MAX_CHANGED;
    e->changed(after, delta, persp, removed, &nr, added, &na);
    nr = checked_list(e, "changed() removed", persp, removed, nr, max);
    na = checked_list(e, "changed() added", persp, added, na, max);
    if (nr < 0 || na < 0)
        nr = na = 0; /* one bad list spoils the pair: the evaluation reports it */
    *n_removed = nr;
    *n_added = na;
}

int nnue_fs_is_extension(const nnue_feature_set *fs)
{
    for (int i = 0; i < NNUE_MAX_REGISTERED_SETS; i++)
        if (fs == &sets[i].set)
            return 1;
    return 0;
}

const char *nnue_fs_extension_fault(char *buf, size_t size)
{
    if (!fault[0])
        return NULL;
    snprintf(buf, size, "%s", fault);
    fault[0] = '\0';
    return buf;
}

static int needs_refresh(const nnue_feature_params *p, const nnue_board *after, const nnue_delta *delta, int persp)
{
    const nnue_ext_feature_set *e = ext_of(p);
    return e->needs_refresh ? e->needs_refresh(after, delta, persp) != 0 : 0;
}

static const char *check_descriptor(const nnue_ext_feature_set *e, char *buf, size_t size)
{
    if (e->abi != NNUE_EXTEND_ABI) {
        snprintf(buf, size, "a feature set built for extension ABI %u; this library reads ABI %d", e->abi,
                 NNUE_EXTEND_ABI);
        return buf;
    }
    if (!e->name || !e->name[0] || !e->game || !e->active || !e->changed || !e->dimensions)
        return "a feature set needs a name, a game, dimensions, active and changed";
    if (nnue_name_problem("feature set", e->name, buf, size))
        return buf;
    if (e->max_active > NNUE_MAX_ACTIVE_ANY || e->max_changed > NNUE_MAX_ACTIVE_ANY) {
        snprintf(buf, size, "feature set '%s': max_active %u, max_changed %u (at most %d each)", e->name,
                 e->max_active, e->max_changed, NNUE_MAX_ACTIVE_ANY);
        return buf;
    }
    if (!nnue_game_find(e->game)) {
        snprintf(buf, size, "feature set '%s' reads the game '%s', which is not known (register it first)", e->name,
                 e->game);
        return buf;
    }
    return NULL;
}

nnue_status nnue_register_feature_set(const nnue_ext_feature_set *ext, nnue_error *err)
{
    nnue_error_clear(err);
    if (!ext)
        return nnue_fail(err, NNUE_E_ARG, "nnue_register_feature_set: set is NULL");
    char buf[256];
    const char *problem = check_descriptor(ext, buf, sizeof buf);
    if (problem)
        return nnue_fail(err, NNUE_E_ARG, "nnue_register_feature_set: %s", problem);
    pthread_mutex_lock(&sets_lock);
    nnue_status st;
    int i = 0;
    while (i < n_sets && sets[i].ext != ext)
        i++;
    if (i < n_sets) { /* registered before: the registry makes it a no-op */
        st = nnue_register_internal_feature_set(&sets[i].set, err);
    } else if (n_sets == NNUE_MAX_REGISTERED_SETS) {
        st = nnue_fail(err, NNUE_E_ARG, "nnue_register_feature_set: %d feature sets are registered already",
                       NNUE_MAX_REGISTERED_SETS);
    } else {
        ext_set *s = &sets[n_sets];
        s->ext = ext;
        s->set = (nnue_feature_set){
            .name = ext->name, .game = ext->game, .display = ext->name, .hash = ext->hash,
            .max_active = ext->max_active, .max_changed = ext->max_changed, .max_pieces = ext->max_pieces,
            .dimensions = dimensions, .active = active, .changed = changed, .needs_refresh = needs_refresh,
        };
        st = nnue_register_internal_feature_set(&s->set, err);
        if (st == NNUE_OK)
            n_sets++;
    }
    pthread_mutex_unlock(&sets_lock);
    return st;
}

/* The older name (include/nnue_extend.h: deprecated, kept exported). */
nnue_status nnue_ext_register_feature_set(const nnue_ext_feature_set *ext, nnue_error *err)
{
    return nnue_register_feature_set(ext, err);
}
