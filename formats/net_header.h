/* formats/net_header.h: reading a net's Stockfish-format header alone
 * (formats/net_header.c), for detection and `nnue info`. */
#ifndef NNUE_CORE_FORMATS_NET_HEADER_H
#define NNUE_CORE_FORMATS_NET_HEADER_H

#include <stddef.h>
#include <stdint.h>

#include "nnue_error.h"

/* Header of a Stockfish-format file without loading the weights (for detection and `nnue info`).
 * description may be NULL; otherwise *description is malloc'ed (caller frees). */
typedef struct nnue_net_header {
    uint32_t version, file_hash, ft_hash;   /* ft_hash: the u32 after the description */
    uint32_t description_bytes;
    uint64_t file_bytes;
    int leb128;                              /* FT starts with a COMPRESSED_LEB128 block */
    int zstd;                                /* the file is one zstd frame; the rest describes its
                                                decompressed bytes (file_bytes included) */
} nnue_net_header;
nnue_status nnue_net_read_header(const char *path, nnue_net_header *header, char **description, nnue_error *err);
/* The same from a net in memory (no description); name labels it in messages. */
nnue_status nnue_net_read_header_memory(const void *data, size_t size, const char *name, nnue_net_header *header,
                                        nnue_error *err);

#endif
