/* core/net/net_raw_guess.h: the built-in raw architecture of a file without a Stockfish-format
 * header, as far as the file tells (core/net/net_raw_guess.c). Not a public API. */
#ifndef NNUE_CORE_NET_NET_RAW_GUESS_H
#define NNUE_CORE_NET_NET_RAW_GUESS_H

#include <stddef.h>
#include <stdint.h>

#include "nnue.h"

/* 1 when no built-in Stockfish-format architecture claims this first word as its version: the
 * header route's failure then says nothing, the file is judged as a raw net. */
int nnue_raw_guess_wanted(uint32_t first_word);

/* A CBNF file fitting exactly one built-in architecture: NNUE_OK and *out (caller frees).
 * Otherwise an error naming the file: NNUE_E_HASH (a CBNF header fitting none, at the offset of
 * its first field that does not fit; a header-less file, naming the built-in raw architectures
 * its size or varint count allows), NNUE_E_AMBIGUOUS, NNUE_E_IO / NNUE_E_NOMEM, or the zstd
 * reader's errors. */
nnue_status nnue_raw_guess(const char *path, nnue_arch **out, nnue_error *err);
nnue_status nnue_raw_guess_memory(const void *data, size_t size, const char *name, nnue_arch **out, nnue_error *err);

#endif
