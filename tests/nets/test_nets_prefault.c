/* tests/nets/test_nets_prefault.c: the prefault helper (formats/net_read.c nr_alloc_for) is joined
 * before its array is freed (issue 49). The varint reader decodes PlentyChess's net (150 MB of
 * values) into a scratch array that a helper faults in meanwhile; that array used to be freed
 * while the helper still advised it. madvise and pthread_join are interposed here: a helper's first
 * MADV_POPULATE_WRITE step waits until either someone joins it (the order the fix keeps) or its
 * range is no longer mapped (the array was freed under it: glibc unmaps blocks that large), which
 * is counted. Plain builds only: the sanitizers define both functions themselves. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../eval/eval_nets.h"
#include "base/helper_threads.h"
#include "support.h"

#define MAX_JOINS 64
static pthread_t joining[MAX_JOINS]; /* threads someone started to join */
static atomic_int n_joining, populated, freed_under;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int being_joined(pthread_t self)
{
    pthread_mutex_lock(&lock);
    int found = 0;
    for (int i = 0; i < atomic_load(&n_joining) && !found; i++)
        found = pthread_equal(joining[i], self);
    pthread_mutex_unlock(&lock);
    return found;
}

int pthread_join(pthread_t thread, void **ret)
{
    static int (*real)(pthread_t, void **);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "pthread_join");
    pthread_mutex_lock(&lock);
    if (atomic_load(&n_joining) < MAX_JOINS)
        joining[atomic_fetch_add(&n_joining, 1)] = thread;
    pthread_mutex_unlock(&lock);
    return real(thread, ret);
}

int madvise(void *addr, size_t len, int advice)
{
#ifdef MADV_POPULATE_WRITE
    static _Thread_local int waited;
    if (advice == MADV_POPULATE_WRITE && !waited) {
        waited = 1;
        /* up to 120 s: until joined, or until the range is gone (msync: ENOMEM) */
        for (int ms = 0; ms < 120000 && !being_joined(pthread_self()); ms++) {
            if (msync(addr, len, MS_ASYNC) != 0 && errno == ENOMEM) {
                atomic_fetch_add(&freed_under, 1);
                break;
            }
            nanosleep(&(struct timespec){0, 1000 * 1000}, NULL);
        }
    }
#endif
    long r = syscall(SYS_madvise, addr, len, advice);
#ifdef MADV_POPULATE_WRITE
    if (advice == MADV_POPULATE_WRITE && r == 0)
        atomic_fetch_add(&populated, 1);
#endif
    return r == 0 ? 0 : -1;
}

START_TEST(helper_joined_before_free)
{
    const eval_net *n = eval_net_find("plentychess");
    const char *path = eval_net_file(n);
    nnue_arch *a;
    nnue_error err;
    ck_assert_msg(nnue_arch_load(test_source_path(n->arch), &a, &err) == NNUE_OK, "%s", err.message);
    nnue_net *net;
    ck_assert_msg(nnue_net_load(a, path, &net, &err) == NNUE_OK, "%s", err.message);
    fprintf(stderr, "%d joins, %d steps populated, %d helpers found their array freed\n", atomic_load(&n_joining),
            atomic_load(&populated), atomic_load(&freed_under));
    ck_assert_int_gt(atomic_load(&n_joining), 0); /* helpers ran */
    ck_assert_int_eq(atomic_load(&freed_under), 0);
    nnue_net_free(net);
    nnue_arch_free(a);
}
END_TEST

int main(void)
{
#ifndef MADV_POPULATE_WRITE
    fprintf(stderr, "SKIP: no MADV_POPULATE_WRITE on this system: no prefault helpers\n");
    return 77;
#endif
    if (!nnue_helper_threads_allowed()) {
        fprintf(stderr, "SKIP: helper threads are off (one core, or OMP_NUM_THREADS=1)\n");
        return 77;
    }
    Suite *s = suite_create("nets_prefault");
    TCase *tc = tcase_create("prefault");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, helper_joined_before_free);
    suite_add_tcase(s, tc);
    return test_run(s);
}
