/* base/cpu_x86.c: see cpu_x86.h. CPUID leaf 1 and leaf 7 (subleaf 0) feature bits and XGETBV
 * (Intel SDM vol. 2, CPUID; vol. 1, 13.3: XCR0 bit 1 SSE, bit 2 AVX, bits 5-7 AVX-512 opmask,
 * ZMM_Hi256 and Hi16_ZMM state). __builtin_cpu_supports is not used: it knows nothing of the OS
 * state, and a VM may mask one feature while keeping the rest. */
#include "base/cpu_x86.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>

enum { EBX, ECX, EDX };

typedef struct feature {
    const char *name;
    unsigned leaf, reg, bit;
    const char *implies;   /* what the compiler enables with it (clang and gcc agree on these) */
    uint64_t xcr0;         /* register state the OS must save */
} feature;

#define XCR0_AVX 0x6u      /* SSE + AVX (YMM upper halves) */
#define XCR0_AVX512 0xE6u  /* the above + opmask, ZMM_Hi256, Hi16_ZMM */

static const feature features[] = {
    {"sse2", 1, EDX, 26, "", 0},
    {"sse3", 1, ECX, 0, "sse2", 0},
    {"ssse3", 1, ECX, 9, "sse3", 0},
    {"sse4.1", 1, ECX, 19, "ssse3", 0},
    {"sse4.2", 1, ECX, 20, "sse4.1", 0},
    {"popcnt", 1, ECX, 23, "", 0},
    {"avx", 1, ECX, 28, "sse4.2", XCR0_AVX},
    {"fma", 1, ECX, 12, "avx", XCR0_AVX},
    {"f16c", 1, ECX, 29, "avx", XCR0_AVX},
    {"bmi", 7, EBX, 3, "", 0},
    {"bmi2", 7, EBX, 8, "", 0},
    {"avx2", 7, EBX, 5, "avx", XCR0_AVX},
    {"avx512f", 7, EBX, 16, "avx2,fma,f16c", XCR0_AVX512},
    {"avx512bw", 7, EBX, 30, "avx512f", XCR0_AVX512},
    {"avx512vl", 7, EBX, 31, "avx512f", XCR0_AVX512},
    {"avx512vnni", 7, ECX, 11, "avx512f", XCR0_AVX512},
    {"avx512vbmi2", 7, ECX, 6, "avx512bw", XCR0_AVX512},
};

typedef struct cpu {
    uint32_t leaf1[3], leaf7[3]; /* ebx, ecx, edx */
    uint64_t xcr0;
    const char *mask;
} cpu;

/* Is `name` one of the comma-separated names of `list`? */
static int listed(const char *list, const char *name, size_t len)
{
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, name, len) == 0)
            return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

static const feature *find(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
        if (strlen(features[i].name) == len && strncmp(features[i].name, name, len) == 0)
            return &features[i];
    return NULL;
}

static void read_cpu(cpu *c)
{
    unsigned a, b, x, d;
    memset(c, 0, sizeof *c);
    c->mask = getenv("NNUE_CPU_MASK");
    unsigned max = __get_cpuid_max(0, NULL);
    if (max >= 1 && __get_cpuid(1, &a, &b, &x, &d))
        c->leaf1[EBX] = b, c->leaf1[ECX] = x, c->leaf1[EDX] = d;
    if (max >= 7) {
        __cpuid_count(7, 0, a, b, x, d);
        c->leaf7[EBX] = b, c->leaf7[ECX] = x, c->leaf7[EDX] = d;
    }
    if (c->leaf1[ECX] & (1u << 27)) { /* OSXSAVE: the OS enabled XGETBV */
        uint32_t lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        c->xcr0 = ((uint64_t)hi << 32) | lo;
    }
    if (listed(c->mask, "os-avx", 6))
        c->xcr0 &= ~(uint64_t)XCR0_AVX;
    if (listed(c->mask, "os-avx512", 9))
        c->xcr0 &= ~(uint64_t)0xE0u;
}

static int has_list(const cpu *c, const char *list, int depth);

/* depth only guards against a cycle in the implied lists; the longest chain (avx512vbmi2 down to
 * sse2) is 10 deep. */
static int has(const cpu *c, const char *name, size_t len, int depth)
{
    const feature *f = find(name, len);
    if (!f || depth > 16 || listed(c->mask, name, len))
        return 0;
    const uint32_t *regs = f->leaf == 1 ? c->leaf1 : c->leaf7;
    if (!(regs[f->reg] & (1u << f->bit)) || (c->xcr0 & f->xcr0) != f->xcr0)
        return 0;
    return has_list(c, f->implies, depth + 1);
}

static int has_list(const cpu *c, const char *list, int depth)
{
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (!has(c, p, n, depth))
            return 0;
        p = end ? end + 1 : p + n;
    }
    return 1;
}

int nnue_cpu_supports(const char *list)
{
    cpu c;
    read_cpu(&c);
    return has_list(&c, list, 0);
}

int nnue_cpu_is_amd(void)
{
    unsigned max, vendor[3];
    /* leaf 0: the vendor string in EBX, EDX, ECX */
    __cpuid(0, max, vendor[0], vendor[2], vendor[1]);
    (void)max;
    return memcmp(vendor, "AuthenticAMD", sizeof vendor) == 0;
}

const char *nnue_cpu_unknown_feature(const char *list, char *buf, int size)
{
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (!find(p, n)) {
            snprintf(buf, (size_t)size, "%.*s", (int)n, p);
            return buf;
        }
        p = end ? end + 1 : p + n;
    }
    return NULL;
}

#else

int nnue_cpu_supports(const char *list)
{
    (void)list;
    return 0;
}

int nnue_cpu_is_amd(void)
{
    return 0;
}

const char *nnue_cpu_unknown_feature(const char *list, char *buf, int size)
{
    snprintf(buf, (size_t)size, "%s", list);
    return *list ? buf : NULL;
}

#endif
