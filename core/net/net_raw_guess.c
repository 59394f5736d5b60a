/* core/net/net_raw_guess.c: which built-in raw architecture a net without a Stockfish-format
 * header is, as far as the file tells (nnue_net_load_auto and the tool, when the header route
 * found nothing).
 *
 * - A CBNF file (container cbnf: the magic "CBNF", then version, flags, arch, FT activation,
 *   hidden size, input and output buckets) names its shape: the one built-in architecture whose
 *   required header values it carries is taken (core/net/net_read_cbnf.c checks the same fields).
 * - Other raw files (container plain, possibly one zstd frame; container varint) carry no header:
 *   nothing confirms an architecture, so none is taken. The message names the candidates the
 *   bytes allow: a plain one whose size (decompressed, for a frame) is the file's, a varint one
 *   whose value count (bytes below 0x80, the last value ending the file) is the file's.
 * Nothing here knows an engine: only the format fields of the architectures (core/arch/arch.h). */
#include "core/net/net_raw_guess.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "core/arch/arch_api.h"
#include "core/arch/arch_builtin.h"
#include "formats/net_formats.h"
#include "io/zstd.h"
#include "nnue.h"

#define MAX_RAW 64

/* The built-in architectures of kind raw (caller frees each), and *largest: the largest plain
 * (header-less, unvaried) file among them, all a frame's size is compared with. */
static int raw_builtins(nnue_arch **list, uint64_t *largest)
{
    int n = 0;
    *largest = 0;
    for (int i = 0; i < nnue_builtin_arch_total && n < MAX_RAW; i++) {
        nnue_arch *a;
        nnue_error ignored;
        if (nnue_arch_load_builtin(nnue_builtin_archs[i].name, &a, &ignored) != NNUE_OK)
            continue;
        if (a->format.kind != NNUE_FORMAT_RAW) {
            nnue_arch_free(a);
            continue;
        }
        if (a->format.container == NNUE_CONTAINER_PLAIN && a->file_size > *largest)
            *largest = a->file_size;
        list[n++] = a;
    }
    return n;
}

int nnue_raw_guess_wanted(uint32_t first_word)
{
    for (int i = 0; i < nnue_builtin_arch_total; i++) {
        nnue_arch *a;
        nnue_error ignored;
        if (nnue_arch_load_builtin(nnue_builtin_archs[i].name, &a, &ignored) != NNUE_OK)
            continue;
        int claimed = a->format.kind == NNUE_FORMAT_STOCKFISH && a->format.version == first_word;
        nnue_arch_free(a);
        if (claimed)
            return 0;
    }
    return 1;
}

/* What the bytes say: their count and, read as LEB128, their value count (-1 when the last byte
 * continues a value). */
typedef struct raw_bytes {
    uint64_t size;
    int64_t values;
    int more; /* size is where counting stopped: the frame holds more */
} raw_bytes;

static raw_bytes count_bytes(const unsigned char *p, size_t n)
{
    raw_bytes r = {n, 0, 0};
    for (size_t i = 0; i < n; i++)
        r.values += p[i] < 0x80;
    if (n && p[n - 1] >= 0x80)
        r.values = -1;
    return r;
}

static uint64_t varint_values(const nnue_arch *a)
{
    uint64_t n = 0;
    char why[256];
    for (int i = 0; i < a->format.n_blocks; i++)
        n += nnue_net_raw_block_values(a, &a->format.blocks[i], why, sizeof why);
    return n;
}

static void add_name(char *buf, size_t size, const char *name)
{
    size_t len = strlen(buf);
    snprintf(buf + len, size - len, "%s%s", len ? ", " : "", name);
}

/* A CBNF file: the architecture whose header values it carries, or an error at the first field
 * that fits none (measured against the first CBNF architecture). */
static nnue_status guess_cbnf(const char *name, const unsigned char *head, nnue_arch **list, int n, nnue_arch **out,
                              nnue_error *err)
{
    char fits[512] = "";
    int found = -1, count = 0, first = -1;
    nnue_cbnf_field f = {0}, first_f = {0};
    for (int i = 0; i < n; i++) {
        if (list[i]->format.container != NNUE_CONTAINER_CBNF)
            continue;
        if (nnue_cbnf_mismatch(list[i], head, &f) < 0) {
            add_name(fits, sizeof fits, list[i]->name);
            found = i;
            count++;
        } else if (first < 0) {
            first = i;
            first_f = f;
        }
    }
    if (count == 1) {
        *out = list[found];
        list[found] = NULL;
        return NNUE_OK;
    }
    if (count > 1)
        return nnue_fail(err, NNUE_E_AMBIGUOUS, "%s: the CBNF header fits %d built-in architectures (%s); name one",
                         name, count, fits);
    if (first < 0)
        return nnue_fail_offset(err, NNUE_E_HASH, name, 0,
                                "a CBNF net, and no built-in architecture is a CBNF one: write a YAML with "
                                "container: cbnf (docs/arch-yaml.md) and name it");
    return nnue_fail_offset(err, NNUE_E_HASH, name, first_f.offset,
                            "a CBNF net whose header fits no built-in architecture: %s is %u, %s expects %u (%s); "
                            "write a YAML with this file's header values (docs/arch-yaml.md, container cbnf) and name it",
                            first_f.field, first_f.found, list[first]->name, first_f.want, first_f.from);
}

/* A header-less file: never taken; the message names the candidates its size or value count allows. */
static nnue_status explain_headerless(const char *name, uint32_t first_word, int zstd, raw_bytes b, nnue_arch **list,
                                      int n, nnue_error *err)
{
    char by_size[512] = "", by_values[512] = "";
    for (int i = 0; i < n; i++) {
        const nnue_arch *a = list[i];
        if (a->format.container == NNUE_CONTAINER_PLAIN && a->file_size == b.size)
            add_name(by_size, sizeof by_size, a->name);
        else if (a->format.container == NNUE_CONTAINER_VARINT && !zstd && b.values >= 0 &&
                 varint_values(a) == (uint64_t)b.values)
            add_name(by_values, sizeof by_values, a->name);
    }
    char said[1400];
    const char *what = zstd ? "decompressed size" : "size";
    const char *one = by_size[0] && !by_values[0] && !strchr(by_size, ',')   ? by_size
                      : by_values[0] && !by_size[0] && !strchr(by_values, ',') ? by_values
                                                                               : "NAME";
    said[0] = 0;
    if (by_size[0])
        snprintf(said, sizeof said, "Its %s, %" PRIu64 " bytes, is that of the built-in raw architecture %s", what,
                 b.size, by_size);
    if (by_values[0])
        snprintf(said + strlen(said), sizeof said - strlen(said),
                 "%s as LEB128 varints it holds %" PRId64 " values, the count of the built-in architecture %s",
                 said[0] ? "; read" : "Read", b.values, by_values);
    if (said[0])
        snprintf(said + strlen(said), sizeof said - strlen(said), "; nothing else in the file confirms it");
    else
        snprintf(said, sizeof said, "No built-in raw architecture has its %s (%s%" PRIu64 " bytes)%s: write a YAML "
                 "for it (docs/arch-yaml.md)", what, b.more ? "more than " : "", b.size - (uint64_t)b.more,
                 zstd ? "" : " or its LEB128 value count");
    return nnue_fail(err, NNUE_E_HASH,
                     "%s: no Stockfish-format header (its first word, 0x%08" PRIX32 ", is no built-in net version) "
                     "and no CBNF header: a header-less (raw) net%s, which does not name its architecture. %s. "
                     "Name it: the tool's --arch %s, nnue-uci's EvalArch, Python's Net.load(path, arch=...), the "
                     "library's nnue_arch_load_builtin + nnue_net_load",
                     name, first_word, zstd ? " in one zstd frame" : "", said, one);
}

/* The bytes judged against the raw built-ins: data[0..size) are the file's (plain) or the first
 * bytes of its one zstd frame, whose decompressed size is plain_size (then more than the largest
 * candidate when it was not counted to the end). */
static nnue_status guess(const char *name, const unsigned char *data, size_t size, uint64_t plain_size, int zstd,
                         int more, nnue_arch **list, int n, nnue_arch **out, nnue_error *err)
{
    uint32_t first_word = size >= 4 ? (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 |
                                          (uint32_t)data[3] << 24
                                    : 0;
    if (size >= NNUE_CBNF_HEADER && memcmp(data, "CBNF", 4) == 0)
        return guess_cbnf(name, data, list, n, out, err);
    raw_bytes b = zstd ? (raw_bytes){plain_size, -1, more} : count_bytes(data, size);
    return explain_headerless(name, first_word, zstd, b, list, n, err);
}

static void free_list(nnue_arch **list, int n)
{
    for (int i = 0; i < n; i++)
        nnue_arch_free(list[i]);
}

/* One zstd frame: what the guess reads of it is its first bytes (a CBNF header) and its size, so
 * no more is decompressed than that: the recorded size as recorded, else counted (not kept) up to
 * one byte past the largest plain candidate, where no candidate can fit any more. */
static nnue_status guess_frame(const void *data, size_t size, const char *name, nnue_arch **list, int n,
                               uint64_t largest, nnue_arch **out, nnue_error *err)
{
    void *head = NULL;
    size_t head_size = 0;
    uint64_t declared = 0;
    nz_source src = {NULL, data, size, name, "NNUE_MAX_NET_BYTES"};
    nnue_status st = nz_unpack(&src, NNUE_MAX_NET_BYTES, NNUE_CBNF_HEADER, &head, &head_size, &declared, err);
    if (st != NNUE_OK)
        return st;
    uint64_t plain = declared;
    int more = 0;
    if (head_size < NNUE_CBNF_HEADER || memcmp(head, "CBNF", 4) != 0) {
        if (!declared) {
            src.limit = "one byte past the largest built-in raw net";
            nnue_error ignored;
            st = nz_measure(&src, largest + 1, &plain, plain > largest ? &ignored : err);
            if (st != NNUE_OK && plain > largest) {
                st = NNUE_OK; /* larger than any candidate: that is the answer */
                plain = largest + 1, more = 1;
            }
        }
    }
    if (st == NNUE_OK)
        st = guess(name, head, head_size, plain, 1, more, list, n, out, err);
    free(head);
    return st;
}

nnue_status nnue_raw_guess_memory(const void *data, size_t size, const char *name, nnue_arch **out, nnue_error *err)
{
    *out = NULL;
    nnue_arch *list[MAX_RAW];
    uint64_t largest;
    int n = raw_builtins(list, &largest);
    nnue_status st = nz_is_frame(data, size) ? guess_frame(data, size, name, list, n, largest, out, err)
                                             : guess(name, data, size, size, 0, 0, list, n, out, err);
    free_list(list, n);
    return st;
}

nnue_status nnue_raw_guess(const char *path, nnue_arch **out, nnue_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return nnue_fail(err, NNUE_E_IO, "%s: cannot open", path);
    unsigned char head[NNUE_CBNF_HEADER];
    size_t got = fread(head, 1, sizeof head, f);
    if (got == sizeof head && memcmp(head, "CBNF", 4) == 0) { /* the header alone decides */
        fclose(f);
        nnue_arch *list[MAX_RAW];
        uint64_t largest;
        int n = raw_builtins(list, &largest);
        nnue_status st = guess_cbnf(path, head, list, n, out, err);
        free_list(list, n);
        return st;
    }
    /* Header-less: the whole content counts (read once, only on this failure path). */
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return nnue_fail(err, NNUE_E_IO, "%s: cannot seek", path);
    }
    long end = ftell(f);
    if (end < 0 || (uint64_t)end > NNUE_MAX_NET_BYTES) {
        fclose(f);
        return nnue_fail(err, NNUE_E_IO, "%s: cannot size the file (or it is past %llu bytes)", path,
                         (unsigned long long)NNUE_MAX_NET_BYTES);
    }
    void *data = malloc(end ? (size_t)end : 1);
    rewind(f);
    int ok = data && fread(data, 1, (size_t)end, f) == (size_t)end;
    fclose(f);
    if (!ok) {
        free(data);
        return nnue_fail(err, data ? NNUE_E_IO : NNUE_E_NOMEM, "%s: cannot read its %ld bytes", path, end);
    }
    nnue_status st = nnue_raw_guess_memory(data, (size_t)end, path, out, err);
    free(data);
    return st;
}
