/* base/targets.h: the instruction-set extensions each x86-64 kernel set is compiled for,
 * one string per set. The kernels use them in target attributes (NNUE_TARGET(...)) and base/isa.c
 * asks the CPU and the OS for exactly the same list (base/cpu_x86.c), so a kernel never runs
 * an instruction the detection did not check. Add a feature here, not in a kernel file. It sits
 * in base/, below simd/ and beside base/isa.c. Only simd/ uses NNUE_TARGET (tests/layout.py:
 * no target attribute or intrinsic outside simd/). */
#ifndef NNUE_BASE_TARGETS_H
#define NNUE_BASE_TARGETS_H

#define NNUE_TARGET_AVX2 "avx2,bmi,bmi2,popcnt"
#define NNUE_TARGET_AVX512 "avx512f,avx512bw,avx512vl,avx2,bmi,bmi2,popcnt"
#define NNUE_TARGET_VNNI512 "avx512f,avx512bw,avx512vl,avx512vnni,avx2,bmi,bmi2,popcnt"
#define NNUE_TARGET_VBMI512 "avx512f,avx512bw,avx512vl,avx512vnni,avx512vbmi2,avx2,bmi,bmi2,popcnt"
/* The AVX2 level's float kernels (simd/kernels_f32.h) fuse multiply-adds: FMA3 on top of AVX2,
 * checked on its own (simd/kernels_f32.c), so the AVX2 level itself still runs without it. */
#define NNUE_TARGET_AVX2_F32 "avx2,fma,bmi,bmi2,popcnt"

#define NNUE_TARGET(list) __attribute__((target(list)))

#endif
