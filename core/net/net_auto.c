/* core/net/net_auto.c: loading a net without naming its architecture (nnue_net_load_auto): the
 * chooser (core/net/arch_choice.c, rules in include/nnue_netfile.h) picks one of the built-in
 * architectures, or the container's own YAML. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "core/net/net.h"
#include "nnue.h"

/* The chooser's architecture for the file (core/net/arch_choice.c), or its error. */
static nnue_status chosen(nnue_choice *c, nnue_status st, nnue_arch **arch, nnue_error *err)
{
    if (st == NNUE_OK)
        st = nnue_choice_result(c, arch, err);
    if (st == NNUE_OK && nnue_choice_kind_of(c) != NNUE_CHOICE_RAW) { /* the file's FT encoding */
        nnue_net_header_facts h;
        nnue_choice_header(c, &h, sizeof h);
        (*arch)->format.leb128 = (*arch)->format.kind == NNUE_FORMAT_STOCKFISH && h.leb128;
    }
    nnue_choice_free(c);
    return st;
}

nnue_status nnue_net_load_auto(const char *path, nnue_net **out, nnue_error *err)
{
    if (out)
        *out = NULL;
    if (!path || !out)
        return nnue_fail(err, NNUE_E_ARG, "nnue_net_load_auto: expected a path and an output pointer");
    unsigned char head[8];
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(head, 1, sizeof head, f) : 0;
    if (f)
        fclose(f);
    if (nnue_net_is_self_describing(head, got)) /* rule 1: the container's YAML and its net */
        return nnue_net_load_self_describing(path, out, err);
    nnue_choice *c = NULL;
    nnue_arch *arch;
    nnue_status st = nnue_arch_choose(path, NULL, 0, 0, &c, err);
    if ((st = chosen(c, st, &arch, err)) != NNUE_OK)
        return st;
    st = nnue_net_load(arch, path, out, err);
    nnue_arch_free(arch);
    return st;
}

nnue_status nnue_net_load_auto_memory(const void *data, size_t size, const char *name, nnue_net **out,
                                      nnue_error *err)
{
    if (out)
        *out = NULL;
    nnue_status st = nnue_memory_args("nnue_net_load_auto_memory", "the bytes and an output pointer", data, size,
                                      out != NULL, &name, err);
    if (st != NNUE_OK)
        return st;
    if (nnue_net_is_self_describing(data, size))
        return nnue_net_load_self_describing_memory(data, size, name, out, err);
    nnue_choice *c = NULL;
    nnue_arch *arch;
    st = nnue_arch_choose_memory(data, size, name, 0, &c, err);
    if ((st = chosen(c, st, &arch, err)) != NNUE_OK)
        return st;
    st = nnue_net_load_memory(arch, data, size, name, out, err);
    nnue_arch_free(arch);
    return st;
}
