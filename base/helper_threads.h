/* base/helper_threads.h: whether the library may start short-lived helper threads of its own (the
 * load's prefault and split LEB128 decode, the range analysis's column halves). Only when OpenMP
 * would use more than one thread: OMP_NUM_THREADS=1 (or omp_set_num_threads(1)) keeps all of the
 * library's work on the calling thread, for sandboxes that forbid new threads and emulators that
 * cannot start them (qemu-user 7.2 hangs in pthread_create on some hosts: scripts/test_arm.sh). */
#ifndef NNUE_BASE_HELPER_THREADS_H
#define NNUE_BASE_HELPER_THREADS_H

int nnue_helper_threads_allowed(void);

#endif
