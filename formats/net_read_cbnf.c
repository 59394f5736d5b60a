/* formats/net_read_cbnf.c: Stormphrax's CBNF container (format kind raw, container cbnf): a
 * 64-byte header, then the raw blocks (formats/net_read_raw.c), stored plain or as one zstd frame.
 *
 * Facts: shared/oracle/third/stormphrax/FACTS.md, "File layout". Little-endian header:
 *   0  char[4] "CBNF"      4 u16 version (1)     6 u16 flags       8 u8 padding
 *   9  u8 arch            10 u8 FT activation   11 u16 hidden size
 *   13 u8 input buckets (bit 7: threat inputs)   14 u8 output buckets
 *   15 u8 name length (<= 48)                   16 char[48] name, not NUL-terminated
 * Flag bit 0: the payload (everything after the header) is one zstd frame; the other flag bits
 * must equal the architecture's (format.cbnf.flags). The engine checks every field but the name;
 * so does this reader: version, flags, arch, FT activation and input buckets against
 * format.cbnf, the hidden size against the FT width, the output buckets against the stacks.
 * Errors in a compressed payload give offsets inside the decompressed payload, and say so. */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "core/arch/layer.h"
#include "formats/net_formats.h"
#include "io/zstd.h"

int nnue_cbnf_mismatch(const nnue_arch *a, const unsigned char *h, nnue_cbnf_field *f)
{
    const nnue_cbnf_header *want = &a->format.cbnf;
    unsigned version = h[4] | h[5] << 8, flags = h[6] | h[7] << 8, hidden = h[11] | h[12] << 8;
    const struct {
        int offset;
        const char *field, *from;
        unsigned want, found;
        int bad;
    } checks[] = {
        {4, "version", "the only CBNF version", 1, version, version != 1},
        {6, "flags (bit 0, zstd, aside)", "format.cbnf.flags", want->flags & ~1u, flags & ~1u,
         (flags & ~1u) != (want->flags & ~1u)},
        {9, "arch", "format.cbnf.arch", want->arch, h[9], h[9] != want->arch},
        {10, "FT activation", "format.cbnf.ft_activation", want->ft_activation, h[10], h[10] != want->ft_activation},
        {11, "hidden size", "feature_transformer.width", a->ft.width, hidden, hidden != a->ft.width},
        {13, "input buckets", "format.cbnf.input_buckets", want->input_buckets, h[13], h[13] != want->input_buckets},
        {14, "output buckets", "stacks.count", a->stacks, h[14], h[14] != a->stacks},
        {15, "name length (at most)", "the header's 48 name bytes", 48, h[15], h[15] > 48},
    };
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (checks[i].bad) {
            *f = (nnue_cbnf_field){checks[i].offset, checks[i].field, checks[i].from, checks[i].want, checks[i].found};
            return checks[i].offset;
        }
    return -1;
}

static nnue_status check_header(const nnue_weights *w, nr_stream *s, const unsigned char *h, int *zstd)
{
    if (memcmp(h, "CBNF", 4) != 0)
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, 0,
                                "CBNF header: expected the magic \"CBNF\", found \"%c%c%c%c\" (not a CBNF net)",
                                h[0] >= 32 && h[0] < 127 ? h[0] : '?', h[1] >= 32 && h[1] < 127 ? h[1] : '?',
                                h[2] >= 32 && h[2] < 127 ? h[2] : '?', h[3] >= 32 && h[3] < 127 ? h[3] : '?');
    nnue_cbnf_field f;
    if (nnue_cbnf_mismatch(w->arch, h, &f) >= 0)
        return nnue_fail_offset(s->err, NNUE_E_FORMAT, s->path, f.offset, "CBNF header: %s: expected %u (%s), found %u",
                                f.field, f.want, f.from, f.found);
    *zstd = (h[6] | h[7] << 8) & 1;
    return NNUE_OK;
}

/* The payload's plain size (the raw blocks, rounded up to format.pad_to): all a compressed payload
 * may decompress to, so a frame promising more is refused before anything is inflated. */
static uint64_t payload_bytes(const nnue_arch *a)
{
    char why[256];
    uint64_t data = 0;
    for (int i = 0; i < a->format.n_blocks; i++)
        data += nnue_net_raw_block_values(a, &a->format.blocks[i], why, sizeof why) *
                nnue_dtype_size(a->format.blocks[i].dtype);
    uint64_t pad = a->format.pad_to ? a->format.pad_to : 1;
    return (data + pad - 1) / pad * pad;
}

nnue_status nnue_net_read_cbnf(nnue_weights *w, nr_stream *s)
{
    unsigned char h[NNUE_CBNF_HEADER];
    int zstd = 0;
    nnue_status st = nr_bytes(s, h, NNUE_CBNF_HEADER, "CBNF header");
    if (st == NNUE_OK)
        st = check_header(w, s, h, &zstd);
    if (st != NNUE_OK || !zstd)
        return st == NNUE_OK ? nnue_net_read_raw(w, s) : st;
    /* One zstd frame from byte 64 to the end: the blocks, decompressed up to their size. */
    char name[300];
    snprintf(name, sizeof name, "%s (zstd payload from byte %d)", s->path, NNUE_CBNF_HEADER);
    void *payload = NULL;
    size_t size = 0;
    st = nz_unpack(&(nz_source){s->f, NULL, 0, name, "the architecture's payload size"}, payload_bytes(w->arch), 0,
                   &payload, &size, NULL, s->err);
    nr_stream inner;
    if (st == NNUE_OK)
        st = nr_open_memory(&inner, name, payload, size, s->err);
    if (st == NNUE_OK) {
        st = nnue_net_read_raw(w, &inner);
        nr_close(&inner);
    }
    free(payload);
    return st;
}
