/* formats/net_read.h: the common net reader (formats/net_read.c), used by the format readers
 * (formats/net_formats.h) and by core/net/net_load.c; not a public API.
 *
 * It calls none of them. It reads from a byte stream (io/stream.h: a buffered FILE or bytes in
 * memory, with the offset of the next byte for messages) what only nets have: typed arrays and
 * LEB128 blocks (decoded by io/leb128.h). All multi-byte values in net files are little-endian;
 * nr_from_le() converts arrays in place (identity on little-endian hosts). */
#ifndef NNUE_CORE_FORMATS_NET_READ_H
#define NNUE_CORE_FORMATS_NET_READ_H

#include <stdint.h>

#include "core/arch/arch.h"
#include "io/stream.h"

/* Reads count values stored as file_type into dst of mem_type (equal or wider signed type:
 * i8 -> i16/i32, i16 -> i32). */
nnue_status nr_array(nr_stream *s, nnue_dtype file_type, nnue_dtype mem_type, void *dst, uint64_t count,
                     const char *section);

/* A "COMPRESSED_LEB128" block (magic, u32 payload bytes, signed LEB128 values) decoded into
 * count values of mem_type (i16 or i32). Checks the payload against the file size before
 * decoding; rejects a payload that ends early, has bytes left over, or a value out of range. */
nnue_status nr_leb128(nr_stream *s, nnue_dtype mem_type, void *dst, uint64_t count, const char *section);
/* A LEB128 block's payload of `announced` bytes from the stream's offset, decoded into count values
 * (nr_leb128 after the magic and the length; errors as nr_leb128's). */
nnue_status nr_leb128_payload(nr_stream *s, nnue_dtype mem_type, void *dst, uint64_t count, uint64_t announced,
                              const char *section);

/* Little-endian arrays to host order, in place. */
void nr_from_le(void *data, nnue_dtype type, uint64_t count);

#define NR_LEB128_MAGIC "COMPRESSED_LEB128"
#define NR_LEB128_MAGIC_LEN 17

#endif
