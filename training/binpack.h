/* training/binpack.h: the container of Stockfish's .binpack (nnue-pytorch binpack.h and
 * training_data_entry.h at 9f72946), shared by training/binpack_read.c and
 * training/binpack_write.c. A file is chunks: "BINP", the data's size (32-bit little-endian),
 * the data. A chunk's data is chains: a 32-byte entry, the number of chained records after it
 * (16-bit big-endian), then their move list (training/bitstream.h), in whole bytes. An entry:
 *   0..23   the position (games/chess/binpack.h)
 *   24..25  the move (big-endian, games/chess/binpack.h)
 *   26..27  the score, bp_to_unsigned, big-endian
 *   28..29  ply | bp_to_unsigned(result) << 14, big-endian (ply: 14 bits; result -1, 0, 1)
 *   30..31  the halfmove clock, big-endian
 * Every number in the file but the chunk size is big-endian. */
#ifndef NNUE_TRAINING_BINPACK_H
#define NNUE_TRAINING_BINPACK_H

#include <stdint.h>

enum {
    BP_HEADER_BYTES = 8,
    BP_ENTRY_BYTES = 32,
    BP_STEM_BYTES = BP_ENTRY_BYTES + 2,      /* an entry and its chain's count */
    BP_MOVE_AT = 24,
    BP_SCORE_AT = 26,
    BP_PLY_AT = 28,
    BP_RULE50_AT = 30,
    BP_MAX_PLY = (1 << 14) - 1,
    BP_MAX_CHAIN = 65535,
};

/* The reference writer's chunk size: a chunk is written once it holds at least this much and a
 * new chain starts. */
#define BP_CHUNK_TARGET (1024u * 1024u)
/* The largest chunk the reference reader takes (its maxChunkSize, against malformed files). */
#define BP_MAX_CHUNK (100u * 1024u * 1024u)

static inline unsigned bp_be16(const uint8_t *p)
{
    return (unsigned)p[0] << 8 | p[1];
}

static inline void bp_put_be16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

#endif
