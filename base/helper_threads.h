/* base/helper_threads.h: whether the library may start short-lived helper threads of its own (the
 * load's prefault and split LEB128 decode, the range analysis's column halves). Only on a machine
 * of several cores and unless OMP_NUM_THREADS is 1, which keeps all of the library's work on the
 * calling thread: for sandboxes that forbid new threads and emulators that cannot start them
 * (qemu-user 7.2 hangs in pthread_create on some hosts: scripts/test_arm.sh sets it). */
#ifndef NNUE_BASE_HELPER_THREADS_H
#define NNUE_BASE_HELPER_THREADS_H

int nnue_helper_threads_allowed(void);

#endif
