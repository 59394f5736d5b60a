/* formats/net_formats.h: the format-specific net readers, called by nnue_net_load
 * (core/net/net_load.c). Each fills the weights (arch and layer_weights already set:
 * formats/weights.h) from the stream positioned at byte 0, using only the common reader
 * (formats/net_read.h). Kind raw's containers
 * (format.container) each have a reader that unwraps the blocks and hands them to
 * nnue_net_read_raw: net_load.c picks one by format.container (its raw_containers). */
#ifndef NNUE_CORE_FORMATS_NET_FORMATS_H
#define NNUE_CORE_FORMATS_NET_FORMATS_H

#include "formats/net_read.h"
#include "formats/weights.h"

nnue_status nnue_net_read_stockfish(nnue_weights *w, nr_stream *s);
/* The raw blocks from the stream's current offset to its end (padding included). */
nnue_status nnue_net_read_raw(nnue_weights *w, nr_stream *s);
/* CBNF (Stormphrax): the 64-byte header, then the blocks, plain or as one zstd frame. */
nnue_status nnue_net_read_cbnf(nnue_weights *w, nr_stream *s);
/* The first CBNF header field (formats/net_read_cbnf.c) the 64 bytes at h do not carry as
 * architecture a requires (magic not checked): its offset and *f, or -1 when they all fit. */
#define NNUE_CBNF_HEADER 64
typedef struct nnue_cbnf_field {
    int offset;
    const char *field, *from;   /* its name; where the expected value comes from */
    unsigned want, found;
} nnue_cbnf_field;
int nnue_cbnf_mismatch(const nnue_arch *a, const unsigned char *h, nnue_cbnf_field *f);
/* Every value a LEB128 varint (PlentyChess), decoded to the plain blocks. */
nnue_status nnue_net_read_varint(nnue_weights *w, nr_stream *s);

/* Values of a raw block (a layer tensor over all stacks, or an FT array) and, in why, the YAML
 * fields that count comes from. */
uint64_t nnue_net_raw_block_values(const nnue_arch *a, const nnue_block *b, char *why, size_t size);

#endif
