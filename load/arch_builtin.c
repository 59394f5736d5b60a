/* load/arch_builtin.c: listing and loading the built-in architectures (core/arch/arch_builtin.h). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/arch/arch_api.h"
#include "core/arch/arch_builtin.h"
#include "load/load.h"
#include "base/error.h"
#include "nnue.h"

int nnue_arch_builtin_count(void)
{
    return nnue_builtin_arch_total;
}

const char *nnue_arch_builtin_name(int index)
{
    return index >= 0 && index < nnue_builtin_arch_total ? nnue_builtin_archs[index].name : NULL;
}

const char *nnue_arch_builtin_yaml(int index, size_t *length)
{
    if (index < 0 || index >= nnue_builtin_arch_total)
        return NULL;
    if (length)
        *length = nnue_builtin_archs[index].length;
    return nnue_builtin_archs[index].yaml;
}

nnue_status nnue_arch_load_builtin(const char *name, nnue_arch **out, nnue_error *err)
{
    if (out)
        *out = NULL;
    if (!name || !out)
        return nnue_fail(err, NNUE_E_ARG, "nnue_arch_load_builtin: expected a name and an output pointer");
    for (int i = 0; i < nnue_builtin_arch_total; i++) {
        const nnue_builtin_arch *b = &nnue_builtin_archs[i];
        if (strcmp(b->name, name) == 0) {
            char label[96];
            snprintf(label, sizeof label, "built-in %s.yaml", b->name);
            return nnue_arch_load_string(b->yaml, b->length, label, out, err);
        }
    }
    char names[1024] = "";
    for (int i = 0; i < nnue_builtin_arch_total; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", nnue_builtin_archs[i].name);
    return nnue_fail(err, NNUE_E_ARG, "no built-in architecture is named '%s' (built in: %s)", name, names);
}

nnue_status nnue_arch_load_named(const char *name_or_path, nnue_arch **out, nnue_error *err)
{
    if (out)
        *out = NULL;
    if (!name_or_path || !out)
        return nnue_fail(err, NNUE_E_ARG, "nnue_arch_load_named: expected a name or a path and an output pointer");
    for (int i = 0; i < nnue_builtin_arch_total; i++)
        if (strcmp(nnue_builtin_archs[i].name, name_or_path) == 0)
            return nnue_arch_load_builtin(name_or_path, out, err);
    /* YaneuraOu's generated names load by name (load/arch_generated.c). */
    if (!strchr(name_or_path, '/') && !strstr(name_or_path, ".yaml") && nnue_arch_is_generated_name(name_or_path))
        return nnue_arch_load_generated(name_or_path, out, err);
    nnue_status st = nnue_arch_load(name_or_path, out, err);
    if (st == NNUE_E_IO && !strchr(name_or_path, '/') && !strstr(name_or_path, ".yaml") &&
        strncasecmp(name_or_path, "SFNN", 4) == 0 && (name_or_path[4] == '_' || name_or_path[4] == '-'))
        return nnue_arch_load_generated(name_or_path, out, err); /* meant as one: the parser says why not */
    if (st == NNUE_E_IO && !strchr(name_or_path, '/') && !strstr(name_or_path, ".yaml")) {
        /* Neither a built-in name nor a file: say both. */
        char names[1024] = "";
        for (int i = 0; i < nnue_builtin_arch_total; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                     nnue_builtin_archs[i].name);
        return nnue_fail(err, NNUE_E_ARG,
                         "'%s' is neither a built-in architecture (%s), a generated SFNN name (SFNN_halfkahm2_FT_H1_H2"
                         "[_cC_sSxG][_handN][_kNkN][_progressN]) nor a YAML file",
                         name_or_path, names);
    }
    return st;
}
