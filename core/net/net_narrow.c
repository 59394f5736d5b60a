/* core/net/net_narrow.c: the rows the accumulator update reads: an i8 copy of a feature set's i16
 * weight rows, with patches for the values that do not fit, and an i8 set's own rows, both in the
 * kernels' paired byte order (simd/paired_i8.h) for a width that is a multiple of 64; an i8 set of
 * another width as i16 rows.
 *
 * The accumulator update is bound by moving weight rows (mostly from beyond the L2 cache: a
 * move adds the row of a new square). Many nets keep all or nearly all FT weights in -128..127
 * (the shogi random net: all but 0.1%). Each row is stored as i8 values, clamped, plus a short list of (column, delta)
 * patches for the clamped ones; the update widens the i8 row (acc_i8 kernel) and applies the
 * patches. The sum is the same, bit for bit: each weight is its i8 value plus its delta, and
 * i16 accumulation wraps, so the order of the terms does not matter. The i16 rows stay for
 * everything else that reads the net (writing, ranges, the refresh cache).
 *
 * The kernels read every i8 row paired (a block of 64 values as 32 byte pairs: simd/paired_i8.h),
 * which costs them a shift and two adds per 64 bytes where plain bytes took two widenings and two
 * adds. An i8 set's own rows (a threat set's, as read from the file) are paired in place, block by
 * block (nnue_net.i8_paired: the worst-case ranges, their only other reader, read them through
 * simd/paired_i8.h; a copy raised the tool's peak on Stockfish 19's net by 32 MB); an i8 set whose
 * width is no multiple of 64 is read as i16 rows widened from its own. */
#include <stdlib.h>
#include <string.h>

#include "core/net/net.h"
#include "formats/net_read.h"
#include "simd/paired_i8.h"

/* Patches allowed per value. Applying a patch is a scalar read-modify-write, and a full
 * refresh applies those of ~30 rows per perspective: measured (nnue bench, A/B in one minute),
 * the shogi random net (0.1% of values patched, 0.2 per row) refreshes ~7% faster, while Stockfish
 * 15.1's net (2%, 20 per row) got 15% slower incrementally and 35% slower on refresh. */
#define MAX_PATCH_FRACTION 256 /* at most 1 value in 256 */

static int fits_i8(int16_t v)
{
    return v >= -128 && v <= 127;
}

static int8_t clamp_i8(int16_t v)
{
    return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
}

/* Values outside i8 in n values, counted in blocks (each block's loop vectorizes) until they pass
 * limit: a net with too many to narrow (Stockfish 17.1's: 1.3%, 69 M values) is told after its
 * first blocks instead of a pass over all its rows. Returns the count, or limit + 1 past it. */
static size_t count_misfits(const int16_t *w, size_t n, size_t limit)
{
    enum { BLOCK = 1 << 16 };
    size_t misfits = 0;
    for (size_t at = 0; at < n && misfits <= limit; at += BLOCK) {
        size_t end = n - at < BLOCK ? n : at + BLOCK;
        for (size_t j = at; j < end; j++)
            misfits += !fits_i8(w[j]);
    }
    return misfits <= limit ? misfits : limit + 1;
}

/* Builds set s's narrow rows from its i16 rows w ([inputs][width]); 0 on success. */
static int build(nnue_narrow_rows *nr, const int16_t *w, uint32_t inputs, uint32_t width, size_t misfits)
{
    size_t n = (size_t)inputs * width;
    nr->rows = nr_alloc(n); /* huge pages like the i16 rows */
    if (misfits) {
        nr->patch_start = malloc(((size_t)inputs + 1) * sizeof *nr->patch_start);
        nr->patches = malloc(misfits * sizeof *nr->patches);
        nr->first = malloc((size_t)inputs * sizeof *nr->first);
        nr->patched = calloc(((size_t)inputs + 63) / 64, sizeof *nr->patched);
    }
    if (!nr->rows || (misfits && (!nr->patch_start || !nr->patches || !nr->first || !nr->patched)))
        return -1;
    size_t used = 0;
    for (uint32_t r = 0; r < inputs; r++) {
        const int16_t *row = w + (size_t)r * width;
        int8_t *out = nr->rows + (size_t)r * width;
        if (misfits)
            nr->patch_start[r] = (uint32_t)used;
        for (uint32_t c = 0; c < width; c++) {
            int8_t v = clamp_i8(row[c]);
            nnue_paired_put(out, c, v);
            if (!fits_i8(row[c]))
                nr->patches[used++] = (nnue_row_patch){(uint16_t)c, (int16_t)(row[c] - v)};
        }
    }
    if (!misfits)
        return 0;
    nr->patch_start[inputs] = (uint32_t)used;
    for (uint32_t r = 0; r < inputs; r++) {
        uint32_t at = nr->patch_start[r], count = nr->patch_start[r + 1] - at;
        nnue_row_patch f = count ? nr->patches[at] : (nnue_row_patch){(uint16_t)(r % width), 0};
        if (count > 1)
            f.col = (uint16_t)(f.col | NNUE_PATCH_MORE);
        if (count)
            nr->patched[r / 64] |= 1ull << (r % 64);
        nr->first[r] = f;
    }
    return 0;
}

/* An i8 set's rows w ([inputs][width], the net's own) for the update: paired in place (width a
 * multiple of 64: *paired set), else widened to i16 into nr; 0 on success. */
static int ready_i8(nnue_narrow_rows *nr, int8_t *w, uint32_t inputs, uint32_t width, uint8_t *paired)
{
    size_t n = (size_t)inputs * width;
    if (width % NNUE_PAIRED_BLOCK) {
        if (!(nr->widened = nr_alloc(n * sizeof *nr->widened)))
            return -1;
        for (size_t j = 0; j < n; j++)
            nr->widened[j] = w[j];
        return 0;
    }
    for (size_t b = 0; b < n; b += NNUE_PAIRED_BLOCK) {
        int8_t plain[NNUE_PAIRED_BLOCK];
        memcpy(plain, w + b, sizeof plain);
        nnue_paired_row_from_plain(plain, w + b, NNUE_PAIRED_BLOCK);
    }
    *paired = 1;
    return 0;
}

static void release(nnue_narrow_rows *nr)
{
    free(nr->rows);
    free(nr->patch_start);
    free(nr->patches);
    free(nr->first);
    free(nr->patched);
    free(nr->widened);
    *nr = (nnue_narrow_rows){NULL, NULL, NULL, NULL, NULL, NULL};
}

/* row_table[] from the rows the update reads (narrow[] where built). */
static void fill_row_table(nnue_net *net)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    for (int s = 0; s < ft->n_sets; s++) {
        const nnue_narrow_rows *nr = &net->narrow[s];
        int i8 = nr->rows != NULL || net->i8_paired[s]; /* paired i8 rows, else i16: the set's own or widened */
        const char *rows = nr->rows       ? (const char *)nr->rows
                           : nr->widened ? (const char *)nr->widened
                                         : (const char *)net->set_weights[s];
        net->row_table[s] = (nnue_row_table){
            rows,
            ft->psqt_buckets && net->set_psqt[s] ? (const char *)net->set_psqt[s] : NULL,
            ft->width * (i8 ? 1u : 2u), ft->psqt_buckets * 4u, (uint8_t)i8, nr->patch_start != NULL};
    }
}

int nnue_net_narrow_rows(nnue_net *net)
{
    int failed = 0;
    const nnue_ft_desc *ft = &net->arch->ft;
    for (int s = 0; s < ft->n_sets; s++) {
        if (net->narrow[s].rows || net->narrow[s].widened || net->i8_paired[s])
            continue;
        if (ft->sets[s].weight_type == NNUE_I8) {
            int8_t *own = s == ft->n_sets - 1 ? (int8_t *)net->ft_weights : (int8_t *)net->ft_extra[s];
            if (ready_i8(&net->narrow[s], own, ft->sets[s].inputs, ft->width, &net->i8_paired[s]) != 0) {
                release(&net->narrow[s]);
                failed = 1;
            }
            continue;
        }
        /* patch columns: 15 bits; paired rows: whole 64-value blocks */
        if (ft->sets[s].weight_type != NNUE_I16 || ft->width > NNUE_PATCH_MORE || ft->width % NNUE_PAIRED_BLOCK)
            continue;
        size_t n = (size_t)ft->sets[s].inputs * ft->width;
        const int16_t *w = net->set_weights[s];
        size_t limit = n / MAX_PATCH_FRACTION < UINT32_MAX ? n / MAX_PATCH_FRACTION : UINT32_MAX;
        size_t misfits = n ? count_misfits(w, n, limit) : 0;
        if (!n || misfits > limit)
            continue;
        if (build(&net->narrow[s], w, ft->sets[s].inputs, ft->width, misfits) != 0)
            release(&net->narrow[s]); /* out of memory: stay on the i16 rows */
    }
    fill_row_table(net);
    return failed ? -1 : 0;
}

void nnue_net_narrow_free(nnue_net *net)
{
    for (int s = 0; s < NNUE_MAX_FT_SETS; s++)
        release(&net->narrow[s]);
}
