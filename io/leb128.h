/* io/leb128.h: signed LEB128 values decoded from byte spans into int16 or int32 arrays; bytes
 * only, no stream, no file, no net (the net reader, formats/net_read.c, frames the blocks and
 * turns a stop into a message with the file's offsets).
 *
 * Facts (shared/oracle/chess/FORMATS.md section 2): 7 data bits a byte, low bits first, 0x80 =
 * more bytes follow, the sign from bit 0x40 of the last byte. An int16 takes at most 3 bytes, an
 * int32 at most 5 (io/leb128.c). */
#ifndef NNUE_IO_LEB128_H
#define NNUE_IO_LEB128_H

#include <stdint.h>

/* Why a decoder stopped. */
typedef enum leb128_stop {
    LEB128_OK,        /* every byte fed so far decoded (the last value may be unfinished) */
    LEB128_LEFT_OVER, /* a byte after the count's last value (at: that byte) */
    LEB128_TOO_LONG,  /* a value with more bytes than its type takes (at: its first byte) */
    LEB128_RANGE,     /* a value out of its type's range (at: its first byte; value: it) */
} leb128_stop;

/* Decodes count values into dst from the spans fed to it in order; a value may run from one span
 * into the next. Positions count every byte fed since leb128_begin. */
typedef struct leb128_decoder {
    void *dst;
    uint64_t count;
    int value_bytes;      /* 1 (int8_t or uint8_t), 2 (int16_t) or 4 (int32_t) */
    uint64_t done;        /* values stored */
    uint64_t fed;         /* bytes fed before the current span */
    uint64_t acc;         /* the value being read: its bits so far, */
    int shift, nb;        /* how many, and its bytes so far */
    uint64_t value_start; /* its first byte */
    uint64_t at;          /* after a stop: where (see leb128_stop) */
    int64_t value;        /* after LEB128_RANGE: the value */
} leb128_decoder;

/* value_bytes: 2 (dst is int16_t[count]: values of at most 3 bytes in int16's range), 4
 * (int32_t[count]: at most 5 bytes, int32's range) or 1 (a byte array: decoded as for 4, the low
 * byte of each value stored). */
void leb128_begin(leb128_decoder *d, int value_bytes, void *dst, uint64_t count);
/* Decodes the n bytes at p. Anything but LEB128_OK leaves the decoder stopped (at, value). */
leb128_stop leb128_feed(leb128_decoder *d, const unsigned char *p, uint64_t n);
/* 1 when all count values are decoded and no value is left half read. */
int leb128_complete(const leb128_decoder *d);

/* The n bytes at p hold exactly count int16 values: decoded in two halves on two threads (the
 * second half from the first byte after a value's last byte near the middle; a byte without 0x80
 * ends a value, so no pass over the values finds it). Returns 1 when both halves decoded whole
 * (dst then holds all count values), 0 when there are fewer than LEB128_SPLIT_FROM values (a
 * thread costs more), helper threads are not allowed (base/helper_threads.h), no value ends near
 * the middle, or either half stops or falls short (dst is then partly written: decode in order
 * to report what is wrong and where). Without a second thread both halves run on this one. */
int leb128_decode_i16_halves(const unsigned char *p, uint64_t n, int16_t *dst, uint64_t count);
#define LEB128_SPLIT_FROM (8u << 20)

#endif
