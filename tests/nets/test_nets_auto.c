/* tests/nets/test_nets_auto.c: the embedding API: version, built-in architectures (the same
 * bytes as the archs/ YAML files), YAML from a string, nets from memory, and nnue_net_load_auto picking
 * the architecture from the header (SFNNv1 vs the shogi net: same hash, told apart by size;
 * SFNNv4 vs SFNNv5: by the SHA-256 of known nets). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../eval/eval_nets.h"
#include "nets_helpers.h"
#include "core/net/net.h"
#include "nnue.h"
#include "support.h"

static const char *net_sf151, *net_sfnnv1, *net_sfnnv4, *net_shogi, *net_small;

/* Every weight array of two nets of the same architecture is byte-identical. */
static void expect_same_weights(const nnue_net *a, const nnue_net *b)
{
    const nnue_arch *arch = a->arch;
    ck_assert_str_eq(a->arch->name, b->arch->name);
    uint64_t w = arch->ft.width, in = arch->ft.inputs;
    ck_assert(memcmp(a->ft_biases, b->ft_biases, w * 2) == 0);
    ck_assert(memcmp(a->ft_weights, b->ft_weights, w * in * 2) == 0);
    ck_assert_int_eq(a->file_hash, b->file_hash);
    ck_assert_str_eq(a->description, b->description);
}

START_TEST(version_matches_the_project)
{
    ck_assert_str_eq(nnue_version(), NNUE_VERSION_STRING);
    ck_assert_str_eq(NNUE_VERSION_STRING, NNUE_MESON_VERSION);
    char text[32];
    snprintf(text, sizeof text, "%d.%d.%d", NNUE_VERSION_MAJOR, NNUE_VERSION_MINOR, NNUE_VERSION_PATCH);
    ck_assert_str_eq(text, NNUE_VERSION_STRING);
    ck_assert_int_eq(NNUE_VERSION_NUMBER, NNUE_VERSION_MAJOR * 10000 + NNUE_VERSION_MINOR * 100 + NNUE_VERSION_PATCH);
}
END_TEST

/* The built-in list is exactly the YAML files of archs/, byte for byte, and each loads like its file. */
START_TEST(builtin_archs_are_the_shipped_files)
{
    DIR *dir = opendir(test_source_path("archs"));
    ck_assert_ptr_nonnull(dir);
    int files = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".yaml") == 0)
            files++;
    }
    closedir(dir);
    ck_assert_int_eq(nnue_arch_builtin_count(), files);
    ck_assert_ptr_null(nnue_arch_builtin_name(files));
    ck_assert_ptr_null(nnue_arch_builtin_name(-1));
    for (int i = 0; i < files; i++) {
        const char *name = nnue_arch_builtin_name(i);
        char rel[256];
        snprintf(rel, sizeof rel, "archs/%s.yaml", name);
        size_t file_len, len;
        char *text = test_read_file(test_source_path(rel), &file_len);
        ck_assert_msg(text != NULL, "%s has no file %s", name, rel);
        const char *yaml = nnue_arch_builtin_yaml(i, &len);
        ck_assert_uint_eq(len, file_len);
        ck_assert(memcmp(yaml, text, len) == 0);
        free(text);
        nnue_arch *from_file = nets_arch(rel), *built_in;
        nnue_error err;
        ck_assert_int_eq(nnue_arch_load_builtin(name, &built_in, &err), NNUE_OK);
        ck_assert_int_eq(built_in->file_hash, from_file->file_hash);
        ck_assert_int_eq(built_in->network_hash, from_file->network_hash);
        ck_assert_uint_eq(built_in->file_size, from_file->file_size);
        nnue_arch_free(built_in);
        nnue_arch_free(from_file);
    }
    if (files > 1)
        ck_assert_int_lt(strcmp(nnue_arch_builtin_name(0), nnue_arch_builtin_name(1)), 0);
}
END_TEST

START_TEST(builtin_unknown_name_lists_the_names)
{
    nnue_arch *a = (nnue_arch *)0x1;
    nnue_error err;
    ck_assert_int_eq(nnue_arch_load_builtin("sfnnv99", &a, &err), NNUE_E_ARG);
    ck_assert_ptr_null(a);
    ck_assert_ptr_nonnull(strstr(err.message, "'sfnnv99'"));
    ck_assert_ptr_nonnull(strstr(err.message, "sfnnv5"));
}
END_TEST

/* Errors in YAML text carry the caller's label, line and column. */
START_TEST(arch_string_errors_are_located)
{
    const char *yaml = "name: x\ngame: chess\nformat: [1, 2\n";
    nnue_arch *a;
    nnue_error err;
    ck_assert_int_eq(nnue_arch_load_string(yaml, strlen(yaml), "mine.yaml", &a, &err), NNUE_E_SYNTAX);
    ck_assert_str_eq(err.file, "mine.yaml");
    ck_assert_int_eq(err.line, 4);
    ck_assert_ptr_null(a);
    /* Not NUL-terminated: only len bytes are read. */
    size_t len;
    const char *v5 = nnue_arch_builtin_yaml(0, &len);
    char *copy = malloc(len + 8);
    memcpy(copy, v5, len);
    memcpy(copy + len, "\n: ][\n", 7);
    ck_assert_int_eq(nnue_arch_load_string(copy, len, NULL, &a, &err), NNUE_OK);
    nnue_arch_free(a);
    free(copy);
}
END_TEST

START_TEST(net_from_memory_equals_net_from_file)
{
    size_t size;
    char *bytes = test_read_file(net_small, &size);
    ck_assert_ptr_nonnull(bytes);
    nnue_arch *arch = nets_arch("archs/sfnnv8small.yaml");
    nnue_net *from_file = nets_load(arch, net_small), *from_memory;
    nnue_error err;
    ck_assert_int_eq(nnue_net_load_memory(arch, bytes, size, "embedded", &from_memory, &err), NNUE_OK);
    expect_same_weights(from_file, from_memory);
    nnue_net_free(from_memory);
    /* Truncated in memory: the label and the byte offset of the end. */
    ck_assert_int_eq(nnue_net_load_memory(arch, bytes, size - 100, "embedded", &from_memory, &err), NNUE_E_FORMAT);
    ck_assert_ptr_null(from_memory);
    ck_assert_str_eq(err.file, "embedded");
    ck_assert_int_eq(err.offset, (long long)(size - 100));
    ck_assert_int_eq(nnue_net_load_memory(arch, bytes, 0, NULL, &from_memory, &err), NNUE_E_FORMAT);
    ck_assert_int_eq(nnue_net_load_auto_memory(bytes, size, "embedded", &from_memory, &err), NNUE_OK);
    expect_same_weights(from_file, from_memory);
    nnue_net_free(from_memory);
    nnue_net_free(from_file);
    nnue_arch_free(arch);
    free(bytes);
}
END_TEST

/* Auto detection picks the architecture the tests name explicitly, with no YAML file read. */
static void expect_auto(const char *path, const char *arch_file)
{
    nnue_net *auto_net, *named;
    nnue_error err;
    char msg[1200];
    nnue_status st = nnue_net_load_auto(path, &auto_net, &err);
    nnue_error_format(&err, msg, sizeof msg);
    ck_assert_msg(st == NNUE_OK, "%s: %s", path, msg);
    nnue_arch *arch = nets_arch(arch_file);
    named = nets_load(arch, path);
    expect_same_weights(auto_net, named);
    nnue_net_free(auto_net);
    nnue_net_free(named);
    nnue_arch_free(arch);
}

/* SFNNv4 and SFNNv5 files share every hash and their size: auto detection tells them apart by the
 * SHA-256 of known nets (Stockfish 15.1's nn-ad9b42354671 is SFNNv5; the oracle's random v4 net is
 * a known SFNNv4 net), from a file or from memory, and takes SFNNv5 for an unknown such file. */
static void expect_auto_arch(const char *path, const char *named_yaml)
{
    nnue_net *net;
    nnue_error err;
    ck_assert_msg(nnue_net_load_auto(path, &net, &err) == NNUE_OK, "%s", err.message);
    nnue_arch *named = nets_arch(named_yaml);
    nnue_net *from_file = nets_load(named, path);
    expect_same_weights(net, from_file);
    nnue_net_free(net);
    size_t size;
    char *bytes = test_read_file(path, &size);
    ck_assert_int_eq(nnue_net_load_auto_memory(bytes, size, "bytes", &net, &err), NNUE_OK);
    expect_same_weights(net, from_file);
    nnue_net_free(net);
    free(bytes);
    nnue_net_free(from_file);
    nnue_arch_free(named);
}

START_TEST(auto_tells_sfnnv4_from_sfnnv5_by_sha256)
{
    expect_auto_arch(net_sf151, "archs/sfnnv5.yaml");
    expect_auto_arch(net_sfnnv4, "archs/sfnnv4.yaml");
    /* One changed description byte: no longer a known net, taken as SFNNv5. */
    const char *unknown = nets_copy(net_sfnnv4, "auto-unknown-v4.nnue", UINT64_MAX);
    char x = 'x';
    nets_patch(unknown, 12 + 3, &x, 1);
    expect_auto_arch(unknown, "archs/sfnnv5.yaml");
}
END_TEST

START_TEST(auto_tells_sfnnv1_from_shogi)
{
    expect_auto(net_sfnnv1, "archs/sfnnv1.yaml");
    expect_auto(net_shogi, "archs/shogi_halfkp.yaml");
}
END_TEST

START_TEST(auto_refuses_an_unknown_header)
{
    const char *path = nets_copy(net_small, "auto-unknown.nnue", UINT64_MAX);
    uint32_t bad_hash = 0x12345678;
    nets_patch(path, 4, &bad_hash, 4);
    nnue_net *net = (nnue_net *)0x1;
    nnue_error err;
    ck_assert_int_eq(nnue_net_load_auto(path, &net, &err), NNUE_E_HASH);
    ck_assert_ptr_null(net);
    ck_assert_ptr_nonnull(strstr(err.message, "0x12345678"));
    ck_assert_int_eq(nnue_net_load_auto("/nonexistent/net.nnue", &net, &err), NNUE_E_IO);
}
END_TEST

/* A file cut short, whose header is a built-in architecture's: the library says so (every front
 * end, the JS API and Python included, gets the diagnosis the tool gives), not "no built-in
 * architecture has ... load its YAML". */
START_TEST(auto_says_truncated)
{
    const char *path = nets_copy(net_sfnnv1, "auto-truncated.nnue", 5000); /* plain: a LEB128 size says nothing */
    nnue_net *net = (nnue_net *)0x1;
    nnue_error err;
    ck_assert_int_eq(nnue_net_load_auto(path, &net, &err), NNUE_E_FORMAT);
    ck_assert_ptr_null(net);
    ck_assert_msg(strstr(err.message, "this file has 5000 bytes (truncated or damaged?)"), "%s", err.message);
    ck_assert_msg(strstr(err.message, "is that of the built-in SFNNv1 ("), "%s", err.message);
    /* A net nnue init wrote names its architecture: the diagnosis names that one (it used to be
     * called "not built in"). */
    nnue_arch *v1;
    ck_assert_int_eq(nnue_arch_load_builtin("sfnnv1", &v1, &err), NNUE_OK);
    char whole[4096];
    snprintf(whole, sizeof whole, "%s/auto-init-v1.nnue", test_build_dir());
    ck_assert_int_eq(nnue_net_write_random(v1, whole, 5, &err), NNUE_OK);
    nnue_arch_free(v1);
    path = nets_copy(whole, "auto-init-truncated.nnue", 5000);
    ck_assert_int_eq(nnue_net_load_auto(path, &net, &err), NNUE_E_FORMAT);
    ck_assert_msg(strstr(err.message, "nnue init wrote this net for the built-in SFNNv1, whose file has "), "%s",
                  err.message);
    ck_assert_msg(strstr(err.message, "this one has 5000 (truncated or damaged?)"), "%s", err.message);
}
END_TEST

int main(void)
{
    net_small = eval_net_file(eval_net_find("sfnnv8small"));
    net_sfnnv1 = eval_net_file(eval_net_find("sfnnv1"));
    net_shogi = eval_net_file(eval_net_find("shogi"));
    net_sf151 = eval_net_file(eval_net_find("sf151"));
    net_sfnnv4 = eval_net_file(eval_net_find("sfnnv4"));
    Suite *s = suite_create("nets_auto");
    TCase *tc = tcase_create("auto");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, version_matches_the_project);
    tcase_add_test(tc, builtin_archs_are_the_shipped_files);
    tcase_add_test(tc, builtin_unknown_name_lists_the_names);
    tcase_add_test(tc, arch_string_errors_are_located);
    tcase_add_test(tc, net_from_memory_equals_net_from_file);
    tcase_add_test(tc, auto_tells_sfnnv4_from_sfnnv5_by_sha256);
    tcase_add_test(tc, auto_tells_sfnnv1_from_shogi);
    tcase_add_test(tc, auto_refuses_an_unknown_header);
    tcase_add_test(tc, auto_says_truncated);
    suite_add_tcase(s, tc);
    return test_run(s);
}
