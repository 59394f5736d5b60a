/* formats/net_write.h: writing net files (formats/net_write.c): deterministic random nets for an
 * architecture, and value arrays in Stockfish's plain or LEB128 encoding. */
#ifndef NNUE_CORE_FORMATS_NET_WRITE_H
#define NNUE_CORE_FORMATS_NET_WRITE_H

#include <stdint.h>
#include <stdio.h>

#include "core/arch/arch.h"
#include "nnue_error.h"

/* Writes a net file with deterministic random weights for arch (formats/net_write.c): same seed,
 * same bytes. The file loads with nnue_net_load(arch, ...). */
nnue_status nnue_net_write_random(const nnue_arch *arch, const char *path, uint64_t seed, nnue_error *err);

/* count values of type (NNUE_I16 or NNUE_I32) in host memory, for nnue_net_write_values. */
typedef struct nnue_values {
    const void *data;
    nnue_dtype type;
    uint64_t count;
} nnue_values;

/* Writes the values to f as little-endian integers of their type's width, or (leb128) as one
 * COMPRESSED_LEB128 block in Stockfish's layout (magic, u32 payload bytes, signed LEB128 values,
 * the shortest encoding of each). Used by `nnue convert`. */
nnue_status nnue_net_write_values(FILE *f, int leb128, const nnue_values *values, nnue_error *err);

#endif
