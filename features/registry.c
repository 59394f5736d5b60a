/* features/registry.c: the feature sets an architecture can name: the built-in table below,
 * then the sets registered at run time (nnue_register_internal_feature_set).
 * Adding a built-in set: one file in this folder and two lines below (its extern and its entry). */
#include <stddef.h>
#include <string.h>

#include "base/registry.h"
#include "features/feature_set.h"

/* declarations */
extern const nnue_feature_set nnue_fs_halfkp;
extern const nnue_feature_set nnue_fs_halfka;
extern const nnue_feature_set nnue_fs_halfka_v2;
extern const nnue_feature_set nnue_fs_halfka_v2_hm;
extern const nnue_feature_set nnue_fs_shogi_halfkp;
extern const nnue_feature_set nnue_fs_shogi_halfka_hm2;
extern const nnue_feature_set nnue_fs_shogi_halfka2;
extern const nnue_feature_set nnue_fs_chess768;
extern const nnue_feature_set nnue_fs_full_threats;
extern const nnue_feature_set nnue_fs_pp_3wide;
extern const nnue_feature_set nnue_fs_xiangqi_halfka;
extern const nnue_feature_set nnue_fs_xiangqi_threats;

const nnue_feature_set *const nnue_feature_sets[] = {
    /* entries */
    &nnue_fs_halfkp,
    &nnue_fs_halfka,
    &nnue_fs_halfka_v2,
    &nnue_fs_halfka_v2_hm,
    &nnue_fs_shogi_halfkp,
    &nnue_fs_shogi_halfka_hm2,
    &nnue_fs_shogi_halfka2,
    &nnue_fs_chess768,
    &nnue_fs_full_threats,
    &nnue_fs_pp_3wide,
    &nnue_fs_xiangqi_halfka,
    &nnue_fs_xiangqi_threats,
    NULL,
};

static const char *set_name(const void *entry)
{
    return ((const nnue_feature_set *)entry)->name;
}

static nnue_registry sets = {.kind = "feature set", .builtin = (const void *const *)nnue_feature_sets,
                             .name_of = set_name, .capacity = NNUE_MAX_REGISTERED_SETS};

const nnue_feature_set *nnue_feature_set_find(const char *name)
{
    return nnue_registry_find(&sets, name);
}

const nnue_feature_set *nnue_feature_set_at(int i)
{
    return nnue_registry_at(&sets, i);
}

nnue_status nnue_register_internal_feature_set(const nnue_feature_set *set, nnue_error *err)
{
    const char *problem = set && (!set->name || !set->game || !set->display || !set->dimensions || !set->active ||
                                  !set->changed || !set->needs_refresh)
                              ? "a name and the members game, display, dimensions, active, changed and needs_refresh"
                              : NULL;
    return nnue_registry_add(&sets, set, problem, err);
}

uint32_t nnue_feature_set_hash(const nnue_feature_set *fs, const nnue_feature_params *params)
{
    return fs->variants && params ? fs->variants[params->variant].hash : fs->hash;
}

const char *nnue_feature_set_display(const nnue_feature_set *fs, const nnue_feature_params *params)
{
    return fs->variants && params ? fs->variants[params->variant].display : fs->display;
}
