/* features/table_var.c: the table variables selectors can name (features/table_var.h): the
 * built-in table below, then those registered at run time. A built-in one: its file in this
 * folder and two lines below (its extern and its entry). */
#include <stddef.h>

#include "base/registry.h"
#include "features/table_var.h"

extern const nnue_table_var nnue_tv_shogi_progress;

static const nnue_table_var *const builtin[] = {
    &nnue_tv_shogi_progress,
    NULL,
};

static const char *var_name(const void *entry)
{
    return ((const nnue_table_var *)entry)->name;
}

static nnue_registry vars = {.kind = "table variable", .builtin = (const void *const *)builtin, .name_of = var_name,
                             .capacity = 8};

const nnue_table_var *nnue_table_var_find(const char *name)
{
    return nnue_registry_find(&vars, name);
}

const nnue_table_var *nnue_table_var_at(int i)
{
    return nnue_registry_at(&vars, i);
}

nnue_status nnue_register_table_var(const nnue_table_var *var, nnue_error *err)
{
    const char *problem = var && (!var->name || !var->game || !var->section || !var->value || var->lo > var->hi ||
                                  !var->values || (var->derived && !var->prepare) ||
                                  (!var->parts + !var->part_move + !var->value_of) % 3 != 0 ||
                                  (var->part_move_both && !var->part_move))
                              ? "a name, game, section, value function, lo <= hi, at least one value, prepare "
                                "when it derives values, parts, part_move and value_of all or none, and "
                                "part_move_both only with them"
                              : NULL;
    return nnue_registry_add(&vars, var, problem, err);
}
