/* core/net/net_auto.c: loading a Stockfish-format net (chess or YaneuraOu shogi) without naming its
 * architecture: the header picks one of the built-in architectures (core/arch/arch_builtin.h).
 *
 * Facts relied on: the header (version, file hash) of shared/oracle/chess/FORMATS.md section 2;
 * the file hash alone cannot tell SFNNv1 from YaneuraOu's HalfKP net (same layers, same
 * hashes), so an uncompressed net must also have exactly the size the architecture predicts.
 * SFNNv4 and SFNNv5 nets share hashes and size: a known net (core/net/known_nets.c, by SHA-256) takes
 * its release's architecture, any other such file SFNNv5 (the layout of every later net).
 * YaneuraOu's generated SFNN nets share their hashes whatever their shape (FACTS.md section 2 of
 * shared/oracle/shogi/yo26): a built-in architecture with format 'generated' fits only a file whose
 * description names its shape, and a file whose description names a generated shape no built-in
 * has gets the architecture of that name (load/arch_generated.c). A file whose first word is no
 * built-in net version is judged as a raw net (core/net/net_raw_guess.c): a CBNF header fitting a
 * built-in architecture loads with it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "core/arch/arch_builtin.h"
#include "core/arch/generated_name.h"
#include "load/load.h"
#include "base/error.h"
#include "core/net/known_nets.h"
#include "core/net/net.h"
#include "core/net/net_raw_guess.h"
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

/* Where the bytes are, for the SHA-256 that tells SFNNv4 from SFNNv5 files (only computed then). */
typedef struct net_bytes {
    const char *path;          /* a file, or NULL: */
    const void *data;          /* bytes in memory */
    size_t size;
    const char *description;   /* the header's, or NULL */
} net_bytes;

/* Among several fitting architectures, the one to take: the architecture of a known net (by its
 * SHA-256), else the documented default of the group (SFNNv5 for the SFNNv4/v5 hashes), else -1. */
static int choose_among(nnue_arch *const *fit, int count, const net_bytes *bytes)
{
    char sha[65];
    if (!bytes->path)
        memory_sha256_hex(bytes->data, bytes->size, sha);
    else if (file_sha256_hex(bytes->path, sha) != 0)
        return -1;
    const known_net *known = known_net_find(sha);
    const char *names[32];
    for (int i = 0; i < count; i++)
        names[i] = fit[i]->name;
    char written_for[NNUE_NAME_MAX];
    const char *want = known ? known->arch : known_nets_default_choice(names, count);
    if (!known && known_nets_written_for(bytes->description, written_for, sizeof written_for))
        want = written_for; /* nnue init's own net names its architecture */
    for (int i = 0; want && i < count; i++)
        if (strcmp(fit[i]->name, want) == 0)
            return i;
    return -1;
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

/* The built-in architecture fitting the header (caller frees), or an error naming the
 * candidates. */
static nnue_status pick_builtin(const nnue_net_header *h, const char *name, const net_bytes *bytes,
                                nnue_arch **out, nnue_error *err)
{
    nnue_arch *fit[32];
    char names[512] = "", same_hash[512] = "";
    char sized[640] = ""; /* those with the size a plain file of each has */
    /* A net nnue init wrote names its architecture: never take another that only shares its hash
     * (the file hash leaves out layer stacks and PSQT buckets). */
    char named[NNUE_NAME_MAX];
    int has_named = known_nets_written_for(bytes->description, named, sizeof named);
    uint64_t named_bytes = 0; /* the named architecture's plain file size, when it is built in */
    int count = 0;
    for (int i = 0; i < nnue_builtin_arch_total && count < 32; i++) {
        nnue_arch *a;
        nnue_error ignored;
        if (nnue_arch_load_builtin(nnue_builtin_archs[i].name, &a, &ignored) != NNUE_OK)
            continue; /* tests/core keep every shipped YAML loadable */
        if (a->file_hash == h->file_hash && a->format.version == h->version) {
            snprintf(sized + strlen(sized), sizeof sized - strlen(sized), "%s%s (%" PRIu64 " bytes)",
                     sized[0] ? ", " : "", a->name, expected_file_bytes(a, h));
            if (has_named && strcmp(a->name, named) == 0)
                named_bytes = expected_file_bytes(a, h);
        }
        if (a->file_hash == h->file_hash && a->format.version == h->version)
            snprintf(same_hash + strlen(same_hash), sizeof same_hash - strlen(same_hash), "%s%s",
                     same_hash[0] ? ", " : "", a->name);
        if (!nnue_arch_fits_header(a, h) || !nnue_arch_fits_description(a, bytes->description)) {
            nnue_arch_free(a);
            continue;
        }
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", count ? ", " : "",
                 nnue_builtin_archs[i].name);
        fit[count++] = a;
    }
    /* A generated shape the description names: the others only share its hash. */
    int generated = 0;
    for (int i = 0; i < count; i++)
        generated |= fit[i]->format.generated[0] != 0;
    for (int i = 0, kept = 0; generated && i <= count; i++) {
        if (i == count) {
            count = kept;
            break;
        }
        if (fit[i]->format.generated[0])
            fit[kept++] = fit[i];
        else
            nnue_arch_free(fit[i]);
    }
    int named_at = -2;
    if (has_named) {
        named_at = -1;
        for (int i = 0; i < count; i++)
            if (strcmp(fit[i]->name, named) == 0)
                named_at = i;
    }
    int chosen = named_at >= -1 ? named_at : count == 1 ? 0 : count > 1 ? choose_among(fit, count, bytes) : -1;
    for (int i = 0; i < count; i++)
        if (i != chosen)
            nnue_arch_free(fit[i]);
    if (chosen >= 0) {
        *out = fit[chosen];
        return NNUE_OK;
    }
    nnue_arch *gen = count == 0 ? nnue_arch_from_description(bytes->description) : NULL;
    if (gen && nnue_arch_fits_header(gen, h)) {
        *out = gen;
        return NNUE_OK;
    }
    nnue_arch_free(gen);
    /* A built-in architecture has this version and file hash (the one the description names, if
     * it names one) but another size: most likely the file was cut short or damaged (a LEB128
     * file's size says nothing, so it is not judged). */
    if (named_at == -1 && named_bytes && !h->leb128)
        return nnue_fail(err, NNUE_E_FORMAT,
                         "%s: nnue init wrote this net for the built-in %s, whose file has %" PRIu64
                         " bytes; this one has %" PRIu64 " (truncated or damaged?)",
                         name, named, named_bytes, h->file_bytes);
    if (named_at == -1)
        return nnue_fail(err, NNUE_E_HASH,
                         "%s: nnue init wrote this net for architecture '%s' (its description says so), which is "
                         "not built in%s%s%s; load the YAML of '%s' with nnue_arch_load and nnue_net_load "
                         "(Python: Net.load(path, arch=YAML); the tool: --arch)",
                         name, named, same_hash[0] ? "; only its file hash is that of the built-in " : "",
                         same_hash, "", named);
    if (count == 0 && same_hash[0] && !h->leb128)
        return nnue_fail(err, NNUE_E_FORMAT,
                         "%s: the header's file hash 0x%08" PRIX32 " is that of the built-in %s; this file has %" PRIu64
                         " bytes (truncated or damaged?)",
                         name, h->file_hash, sized, h->file_bytes);
    if (count == 0)
        return nnue_fail(err, NNUE_E_HASH,
                         "%s: no built-in architecture has version 0x%08" PRIX32 ", file hash 0x%08" PRIX32
                         " and a size of %" PRIu64 " bytes; load its YAML with nnue_arch_load",
                         name, h->version, h->file_hash, h->file_bytes);
    return nnue_fail(err, NNUE_E_AMBIGUOUS, "%s: the header fits %d built-in architectures (%s); name one", name,
                     count, names);
}

/* The header route found no architecture and the first word is no built-in net version: the
 * file is judged as a raw net (core/net/net_raw_guess.c: a CBNF header names one; a header-less
 * file gets a message naming the candidates). */
static int raw_route(nnue_status st, const nnue_net_header *h)
{
    return st != NNUE_OK && st != NNUE_E_IO && st != NNUE_E_NOMEM && st != NNUE_E_ARG &&
           nnue_raw_guess_wanted(h->version);
}

nnue_status nnue_net_load_auto(const char *path, nnue_net **out, nnue_error *err)
{
    if (out)
        *out = NULL;
    if (!path || !out)
        return nnue_fail(err, NNUE_E_ARG, "nnue_net_load_auto: expected a path and an output pointer");
    nnue_net_header h;
    nnue_arch *arch;
    char *description = NULL;
    nnue_status st = nnue_net_read_header(path, &h, &description, err);
    if (st == NNUE_OK)
        st = pick_builtin(&h, path, &(net_bytes){path, NULL, 0, description}, &arch, err);
    free(description);
    if (raw_route(st, &h))
        st = nnue_raw_guess(path, &arch, err);
    if (st != NNUE_OK)
        return st;
    arch->format.leb128 = arch->format.kind == NNUE_FORMAT_STOCKFISH && h.leb128; /* the file's FT encoding */
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
    if (out && size == 0) /* as an empty file is refused (net_read.c), whatever the pointer */
        return nnue_fail_offset(err, NNUE_E_FORMAT, name, 0, "empty (0 bytes), not a net");
    if (!data || !out)
        return nnue_fail(err, NNUE_E_ARG, "nnue_net_load_auto_memory: expected the bytes and an output pointer");
    nnue_net_header h;
    nnue_arch *arch;
    nnue_status st = nnue_net_read_header_memory(data, size, name, &h, err);
    char description[256] = ""; /* bytes 12.. of the header, when short enough to matter */
    if (st == NNUE_OK && h.description_bytes < sizeof description && 12 + (size_t)h.description_bytes <= size)
        memcpy(description, (const char *)data + 12, h.description_bytes);
    if (st == NNUE_OK)
        st = pick_builtin(&h, name, &(net_bytes){NULL, data, size, description}, &arch, err);
    if (raw_route(st, &h))
        st = nnue_raw_guess_memory(data, size, name, &arch, err);
    if (st != NNUE_OK)
        return st;
    arch->format.leb128 = arch->format.kind == NNUE_FORMAT_STOCKFISH && h.leb128;
    st = nnue_net_load_memory(arch, data, size, name, out, err);
    nnue_arch_free(arch);
    return st;
}
