/* tests/nets/test_nets_memory.c: a net larger than the memory the process may use is reported
 * (NNUE_E_NOMEM naming the file, the size and what it was for), never an abort; the same net
 * loads once the limit is lifted. The limit is RLIMIT_AS set just above what the process already
 * maps, inside Check's forked child. Sanitizer builds reserve terabytes of shadow address space,
 * so there the limit cannot be applied: the test program says so and exits 77 (skipped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/arch/arch_api.h"
#include "core/net/net.h"
#include "eval/eval_nets.h"
#include "nets_helpers.h"
#include "support.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) /* gcc's names */
#define UNDER_SANITIZER 1
#endif

static char net_path[4096];

/* Virtual memory of this process now (VmSize in /proc/self/status), in bytes. */
static unsigned long long mapped_now(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    ck_assert_ptr_nonnull(f);
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmSize: %llu kB", &kb) == 1)
            break;
    fclose(f);
    ck_assert_uint_gt(kb, 0);
    return kb * 1024;
}

START_TEST(larger_than_memory_is_reported)
{
    nnue_arch *arch = nets_arch("tests/nets/wide_chess768.yaml");
    struct rlimit old, tight;
    getrlimit(RLIMIT_AS, &old);
    tight.rlim_cur = mapped_now() + (16ull << 20); /* 16 MiB more: the 48 MiB of weights cannot fit */
    tight.rlim_max = old.rlim_max;
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &tight), 0);
    nnue_net *net = (nnue_net *)0x1;
    nnue_error err;
    nnue_status st = nnue_net_load(arch, net_path, &net, &err);
    setrlimit(RLIMIT_AS, &old);
    char msg[1200];
    nnue_error_format(&err, msg, sizeof msg);
    ck_assert_msg(st == NNUE_E_NOMEM, "status %d: %s", st, msg);
    ck_assert_ptr_null(net);
    ck_assert_msg(strstr(msg, net_path) && strstr(msg, "out of memory") && strstr(msg, "50331648 bytes"), "%s", msg);
    /* Without the limit the same file loads. */
    net = nets_load(arch, net_path);
    nnue_net_free(net);
    nnue_arch_free(arch);
}
END_TEST

int main(void)
{
#ifdef UNDER_SANITIZER
    fprintf(stderr, "SKIP: test_nets_memory needs RLIMIT_AS, which sanitizer builds cannot run under\n");
    return 77;
#endif
    nnue_arch *arch = eval_random_net_main("tests/nets/wide_chess768.yaml", "memory", 3, net_path, sizeof net_path);
    if (!arch)
        return 1;
    nnue_arch_free(arch);
    Suite *s = suite_create("nets_memory");
    TCase *tc = tcase_create("memory");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, larger_than_memory_is_reported);
    suite_add_tcase(s, tc);
    return test_run(s);
}
