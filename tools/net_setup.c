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

nnue_status tool_choose_arch(const char *net_path, unsigned flags, nnue_choice **c, nnue_error *err)
{
    const char *dirs[3];
    int n = arch_dirs(dirs, 3);
    return nnue_arch_choose(net_path, dirs, n, flags | NNUE_CHOOSE_BESIDE_NET, c, err);
}

/* The candidates that fit (need_size) or share the hash, as "SFNNv4 (source), SFNNv5 (source)". */
static void fitting_names(const nnue_choice *c, char *buf, size_t size, int need_size)
{
    buf[0] = 0;
    for (int i = 0; i < nnue_choice_count(c); i++)
        if (nnue_choice_size_fits(c, i) || !need_size)
            snprintf(buf + strlen(buf), size - strlen(buf), "%s%s (%s)", buf[0] ? ", " : "",
                     nnue_arch_name(nnue_choice_arch(c, i)), nnue_choice_source(c, i));
}

void tool_explain_no_choice(const char *cmd, const char *net_path, nnue_choice *c)
{
    char names[4096];
    nnue_net_header_facts h;
    nnue_choice_header(c, &h, sizeof h);
    nnue_error err;
    nnue_arch *none;
    int count = nnue_choice_count(c);
    switch (nnue_choice_kind_of(c)) {
    case NNUE_CHOICE_NO_HASH:
        fprintf(stderr, "nnue %s: %s: no architecture has file hash 0x%08" PRIX32 " (searched %s); name one with --arch\n",
                cmd, net_path, h.file_hash, arch_dirs_summary());
        break;
    case NNUE_CHOICE_SIZE_MISMATCH:
        for (int i = 0; i < count; i++)
            fprintf(stderr, "nnue %s: %s: architecture %s has this file hash but a file of %" PRIu64
                    " bytes; this one has %" PRIu64 " (truncated or damaged?)\n",
                    cmd, net_path, nnue_arch_name(nnue_choice_arch(c, i)), nnue_choice_expected_bytes(c, i),
                    h.file_bytes);
        fprintf(stderr, "nnue %s: (or a net of another architecture with the same file hash, which leaves out "
                "layer stacks and PSQT buckets: pass its --arch)\n", cmd);
        break;
    case NNUE_CHOICE_NAMED_MISSING:
        fitting_names(c, names, sizeof names, 0);
        fprintf(stderr, "nnue %s: %s: nnue init wrote this net for architecture '%s' (its description says so), "
                "found neither among %s nor beside the net; %s share%s its file hash 0x%08" PRIX32 " but %s not "
                "it: pass --arch with the YAML of '%s'\n",
                cmd, net_path, nnue_choice_named(c), arch_dirs_summary(), names, count == 1 ? "s" : "", h.file_hash,
                count == 1 ? "is" : "are", nnue_choice_named(c));
        break;
    case NNUE_CHOICE_AMBIGUOUS:
        fitting_names(c, names, sizeof names, 1);
        fprintf(stderr, "nnue %s: %s: file hash 0x%08" PRIX32 " fits several architectures, which evaluate differently: "
                "%s\nnnue %s: the file cannot tell them apart; name one with --arch\n",
                cmd, net_path, h.file_hash, names, cmd);
        break;
    default: /* the library's words: the named architecture's size, a raw or self-describing file */
        if (nnue_choice_result(c, &none, &err) != NNUE_OK)
            tool_print_error(cmd, &err);
        nnue_arch_free(none);
        break;
    }
}

int tool_may_be_raw_net(const char *net_path, const nnue_error *err)
{
    struct stat st;
    return err->code != NNUE_E_IO && stat(net_path, &st) == 0 && st.st_size > 0;
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
    nnue_choice *c;
    if (tool_choose_arch(net_path, 0, &c, &err) != NNUE_OK) {
        tool_print_error(cmd, &err);
        if (tool_may_be_raw_net(net_path, &err))
            fprintf(stderr, "nnue %s: header-less (raw) nets need --arch FILE.yaml\n", cmd);
        return 1;
    }
    int chosen = nnue_choice_chosen(c);
    if (chosen < 0) {
        tool_explain_no_choice(cmd, net_path, c);
        nnue_choice_free(c);
        return 1;
    }
    if (nnue_choice_kind_of(c) == NNUE_CHOICE_DEFAULT) {
        char names[4096];
        nnue_net_header_facts h;
        nnue_choice_header(c, &h, sizeof h);
        fitting_names(c, names, sizeof names, 1);
        fprintf(stderr, "nnue %s: %s: file hash 0x%08" PRIX32 " fits %s; SHA-256 %.12s... is no known net, so %s "
                "is assumed (the layout of every net after Stockfish 15 with these hashes); pass --arch for another\n",
                cmd, net_path, h.file_hash, names, nnue_choice_sha256(c), nnue_arch_name(nnue_choice_arch(c, chosen)));
    }
    nnue_status st = nnue_choice_result(c, arch, &err);
    nnue_choice_free(c);
    if (st != NNUE_OK)
        tool_print_error(cmd, &err);
    return st != NNUE_OK;
}

int tool_strict, tool_quiet;

int tool_load_net_with(const char *cmd, const char *net_path, const nnue_arch *arch, nnue_net **net)
{
    nnue_error err;
    /* Same numbers, other FT encoding: load with the encoding the file has. */
    if (nnue_net_load_as_encoded(arch, net_path, net, &err) != NNUE_OK) {
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
