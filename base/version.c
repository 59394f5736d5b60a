/* base/version.c: the version of the library as built (meson's project version, passed by
 * meson.build as NNUE_PROJECT_VERSION); include/nnue.h carries the matching macros. */
#include "nnue.h"

#ifndef NNUE_PROJECT_VERSION
#error "meson.build passes -DNNUE_PROJECT_VERSION"
#endif

const char *nnue_version(void)
{
    return NNUE_PROJECT_VERSION;
}
