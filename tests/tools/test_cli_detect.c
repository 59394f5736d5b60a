/* tests/tools/test_cli_detect.c: how the tool finds a net's architecture without --arch:
 * SFNNv4 and SFNNv5 files (same hashes, same size) told apart by their SHA-256 (known nets), an
 * unknown file of those hashes taken as SFNNv5 with a note on stderr, a real ambiguity refused, a
 * truncated file reported as such, the SHA-256 printed by info equal to FORMATS.md section 8, and
 * an installed copy (meson install) that uses its built-in architectures and finds its
 * share/nnue/archs with no source tree and no $NNUE_ARCHS_DIR. Values are compared with the goldens printed by Stockfish 15 / 15.1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "eval/eval_nets.h"
#include "support.h"

static const char *net_v4, *net_v5, *net_v1, *net_sf151;
static char unknown_v5[4096], truncated_v1[4096];

/* The first row of a golden file as "fen\tbucket\tpsqt\tpositional\ttotal\t". */
static void golden_row(const char *golden, char *row, size_t size)
{
    char *text = test_read_file(test_shared_path(golden), NULL);
    ck_assert_ptr_nonnull(text);
    char *line = strchr(text, '\n') + 1, *f[6];
    *strchr(line, '\n') = 0;
    ck_assert_int_ge(test_split_tabs(line, f, 6), 5);
    snprintf(row, size, "%s\t%s\t%s\t%s\t%s\t", f[0], f[1], f[2], f[3], f[4]);
    free(text);
}

static void eval_start(const char *net, char **out, int expected_rc)
{
    char args[4096];
    snprintf(args, sizeof args, "eval --net '%s' --fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'", net);
    ck_assert_int_eq(cli_run(args, out), expected_rc);
}

START_TEST(known_v4_and_v5_nets_by_sha256)
{
    char *out, row[1024], args[4096];
    eval_start(net_v4, &out, 0);
    golden_row("oracle/chess/golden-sfnnv4-A.tsv", row, sizeof row);
    cli_expect_contains(out, row);
    ck_assert_ptr_null(strstr(out, "assumed"));
    free(out);
    eval_start(net_v5, &out, 0);
    golden_row("oracle/chess/golden-sfnnv5-A.tsv", row, sizeof row);
    cli_expect_contains(out, row);
    free(out);
    /* info: the SHA-256 of FORMATS.md section 8 and the chosen architecture. */
    snprintf(args, sizeof args, "info '%s'", net_v4);
    ck_assert_int_eq(cli_run(args, &out), 0);
    cli_expect_contains(out, "sha256        a85d884a07239b79635d2c30388b5c6eb8783f824cb6078d4d8aad3ad1cd1383\n");
    cli_expect_contains(out, "architecture  SFNNv4  ");
    cli_expect_contains(out, "architecture  SFNNv4  built-in (archs/sfnnv4.yaml)  (chosen)\n");
    cli_expect_contains(out, "architecture  SFNNv5  built-in (archs/sfnnv5.yaml)\n");
    free(out);
    snprintf(args, sizeof args, "info --json '%s'", net_v5);
    ck_assert_int_eq(cli_run(args, &out), 0);
    cli_expect_contains(out, "\"sha256\": \"1f384aa9369da174da784320eeb1f0f360e8f0e5cb9ff4de97d6b622e3bd79b4\"");
    cli_expect_contains(out, "\"chosen\": \"built-in (archs/sfnnv5.yaml)\"");
    free(out);
}
END_TEST

/* Stockfish 15.1's own net, exported by Debian's stockfish: known by name, no --arch needed. */
START_TEST(stockfish_15_1_net)
{
    char *out, row[1024], args[4096];
    snprintf(args, sizeof args, "info '%s'", net_sf151);
    ck_assert_int_eq(cli_run(args, &out), 0);
    cli_expect_contains(out, "known net     nn-ad9b42354671: Stockfish 15.1 default net (SFNNv5)\n");
    cli_expect_contains(out, "SFNNv5  built-in (archs/sfnnv5.yaml)  (chosen)\n");
    free(out);
    eval_start(net_sf151, &out, 0);
    golden_row("oracle/chess/golden-sf151-A.tsv", row, sizeof row);
    cli_expect_contains(out, row);
    free(out);
}
END_TEST

/* The v5 random net with one description byte changed: unknown SHA-256, same hashes and size. */
START_TEST(unknown_shared_hash_file_is_taken_as_v5)
{
    char *out, row[1024];
    eval_start(unknown_v5, &out, 0);
    golden_row("oracle/chess/golden-sfnnv5-A.tsv", row, sizeof row);
    cli_expect_contains(out, row);
    cli_expect_contains(out, "fits SFNNv4 (");
    cli_expect_contains(out, "SFNNv5 is assumed");
    free(out);
    /* The note goes to stderr: stdout has the TSV only. */
    char args[4096];
    snprintf(args, sizeof args, "eval --net '%s' --fen '8/8/8/8/8/8/8/K6k w - - 0 1' 2>/dev/null", unknown_v5);
    ck_assert_int_eq(cli_run_stdout(args, &out), 0);
    ck_assert_ptr_null(strstr(out, "assumed"));
    free(out);
}
END_TEST

/* Two architectures of the same layout that are not the v4/v5 pair: refused, both named. */
START_TEST(real_ambiguity_is_refused)
{
    char dir[4096], command[12000];
    snprintf(dir, sizeof dir, "%s/cli-archs-ambiguous", test_build_dir());
    snprintf(command, sizeof command,
             "mkdir -p '%s' && cp '%s' '%s/' && sed 's/^name: SFNNv5$/name: SFNNv5-copy/' '%s' > '%s/copy.yaml'", dir,
             test_source_path("archs/sfnnv5.yaml"), dir, test_source_path("archs/sfnnv5.yaml"), dir);
    ck_assert_int_eq(system(command), 0);
    setenv("NNUE_ARCHS_DIR", dir, 1);
    char *out;
    eval_start(unknown_v5, &out, 1);
    cli_expect_contains(out, "fits several architectures, which evaluate differently: SFNNv4 (built-in");
    cli_expect_contains(out, "SFNNv5 (built-in (archs/sfnnv5.yaml))");
    cli_expect_contains(out, "SFNNv5-copy (");
    cli_expect_contains(out, "cli-archs-ambiguous/copy.yaml)");
    cli_expect_contains(out, "name one with --arch\n");
    free(out);
}
END_TEST

/* A truncated file: the hash fits, the size does not; said on lines of their own, exit 1. */
START_TEST(truncated_file_is_named_truncated)
{
    char *out, args[4096];
    snprintf(args, sizeof args, "info '%s'", truncated_v1);
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, "architecture  SFNNv1  ");
    cli_expect_contains(out, "built-in (archs/sfnnv1.yaml): same file hash, but expects 21022657 bytes\n");
    cli_expect_contains(out, "the file hash fits, the file size does not (truncated or damaged file)\n");
    cli_expect_contains(out, "has this file hash but a file of 21022657 bytes; this one has 1000000 (truncated or "
                             "damaged?)\n");
    ck_assert_ptr_null(strstr(out, "matches this hash"));
    free(out);
    eval_start(truncated_v1, &out, 1);
    cli_expect_contains(out, "nnue eval: ");
    cli_expect_contains(out, "this one has 1000000 (truncated or damaged?)\n");
    free(out);
}
END_TEST

/* meson install into a DESTDIR: the installed tool, run from / with no $NNUE_ARCHS_DIR, uses
 * its built-in architectures and finds share/nnue/archs next to itself (an architecture added
 * there is listed from there); the build-time source path is never consulted. */
START_TEST(installed_copy_finds_its_archs)
{
    char dest[4096], command[16384];
    snprintf(dest, sizeof dest, "%s/cli-install", test_build_dir());
    snprintf(command, sizeof command,
             "rm -rf '%s' && meson install -C '%s' --no-rebuild --quiet --destdir '%s' > '%s.log' 2>&1", dest,
             test_build_dir(), dest, dest);
    ck_assert_msg(system(command) == 0, "meson install failed (see %s.log)", dest);
    snprintf(command, sizeof command, "find '%s' -path '*/bin/nnue' -type f | head -1", dest);
    FILE *p = popen(command, "r");
    char exe[4096] = "";
    ck_assert_ptr_nonnull(fgets(exe, sizeof exe, p));
    pclose(p);
    exe[strcspn(exe, "\n")] = 0;
    snprintf(command, sizeof command,
             "cd / && env -u NNUE_ARCHS_DIR '%s' eval --net '%s' --fen "
             "'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' 2>&1",
             exe, net_v1);
    p = popen(command, "r");
    char out[65536];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    ck_assert_int_eq(pclose(p), 0);
    char row[1024];
    golden_row("oracle/chess/golden-sfnnv1-A.tsv", row, sizeof row);
    cli_expect_contains(out, row);
    /* An architecture only in the installed share/nnue/archs. */
    snprintf(command, sizeof command,
             "d=$(dirname '%s')/../share/nnue/archs && test -f \"$d/sfnnv5.yaml\" && "
             "sed 's/^name: SFNNv5$/name: SFNNv5-installed/' \"$d/sfnnv5.yaml\" > \"$d/installed.yaml\" && "
             "cd / && env -u NNUE_ARCHS_DIR '%s' info '%s' 2>&1",
             exe, exe, unknown_v5);
    p = popen(command, "r");
    n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    pclose(p);
    cli_expect_contains(out, "architecture  SFNNv5-installed  ");
    cli_expect_contains(out, "/share/nnue/archs/installed.yaml\n");
    cli_expect_contains(out, "architecture  SFNNv5  built-in (archs/sfnnv5.yaml)\n");
    ck_assert_ptr_null(strstr(out, test_source_path("archs")));
}
END_TEST

/* The 2026 nets without a Stockfish header: Stormphrax's CBNF file is recognised by info (its
 * header's fields); Reckless's header-less file is not taken, the message names the candidate its
 * size fits and the --arch to pass. */
START_TEST(raw_nets_without_arch)
{
    char args[8192], *out;
    snprintf(args, sizeof args, "info '%s'", eval_net_file(eval_net_find("stormphrax")));
    ck_assert_int_eq(cli_run(args, &out), 0);
    cli_expect_contains(out, "architecture  stormphrax (detected: its CBNF header's fields)\n");
    cli_expect_contains(out, "format        raw blocks in a CBNF container (64-byte header)\n");
    free(out);
    const char *reckless = eval_net_file(eval_net_find("reckless"));
    snprintf(args, sizeof args, "info '%s'", reckless);
    ck_assert_int_eq(cli_run(args, &out), 1);
    cli_expect_contains(out, reckless);
    cli_expect_contains(out, "Its size, 63266880 bytes, is that of the built-in raw architecture reckless");
    cli_expect_contains(out, "the tool's --arch reckless");
    free(out);
}
END_TEST

int main(void)
{
    test_require_shared("oracle/chess/sfnnv4-random.nnue.xz");
    test_require_shared("oracle/chess/sfnnv5-random.nnue.xz");
    cli_use_source_archs();
    net_v1 = eval_net_file(eval_net_find("sfnnv1"));
    net_v4 = eval_net_file(eval_net_find("sfnnv4"));
    net_v5 = eval_net_file(eval_net_find("sfnnv5"));
    char command[12000];
    snprintf(unknown_v5, sizeof unknown_v5, "%s/cli-unknown-v5.nnue", test_build_dir());
    snprintf(command, sizeof command,
             "test -s '%s' || { cp '%s' '%s.tmp' && printf 'r' | dd of='%s.tmp' bs=1 seek=12 conv=notrunc "
             "status=none && mv '%s.tmp' '%s'; }",
             unknown_v5, net_v5, unknown_v5, unknown_v5, unknown_v5, unknown_v5);
    if (system(command) != 0)
        return 1;
    snprintf(truncated_v1, sizeof truncated_v1, "%s/cli-truncated-v1.nnue", test_build_dir());
    snprintf(command, sizeof command, "head -c 1000000 '%s' > '%s'", net_v1, truncated_v1);
    if (system(command) != 0)
        return 1;
    Suite *s = suite_create("cli_detect");
    TCase *tc = tcase_create("detect");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, known_v4_and_v5_nets_by_sha256);
    tcase_add_test(tc, unknown_shared_hash_file_is_taken_as_v5);
    tcase_add_test(tc, real_ambiguity_is_refused);
    tcase_add_test(tc, truncated_file_is_named_truncated);
    tcase_add_test(tc, installed_copy_finds_its_archs);
    tcase_add_test(tc, raw_nets_without_arch); /* the shared nets: required like the ones above */
    if (access("/usr/games/stockfish", X_OK) == 0) {
        net_sf151 = eval_net_file(eval_net_find("sf151"));
        tcase_add_test(tc, stockfish_15_1_net);
    } else {
        fprintf(stderr, "SKIP (one test): /usr/games/stockfish is not installed (scripts/setup.sh installs it); "
                        "the Stockfish 15.1 net test did not run\n");
    }
    suite_add_tcase(s, tc);
    return test_run(s);
}
