/* core/arch/arch_api.h: asking an architecture for its identity: description, picture, hashes and
 * sizes (all defined in core/arch/). Loading one (nnue_arch_load, nnue_arch_free) is public
 * (include/nnue.h) and defined in load/. */
#ifndef NNUE_CORE_ARCH_ARCH_API_H
#define NNUE_CORE_ARCH_ARCH_API_H

#include <stddef.h>

#include "core/arch/arch.h"
#include "nnue.h"

/* The description string (docs/description-strings.md). Returns the length it needs
 * (like snprintf); buf may be NULL when size is 0. */
size_t nnue_arch_describe(const nnue_arch *arch, char *buf, size_t size);

/* Graphviz picture of the layer graph. Returns 0 on success. */
int nnue_arch_write_dot(const nnue_arch *arch, void *file /* FILE* */);

/* Hash of the network input ("InputSlice"): 0xEC42E90D ^ (2 * width). */
uint32_t nnue_arch_input_hash(const nnue_arch *arch);

/* Per-stack byte count in a Stockfish-format file (hash included). */
uint64_t nnue_arch_stack_bytes(const nnue_arch *arch);

/* Feature-transformer section bytes when stored uncompressed (hash included for stockfish). */
uint64_t nnue_arch_ft_bytes(const nnue_arch *arch);

/* Bytes of the table variables' sections the selector names (features/table_var.h: each its u32
 * hash and its int32 values), between the FT and the stacks of a Stockfish-format file. */
uint64_t nnue_arch_table_bytes(const nnue_arch *arch);
/* Whole file bytes (FT, table sections, all stacks, header and description_bytes, or raw padding); saturates at
 * UINT64_MAX instead of wrapping. */
uint64_t nnue_arch_file_bytes(const nnue_arch *arch);

#endif
