/* features/shogi_bonapiece.h: YaneuraOu's BonaPiece numbering, shared by the shogi feature sets.
 *
 * Facts: shared/oracle/shogi/FORMATS.md section 2 (tables of hand and board bases, fe_hand_end
 * = 90, fe_end = 1548; promoted pawn/lance/knight/silver use the GOLD entries; the enemy's
 * board entries are the friend's + 81; captured pieces go to hand unpromoted) and section 11
 * (the two king planes of the HalfKA sets, 1548 + sq and 1629 + sq). Squares are the board's
 * (file-1)*9 + (rank-1); a perspective sees them as is (black) or rotated, 80 - sq (white). */
#ifndef NNUE_FEATURES_SHOGI_BONAPIECE_H
#define NNUE_FEATURES_SHOGI_BONAPIECE_H

#include <stdint.h>
#include <string.h>

#include "nnue_board.h"

#define SHOGI_FE_HAND_END 90
#define SHOGI_FE_END 1548       /* first king plane (HalfKA sets); HalfKP's block size */
#define SHOGI_E_KING 1629       /* second king plane; HalfKA's block size */
#define SHOGI_PIECES 38         /* non-king pieces of a full set */

/* Board BonaPiece base of a friend piece by type; enemy = friend + 81. 0 = king (none). 16
 * entries, so that it is a kernels.h list_bytes table (indexed by the piece code's low 4 bits). */
static const int32_t shogi_board_base[16] = {
    [NNUE_SHOGI_PAWN] = 90,        [NNUE_SHOGI_LANCE] = 252,     [NNUE_SHOGI_KNIGHT] = 414,
    [NNUE_SHOGI_SILVER] = 576,     [NNUE_SHOGI_GOLD] = 738,      [NNUE_SHOGI_BISHOP] = 900,
    [NNUE_SHOGI_ROOK] = 1224,      [NNUE_SHOGI_PRO_PAWN] = 738,  [NNUE_SHOGI_PRO_LANCE] = 738,
    [NNUE_SHOGI_PRO_KNIGHT] = 738, [NNUE_SHOGI_PRO_SILVER] = 738, [NNUE_SHOGI_HORSE] = 1062,
    [NNUE_SHOGI_DRAGON] = 1386,
};

/* Hand BonaPiece bases by unpromoted type: [0] friend, [1] enemy. */
static const int16_t shogi_hand_base[2][8] = {
    { 0, 1, 39, 49, 59, 69, 79, 85 },
    { 0, 20, 44, 54, 64, 74, 82, 88 },
};

/* Type a piece has in hand (captured pieces lose their promotion); 0 for kings. */
static const uint8_t shogi_demote[15] = {
    0, NNUE_SHOGI_PAWN, NNUE_SHOGI_LANCE, NNUE_SHOGI_KNIGHT, NNUE_SHOGI_SILVER, NNUE_SHOGI_GOLD,
    NNUE_SHOGI_BISHOP, NNUE_SHOGI_ROOK, 0, NNUE_SHOGI_PAWN, NNUE_SHOGI_LANCE, NNUE_SHOGI_KNIGHT,
    NNUE_SHOGI_SILVER, NNUE_SHOGI_BISHOP, NNUE_SHOGI_ROOK,
};

/* Most pieces of a type a hand can hold (a full set). */
static const uint8_t shogi_hand_cap[8] = {0, 18, 4, 4, 4, 4, 2, 2};

/* The perspective's own king square, seen from that perspective. */
static inline int shogi_own_king(const nnue_board *board, int persp)
{
    return persp ? 80 - board->king_sq[1] : board->king_sq[0];
}

/* Occupancy of 8 squares as 8 bits (bit i: square first + i is not empty), without branches:
 * the high bit of each non-empty byte, gathered into the top byte by one multiply. */
static inline uint64_t shogi_occ8(const uint8_t *squares)
{
    uint64_t w;
    memcpy(&w, squares, 8);
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
    uint64_t high = (((w & low7) + low7) | w) & ~low7;
    return ((high >> 7) * 0x0102040810204080ull) >> 56;
}

/* The occupied squares as two masks: occ[0] bit sq for squares 0..63, occ[1] bit sq - 64. */
static inline void shogi_occupancy(const nnue_board *board, uint64_t occ[2])
{
    occ[0] = occ[1] = 0;
    if (board->num_squares == 81) {
        for (int w = 0; w < 8; w++)
            occ[0] |= shogi_occ8(board->piece_on + 8 * w) << (8 * w);
        occ[1] = shogi_occ8(board->piece_on + 64) | shogi_occ8(board->piece_on + 72) << 8 |
                 (uint64_t)(board->piece_on[80] != 0) << 16;
    } else {
        for (int sq = 0; sq < board->num_squares && sq < NNUE_MAX_SQUARES; sq++)
            occ[sq >> 6] |= (uint64_t)(board->piece_on[sq] != 0) << (sq & 63);
    }
}

/* HalfKP_shogi's index parts (features/shogi_halfkp.c; also the progress table's rows and
 * columns, features/shogi_progress.c): the perspective's king block. */
static inline int32_t shogi_king_base(const nnue_board *board, int persp)
{
    return shogi_own_king(board, persp) * SHOGI_FE_END;
}

/* Feature of a piece on a board square, -1 for kings. */
static inline int32_t shogi_board_index(int32_t king_base, int persp, uint8_t piece, int sq)
{
    int type = NNUE_PIECE_TYPE(piece);
    if (type > NNUE_SHOGI_DRAGON || !shogi_board_base[type])
        return -1;
    int enemy = NNUE_PIECE_COLOUR(piece) != persp;
    return king_base + shogi_board_base[type] + 81 * enemy + (persp ? 80 - sq : sq);
}

/* Feature of hand slot `slot` (0-based) of the piece's colour and (demoted) type. */
static inline int32_t shogi_hand_index(int32_t king_base, int persp, uint8_t piece, int slot)
{
    int type = shogi_demote[NNUE_PIECE_TYPE(piece) & 15];
    if (!type)
        return -1;
    int enemy = NNUE_PIECE_COLOUR(piece) != persp;
    return king_base + shogi_hand_base[enemy][type] + slot;
}

#endif
