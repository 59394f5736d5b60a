/* tools/cmd_info.c: `nnue info [--json] NET`: header facts of a Stockfish-format net file, its
 * SHA-256 (and the known net it is, if any), and which discovered architectures fit it. A file
 * whose hash names an architecture but whose size does not fit is reported as such (exit 1); a
 * file whose first word is no net version is called a header-less net (exit 1, use --arch). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue.h"
#include "tools/commands.h"
#include "tools/json_out.h"
#include "tools/net_setup.h"
#include "tools/self_describing.h"

static const char *const choice_words[] = {
    [NNUE_CHOICE_NO_HASH] = "no architecture has this file hash",
    [NNUE_CHOICE_SIZE_MISMATCH] = "the file hash fits, the file size does not (truncated or damaged file)",
    [NNUE_CHOICE_ONLY] = "one architecture fits",
    [NNUE_CHOICE_KNOWN_NET] = "several fit; the SHA-256 names a known net",
    [NNUE_CHOICE_WRITTEN_FOR] = "several fit; nnue init wrote this net for one (its description names it)",
    [NNUE_CHOICE_DEFAULT] = "several fit; unknown net, SFNNv5 assumed (pass --arch to eval for SFNNv4)",
    [NNUE_CHOICE_AMBIGUOUS] = "several fit and the file cannot tell them apart: pass --arch to eval",
    [NNUE_CHOICE_NAMED_MISSING] = ("nnue init wrote this net for an architecture not found; those listed only share "
                                   "its file hash: pass --arch to eval"),
    [NNUE_CHOICE_NAMED_SIZE] = ("nnue init wrote this net for an architecture whose file has another size "
                                "(truncated or damaged file)"),
    [NNUE_CHOICE_SELF_DESCRIBING] = "the architecture of the embedded YAML",
    [NNUE_CHOICE_RAW] = "a raw net: its CBNF header names the architecture",
};

/* `, "ranges": [lines of nnue info's range report], "overflow": the warning or null`; null ranges
 * without a net (no architecture chosen). */
static void print_json_ranges(const nnue_net *net)
{
    printf(", \"ranges\": ");
    size_t need = net ? nnue_net_range_report(net, NULL, 0) + 1 : 0;
    char *text = need ? malloc(need) : NULL;
    if (!text) {
        printf("null, \"overflow\": null");
        return;
    }
    nnue_net_range_report(net, text, need);
    printf("[");
    int first = 1;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        printf("%s", first ? "" : ", ");
        json_string(line);
        first = 0;
    }
    printf("], \"overflow\": ");
    if (nnue_net_warning(net))
        json_string(nnue_net_warning(net));
    else
        printf("null");
    free(text);
}

static void print_json(const char *path, nnue_choice *c, const nnue_net *net)
{
    nnue_net_header_facts h;
    const char *desc = nnue_choice_header(c, &h, sizeof h), *known = nnue_choice_known_net(c, NULL);
    int chosen = nnue_choice_chosen(c);
    printf("{");
    json_key_string("path", path, 1);
    json_key_hex32("version", h.version);
    json_key_hex32("file_hash", h.file_hash);
    json_key_hex32("ft_hash", h.ft_hash);
    json_key_string("description", desc, 0);
    json_key_string("sha256", nnue_choice_sha256(c), 0);
    json_key_string("known_net", known ? known : "", 0);
    printf(", \"size\": %" PRIu64 ", \"zstd\": %s, \"leb128\": %s, \"matches\": [", h.file_bytes,
           h.zstd ? "true" : "false", h.leb128 ? "true" : "false");
    int first = 1;
    for (int i = 0; i < nnue_choice_count(c); i++)
        if (nnue_choice_size_fits(c, i)) {
            printf("%s", first ? "" : ", ");
            json_string(nnue_choice_source(c, i));
            first = 0;
        }
    printf("], \"ambiguous\": %s, ", nnue_choice_kind_of(c) == NNUE_CHOICE_AMBIGUOUS ? "true" : "false");
    json_key_string("chosen", chosen >= 0 ? nnue_choice_source(c, chosen) : "", 1);
    printf(", ");
    json_key_string("choice", choice_words[nnue_choice_kind_of(c)], 1);
    print_json_ranges(net);
    printf("}\n");
}

static void print_text(const char *path, nnue_choice *c)
{
    nnue_net_header_facts h;
    const char *desc = nnue_choice_header(c, &h, sizeof h), *sha = nnue_choice_sha256(c), *known_arch;
    const char *known = nnue_choice_known_net(c, &known_arch);
    printf("file          %s\n", path);
    printf("size          %" PRIu64 " bytes%s\n", h.file_bytes, h.zstd ? " (decompressed)" : "");
    printf("compression   %s\n", h.zstd ? "zstd (the whole file is one zstd frame)" : "none");
    printf("sha256        %s\n", sha[0] ? sha : "(unreadable)");
    if (known)
        printf("known net     nn-%.12s: %s (%s)\n", sha, known, known_arch);
    printf("version       0x%08" PRIX32 "\n", h.version);
    printf("file hash     0x%08" PRIX32 "\n", h.file_hash);
    printf("ft hash       0x%08" PRIX32 "\n", h.ft_hash);
    printf("description   %s\n", desc);
    printf("leb128        %s\n", h.leb128 ? "yes (compressed feature transformer)" : "no");
    for (int i = 0; i < nnue_choice_count(c); i++) {
        const char *name = nnue_arch_name(nnue_choice_arch(c, i)), *source = nnue_choice_source(c, i);
        if (nnue_choice_size_fits(c, i))
            printf("architecture  %s  %s%s\n", name, source, i == nnue_choice_chosen(c) ? "  (chosen)" : "");
        else
            printf("architecture  %s  %s: same file hash, but expects %" PRIu64 " bytes\n", name, source,
                   nnue_choice_expected_bytes(c, i));
    }
    if (nnue_choice_kind_of(c) == NNUE_CHOICE_NO_HASH)
        printf("architecture  none (searched %s)\n", arch_dirs_summary());
    printf("choice        %s\n", choice_words[nnue_choice_kind_of(c)]);
}

/* Worst-case ranges from the weights (the chosen architecture's net, or arch_path's, is loaded
 * for them); with --strict a net that can overflow makes the exit status 1. */
static void print_net_ranges(const nnue_net *net)
{
    size_t need = nnue_net_range_report(net, NULL, 0) + 1;
    char *text = malloc(need);
    if (text) {
        nnue_net_range_report(net, text, need);
        fputs(text, stdout);
    }
    free(text);
}

/* The facts of a loaded net whatever its format: file, architecture, format, parameters,
 * description string, ranges. `info --arch A NET` (a raw net has no header to detect from)
 * and self-describing nets (their YAML is inside) both print these. */
static void print_loaded(const char *path, const nnue_net *net, const char *arch_line, const char *format)
{
    const nnue_arch *a = nnue_net_arch(net);
    nnue_arch_layout l;
    nnue_arch_layout_get(a, &l, sizeof l);
    size_t need = nnue_arch_describe(a, NULL, 0) + 1;
    char *desc = malloc(need);
    if (desc)
        nnue_arch_describe(a, desc, need);
    printf("file          %s\narchitecture  %s (%s)\n", path, nnue_arch_name(a), arch_line);
    static const char *const raw_forms[] = {"raw (header-less blocks)", "raw blocks in a CBNF container (64-byte header)",
                                            "raw blocks, every value a LEB128 varint"};
    printf("format        %s\n", format ? format : l.raw ? raw_forms[l.container] : "stockfish (header)");
    nnue_net_header_facts h;
    nnue_error err;
    nnue_net_header_read(path, &h, sizeof h, &err); /* only its zstd flag: a raw net has no header */
    printf("compression   %s\n", h.zstd ? "zstd (the whole file is one zstd frame)" : "none");
    printf("parameters    %llu\n", (unsigned long long)l.parameters);
    printf("description   %s\n", desc ? desc : "(out of memory)");
    free(desc);
    print_net_ranges(net);
}

static int print_given_arch(const char *path, const char *arch_path)
{
    nnue_net *net;
    if (tool_load_net("info", path, arch_path, &net) != 0)
        return 1;
    char line[1100];
    snprintf(line, sizeof line, "given: %s", arch_path);
    print_loaded(path, net, line, NULL);
    nnue_net_free(net);
    return 0;
}

/* Stockfish and YaneuraOu write one of these two versions; a first word that is neither, with no
 * architecture claiming it, is most likely the first weights of a header-less trainer net. */
static int plausible_version(uint32_t version)
{
    return version == 0x7AF32F16u || version == 0x7AF32F20u;
}

static int explain_headerless(const char *path, uint32_t version)
{
    fprintf(stderr,
            "nnue info: %s: no Stockfish-format header (its first word, 0x%08" PRIX32 ", is no known net version: "
            "0x7AF32F16 or 0x7AF32F20); it looks like a header-less (raw) net, as bullet writes them. Name its "
            "architecture: nnue info --arch NAME %s (a built-in name such as cwtch6 or obsidian, or a YAML file)\n",
            path, version, path);
    return 1;
}

/* A file no Stockfish-format architecture claims: the built-in one its CBNF header names, shown
 * as if given; else the reason, naming the candidates its size allows (tools/net_setup.h). */
static int print_raw_guess(const char *path, nnue_choice *c, int json)
{
    nnue_arch *arch;
    nnue_error err;
    if (nnue_choice_result(c, &arch, &err) != NNUE_OK) {
        tool_print_error("info", &err);
        return 1;
    }
    nnue_net *net = NULL;
    int rc = tool_load_net_with("info", path, arch, &net);
    if (rc == 0 && json) {
        printf("{");
        json_key_string("path", path, 1);
        json_key_string("format", "raw", 0);
        json_key_string("architecture", nnue_arch_name(nnue_net_arch(net)), 0);
        print_json_ranges(net);
        printf("}\n");
    } else if (rc == 0)
        print_loaded(path, net, "detected: its CBNF header's fields", NULL);
    nnue_net_free(net);
    nnue_arch_free(arch);
    return rc;
}

int cmd_info(int argc, char **argv)
{
    const char *path = NULL, *arch_path = NULL;
    int json = 0;
    tool_quiet = 1; /* the ranges below say where a sum can overflow */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (strcmp(argv[i], "--arch") == 0 && i + 1 < argc)
            arch_path = argv[++i];
        else if (strcmp(argv[i], "--arch") == 0) {
            fprintf(stderr, "nnue info: option '--arch' needs a value (a built-in name or a YAML file)\n");
            return 2;
        } else if (!path && argv[i][0] != '-')
            path = argv[i];
        else {
            fprintf(stderr, "nnue info: unexpected argument '%s'\nusage: nnue info [--json] [--arch A] NET\n", argv[i]);
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: nnue info [--json] [--arch A] NET\n");
        return 2;
    }
    if (arch_path && !json) /* the net read with that architecture, header or not (raw nets have none) */
        return print_given_arch(path, arch_path);
    if (sd_is(path)) {
        nnue_net *net;
        if (sd_load("info", path, &net) != 0)
            return 1;
        if (json) {
            printf("{");
            json_key_string("path", path, 1);
            json_key_string("format", "self-describing", 0);
            json_key_string("architecture", nnue_arch_name(nnue_net_arch(net)), 0);
            print_json_ranges(net);
            printf("}\n");
        } else {
            print_loaded(path, net, "embedded YAML", "self-describing (YAML + header-less net, nnue convert)");
        }
        nnue_net_free(net);
        return 0;
    }
    nnue_error err;
    nnue_choice *c;
    /* The SHA-256 (a pass over the file) goes on beside while the weights load. */
    if (tool_choose_arch(path, NNUE_CHOOSE_SHA256, &c, &err) != NNUE_OK) {
        tool_print_error("info", &err);
        if (tool_may_be_raw_net(path, &err))
            fprintf(stderr, "nnue info: (a header-less (raw) net, as bullet writes them, has no header to inspect: "
                    "nnue info --arch NAME %s)\n", path);
        return 1;
    }
    nnue_choice_kind kind = nnue_choice_kind_of(c);
    nnue_net_header_facts h;
    nnue_choice_header(c, &h, sizeof h);
    if (kind == NNUE_CHOICE_RAW || (kind == NNUE_CHOICE_NO_HASH && nnue_choice_count(c) == 0 &&
                                    !plausible_version(h.version))) {
        int rc = kind == NNUE_CHOICE_RAW ? print_raw_guess(path, c, json) : explain_headerless(path, h.version);
        nnue_choice_free(c);
        return rc;
    }
    int rc = kind == NNUE_CHOICE_SIZE_MISMATCH || kind == NNUE_CHOICE_NAMED_MISSING || kind == NNUE_CHOICE_NAMED_SIZE;
    /* The ranges need the weights: the chosen architecture's net (JSON: also when the description
     * names a missing architecture, as before). */
    int chosen = nnue_choice_chosen(c);
    int want_net = chosen >= 0 && (json ? kind != NNUE_CHOICE_SIZE_MISMATCH : rc == 0);
    nnue_net *net = NULL;
    int failed = want_net && tool_load_net("info", path, arch_path, &net) != 0;
    if (json) {
        print_json(path, c, net);
        if (failed) {
            nnue_choice_free(c);
            return 1;
        }
    } else {
        print_text(path, c);
        if (want_net && failed)
            rc = 1;
        else if (want_net)
            print_net_ranges(net);
    }
    nnue_net_free(net);
    if (rc)
        tool_explain_no_choice("info", path, c);
    nnue_choice_free(c);
    return rc;
}
