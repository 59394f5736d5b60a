/* base/cpu_x86.h: does this x86-64 CPU, with this OS, run code compiled for a target list? */
#ifndef NNUE_BASE_CPU_X86_H
#define NNUE_BASE_CPU_X86_H

/* 1 when every feature of `list` (a target-attribute string such as "avx2,bmi,bmi2,popcnt", see
 * base/targets.h) and every feature the compiler takes it to imply (avx512f: avx2, fma, f16c;
 * avx2: avx; avx: SSE up to 4.2) is reported by CPUID, and the OS saves the registers they use
 * (XCR0: SSE and AVX state for AVX, also opmask and ZMM state for AVX-512). 0 otherwise, also on
 * a name this file does not know and on other architectures.
 *
 * Testing: NNUE_CPU_MASK=NAME[,NAME...] (read on each call) reports those features absent, as a
 * CPU or VM masking them would; `os-avx` and `os-avx512` clear the OS state bits instead. */
int nnue_cpu_supports(const char *list);

/* 1 when CPUID names the vendor AMD ("AuthenticAMD"), else 0 (also on other architectures). For
 * tuning to a vendor's memory system (core/eval/accumulator.h), never for what code may run. */
int nnue_cpu_is_amd(void);

/* The first name of `list` this file does not know (copied into buf), or NULL if all are known. */
const char *nnue_cpu_unknown_feature(const char *list, char *buf, int size);

#endif
