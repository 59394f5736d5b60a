/* core/arch_builtin.c: listing and loading the built-in architectures (core/arch_builtin.h). */
#include <stdio.h>
#include <string.h>

#include "core/arch_api.h"
#include "core/arch_builtin.h"
#include "core/error.h"
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
