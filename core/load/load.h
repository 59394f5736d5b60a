/* core/load/load.h: the loader's own step that needs the layer types (their registry, core/layers/). */
#ifndef NNUE_CORE_LOAD_LOAD_H
#define NNUE_CORE_LOAD_LOAD_H

#include "core/arch/arch_internal.h"

/* core/load/arch_layers.c: reads the `layers:` sequence, resolves types and inputs, computes shapes. */
nnue_status nnue_arch_read_layers(yreader *r, yaml_node_t *layers, nnue_arch *arch);

/* core/load/arch_centipawns.c: the `centipawns:` mapping into *cp. */
nnue_status nnue_arch_read_centipawns(yreader *r, yaml_node_t *centipawns, nnue_arch_cp *cp);

/* core/load/arch_generated.c: YaneuraOu's generated architecture names (core/arch/generated_name.h).
 * The YAML text of a name into buf (its length; -1 with err filled when the name is not a
 * generated one or buf is too small); whether a name is one; the architecture of a name. */
int nnue_arch_generated_yaml(const char *name, char *buf, size_t size, nnue_error *err);
int nnue_arch_is_generated_name(const char *name);
nnue_status nnue_arch_load_generated(const char *name, nnue_arch **out, nnue_error *err);

#endif
