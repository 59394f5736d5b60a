/* tools/net_setup.c: choosing and loading the architecture of a net file for the tool. */
#include "tools/net_setup.h"

#include "tools/self_describing.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nnue.h"

static int find_name(const arch_choice *c, const char *name, int need_size)
{
    for (int i = 0; i < c->count; i++)
        if ((c->list[i].size_fits || !need_size) && strcmp(c->list[i].arch->name, name) == 0)
            return i;
    return -1;
}

/* The architecture `nnue init` wrote this net for (its description names it) into c->named, or "";
 * returns the description (caller frees; NULL when unreadable). */
static char *read_named(const char *net_path, arch_choice *c)
{
    nnue_net_header h;
    char *description = NULL;
    nnue_error err;
    c->named[0] = 0;
    if (nnue_net_read_header(net_path, &h, &description, &err) != NNUE_OK ||
        !known_nets_written_for(description, c->named, sizeof c->named))
        c->named[0] = 0;
    return description;
}

/* YaneuraOu's generated shapes share their hashes: keep only the candidates the description
 * allows, and when it names a generated shape none of them is, add that shape's architecture. */
static void follow_generated(arch_choice *c, const char *description, const nnue_net_header *h)
{
    int kept = 0, generated = 0;
    for (int i = 0; i < c->count; i++) {
        if (!nnue_arch_fits_description(c->list[i].arch, description)) {
            nnue_arch_free(c->list[i].arch);
            continue;
        }
        generated |= c->list[i].arch->format.generated[0] != 0;
        c->list[kept++] = c->list[i];
    }
    c->count = kept;
    if (generated) { /* the description names this one's shape: the others only share its hash */
        kept = 0;
        for (int i = 0; i < c->count; i++) {
            if (!c->list[i].arch->format.generated[0]) {
                nnue_arch_free(c->list[i].arch);
                continue;
            }
            c->list[kept++] = c->list[i];
        }
        c->count = kept;
    }
    nnue_arch *a = generated ? NULL : nnue_arch_from_description(description);
    if (!a)
        return;
    arch_candidate *grown = realloc(c->list, sizeof *grown * (size_t)(c->count + 1));
    if (!grown || !nnue_arch_fits_header(a, h)) {
        c->list = grown ? grown : c->list;
        nnue_arch_free(a);
        return;
    }
    c->list = grown;
    /* The only fitting one: the description names it. */
    for (int i = 0; i < c->count; i++)
        c->list[i].size_fits = 0;
    memset(&grown[c->count], 0, sizeof grown[c->count]);
    snprintf(grown[c->count].source, sizeof grown[c->count].source, "generated from the description's name");
    grown[c->count].arch = a;
    grown[c->count].size_fits = 1;
    c->count++;
}

void tool_choose_arch(const char *net_path, const nnue_net_header *h, int want_sha256, arch_choice *c)
{
    memset(c, 0, sizeof *c);
    c->chosen = -1;
    char *description = read_named(net_path, c);
    /* A net of the user's own architecture: its YAML may sit beside the net (nnue init ARCH OUT). */
    c->count = arch_candidates_for(h, c->named[0] ? net_path : NULL, &c->list);
    follow_generated(c, description, h);
    free(description);
    const char *fitting[64];
    int n_fit = 0, last = -1;
    for (int i = 0; i < c->count && n_fit < 64; i++)
        if (c->list[i].size_fits) {
            fitting[n_fit++] = c->list[i].arch->name;
            last = i;
        }
    if ((n_fit > 1 || want_sha256) && file_sha256_hex(net_path, c->sha256) == 0)
        c->known = known_net_find(c->sha256);
    if (c->count == 0) {
        c->kind = CHOICE_NO_HASH;
    } else if (c->named[0] && find_name(c, c->named, 0) < 0) {
        /* Another architecture shares the file hash (the hash leaves out stacks and PSQT buckets). */
        c->kind = CHOICE_NAMED_MISSING;
    } else if (n_fit == 0) {
        c->kind = CHOICE_SIZE_MISMATCH;
    } else if (n_fit == 1) {
        c->kind = CHOICE_ONLY;
        c->chosen = last;
    } else if (c->known && (c->chosen = find_name(c, c->known->arch, 1)) >= 0) {
        c->kind = CHOICE_KNOWN_NET;
    } else if (c->named[0] && (c->chosen = find_name(c, c->named, 1)) >= 0) {
        c->kind = CHOICE_WRITTEN_FOR;
    } else {
        const char *name = known_nets_default_choice(fitting, n_fit);
        c->chosen = name ? find_name(c, name, 1) : -1;
        c->kind = c->chosen >= 0 ? CHOICE_DEFAULT : CHOICE_AMBIGUOUS;
    }
}

void arch_choice_free(arch_choice *c)
{
    arch_candidates_free(c->list, c->count);
    memset(c, 0, sizeof *c);
}

/* The architecture names that fit (need_size) or share the hash, as "SFNNv4 (source), SFNNv5 (source)". */
static void fitting_names(const arch_choice *c, char *buf, size_t size, int need_size)
{
    buf[0] = 0;
    for (int i = 0; i < c->count; i++)
        if (c->list[i].size_fits || !need_size)
            snprintf(buf + strlen(buf), size - strlen(buf), "%s%s (%s)", buf[0] ? ", " : "", c->list[i].arch->name,
                     c->list[i].source);
}

/* Explains on stderr why no architecture was chosen. */
void tool_explain_no_choice(const char *cmd, const char *net_path, const nnue_net_header *h, const arch_choice *c)
{
    char names[4096];
    switch (c->kind) {
    case CHOICE_NO_HASH:
        fprintf(stderr, "nnue %s: %s: no architecture has file hash 0x%08" PRIX32 " (searched %s); name one with --arch\n",
                cmd, net_path, h->file_hash, arch_dirs_summary());
        break;
    case CHOICE_SIZE_MISMATCH:
        for (int i = 0; i < c->count; i++)
            fprintf(stderr, "nnue %s: %s: architecture %s has this file hash but a file of %" PRIu64
                    " bytes; this one has %" PRIu64 " (truncated or damaged?)\n",
                    cmd, net_path, c->list[i].arch->name, arch_expected_bytes(c->list[i].arch, h),
                    h->file_bytes);
        fprintf(stderr, "nnue %s: (or a net of another architecture with the same file hash, which leaves out "
                "layer stacks and PSQT buckets: pass its --arch)\n", cmd);
        break;
    case CHOICE_NAMED_MISSING:
        fitting_names(c, names, sizeof names, 0);
        fprintf(stderr, "nnue %s: %s: nnue init wrote this net for architecture '%s' (its description says so), "
                "found neither among %s nor beside the net; %s share%s its file hash 0x%08" PRIX32 " but %s not "
                "it: pass --arch with the YAML of '%s'\n",
                cmd, net_path, c->named, arch_dirs_summary(), names, c->count == 1 ? "s" : "", h->file_hash,
                c->count == 1 ? "is" : "are", c->named);
        break;
    case CHOICE_AMBIGUOUS:
        fitting_names(c, names, sizeof names, 1);
        fprintf(stderr, "nnue %s: %s: file hash 0x%08" PRIX32 " fits several architectures, which evaluate differently: "
                "%s\nnnue %s: the file cannot tell them apart; name one with --arch\n",
                cmd, net_path, h->file_hash, names, cmd);
        break;
    default:
        break;
    }
}

int tool_may_be_raw_net(const char *net_path, const nnue_error *err)
{
    struct stat st;
    return err->code != NNUE_E_IO && stat(net_path, &st) == 0 && st.st_size > 0;
}

int tool_raw_guess(const char *cmd, const char *net_path, nnue_arch **arch)
{
    nnue_error err;
    if (nnue_raw_guess(net_path, arch, &err) == NNUE_OK)
        return 0;
    tool_print_error(cmd, &err);
    return 1;
}

int tool_load_arch_for(const char *cmd, const char *net_path, const char *arch_path, nnue_arch **arch)
{
    nnue_error err;
    if (arch_path) {
        if (nnue_arch_load_named(arch_path, arch, &err) != NNUE_OK) {
            tool_print_error(cmd, &err);
            return 1;
        }
        return 0;
    }
    nnue_net_header h;
    if (nnue_net_read_header(net_path, &h, NULL, &err) != NNUE_OK) {
        if (tool_may_be_raw_net(net_path, &err) && nnue_raw_guess_wanted(h.version))
            return tool_raw_guess(cmd, net_path, arch);
        tool_print_error(cmd, &err);
        if (tool_may_be_raw_net(net_path, &err))
            fprintf(stderr, "nnue %s: header-less (raw) nets need --arch FILE.yaml\n", cmd);
        return 1;
    }
    arch_choice c;
    tool_choose_arch(net_path, &h, 0, &c);
    if (c.chosen < 0 && c.kind == CHOICE_NO_HASH && nnue_raw_guess_wanted(h.version)) {
        arch_choice_free(&c);
        return tool_raw_guess(cmd, net_path, arch);
    }
    if (c.chosen < 0) {
        tool_explain_no_choice(cmd, net_path, &h, &c);
        arch_choice_free(&c);
        return 1;
    }
    if (c.kind == CHOICE_DEFAULT) {
        char names[4096];
        fitting_names(&c, names, sizeof names, 1);
        fprintf(stderr, "nnue %s: %s: file hash 0x%08" PRIX32 " fits %s; SHA-256 %.12s... is no known net, so %s "
                "is assumed (the layout of every net after Stockfish 15 with these hashes); pass --arch for another\n",
                cmd, net_path, h.file_hash, names, c.sha256, c.list[c.chosen].arch->name);
    }
    *arch = c.list[c.chosen].arch;
    c.list[c.chosen].arch = NULL;
    arch_choice_free(&c);
    return 0;
}

int tool_strict, tool_quiet;

int tool_load_net_with(const char *cmd, const char *net_path, const nnue_arch *arch, nnue_net **net)
{
    nnue_error err;
    nnue_net_header h;
    nnue_arch layout = *arch;
    /* Same numbers, other FT encoding: load with the encoding the file has. */
    if (arch->format.kind == NNUE_FORMAT_STOCKFISH && nnue_net_read_header(net_path, &h, NULL, &err) == NNUE_OK)
        layout.format.leb128 = h.leb128;
    if (nnue_net_load(&layout, net_path, net, &err) != NNUE_OK) {
        tool_print_error(cmd, &err);
        return 1;
    }
    /* A bound from the weights alone, over every input (Stockfish 17.1..19's own nets reach it): one
     * note, once per command (convert loads twice), none with --quiet; refused with --strict. */
    static int warned;
    if (nnue_net_warning(*net) && tool_strict) {
        fprintf(stderr, "nnue %s: refused (--strict): %s\n", cmd, nnue_net_warning(*net));
        nnue_net_free(*net);
        *net = NULL;
        return 1;
    }
    if (nnue_net_warning(*net) && !tool_quiet && !warned++)
        fprintf(stderr, "nnue %s: warning: %s\nnnue %s: (a worst case over all inputs, not a failure: positions "
                "reaching it may not exist, and values are computed as the engine computes them; %s--strict "
                "refuses such nets; docs/units.md)\n", cmd, nnue_net_warning(*net), cmd,
                strcmp(cmd, "eval") == 0 || strcmp(cmd, "rescore") == 0 ? "--quiet hides this, " : "");
    return 0;
}

int tool_load_net(const char *cmd, const char *net_path, const char *arch_path, nnue_net **net)
{
    if (!arch_path && sd_is(net_path))
        return sd_load(cmd, net_path, net);
    nnue_arch *arch;
    if (tool_load_arch_for(cmd, net_path, arch_path, &arch) != 0)
        return 1;
    int rc = tool_load_net_with(cmd, net_path, arch, net);
    nnue_arch_free(arch);
    return rc;
}
