/* tools/cmd_convert.c: `nnue convert [--arch A.yaml] --to plain|leb128|self-describing|zstd|unzstd
 * IN OUT`.
 *  - plain / leb128: a Stockfish-format net (also YaneuraOu's HalfKP nn.bin, which has that
 *    layout) with its feature-transformer arrays (biases, weights, PSQT weights) stored
 *    uncompressed or as COMPRESSED_LEB128 blocks (FORMATS.md section 2); everything else is
 *    copied byte for byte, so plain -> leb128 -> plain gives back the same bytes. Needs one
 *    feature set of i16 weights (the threat inputs of SFNNv10 are not converted).
 *  - self-describing: a header-less trainer net with the YAML naming its layout, in one file
 *    (tools/self_describing.h) that loads without --arch.
 *  - zstd / unzstd: the whole file compressed as one zstd frame (as Pikafish ships its nets; the
 *    loader reads both forms) or decompressed, any format.
 * The output goes to a temporary file beside OUT (io/atomic_file.h), is loaded back from it and
 * evaluated on probe positions next to the input (the values must be equal), and only then
 * replaces OUT; on any failure OUT is left as it was and the temporary file is removed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "io/zstd.h"

#include "io/atomic_file.h"
#include "base/error.h"
#include "formats/net_read.h"
#include "core/eval/state.h"
#include "tools/commands.h"
#include "tools/tool_args.h"
#include "tools/net_setup.h"
#include "tools/self_describing.h"

/* Evaluates the game's probe positions (its descriptor's) with both nets; returns the number
 * compared, -1 on a difference. */
static int same_evaluations(const nnue_net *a, const nnue_net *b)
{
    const nnue_game *game = a->arch->game_desc;
    static const char *const none[] = {NULL};
    const char *const *probes = game->probes ? game->probes : none;
    void *pos = calloc(1, game->pos_size);
    nnue_state *sa = nnue_state_new(a, 0), *sb = nnue_state_new(b, 0);
    int n = 0;
    for (int i = 0; probes[i] && pos && sa && sb && n >= 0; i++) {
        nnue_error err;
        if (game->parse(pos, probes[i], &err) != 0)
            continue;
        const nnue_board *board = game->board(pos);
        nnue_eval_detail da, db;
        nnue_state_reset(sa, board);
        nnue_state_reset(sb, board);
        nnue_evaluate(sa, board, &da);
        nnue_evaluate(sb, board, &db);
        n = da.psqt == db.psqt && da.positional == db.positional && da.total == db.total ? n + 1 : -1;
    }
    nnue_state_free(sa);
    nnue_state_free(sb);
    free(pos);
    return n;
}

/* Reads one FT array from s (plain or LEB128 as the file has it) and writes it in the target
 * encoding. */
static nnue_status convert_array(nr_stream *s, FILE *out, int from_leb, int to_leb, nnue_dtype type, uint64_t count,
                                 const char *section)
{
    void *buf;
    nnue_status st = nr_alloc_for(s, &buf, count * (type == NNUE_I16 ? 2 : 4), section);
    if (st != NNUE_OK)
        return st;
    st = from_leb ? nr_leb128(s, type, buf, count, section) : nr_array(s, type, type, buf, count, section);
    nnue_values v = {buf, type, count};
    if (st == NNUE_OK)
        st = nnue_net_write_values(out, to_leb, &v, s->err);
    free(buf);
    return st;
}

static nnue_status copy_bytes(nr_stream *s, FILE *out, uint64_t n, const char *section)
{
    unsigned char buf[1 << 15];
    while (n) {
        uint64_t chunk = n < sizeof buf ? n : sizeof buf;
        nnue_status st = nr_bytes(s, buf, chunk, section);
        if (st != NNUE_OK)
            return st;
        fwrite(buf, 1, chunk, out);
        n -= chunk;
    }
    return NNUE_OK;
}

/* Stockfish-format re-encoding of the FT arrays; the rest copied. */
static nnue_status reencode(const nnue_arch *a, const char *in, FILE *out, int to_leb, nnue_error *err)
{
    nnue_net_header h;
    nnue_status st = nnue_net_read_header(in, &h, NULL, err);
    if (st != NNUE_OK)
        return st;
    nr_stream s;
    if ((st = nr_open(&s, in, err)) != NNUE_OK)
        return st;
    const nnue_ft_desc *ft = &a->ft;
    uint64_t head = 12 + (uint64_t)h.description_bytes + 4;
    if ((st = copy_bytes(&s, out, head, "header and feature transformer hash")) == NNUE_OK &&
        (st = convert_array(&s, out, h.leb128, to_leb, NNUE_I16, ft->width, "feature transformer biases")) == NNUE_OK &&
        (st = convert_array(&s, out, h.leb128, to_leb, NNUE_I16, (uint64_t)ft->inputs * ft->width,
                            "feature transformer weights")) == NNUE_OK &&
        ft->psqt_buckets)
        st = convert_array(&s, out, h.leb128, to_leb, NNUE_I32, (uint64_t)ft->inputs * ft->psqt_buckets,
                           "feature transformer PSQT weights");
    if (st == NNUE_OK)
        st = copy_bytes(&s, out, s.size - s.offset, "layer stacks");
    nr_close(&s);
    if (st == NNUE_OK && ferror(out))
        st = nnue_fail(err, NNUE_E_IO, "write error");
    return st;
}

/* in (opened at its start) as one zstd frame recording its size, written to out in pieces. */
static nnue_status zstd_compress_stream(FILE *in, const char *name, FILE *out, nnue_error *err)
{
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    rewind(in);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    size_t in_cap = ZSTD_CStreamInSize(), out_cap = ZSTD_CStreamOutSize();
    unsigned char *ibuf = malloc(in_cap), *obuf = malloc(out_cap);
    nnue_status st = NNUE_OK;
    if (!cc || !ibuf || !obuf || ZSTD_isError(ZSTD_CCtx_setPledgedSrcSize(cc, (unsigned long long)size)))
        st = nnue_fail(err, NNUE_E_NOMEM, "%s: out of memory for zstd compression", name);
    for (int last = 0; st == NNUE_OK && !last;) {
        size_t n = fread(ibuf, 1, in_cap, in);
        if (ferror(in)) {
            st = nnue_fail(err, NNUE_E_IO, "%s: read error", name);
            break;
        }
        last = n < in_cap;
        ZSTD_inBuffer ib = {ibuf, n, 0};
        size_t left;
        do {
            ZSTD_outBuffer ob = {obuf, out_cap, 0};
            left = ZSTD_compressStream2(cc, &ob, &ib, last ? ZSTD_e_end : ZSTD_e_continue);
            if (ZSTD_isError(left))
                st = nnue_fail(err, NNUE_E_FORMAT, "%s: zstd compression failed: %s", name, ZSTD_getErrorName(left));
            else if (fwrite(obuf, 1, ob.pos, out) != ob.pos)
                st = nnue_fail(err, NNUE_E_IO, "write error");
        } while (st == NNUE_OK && (last ? left != 0 : ib.pos < ib.size));
    }
    ZSTD_freeCCtx(cc);
    free(ibuf);
    free(obuf);
    return st;
}

/* The whole file compressed into one zstd frame that records its size (compress), or
 * decompressed from one (io/zstd.h: refused above what the architecture can take);
 * both streamed, neither file held whole. */
static nnue_status rezstd(const char *in, const nnue_arch *arch, FILE *out, int compress, nnue_error *err)
{
    FILE *f = fopen(in, "rb");
    if (!f)
        return nnue_fail(err, NNUE_E_IO, "%s: cannot open: %s", in, strerror(errno));
    unsigned char head[4];
    int packed = fread(head, 1, 4, f) == 4 && nz_is_frame(head, 4);
    nnue_status st = NNUE_OK;
    if (packed == compress)
        st = nnue_fail(err, NNUE_E_ARG, "%s: the file is %s zstd-compressed", in, packed ? "already" : "not");
    else if (fseek(f, 0, SEEK_END) != 0 || ftell(f) < 0 || fseek(f, 0, SEEK_SET) != 0)
        st = nnue_fail(err, NNUE_E_IO, "%s: cannot read the file (not a regular file?)", in);
    else if (!compress)
        st = nz_unpack_to_file(&(nz_source){f, NULL, 0, in, NZ_ARCH_CAP}, nz_cap_for_arch(arch), out, err);
    else
        st = zstd_compress_stream(f, in, out, err);
    fclose(f);
    return st;
}

static int usage(void)
{
    fprintf(stderr, "usage: nnue convert [--arch A.yaml] --to plain|leb128|self-describing|zstd|unzstd IN OUT\n");
    return 2;
}

int cmd_convert(int argc, char **argv)
{
    const char *arch_path = NULL, *to = NULL, *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--arch") == 0)
            arch_path = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--to") == 0)
            to = argv[++i];
        else if (argv[i][0] != '-' && !in)
            in = argv[i];
        else if (argv[i][0] != '-' && !out)
            out = argv[i];
        else {
            static const char *const value_options[] = {"--arch", "--to", NULL};
            tool_bad_argument("convert", argv[i], value_options);
            return usage();
        }
    }
    int self = to && strcmp(to, "self-describing") == 0, to_leb = to && strcmp(to, "leb128") == 0;
    int zstd = !to ? 0 : strcmp(to, "zstd") == 0 ? 1 : strcmp(to, "unzstd") == 0 ? 2 : 0;
    if (!in || !out || !to || !(self || to_leb || zstd || strcmp(to, "plain") == 0))
        return usage();
    if (self && !arch_path) {
        fprintf(stderr, "nnue convert: --to self-describing needs --arch A.yaml (the layout of the header-less net)\n");
        return 2;
    }
    nnue_arch *arch;
    if (tool_load_arch_for("convert", in, arch_path, &arch) != 0)
        return 1;
    if (!self && !zstd && (arch->format.kind != NNUE_FORMAT_STOCKFISH || arch->ft.n_sets > 1 ||
                  arch->ft.weight_type != NNUE_I16 || arch->ft.bias_type != NNUE_I16)) {
        fprintf(stderr, "nnue convert: %s: --to %s needs a Stockfish-format net with one feature set of i16 weights; "
                "architecture %s is not one%s\n", in, to, arch->name,
                arch->format.kind == NNUE_FORMAT_RAW ? " (a header-less net: try --to self-describing)" : "");
        if (arch->ft.n_sets > 1) /* Stockfish 18 and 19: why, and what to do instead */
            fprintf(stderr, "nnue convert: %s has %d feature sets (threat inputs of i8 weights beside i16 ones), stored "
                    "in Stockfish's own mixed encoding, which the tool reads but does not rewrite: use the file as it "
                    "is; every command loads it (docs/tool.md, Converting nets)\n", arch->name, arch->ft.n_sets);
        nnue_arch_free(arch);
        return 1;
    }
    nnue_error err;
    nnue_atomic_file af;
    if (nnue_atomic_open(&af, out, &err) != NNUE_OK) {
        tool_print_error("convert", &err);
        nnue_arch_free(arch);
        return 1;
    }
    int rc = 0;
    if (self) {
        rc = sd_write("convert", arch_path, in, af.f, af.tmp);
    } else if (zstd && rezstd(in, arch, af.f, zstd == 1, &err) != NNUE_OK) {
        tool_print_error("convert", &err);
        rc = 1;
    } else if (!zstd && reencode(arch, in, af.f, to_leb, &err) != NNUE_OK) {
        tool_print_error("convert", &err);
        rc = 1;
    } else if (ferror(af.f) || fflush(af.f) != 0) {
        fprintf(stderr, "nnue convert: %s: write error: %s\n", af.tmp, strerror(errno));
        rc = 1;
    }
    /* The bytes are flushed: load them back from the temporary file before it replaces OUT. */
    nnue_net *before = NULL, *after = NULL;
    if (!rc)
        rc = tool_load_net_with("convert", in, arch, &before);
    if (!rc)
        rc = self ? tool_load_net("convert", af.tmp, NULL, &after) : tool_load_net_with("convert", af.tmp, arch, &after);
    int compared = rc ? 0 : same_evaluations(before, after);
    if (!rc && compared <= 0) {
        fprintf(stderr, "nnue convert: %s evaluates differently from %s after conversion (a bug: please report)\n",
                af.tmp, in);
        rc = 1;
    }
    if (rc) {
        nnue_atomic_abort(&af);
    } else if (nnue_atomic_commit(&af, &err) != NNUE_OK) {
        tool_print_error("convert", &err);
        rc = 1;
    } else {
        printf("wrote %s (%s, architecture %s): loaded back, %d probe positions evaluate as the input\n", out, to,
               arch->name, compared);
    }
    nnue_net_free(before);
    nnue_net_free(after);
    nnue_arch_free(arch);
    return rc;
}
