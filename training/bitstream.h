/* training/bitstream.h: the bit stream of a .binpack move list (nnue-pytorch binpack.h,
 * PackedMoveScoreList and PackedMoveScoreListReader): fields of 0..8 bits, each written from
 * its most significant bit down, filling every byte from its most significant bit; a list
 * takes whole bytes, the last one padded with zero bits. A score goes as its delta mapped to
 * unsigned (0, -1, 1, -2, 2... as 0, 1, 2, 3, 4...) in 4-bit blocks, low block first, each in a
 * 5-bit field (another block follows) << 4 | block. */
#ifndef NNUE_TRAINING_BITSTREAM_H
#define NNUE_TRAINING_BITSTREAM_H

#include <stddef.h>
#include <stdint.h>

enum { BP_SCORE_BLOCK = 4, BP_SCORE_MAX_BLOCKS = 4 };

/* Bits an index below n takes: 0 for n <= 1, else the bits of n - 1. */
unsigned bp_index_bits(unsigned n);

/* The format's signed <-> unsigned mapping of 16-bit values (its signedToUnsigned). */
uint16_t bp_to_unsigned(int16_t v);
int16_t bp_to_signed(uint16_t u);

typedef struct bp_bit_writer {
    uint8_t *buf;
    size_t len, cap;     /* bytes used (the last one maybe in part), bytes allocated */
    unsigned used;       /* bits used in the last byte, 0 when it is full or there is none */
} bp_bit_writer;

/* Appends the low `count` (0..8) bits of value; -1 when out of memory. */
int bp_put_bits(bp_bit_writer *w, unsigned value, unsigned count);
/* Appends v in 4-bit blocks, low block first, each with its continuation bit. */
int bp_put_score(bp_bit_writer *w, uint16_t v);
void bp_bit_writer_reset(bp_bit_writer *w);
void bp_bit_writer_free(bp_bit_writer *w);

typedef struct bp_bit_reader {
    const uint8_t *data;
    size_t size;         /* bytes available */
    size_t bit;          /* bits read */
} bp_bit_reader;

/* Reads `count` (0..8) bits into *value; -1 when they run past size (nothing is read). */
int bp_get_bits(bp_bit_reader *r, unsigned count, unsigned *value);
/* Reads a value written by bp_put_score: 0, -1 past the end, -2 when the continuation bits ask
 * for more than BP_SCORE_MAX_BLOCKS blocks (16 bits). */
int bp_get_score(bp_bit_reader *r, uint16_t *v);
/* Whole bytes the bits read so far take. */
size_t bp_bytes_read(const bp_bit_reader *r);

#endif
