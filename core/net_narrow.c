/* core/net_narrow.c: an i8 copy of a feature set's i16 weight rows when every value fits.
 *
 * The accumulator update is bound by moving weight rows (mostly from beyond the L2 cache: a
 * move adds the row of a new square). A set whose i16 rows all lie in -128..127 (random nets,
 * some trained ones) loses nothing when read as i8 and widened in the kernel (acc_i8, the
 * kernel that already serves i8 sets): same sums, bit for bit, from half the bytes. The i16
 * rows stay for everything else that reads the net (writing, ranges, the refresh cache). */
#include <stdlib.h>

#include "core/net.h"
#include "core/net_read.h"

/* 1 when all n values fit in i8 (no early exit in the inner block: it vectorizes). */
static int all_fit_i8(const int16_t *w, size_t n)
{
    for (size_t i = 0; i < n; i += 4096) {
        size_t end = n - i < 4096 ? n : i + 4096;
        int bad = 0;
        for (size_t j = i; j < end; j++)
            bad |= (w[j] < -128) | (w[j] > 127);
        if (bad)
            return 0;
    }
    return 1;
}

void nnue_net_narrow_rows(nnue_net *net)
{
    const nnue_ft_desc *ft = &net->arch->ft;
    for (int s = 0; s < ft->n_sets; s++) {
        if (ft->sets[s].weight_type != NNUE_I16 || net->set_narrow[s])
            continue;
        size_t n = (size_t)ft->sets[s].inputs * ft->width;
        const int16_t *w = net->set_weights[s];
        if (!n || !all_fit_i8(w, n))
            continue;
        int8_t *narrow = nr_alloc(n); /* huge pages like the i16 rows; NULL: stay on i16 rows */
        if (!narrow)
            continue;
        for (size_t j = 0; j < n; j++)
            narrow[j] = (int8_t)w[j];
        net->set_narrow[s] = narrow;
    }
}
