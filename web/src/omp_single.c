/* web/src/omp_single.c: the OpenMP calls the tool makes, for the WebAssembly build of the tool
 * (web/build.sh), which has no OpenMP runtime: one thread, as OpenMP itself behaves with
 * OMP_NUM_THREADS=1 (the pragmas are ignored without -fopenmp). */
int omp_get_max_threads(void);
int omp_get_thread_num(void);
void omp_set_num_threads(int n);

int omp_get_max_threads(void)
{
    return 1;
}

int omp_get_thread_num(void)
{
    return 0;
}

void omp_set_num_threads(int n)
{
    (void)n;
}
