/* base/names.h: the rule every name the YAML can write follows (layer types, feature sets, their
 * keys): 1 to NNUE_NAME_MAX - 1 characters, a letter or '_' first, then letters, digits and '_',
 * as every built-in name is. Names registered from outside (include/nnue_extend.h) are held to
 * it, so that they fit the arrays that copy them and read back from YAML and descriptions. */
#ifndef NNUE_BASE_NAMES_H
#define NNUE_BASE_NAMES_H

#include <stddef.h>

/* NULL when name follows the rule; else what breaks it, written to buf ("'a b': character 2 is
 * ' ' (0x20); expected a letter, a digit or '_'"). what names the kind ("layer type"). */
const char *nnue_name_problem(const char *what, const char *name, char *buf, size_t size);

#endif
