/* core/load/load.h: the loader's own step that needs the layer types (their registry, core/layers/). */
#ifndef NNUE_CORE_LOAD_LOAD_H
#define NNUE_CORE_LOAD_LOAD_H

#include "core/arch/arch_internal.h"

/* core/load/arch_layers.c: reads the `layers:` sequence, resolves types and inputs, computes shapes. */
nnue_status nnue_arch_read_layers(yreader *r, yaml_node_t *layers, nnue_arch *arch);

#endif
