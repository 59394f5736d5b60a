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
 * The engine computes S from scratch on each evaluation (76 table reads). Here the two sides'
 * shares (the 38 terms of each) are also kept incrementally (part, part_move, value_of:
 * core/eval/table_parts.c): a move changes the terms of its dirty pieces (up to four: a capture
 * takes one piece off the board and adds one to a hand), computed in place by HalfKP_shogi's index
 * rules, and a side's share is taken afresh when its king moves. */
#include <math.h>
#include <string.h>
#include <stdint.h>

#include "features/feature_set.h"
#include "features/feature_util.h"
#include "features/shogi_bonapiece.h"
#include "features/table_var.h"
#include "simd/kernels.h"

#define PROGRESS_ROWS (81u * SHOGI_FE_END)
#define PROGRESS_VALUES (1u + PROGRESS_ROWS) /* the bias, then the table */

/* After the file's values: the 255 thresholds in 16 blocks of 16 (the last padded with one
 * INT32_MAX, never reached), then each block's first threshold (progress_value_of). */
#define PROGRESS_BLOCKS 16
#define PROGRESS_DERIVED (256 + PROGRESS_BLOCKS)

static void progress_prepare(int32_t *table)
{
    int32_t *t = table + PROGRESS_VALUES;
    for (int i = 1; i < 256; i++) {
        double x = i / 256.0;
        t[i - 1] = (int32_t)llround(log(x / (1.0 - x)) * 65536.0);
    }
    t[255] = INT32_MAX;
    for (int b = 0; b < PROGRESS_BLOCKS; b++)
        t[256 + b] = t[16 * b];
}

/* The weight of HalfKP feature f, 0 for none (f < 0: a king, or no square). */
static inline int64_t weight_at(const int32_t *table, int32_t f)
{
    return (uint32_t)f < PROGRESS_ROWS ? table[1 + f] : 0;
}

/* Each side's 38 terms: HalfKP_shogi's active lists of both perspectives (its index rules,
 * shogi_bonapiece.h, as part_move below uses them; board squares, then hands, then BonaPiece 0 per
 * missing piece) summed as they are formed. The board part is the kernel table's list_bytes, as
 * HalfKP_shogi lists it (features/shogi_halfkp.c): the square-by-square walk with an index
 * formed per piece took ~190 ns a call on the Xeon (1,600 instructions, more than the engine's
 * whole progress), the kernel's lists and the 76 reads ~70. */
static void progress_parts(const nnue_kernels *k, const int32_t *table, const nnue_board *board, int64_t out[2])
{
    const int32_t kb0 = shogi_king_base(board, 0), kb1 = shogi_king_base(board, 1);
    uint32_t list0[NNUE_MAX_ACTIVE], list1[NNUE_MAX_ACTIVE];
    int n = k->list_bytes(board->piece_on, (uint32_t)board->num_squares, shogi_board_base, 81, kb0, kb1 + 80 + 81,
                          list0, list1, NNUE_MAX_ACTIVE);
    int64_t s0 = 0, s1 = 0;
    for (int i = 0; i < n; i++) {
        s0 += weight_at(table, (int32_t)list0[i]);
        s1 += weight_at(table, (int32_t)list1[i]);
    }
    for (int c = 0; c < 2; c++)
        for (int t = NNUE_SHOGI_PAWN; t <= NNUE_SHOGI_ROOK; t++) /* slot j of a hand: its base + j */
            for (int j = 0; j < board->hand[c][t] && n < NNUE_MAX_ACTIVE; j++, n++) {
                s0 += weight_at(table, kb0 + shogi_hand_base[c != 0][t] + j);
                s1 += weight_at(table, kb1 + shogi_hand_base[c != 1][t] + j);
            }
    if (n < SHOGI_PIECES) { /* FORMATS.md 4.4: BonaPiece 0 per missing piece */
        s0 += (SHOGI_PIECES - n) * weight_at(table, kb0);
        s1 += (SHOGI_PIECES - n) * weight_at(table, kb1);
    }
    out[0] = s0;
    out[1] = s1;
}

static inline int32_t feature_at(int32_t kb, int persp, uint8_t piece, int sq, int slot)
{
    return sq >= 0 ? shogi_board_index(kb, persp, piece, sq)
                   : sq == NNUE_SQ_HAND ? shogi_hand_index(kb, persp, piece, slot) : -1;
}

/* What dirty entry d changes in perspective persp's share (king base kb): its new feature's
 * weight less its old one's. Inlined: a call of its own cost ~20 instructions an evaluation. */
static inline __attribute__((always_inline)) int64_t dirty_change(const int32_t *table, int32_t kb, int persp,
                                                                  const nnue_dirty *d)
{
    return weight_at(table, feature_at(kb, persp, d->new_piece, d->new_sq, d->new_slot)) -
           weight_at(table, feature_at(kb, persp, d->old_piece, d->old_sq, d->old_slot));
}

/* The share after a move: HalfKP_shogi's changed() terms, computed in place (its index rules,
 * shogi_bonapiece.h) rather than listed first; refused as its needs_refresh() refuses. */
static int progress_part_move(const int32_t *table, const nnue_board *after, const nnue_delta *delta, int persp,
                              int64_t *part)
{
    if (nnue_fs_own_king_moved(delta, persp, NNUE_SHOGI_KING))
        return -1;
    const int32_t kb = shogi_king_base(after, persp);
    int64_t s = 0;
    for (int i = 0; i < delta->count; i++)
        s += dirty_change(table, kb, persp, &delta->dirty[i]);
    *part += s;
    return 0;
}

/* Both perspectives' shares after a move (part_move_both): one walk of the delta. */
static int progress_part_move_both(const int32_t *table, const nnue_board *after, const nnue_delta *delta,
                                   int64_t parts[2])
{
    if (nnue_fs_own_king_moved(delta, 0, NNUE_SHOGI_KING) || nnue_fs_own_king_moved(delta, 1, NNUE_SHOGI_KING))
        return -1;
    const int32_t kb0 = shogi_king_base(after, 0), kb1 = shogi_king_base(after, 1);
    int64_t s0 = 0, s1 = 0;
    for (int i = 0; i < delta->count; i++) {
        s0 += dirty_change(table, kb0, 0, &delta->dirty[i]);
        s1 += dirty_change(table, kb1, 1, &delta->dirty[i]);
    }
    parts[0] += s0;
    parts[1] += s1;
    return 0;
}

/* How many of the 16 values at t are <= s: 16 less the lanes of four vector compares (t > s)
 * summed as vectors; a sum of the comparisons one by one became a mask whose set bits were
 * counted without popcnt (the baseline instruction set's), ~20 instructions more each call. */
typedef int32_t progress_v4 __attribute__((vector_size(16)));

static inline int count_le(const int32_t *t, int32_t s)
{
    const progress_v4 sv = {s, s, s, s};
    progress_v4 above = {0, 0, 0, 0};
    for (int i = 0; i < 16; i += 4) {
        progress_v4 v;
        memcpy(&v, t + i, sizeof v);
        above += (progress_v4)(v > sv); /* -1 in the lanes above s */
    }
    return 16 + above[0] + above[1] + above[2] + above[3];
}

/* P from S: how many thresholds are <= S (they increase strictly): the blocks whose first is <= S
 * (one line of 16), then the thresholds <= S in the last of those (one more line), each count
 * from vector compares (count_le); a binary search over the 255 was eight loads each waiting for
 * the one before (30 ns an evaluation of yo-progress, Xeon). S is clamped to int32 first, below
 * the padding: every threshold lies far inside, so no comparison changes. */
static int32_t progress_value_of(const int32_t *table, const int64_t parts[2], int64_t *measure)
{
    int64_t s = table[0] + parts[0] + parts[1];
    if (measure)
        *measure = s;
    const int32_t *t = table + PROGRESS_VALUES;
    const int32_t s32 = (int32_t)(s < INT32_MIN ? INT32_MIN : s > INT32_MAX - 1 ? INT32_MAX - 1 : s);
    int blocks = count_le(t + 256, s32);
    if (!blocks)
        return 0;
    return 16 * (blocks - 1) + count_le(t + 16 * (blocks - 1), s32);
}

static int32_t progress_value(const nnue_kernels *k, const int32_t *table, const nnue_board *board, int64_t *measure)
{
    int64_t parts[2];
    progress_parts(k, table, board, parts);
    return progress_value_of(table, parts, measure);
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
    .derived = PROGRESS_DERIVED,
    .prepare = progress_prepare,
    .value = progress_value,
    .parts = progress_parts,
    .part_move = progress_part_move,
    .value_of = progress_value_of,
    .part_move_both = progress_part_move_both,
    .random_value = progress_random,
};
