/* core/arch/arch_builtin.h: the architectures of the archs folder (every .yaml file) compiled into the library.
 *
 * The table is generated at build time by scripts/embed_archs.py (core/arch/meson.build); entries
 * are sorted by name and end with a {NULL} entry. Data only: loading one by name is
 * load/arch_builtin.c (nnue_arch_builtin_* in nnue.h). */
#ifndef NNUE_CORE_ARCH_ARCH_BUILTIN_H
#define NNUE_CORE_ARCH_ARCH_BUILTIN_H

#include <stddef.h>

typedef struct nnue_builtin_arch {
    const char *name;   /* file name without .yaml: "sfnnv5" */
    size_t length;      /* bytes of yaml (the file's size) */
    const char *yaml;   /* the file's text */
} nnue_builtin_arch;

extern const nnue_builtin_arch nnue_builtin_archs[];
extern const int nnue_builtin_arch_total;

#endif
