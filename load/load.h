/* load/load.h: reading an architecture's YAML, every section: the format and the feature
 * transformer (which need no layer type) and the layers (which find their types in the registry,
 * layers/); load/arch_load.c runs them in order. */
#ifndef NNUE_CORE_LOAD_LOAD_H
#define NNUE_CORE_LOAD_LOAD_H

#include "core/arch/arch_internal.h"

/* load/arch_format.c: the `format:` mapping into *format; *blocks = its `blocks:` node (or
 * NULL), read by nnue_arch_read_blocks once the whole document was read. */
nnue_status nnue_arch_read_format(yreader *r, yaml_node_t *v, nnue_format *format, yaml_node_t **blocks);
nnue_status nnue_arch_read_blocks(yreader *r, yaml_node_t *blocks, nnue_format *format);

/* load/arch_ft.c: the `feature_transformer:` mapping into arch->ft (sets, width, PSQT,
 * activation); whether the sets read the arch's game is arch_check.c's rule. */
nnue_status nnue_arch_read_ft(yreader *r, yaml_node_t *v, nnue_arch *arch);

/* load/arch_layers.c: reads the `layers:` sequence, resolves types and inputs, computes shapes. */
nnue_status nnue_arch_read_layers(yreader *r, yaml_node_t *layers, nnue_arch *arch);

/* load/arch_centipawns.c: the `centipawns:` mapping into *cp. */
nnue_status nnue_arch_read_centipawns(yreader *r, yaml_node_t *centipawns, nnue_arch_cp *cp);

/* load/arch_generated.c: YaneuraOu's generated architecture names (core/arch/generated_name.h).
 * The YAML text of a name into buf (its length; -1 with err filled when the name is not a
 * generated one or buf is too small); whether a name is one; the architecture of a name. */
int nnue_arch_generated_yaml(const char *name, char *buf, size_t size, nnue_error *err);
int nnue_arch_is_generated_name(const char *name);
nnue_status nnue_arch_load_generated(const char *name, nnue_arch **out, nnue_error *err);

#endif
