/* tests/extend/bad_init_extension.c: a shared object whose nnue_extension_init fails and fills the
 * whole error with 'x', so that neither its file nor its message ends in a NUL (issue 49): the
 * loader must not read past them. */
#include <string.h>

#include "nnue_extend.h"

nnue_status nnue_extension_init(nnue_error *err);

nnue_status nnue_extension_init(nnue_error *err)
{
    memset(err, 'x', sizeof *err);
    err->code = NNUE_E_ARG;
    return NNUE_E_ARG;
}
