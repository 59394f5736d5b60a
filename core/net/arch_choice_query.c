/* core/net/arch_choice_query.c: what a choice answers (include/nnue_netfile.h nnue_choice_*), and
 * its errors in words: each names the file and why no architecture was taken. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "core/arch/arch_api.h"
#include "core/net/arch_choice.h"

void nnue_choice_free(nnue_choice *c)
{
    if (!c)
        return;
    if (c->sha_running)
        pthread_join(c->sha_thread, NULL);
    for (int i = 0; i < c->count; i++)
        nnue_arch_free(c->list[i].arch);
    free(c->list);
    free(c->description);
    free(c);
}

nnue_choice_kind nnue_choice_kind_of(const nnue_choice *c)
{
    return c ? c->kind : NNUE_CHOICE_NO_HASH;
}

int nnue_choice_count(const nnue_choice *c)
{
    return c ? c->count : 0;
}

static const choice_candidate *at(const nnue_choice *c, int i)
{
    return c && i >= 0 && i < c->count ? &c->list[i] : NULL;
}

const nnue_arch *nnue_choice_arch(const nnue_choice *c, int i)
{
    return at(c, i) ? at(c, i)->arch : NULL;
}

const char *nnue_choice_source(const nnue_choice *c, int i)
{
    return at(c, i) ? at(c, i)->source : NULL;
}

int nnue_choice_size_fits(const nnue_choice *c, int i)
{
    return at(c, i) ? at(c, i)->size_fits : 0;
}

uint64_t nnue_choice_expected_bytes(const nnue_choice *c, int i)
{
    return at(c, i) ? at(c, i)->expected : 0;
}

int nnue_choice_chosen(const nnue_choice *c)
{
    return c ? c->chosen : -1;
}

const char *nnue_choice_named(const nnue_choice *c)
{
    return c ? c->named : "";
}

const char *nnue_choice_sha256(nnue_choice *c)
{
    if (!c)
        return "";
    if (c->sha_running) {
        pthread_join(c->sha_thread, NULL);
        c->sha_running = 0;
        c->known = c->sha256[0] ? known_net_find(c->sha256) : NULL;
    }
    return c->sha256;
}

const char *nnue_choice_known_net(nnue_choice *c, const char **arch)
{
    nnue_choice_sha256(c);
    if (arch)
        *arch = c && c->known ? c->known->arch : NULL;
    return c && c->known ? c->known->what : NULL;
}

const char *nnue_choice_header(const nnue_choice *c, nnue_net_header_facts *out, size_t size)
{
    nnue_net_header_facts f;
    memset(&f, 0, sizeof f);
    if (c && c->has_header)
        f = (nnue_net_header_facts){c->h.version, c->h.file_hash, c->h.ft_hash, c->h.description_bytes,
                                    c->h.file_bytes, c->h.leb128, c->h.zstd};
    if (out) {
        memset(out, 0, size);
        memcpy(out, &f, size < sizeof f ? size : sizeof f);
    }
    return c && c->description ? c->description : "";
}

/* "A (N bytes), B (M bytes)" of the candidates (size: with their plain sizes; fits: only those
 * whose size fits). */
static void names(const nnue_choice *c, char *buf, size_t cap, int sizes, int fits)
{
    buf[0] = 0;
    for (int i = 0; i < c->count; i++) {
        if (fits && !c->list[i].size_fits)
            continue;
        size_t n = strlen(buf);
        if (sizes)
            snprintf(buf + n, cap - n, "%s%s (%" PRIu64 " bytes)", n ? ", " : "", c->list[i].arch->name,
                     c->list[i].expected);
        else
            snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", c->list[i].arch->name);
    }
}

nnue_status nnue_choice_result(const nnue_choice *c, nnue_arch **arch, nnue_error *err)
{
    nnue_error_clear(err);
    if (arch)
        *arch = NULL;
    if (!c || !arch)
        return nnue_fail(err, NNUE_E_ARG, "nnue_choice_result: expected a choice and an output pointer");
    if (c->chosen >= 0) {
        nnue_arch *copy = malloc(sizeof *copy); /* a flat struct (nnue_net_load copies it so too) */
        if (!copy)
            return nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory", c->name);
        memcpy(copy, c->list[c->chosen].arch, sizeof *copy);
        *arch = copy;
        return NNUE_OK;
    }
    if (c->kind == NNUE_CHOICE_RAW || c->kind == NNUE_CHOICE_SELF_DESCRIBING) {
        if (err)
            *err = c->raw_error;
        return c->raw_error.code != NNUE_OK ? c->raw_error.code : NNUE_E_FORMAT;
    }
    char list[1024];
    const nnue_net_header *h = &c->h;
    int n = -1;
    for (int i = 0; i < c->count; i++)
        if (strcmp(c->list[i].arch->name, c->named) == 0)
            n = i;
    switch (c->kind) {
    case NNUE_CHOICE_NAMED_SIZE:
        return nnue_fail(err, NNUE_E_FORMAT,
                         "%s: nnue init wrote this net for %s %s, whose file has %" PRIu64 " bytes; this one has %" PRIu64
                         " (truncated or damaged?)",
                         c->name, strncmp(c->list[n].source, "built-in", 8) == 0 ? "the built-in" : "the architecture",
                         c->named, c->list[n].expected, h->file_bytes);
    case NNUE_CHOICE_NAMED_MISSING:
        names(c, list, sizeof list, 0, 0);
        return nnue_fail(err, NNUE_E_HASH,
                         "%s: nnue init wrote this net for architecture '%s' (its description says so), which is "
                         "not built in%s%s; load the YAML of '%s' with nnue_arch_load and nnue_net_load "
                         "(Python: Net.load(path, arch=YAML); the tool: --arch)",
                         c->name, c->named, c->count ? "; only its file hash is that of the built-in " : "", list,
                         c->named);
    case NNUE_CHOICE_SIZE_MISMATCH:
        names(c, list, sizeof list, 1, 0);
        return nnue_fail(err, NNUE_E_FORMAT,
                         "%s: the header's file hash 0x%08" PRIX32 " is that of the built-in %s; this file has %" PRIu64
                         " bytes (truncated or damaged?)",
                         c->name, h->file_hash, list, h->file_bytes);
    case NNUE_CHOICE_AMBIGUOUS:
        names(c, list, sizeof list, 0, 1);
        return nnue_fail(err, NNUE_E_AMBIGUOUS, "%s: the header fits several architectures (%s); name one", c->name,
                         list);
    default:
        return nnue_fail(err, NNUE_E_HASH,
                         "%s: no built-in architecture has version 0x%08" PRIX32 ", file hash 0x%08" PRIX32
                         " and a size of %" PRIu64 " bytes; load its YAML with nnue_arch_load",
                         c->name, h->version, h->file_hash, h->file_bytes);
    }
}
