/* tools/cmd_convert.c: `nnue convert [--arch A.yaml] --to plain|leb128|self-describing|zstd|unzstd
 * IN OUT`.
 *  - plain / leb128: a Stockfish-format net (also YaneuraOu's HalfKP nn.bin, which has that
 *    layout) with its feature-transformer arrays (biases, weights, PSQT weights) stored
 *    uncompressed or as COMPRESSED_LEB128 blocks (FORMATS.md section 2); everything else is
 *    copied byte for byte, so plain -> leb128 -> plain gives back the same bytes. Needs one
 *    feature set of i16 weights (the threat inputs of SFNNv10 are not converted).
 *  - self-describing: a header-less trainer net with the YAML naming its layout, in one file
 *    (tools/self_describing.h) that loads without --arch.
 *  - zstd / unzstd: the whole file compressed as one zstd frame (as Pikafish ships its nets; the
 *    loader reads both forms) or decompressed, any format.
 * The library writes each encoding (nnue_net_convert_stream, include/nnue_netfile.h). The output
 * goes to a temporary file beside OUT (nnue_atomic_writer_open), is loaded back from it and
 * evaluated on probe positions next to the input (the values must be equal), and only then
 * replaces OUT; on any failure OUT is left as it was and the temporary file is removed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue.h"
#include "tools/commands.h"
#include "tools/tool_args.h"
#include "tools/net_setup.h"
#include "tools/self_describing.h"

/* Evaluates the game's probe positions (its descriptor's) with both nets; returns the number
 * compared, -1 on a difference. */
static int same_evaluations(const nnue_net *a, const nnue_net *b)
{
    const nnue_game *game = nnue_arch_game(nnue_net_arch(a));
    static const char *const none[] = {NULL};
    const char *const *probes = game->probes ? game->probes : none;
    void *pos = calloc(1, game->pos_size);
    nnue_state *sa = nnue_state_new(a, 0), *sb = nnue_state_new(b, 0);
    int n = 0;
    for (int i = 0; probes[i] && pos && sa && sb && n >= 0; i++) {
        nnue_error err;
        if (game->parse(pos, probes[i], &err) != 0)
            continue;
        const nnue_board *board = game->board(pos);
        nnue_eval_detail da, db;
        nnue_state_reset(sa, board);
        nnue_state_reset(sb, board);
        nnue_evaluate(sa, board, &da);
        nnue_evaluate(sb, board, &db);
        n = da.psqt == db.psqt && da.positional == db.positional && da.total == db.total ? n + 1 : -1;
    }
    nnue_state_free(sa);
    nnue_state_free(sb);
    free(pos);
    return n;
}

static int usage(void)
{
    fprintf(stderr, "usage: nnue convert [--arch A.yaml] --to plain|leb128|self-describing|zstd|unzstd IN OUT\n");
    return 2;
}

int cmd_convert(int argc, char **argv)
{
    const char *arch_path = NULL, *to = NULL, *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--arch") == 0)
            arch_path = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--to") == 0)
            to = argv[++i];
        else if (argv[i][0] != '-' && !in)
            in = argv[i];
        else if (argv[i][0] != '-' && !out)
            out = argv[i];
        else {
            static const char *const value_options[] = {"--arch", "--to", NULL};
            tool_bad_argument("convert", argv[i], value_options);
            return usage();
        }
    }
    int self = to && strcmp(to, "self-describing") == 0, to_leb = to && strcmp(to, "leb128") == 0;
    int zstd = !to ? 0 : strcmp(to, "zstd") == 0 ? 1 : strcmp(to, "unzstd") == 0 ? 2 : 0;
    if (!in || !out || !to || !(self || to_leb || zstd || strcmp(to, "plain") == 0))
        return usage();
    if (self && !arch_path) {
        fprintf(stderr, "nnue convert: --to self-describing needs --arch A.yaml (the layout of the header-less net)\n");
        return 2;
    }
    nnue_arch *arch;
    if (tool_load_arch_for("convert", in, arch_path, &arch) != 0)
        return 1;
    nnue_arch_layout layout;
    nnue_arch_layout_get(arch, &layout, sizeof layout);
    if (!self && !zstd && !layout.reencodable) {
        fprintf(stderr, "nnue convert: %s: --to %s needs a Stockfish-format net with one feature set of i16 weights; "
                "architecture %s is not one%s\n", in, to, nnue_arch_name(arch),
                layout.raw ? " (a header-less net: try --to self-describing)" : "");
        if (layout.feature_sets > 1) /* Stockfish 18 and 19: why, and what to do instead */
            fprintf(stderr, "nnue convert: %s has %d feature sets (threat inputs of i8 weights beside i16 ones), stored "
                    "in Stockfish's own mixed encoding, which the tool reads but does not rewrite: use the file as it "
                    "is; every command loads it (docs/tool.md, Converting nets)\n", nnue_arch_name(arch),
                    layout.feature_sets);
        nnue_arch_free(arch);
        return 1;
    }
    nnue_error err;
    nnue_atomic_writer *af;
    if (nnue_atomic_writer_open(out, &af, &err) != NNUE_OK) {
        tool_print_error("convert", &err);
        nnue_arch_free(arch);
        return 1;
    }
    const char *tmp = nnue_atomic_writer_temp_path(af);
    nnue_net_encoding enc = self          ? NNUE_WRITE_SELF_DESCRIBING
                            : zstd == 1   ? NNUE_WRITE_ZSTD
                            : zstd == 2   ? NNUE_WRITE_UNZSTD
                            : to_leb      ? NNUE_WRITE_LEB128
                                          : NNUE_WRITE_PLAIN;
    int rc = 0;
    if (nnue_net_convert_stream(arch, in, enc, self ? arch_path : NULL, nnue_atomic_writer_stream(af), tmp, &err) !=
        NNUE_OK) {
        tool_print_error("convert", &err);
        rc = 1;
    }
    /* The bytes are flushed: load them back from the temporary file before it replaces OUT. */
    nnue_net *before = NULL, *after = NULL;
    if (!rc)
        rc = tool_load_net_with("convert", in, arch, &before);
    if (!rc)
        rc = self ? tool_load_net("convert", tmp, NULL, &after) : tool_load_net_with("convert", tmp, arch, &after);
    int compared = rc ? 0 : same_evaluations(before, after);
    if (!rc && compared <= 0) {
        fprintf(stderr, "nnue convert: %s evaluates differently from %s after conversion (a bug: please report)\n",
                tmp, in);
        rc = 1;
    }
    if (rc) {
        nnue_atomic_writer_abort(af);
    } else if (nnue_atomic_writer_commit(af, &err) != NNUE_OK) {
        tool_print_error("convert", &err);
        rc = 1;
    } else {
        printf("wrote %s (%s, architecture %s): loaded back, %d probe positions evaluate as the input\n", out, to,
               nnue_arch_name(arch), compared);
    }
    nnue_net_free(before);
    nnue_net_free(after);
    nnue_arch_free(arch);
    return rc;
}
