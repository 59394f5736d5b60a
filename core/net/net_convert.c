/* core/net/net_convert.c: writing a net file in another encoding (include/nnue_netfile.h
 * nnue_net_convert): Stockfish's feature transformer plain or as COMPRESSED_LEB128 blocks
 * (FORMATS.md section 2; every other byte copied, so plain -> leb128 -> plain gives the same
 * bytes), the whole file as one zstd frame or out of one, and the self-describing container
 * (formats/self_describing.h). Also the two reads a converter needs: the header facts, and a
 * load that follows the file's own feature-transformer encoding. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "formats/net_read.h"
#include "formats/self_describing.h"
#include "core/net/net.h"
#include "io/zstd.h"
#include "nnue.h"

/* Reads one FT array (plain or LEB128 as the file has it) and writes it in the target encoding. */
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
    return st;
}

/* The whole file into one zstd frame (compress) or out of one (refused above what the
 * architecture can take); both streamed. */
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
        st = nz_unpack_to_file(&(nz_source){f, NULL, 0, in, arch ? NZ_ARCH_CAP : NULL},
                               arch ? nz_cap_for_arch(arch) : NNUE_MAX_NET_BYTES, out, err);
    else
        st = nz_pack_file(f, in, out, err);
    fclose(f);
    return st;
}

/* Whole file into memory. */
static nnue_status slurp(const char *path, unsigned char **data, uint64_t *size, nnue_error *err)
{
    FILE *f = fopen(path, "rb");
    long len = -1;
    *data = NULL;
    if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (*data = malloc((size_t)len + 1)) && fread(*data, 1, (size_t)len, f) == (size_t)len) {
        fclose(f);
        *size = (uint64_t)len;
        return NNUE_OK;
    }
    nnue_status st = nnue_fail(err, *data || len < 0 ? NNUE_E_IO : NNUE_E_NOMEM, "%s: cannot read: %s", path,
                               *data || len < 0 ? strerror(errno) : "out of memory");
    free(*data);
    *data = NULL;
    if (f)
        fclose(f);
    return st;
}

static nnue_status self_describing(const char *yaml_path, const char *in, FILE *out, const char *out_name,
                                   nnue_error *err)
{
    unsigned char *yaml = NULL, *net = NULL;
    uint64_t yaml_len = 0, net_len = 0;
    nnue_status st = slurp(yaml_path, &yaml, &yaml_len, err);
    if (st == NNUE_OK)
        st = slurp(in, &net, &net_len, err);
    if (st == NNUE_OK && yaml_len > UINT32_MAX)
        st = nnue_fail(err, NNUE_E_ARG, "%s: YAML too large", yaml_path);
    if (st == NNUE_OK && nnue_sd_write(out, yaml, yaml_len, net, net_len) != 0)
        st = nnue_fail(err, NNUE_E_IO, "%s: cannot write: %s", out_name, strerror(errno));
    free(yaml);
    free(net);
    return st;
}

nnue_status nnue_net_convert_stream(const nnue_arch *arch, const char *in, nnue_net_encoding to, const char *arch_yaml,
                                    void *file, const char *out_name, nnue_error *err)
{
    nnue_error_clear(err);
    FILE *out = file;
    if (!out_name)
        out_name = "<output>";
    if (!in || !out || (unsigned)to > NNUE_WRITE_SELF_DESCRIBING)
        return nnue_fail(err, NNUE_E_ARG, "nnue_net_convert: expected an input path, an encoding and an output file");
    if (to == NNUE_WRITE_SELF_DESCRIBING && !arch_yaml)
        return nnue_fail(err, NNUE_E_ARG, "%s: writing a self-describing net needs the YAML file of its architecture",
                         in);
    if (to != NNUE_WRITE_SELF_DESCRIBING && !arch && to != NNUE_WRITE_ZSTD)
        return nnue_fail(err, NNUE_E_ARG, "%s: converting needs the net's architecture", in);
    nnue_status st;
    if (to == NNUE_WRITE_SELF_DESCRIBING)
        return self_describing(arch_yaml, in, out, out_name, err);
    if (to == NNUE_WRITE_ZSTD || to == NNUE_WRITE_UNZSTD)
        st = rezstd(in, arch, out, to == NNUE_WRITE_ZSTD, err);
    else if (arch->format.kind != NNUE_FORMAT_STOCKFISH || arch->ft.n_sets > 1 || arch->ft.weight_type != NNUE_I16 ||
             arch->ft.bias_type != NNUE_I16)
        return nnue_fail(err, NNUE_E_ARG,
                         "%s: re-encoding the feature transformer needs a Stockfish-format net with one feature set "
                         "of i16 weights; architecture %s is not one%s",
                         in, arch->name,
                         arch->format.kind == NNUE_FORMAT_RAW ? " (a header-less net: write it self-describing)"
                         : arch->ft.n_sets > 1 ? " (threat inputs of i8 weights beside i16 ones, in Stockfish's own "
                                                 "mixed encoding: use the file as it is)"
                                               : "");
    else
        st = reencode(arch, in, out, to == NNUE_WRITE_LEB128, err);
    if (st == NNUE_OK && (ferror(out) || fflush(out) != 0))
        st = nnue_fail(err, NNUE_E_IO, "%s: write error: %s", out_name, strerror(errno));
    return st;
}

nnue_status nnue_net_convert(const nnue_arch *arch, const char *in, nnue_net_encoding to, const char *arch_yaml,
                             const char *out_path, nnue_error *err)
{
    nnue_atomic_writer *w;
    nnue_status st = nnue_atomic_writer_open(out_path, &w, err);
    if (st != NNUE_OK)
        return st;
    st = nnue_net_convert_stream(arch, in, to, arch_yaml, nnue_atomic_writer_stream(w), out_path, err);
    if (st != NNUE_OK) {
        nnue_atomic_writer_abort(w);
        return st;
    }
    return nnue_atomic_writer_commit(w, err);
}

nnue_status nnue_net_header_read(const char *path, nnue_net_header_facts *out, size_t size, nnue_error *err)
{
    nnue_net_header h;
    memset(&h, 0, sizeof h);
    if (out)
        memset(out, 0, size);
    if (!path)
        return nnue_fail(err, NNUE_E_ARG, "nnue_net_header_read: expected a path");
    nnue_status st = nnue_net_read_header(path, &h, NULL, err);
    nnue_net_header_facts f = {h.version, h.file_hash, h.ft_hash, h.description_bytes, h.file_bytes, h.leb128, h.zstd};
    if (out)
        memcpy(out, &f, size < sizeof f ? size : sizeof f);
    return st;
}

nnue_status nnue_net_load_as_encoded(const nnue_arch *arch, const char *path, nnue_net **out, nnue_error *err)
{
    if (!arch || !path || !out)
        return nnue_net_load(arch, path, out, err); /* its own argument errors */
    nnue_arch layout = *arch;
    nnue_net_header h;
    nnue_error ignored;
    /* Same numbers, other FT encoding: load with the encoding the file has. */
    if (arch->format.kind == NNUE_FORMAT_STOCKFISH && nnue_net_read_header(path, &h, NULL, &ignored) == NNUE_OK)
        layout.format.leb128 = h.leb128;
    return nnue_net_load(&layout, path, out, err);
}
