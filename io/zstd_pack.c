/* io/zstd_pack.c: a whole file compressed into one zstd frame that records its size (io/zstd.h
 * nz_pack_file; `nnue convert --to zstd`, nnue_net_convert), streamed: the file is never held whole. */
#include <stdlib.h>
#include <zstd.h>

#include "base/error.h"
#include "io/zstd.h"

nnue_status nz_pack_file(FILE *in, const char *name, FILE *out, nnue_error *err)
{
    if (fseek(in, 0, SEEK_END) != 0)
        return nnue_fail(err, NNUE_E_IO, "%s: cannot read the file (not a regular file?)", name);
    long size = ftell(in);
    rewind(in);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    size_t in_cap = ZSTD_CStreamInSize(), out_cap = ZSTD_CStreamOutSize();
    unsigned char *ibuf = malloc(in_cap), *obuf = malloc(out_cap);
    nnue_status st = NNUE_OK;
    if (size < 0)
        st = nnue_fail(err, NNUE_E_IO, "%s: cannot read the file (not a regular file?)", name);
    else if (!cc || !ibuf || !obuf || ZSTD_isError(ZSTD_CCtx_setPledgedSrcSize(cc, (unsigned long long)size)))
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
