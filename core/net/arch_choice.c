/* core/net/arch_choice.c: the one architecture chooser (include/nnue_netfile.h nnue_arch_choose,
 * rules 1 to 5 there; docs/detection.md says why this order). Used by nnue_net_load_auto, the
 * tool, Python and the browser.
 *
 * Facts relied on: the header (version, file hash) of shared/oracle/chess/FORMATS.md section 2;
 * the file hash alone cannot tell SFNNv1 from YaneuraOu's HalfKP net (same layers, same hashes),
 * so an uncompressed net must also have exactly the size the architecture predicts. SFNNv4 and
 * SFNNv5 nets share hashes and size: a known net (core/net/known_nets.c, by SHA-256) takes its
 * release's architecture, any other such file SFNNv5 (the layout of every later net). A net
 * written by `nnue init` names its architecture in its description: the file hash leaves out
 * layer stacks and PSQT buckets, so only that one is taken. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/helper_threads.h"
#include "core/arch/arch_api.h"
#include "formats/self_describing.h"
#include "core/net/arch_choice.h"
#include "core/net/net.h"
#include "core/net/net_raw_guess.h"
#include "io/sha256.h"

/* Where the bytes are: a file, or memory (only during the call). */
typedef struct choice_bytes {
    const char *path;
    const void *data;
    size_t size;
} choice_bytes;

static void *sha_of_file(void *arg)
{
    nnue_choice *c = arg;
    c->sha_rc = file_sha256_hex(c->name, c->sha256);
    if (c->sha_rc != 0)
        c->sha256[0] = 0;
    return NULL;
}

/* The digest now (background: on a helper thread, joined by nnue_choice_sha256). */
static void compute_sha(nnue_choice *c, const choice_bytes *b, int background)
{
    if (c->sha256[0] || c->sha_running)
        return;
    if (!b->path) {
        memory_sha256_hex(b->data, b->size, c->sha256);
    } else if (background && nnue_helper_threads_allowed() &&
               pthread_create(&c->sha_thread, NULL, sha_of_file, c) == 0) {
        c->sha_running = 1;
        return;
    } else {
        sha_of_file(c);
    }
    c->known = c->sha256[0] ? known_net_find(c->sha256) : NULL;
}

static int find_name(const nnue_choice *c, const char *name, int need_size)
{
    for (int i = 0; name && i < c->count; i++)
        if ((c->list[i].size_fits || !need_size) && strcmp(c->list[i].arch->name, name) == 0)
            return i;
    return -1;
}

/* Rules 4 and 5 over the gathered candidates. */
static void apply_rules(nnue_choice *c, const choice_bytes *b)
{
    const char *fitting[64];
    int n_fit = 0, last = -1;
    for (int i = 0; i < c->count && n_fit < 64; i++)
        if (c->list[i].size_fits) {
            fitting[n_fit++] = c->list[i].arch->name;
            last = i;
        }
    int named = c->named[0] ? find_name(c, c->named, 0) : -2;
    if (c->count == 0) {
        c->kind = NNUE_CHOICE_NO_HASH;
    } else if (named == -1) {
        c->kind = NNUE_CHOICE_NAMED_MISSING;
    } else if (named >= 0 && !c->list[named].size_fits) {
        c->kind = NNUE_CHOICE_NAMED_SIZE;
    } else if (named >= 0) {
        c->kind = n_fit == 1 ? NNUE_CHOICE_ONLY : NNUE_CHOICE_WRITTEN_FOR;
        c->chosen = named;
    } else if (n_fit == 0) {
        c->kind = NNUE_CHOICE_SIZE_MISMATCH;
    } else if (n_fit == 1) {
        c->kind = NNUE_CHOICE_ONLY;
        c->chosen = last;
    } else {
        compute_sha(c, b, 0);
        const char *def = known_nets_default_choice(fitting, n_fit);
        if (c->known && (c->chosen = find_name(c, c->known->arch, 1)) >= 0)
            c->kind = NNUE_CHOICE_KNOWN_NET;
        else if ((c->chosen = def ? find_name(c, def, 1) : -1) >= 0)
            c->kind = NNUE_CHOICE_DEFAULT;
        else
            c->kind = NNUE_CHOICE_AMBIGUOUS;
    }
}

/* Rule 1: the container's YAML. */
static void self_describing(nnue_choice *c, const void *data, size_t size)
{
    nnue_sd_parts parts;
    nnue_arch *a;
    char label[1100];
    c->kind = NNUE_CHOICE_SELF_DESCRIBING;
    snprintf(label, sizeof label, "%s (embedded YAML)", c->name);
    nnue_status st = nnue_sd_split(data, size, c->name, &parts, &c->raw_error);
    if (st == NNUE_OK &&
        nnue_arch_load_string(parts.yaml, (size_t)parts.yaml_bytes, label, &a, &c->raw_error) == NNUE_OK) {
        choice_add(c, a, "embedded YAML", 1, parts.net_bytes);
        c->chosen = c->count == 1 ? 0 : -1;
    }
}

/* Rule 2: a raw net (core/net/net_raw_guess.c). */
static void raw(nnue_choice *c, const choice_bytes *b)
{
    nnue_arch *a;
    c->kind = NNUE_CHOICE_RAW;
    nnue_status st = b->path ? nnue_raw_guess(b->path, &a, &c->raw_error)
                             : nnue_raw_guess_memory(b->data, b->size, c->name, &a, &c->raw_error);
    if (st == NNUE_OK) {
        choice_add(c, a, "CBNF header", 1, a->file_size);
        c->chosen = c->count == 1 ? 0 : -1;
    }
}

static nnue_status choose(const choice_bytes *b, const char *name, const char *const *dirs, int n_dirs,
                          unsigned flags, nnue_choice **out, nnue_error *err)
{
    nnue_choice *c = calloc(1, sizeof *c);
    if (!c)
        return nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory", name);
    c->chosen = -1;
    snprintf(c->name, sizeof c->name, "%s", name);
    nnue_status st = NNUE_OK;
    unsigned char head[8];
    size_t got = 0;
    if (b->path) {
        FILE *f = fopen(b->path, "rb");
        got = f ? fread(head, 1, sizeof head, f) : 0;
        if (f)
            fclose(f);
    } else {
        got = b->size < sizeof head ? b->size : sizeof head;
        memcpy(head, b->data, got);
    }
    if (nnue_sd_is(head, got)) {
        if (b->path) {
            void *data = NULL;
            size_t size = 0;
            FILE *f = fopen(b->path, "rb");
            long len = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
            if (len >= 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)len + 1)) &&
                fread(data, 1, (size_t)len, f) == (size_t)len)
                size = (size_t)len;
            if (f)
                fclose(f);
            if (data && size == (size_t)len)
                self_describing(c, data, size);
            else
                st = nnue_fail(err, data ? NNUE_E_IO : NNUE_E_NOMEM, "%s: cannot read the file", name);
            free(data);
        } else {
            self_describing(c, b->data, b->size);
        }
    } else {
        st = b->path ? nnue_net_read_header(b->path, &c->h, &c->description, err)
                     : nnue_net_read_header_memory(b->data, b->size, name, &c->h, err);
        if (st == NNUE_OK && !b->path && c->h.description_bytes < 4096 && 12 + (size_t)c->h.description_bytes <= b->size &&
            (c->description = malloc(c->h.description_bytes + 1))) {
            memcpy(c->description, (const char *)b->data + 12, c->h.description_bytes);
            c->description[c->h.description_bytes] = 0;
        }
        int raw_wanted = nnue_raw_guess_wanted(c->h.version);
        if (st == NNUE_OK) {
            c->has_header = 1;
            if (!known_nets_written_for(c->description, c->named, sizeof c->named))
                c->named[0] = 0;
            choice_gather(c, dirs, n_dirs, c->named[0] && (flags & NNUE_CHOOSE_BESIDE_NET) ? b->path : NULL);
            apply_rules(c, b);
            if (c->kind == NNUE_CHOICE_NO_HASH && raw_wanted)
                raw(c, b);
        } else if (st != NNUE_E_IO && st != NNUE_E_NOMEM && st != NNUE_E_ARG && raw_wanted && got > 0) {
            st = NNUE_OK; /* no header: judged as a raw net */
            raw(c, b);
        }
    }
    if (st == NNUE_OK && (flags & NNUE_CHOOSE_SHA256))
        compute_sha(c, b, 1);
    if (!c->description)
        c->description = calloc(1, 1);
    if (st != NNUE_OK || !c->description) {
        nnue_choice_free(c);
        return st != NNUE_OK ? st : nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory", name);
    }
    *out = c;
    return NNUE_OK;
}

nnue_status nnue_arch_choose(const char *path, const char *const *dirs, int n_dirs, unsigned flags,
                             nnue_choice **out, nnue_error *err)
{
    nnue_error_clear(err);
    if (out)
        *out = NULL;
    if (!path || !out || n_dirs < 0 || (n_dirs > 0 && !dirs))
        return nnue_fail(err, NNUE_E_ARG, "nnue_arch_choose: expected a path, an output pointer and n_dirs folders");
    return choose(&(choice_bytes){path, NULL, 0}, path, dirs, n_dirs, flags, out, err);
}

nnue_status nnue_arch_choose_memory(const void *data, size_t size, const char *name, unsigned flags,
                                    nnue_choice **out, nnue_error *err)
{
    nnue_error_clear(err);
    if (out)
        *out = NULL;
    nnue_status st = nnue_memory_args("nnue_arch_choose_memory", "the bytes and an output pointer", data, size,
                                      out != NULL, &name, err);
    if (st != NNUE_OK)
        return st;
    return choose(&(choice_bytes){NULL, data, size}, name, NULL, 0, flags & ~NNUE_CHOOSE_BESIDE_NET, out, err);
}
