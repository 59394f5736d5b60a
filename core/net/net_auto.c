/* core/net/net_auto.c: loading a net without naming its architecture (nnue_net_load_auto): the
 * chooser (core/net/arch_choice.c, rules in include/nnue_netfile.h) picks one of the built-in
 * architectures, or the container's own YAML; and the two tests of a header it applies:
 * version, file hash and size (FORMATS.md section 2), and YaneuraOu's generated shapes, which
 * share every hash (shared/oracle/shogi/yo26 FACTS.md section 2): a built-in architecture with
 * format 'generated' fits only a file whose description names its shape, and a description
 * naming a generated shape gives that architecture (core/load/arch_generated.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "core/arch/generated_name.h"
#include "core/load/load.h"
#include "base/error.h"
#include "core/net/net.h"
#include "nnue.h"

/* The size of a plain file of the arch with this header's description. An arch that fixes the
 * description length counts it in file_size (core/arch/arch_hash.c). */
static uint64_t expected_file_bytes(const nnue_arch *arch, const nnue_net_header *h)
{
    return arch->file_size + (arch->format.description_bytes > 0 ? 0 : h->description_bytes);
}

int nnue_arch_fits_header(const nnue_arch *arch, const nnue_net_header *h)
{
    int32_t fixed = arch->format.description_bytes;
    if (fixed >= 0 && (uint32_t)fixed != h->description_bytes)
        return 0;
    uint64_t expected = expected_file_bytes(arch, h);
    /* The file's own encoding decides: the load reads it with the arch's numbers (nnue_net_load_auto). */
    int size_fits = h->leb128 || expected == h->file_bytes;
    return arch->format.kind == NNUE_FORMAT_STOCKFISH && arch->file_hash == h->file_hash &&
           arch->format.version == h->version && size_fits;
}

int nnue_arch_fits_description(const nnue_arch *a, const char *description)
{
    size_t at;
    char why[8];
    return !a->format.generated[0] ||
           (description && strstr(description, "Network=SFNN") &&
            nnue_generated_check_description(a, description, &at, why, sizeof why) == 0);
}

nnue_arch *nnue_arch_from_description(const char *description)
{
    const char *p = description ? strstr(description, "Network=") : NULL;
    if (!p)
        return NULL;
    char name[NNUE_NAME_MAX];
    size_t len = strcspn(p + 8, "{,;");
    if (len >= sizeof name)
        return NULL;
    memcpy(name, p + 8, len);
    name[len] = 0;
    nnue_arch *a = NULL;
    nnue_error ignored;
    if (!nnue_arch_is_generated_name(name) || nnue_arch_load_generated(name, &a, &ignored) != NNUE_OK)
        return NULL;
    return a;
}

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
    if (!name)
        name = "<memory>";
    if (data && nnue_net_is_self_describing(data, size))
        return nnue_net_load_self_describing_memory(data, size, name, out, err);
    nnue_choice *c = NULL;
    nnue_arch *arch;
    nnue_status st = nnue_arch_choose_memory(data, size, name, 0, &c, err);
    if (st == NNUE_E_ARG)
        return nnue_fail(err, NNUE_E_ARG, "nnue_net_load_auto_memory: expected the bytes and an output pointer");
    if ((st = chosen(c, st, &arch, err)) != NNUE_OK)
        return st;
    st = nnue_net_load_memory(arch, data, size, name, out, err);
    nnue_arch_free(arch);
    return st;
}
