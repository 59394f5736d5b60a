/* base/isa.c: which kernel set runs, chosen once from the CPU and overridable with
 * NNUE_ISA=scalar|avx2|avx512|vnni512|vbmi512|neon|simd128|relaxed-simd for testing. On x86-64 a
 * set is chosen only when the CPU and the OS support every extension its kernels are compiled for
 * (base/targets.h, checked by base/cpu_x86.c; NNUE_CPU_MASK hides features for tests); NEON on
 * every AArch64; SIMD128 in a wasm module built with -msimd128 (it validates only where the
 * engine has SIMD), named relaxed-simd in the module built with -mrelaxed-simd as well.
 * Both choices are made under pthread_once: every nnue_state_new() asks, from any thread
 * (tests/threads runs this under ThreadSanitizer). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpu_x86.h"
#include "base/isa.h"
#include "base/targets.h"
#include "nnue.h"

#if defined(__aarch64__)
static const char *const names[] = {"scalar", "neon"};
#elif defined(__wasm_relaxed_simd__)
static const char *const names[] = {"scalar", "relaxed-simd"}; /* the SIMD128 set on relaxed SIMD's dot */
#elif defined(__wasm__)
static const char *const names[] = {"scalar", "simd128"};
#else
static const char *const names[] = {"scalar", "avx2", "avx512", "vnni512", "vbmi512"};
#endif

static nnue_isa detect(void)
{
#if defined(__x86_64__)
    if (nnue_cpu_supports(NNUE_TARGET_VBMI512))
        return NNUE_ISA_VBMI512;
    if (nnue_cpu_supports(NNUE_TARGET_VNNI512))
        return NNUE_ISA_VNNI512;
    if (nnue_cpu_supports(NNUE_TARGET_AVX512))
        return NNUE_ISA_AVX512;
    if (nnue_cpu_supports(NNUE_TARGET_AVX2))
        return NNUE_ISA_AVX2;
#endif
#if defined(__aarch64__)
    return NNUE_ISA_NEON;
#endif
#if defined(__wasm_simd128__)
    return NNUE_ISA_SIMD128;
#endif
    return NNUE_ISA_SCALAR;
}

static nnue_isa best = NNUE_ISA_SCALAR, chosen = NNUE_ISA_SCALAR;
static pthread_once_t choose_once = PTHREAD_ONCE_INIT;

static void choose(void)
{
    best = detect();
    chosen = best;
    const char *env = getenv("NNUE_ISA");
    if (env && *env) {
        for (int i = 0; i < NNUE_ISA_COUNT; i++)
            if (strcmp(env, names[i]) == 0 && i <= (int)best)
                chosen = (nnue_isa)i;
    }
}

nnue_isa nnue_isa_best(void)
{
    pthread_once(&choose_once, choose);
    return best;
}

nnue_isa nnue_isa_current(void)
{
    pthread_once(&choose_once, choose);
    return chosen;
}

const char *nnue_isa_label(nnue_isa isa)
{
    return (unsigned)isa < NNUE_ISA_COUNT ? names[isa] : "unknown";
}

const char *nnue_isa_name(void)
{
    return nnue_isa_label(nnue_isa_current());
}
