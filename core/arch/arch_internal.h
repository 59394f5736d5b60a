/* core/arch/arch_internal.h: the steps of loading an architecture that need no layer type, called
 * by the loader (core/load/arch_load.c) and shared by core/arch/arch_*.c. */
#ifndef NNUE_CORE_ARCH_ARCH_INTERNAL_H
#define NNUE_CORE_ARCH_ARCH_INTERNAL_H

#include "core/arch/arch.h"
#include "core/arch/arch_api.h"
#include "base/yaml_read.h"

/* core/arch/arch_format.c: the `format:` mapping into *format; *blocks = its `blocks:` node (or
 * NULL), read by nnue_arch_read_blocks once the whole document was read. */
nnue_status nnue_arch_read_format(yreader *r, yaml_node_t *v, nnue_format *format, yaml_node_t **blocks);
nnue_status nnue_arch_read_blocks(yreader *r, yaml_node_t *blocks, nnue_format *format);

/* core/arch/arch_ft.c: the `feature_transformer:` mapping into arch->ft (sets, width, PSQT,
 * activation); whether the sets read the arch's game is arch_check.c's rule. */
nnue_status nnue_arch_read_ft(yreader *r, yaml_node_t *v, nnue_arch *arch);

/* core/arch/arch_check.c: whole-graph rules (game, stacks, PSQT, output, format blocks). */
nnue_status nnue_arch_check(yreader *r, yaml_node_t *root, nnue_arch *arch);

/* core/arch/arch_describe.c: the description string's length in one pass over the layers; *over = the
 * first layer whose own expansion passes NNUE_MAX_DESCRIPTION_BYTES, else -1. Saturates. */
uint64_t nnue_arch_describe_length(const nnue_arch *arch, int *over);

/* core/arch/arch_hash.c: hashes, parameter count and file size from the graph. */
void nnue_arch_derive(nnue_arch *arch);

#endif
