/* features/shogi_progress.c: YaneuraOu's game progress, the table variable "progress" (0..255)
 * that the generated SFNN architectures' progressN stack rules bucket (progress * N / 256).
 *
 * Facts (shared/oracle/shogi/yo26/FACTS.md sections 2 and 6): the file section is u32 hash
 * 0x6F50524F, int32 bias, int32 weights[81][1548] (raw little-endian, after the feature
 * transformer); S = bias + the weights of the 38 HalfKP features of each side (black's king
 * square and black's BonaPieces, white's king square seen from white, 80 - sq, and white's
 * BonaPieces; a missing piece counts BonaPiece 0; kings add nothing), summed in int64; P = how
 * many of the 255 thresholds T_i = llround(ln(i / (256 - i)) * 65536), i = 1..255, are <= S.
 * The 38 features of a side are exactly HalfKP_shogi's active list (features/shogi_halfkp.c),
 * whose index is king * 1548 + BonaPiece: row and column of the table at once.
 * Computed from scratch on each evaluation (76 table reads): the engine does the same. */
#include <math.h>

#include "features/feature_set.h"
#include "features/shogi_bonapiece.h"
#include "features/table_var.h"

extern const nnue_feature_set nnue_fs_shogi_halfkp;

#define PROGRESS_ROWS (81u * SHOGI_FE_END)
#define PROGRESS_VALUES (1u + PROGRESS_ROWS) /* the bias, then the table */

/* The 255 thresholds after the file's values. */
static void progress_prepare(int32_t *table)
{
    int32_t *t = table + PROGRESS_VALUES;
    for (int i = 1; i < 256; i++) {
        double x = i / 256.0;
        t[i - 1] = (int32_t)llround(log(x / (1.0 - x)) * 65536.0);
    }
}

static int32_t progress_value(const int32_t *table, const nnue_board *board, int64_t *measure)
{
    const int32_t *w = table + 1;
    int64_t s = table[0];
    uint32_t idx[NNUE_MAX_ACTIVE];
    for (int persp = 0; persp < 2; persp++) {
        int n = nnue_fs_shogi_halfkp.active(NULL, board, persp, idx);
        for (int i = 0; i < n; i++)
            s += idx[i] < PROGRESS_ROWS ? w[idx[i]] : 0; /* always below: checked boards */
    }
    if (measure)
        *measure = s;
    /* upper_bound: the number of thresholds <= s (they increase strictly). */
    const int32_t *t = table + PROGRESS_VALUES;
    int lo = 0, hi = 255;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (t[mid] <= s)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* nnue init: bias 0, weights -1000..1000, so that random nets use every bucket. */
static int32_t progress_random(uint32_t k, uint32_t r)
{
    return k == 0 ? 0 : (int32_t)(r % 2001) - 1000;
}

const nnue_table_var nnue_tv_shogi_progress = {
    .name = "progress",
    .game = "shogi",
    .lo = 0,
    .hi = 255,
    .section = "progress",
    .hash = 0x6F50524Fu,
    .values = PROGRESS_VALUES,
    .derived = 255,
    .prepare = progress_prepare,
    .value = progress_value,
    .random_value = progress_random,
};
