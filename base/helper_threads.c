/* base/helper_threads.c: see helper_threads.h. OMP_NUM_THREADS is read here rather than asked of
 * the OpenMP runtime: asking would start that runtime in every process that loads a large net
 * (its allocations then live to the exit, which LeakSanitizer reports). */
#include "base/helper_threads.h"

#include <stdlib.h>
#include <unistd.h>

int nnue_helper_threads_allowed(void)
{
#ifdef _OPENMP
    const char *env = getenv("OMP_NUM_THREADS"); /* "N" or a list "N,M,...": the first level counts */
    if (env && *env && strtol(env, NULL, 10) == 1)
        return 0;
    return sysconf(_SC_NPROCESSORS_ONLN) > 1;
#else
    return 0; /* no OpenMP: the WebAssembly build, which has no threads either */
#endif
}
