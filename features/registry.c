/* features/registry.c: the feature sets an architecture can name: the built-in table below,
 * then the sets registered at run time (nnue_feature_set_register).
 * Adding a built-in set: one file in this folder and one line below. */
#include <stddef.h>
#include <string.h>

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

static const nnue_feature_set *registered[NNUE_MAX_REGISTERED_SETS];
static int n_registered;

const nnue_feature_set *nnue_feature_set_find(const char *name)
{
    for (size_t i = 0; nnue_feature_sets[i]; i++)
        if (strcmp(nnue_feature_sets[i]->name, name) == 0)
            return nnue_feature_sets[i];
    for (int i = 0; i < n_registered; i++)
        if (strcmp(registered[i]->name, name) == 0)
            return registered[i];
    return NULL;
}

const nnue_feature_set *nnue_feature_set_at(int i)
{
    int builtin = (int)(sizeof nnue_feature_sets / sizeof nnue_feature_sets[0]) - 1;
    if (i < 0)
        return NULL;
    if (i < builtin)
        return nnue_feature_sets[i];
    return i - builtin < n_registered ? registered[i - builtin] : NULL;
}

int nnue_feature_set_register(const nnue_feature_set *set)
{
    if (!set || !set->name || !set->game || !set->display || !set->dimensions || !set->active ||
        !set->changed || !set->needs_refresh || nnue_feature_set_find(set->name) ||
        n_registered == NNUE_MAX_REGISTERED_SETS)
        return -1;
    registered[n_registered++] = set;
    return 0;
}

uint32_t nnue_feature_set_hash(const nnue_feature_set *fs, const nnue_feature_params *params)
{
    return fs->variants && params ? fs->variants[params->variant].hash : fs->hash;
}

const char *nnue_feature_set_display(const nnue_feature_set *fs, const nnue_feature_params *params)
{
    return fs->variants && params ? fs->variants[params->variant].display : fs->display;
}
