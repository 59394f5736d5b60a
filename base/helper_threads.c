/* base/helper_threads.c: see helper_threads.h. Without OpenMP (the WebAssembly build, which has no
 * threads either) there are none. */
#include "base/helper_threads.h"

#ifdef _OPENMP
#include <omp.h>
#endif

int nnue_helper_threads_allowed(void)
{
#ifdef _OPENMP
    return omp_get_max_threads() > 1;
#else
    return 0;
#endif
}
