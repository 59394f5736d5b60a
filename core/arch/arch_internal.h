/* core/arch/arch_internal.h: what the loader (load/) asks of a graph it has read: the
 * whole-graph checks, the description's length, hashes and sizes; shared by core/arch/arch_*.c.
 * Reading the YAML itself is load/ (load.h). */
#ifndef NNUE_CORE_ARCH_ARCH_INTERNAL_H
#define NNUE_CORE_ARCH_ARCH_INTERNAL_H

#include "core/arch/arch.h"
#include "core/arch/arch_api.h"
#include "base/yaml_read.h"

/* core/arch/arch_check.c: whole-graph rules (game, stacks, PSQT, output, format blocks). */
nnue_status nnue_arch_check(yreader *r, yaml_node_t *root, nnue_arch *arch);

/* core/arch/arch_describe.c: the description string's length in one pass over the layers; *over = the
 * first layer whose own expansion passes NNUE_MAX_DESCRIPTION_BYTES, else -1. Saturates. */
uint64_t nnue_arch_describe_length(const nnue_arch *arch, int *over);

/* core/arch/arch_hash.c: hashes, parameter count and file size from the graph. */
void nnue_arch_derive(nnue_arch *arch);

#endif
