/* core/net/arch_candidates.c: the candidates of the architecture chooser (core/net/arch_choice.h,
 * rule 3 of include/nnue_netfile.h): the built-in architectures, then the YAML files of the
 * folders the caller names, with the header's version and file hash. YaneuraOu's generated SFNN
 * nets share their hashes whatever their shape (shared/oracle/shogi/yo26 FACTS.md section 2): a
 * generated shape is a candidate only where the description names it, and the shape a
 * description names is added when no candidate is one (load/arch_generated.c). */
#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "core/arch/arch_builtin.h"
#include "core/arch/generated_name.h"
#include "load/load.h"
#include "core/net/arch_choice.h"
#include "core/net/net.h"

uint64_t choice_expected_bytes(const nnue_arch *a, const nnue_net_header *h)
{
    /* An arch that fixes the description length counts it in file_size (core/arch/arch_hash.c). */
    return a->file_size + (a->format.description_bytes > 0 ? 0 : h->description_bytes);
}

int nnue_arch_fits_header(const nnue_arch *arch, const nnue_net_header *h)
{
    int32_t fixed = arch->format.description_bytes;
    if (fixed >= 0 && (uint32_t)fixed != h->description_bytes)
        return 0;
    uint64_t expected = choice_expected_bytes(arch, h);
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

void choice_add(nnue_choice *c, nnue_arch *a, const char *source, int size_fits, uint64_t expected)
{
    for (int i = 0; i < c->count; i++) {
        choice_candidate *l = &c->list[i];
        if (strcmp(l->arch->name, a->name) != 0)
            continue;
        if (size_fits && !l->size_fits) { /* two YAMLs of one name: the one that fits stays */
            nnue_arch_free(l->arch);
            *l = (choice_candidate){.arch = a, .size_fits = 1, .expected = expected};
            snprintf(l->source, sizeof l->source, "%s", source);
        } else {
            nnue_arch_free(a);
        }
        return;
    }
    if (c->count == c->cap) {
        int cap = c->cap ? 2 * c->cap : 8;
        choice_candidate *grown = realloc(c->list, (size_t)cap * sizeof *grown);
        if (!grown) {
            nnue_arch_free(a);
            return;
        }
        c->list = grown;
        c->cap = cap;
    }
    choice_candidate *l = &c->list[c->count++];
    *l = (choice_candidate){.arch = a, .size_fits = size_fits, .expected = expected};
    snprintf(l->source, sizeof l->source, "%s", source);
}

/* Keeps a (owned) when it has the header's version and file hash; frees it otherwise. */
static void consider(nnue_choice *c, nnue_arch *a, const char *source)
{
    const nnue_net_header *h = &c->h;
    if (a->format.kind != NNUE_FORMAT_STOCKFISH || a->file_hash != h->file_hash || a->format.version != h->version) {
        nnue_arch_free(a);
        return;
    }
    uint64_t expected = choice_expected_bytes(a, h);
    int32_t fixed = a->format.description_bytes;
    /* The file's own encoding decides (a LEB128 file's size says nothing). */
    int size_fits = (fixed < 0 || (uint32_t)fixed == h->description_bytes) && (h->leb128 || expected == h->file_bytes);
    choice_add(c, a, source, size_fits, expected);
}

static void scan_dir(nnue_choice *c, const char *dir)
{
    DIR *d = dir && *dir ? opendir(dir) : NULL;
    if (!d)
        return;
    struct dirent *entry;
    while ((entry = readdir(d))) {
        size_t len = strlen(entry->d_name);
        if (len < 6 || strcmp(entry->d_name + len - 5, ".yaml") != 0)
            continue;
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        nnue_arch *a;
        nnue_error ignored;
        if (nnue_arch_load(path, &a, &ignored) == NNUE_OK)
            consider(c, a, path);
    }
    closedir(d);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const choice_candidate *)a)->arch->name, ((const choice_candidate *)b)->arch->name);
}

/* Only the candidates the description allows; when it names a generated shape none of them is, that
 * shape's architecture is the only one that fits. */
static void follow_generated(nnue_choice *c)
{
    int kept = 0, generated = 0;
    for (int i = 0; i < c->count; i++) {
        if (!nnue_arch_fits_description(c->list[i].arch, c->description)) {
            nnue_arch_free(c->list[i].arch);
            continue;
        }
        generated |= c->list[i].arch->format.generated[0] != 0;
        c->list[kept++] = c->list[i];
    }
    c->count = kept;
    for (int i = 0, k = 0; generated && i <= c->count; i++) { /* the others only share its hash */
        if (i == c->count) {
            c->count = k;
            break;
        }
        if (c->list[i].arch->format.generated[0])
            c->list[k++] = c->list[i];
        else
            nnue_arch_free(c->list[i].arch);
    }
    nnue_arch *a = generated ? NULL : nnue_arch_from_description(c->description);
    if (!a)
        return;
    if (!nnue_arch_fits_header(a, &c->h)) {
        nnue_arch_free(a);
        return;
    }
    for (int i = 0; i < c->count; i++)
        c->list[i].size_fits = 0;
    choice_add(c, a, "generated from the description's name", 1, choice_expected_bytes(a, &c->h));
}

void choice_gather(nnue_choice *c, const char *const *dirs, int n_dirs, const char *beside_net)
{
    for (int i = 0; i < nnue_builtin_arch_total; i++) {
        nnue_arch *a;
        nnue_error ignored;
        char source[300];
        snprintf(source, sizeof source, "built-in (archs/%s.yaml)", nnue_builtin_archs[i].name);
        if (nnue_arch_load_builtin(nnue_builtin_archs[i].name, &a, &ignored) == NNUE_OK)
            consider(c, a, source); /* tests/core keep every shipped YAML loadable */
    }
    for (int i = 0; i < n_dirs; i++)
        scan_dir(c, dirs[i]);
    if (beside_net) {
        char copy[PATH_MAX];
        snprintf(copy, sizeof copy, "%s", beside_net);
        scan_dir(c, dirname(copy));
    }
    if (c->count > 1)
        qsort(c->list, (size_t)c->count, sizeof *c->list, by_name);
    follow_generated(c);
}
