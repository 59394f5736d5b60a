/* tools/centipawns.c: see centipawns.h. Facts (Stockfish's source, uci.cpp and evaluate.cpp of
 * each release): 15.1 prints v * 100 / 361 (NormalizeToPawnValue). From 17 on, to_cp(v, pos) is
 * round(100 * v / a) with a = p_a(m), a cubic in m = clamp(material, 17, 78) / 58, material =
 * pawns + 3 knights + 3 bishops + 5 rooks + 9 queens of both sides; its coefficients are refitted
 * per release (sf_17, sf_17.1, sf_18; master at 762dd1da, whose code evaluates Stockfish 19's net
 * exactly as 19 does, keeps 18's). The value converted by `eval`'s "NNUE evaluation" line is the
 * big net's psqt / 16 + positional / 16, each truncated (network.cpp). Checked against those
 * engines built from source: tests/tools/eval_cp_release.py and its golden table. */
#include "tools/centipawns.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/arch/arch.h"
#include "core/net/known_nets.h"
#include "nnue_chess.h"

cp_rule tool_cp;

static const double sf17_0[] = {-37.45051876, 121.19101539, -132.78783573, 420.70576692};
static const double sf17_1[] = {-13.50030198, 40.92780883, -36.82753545, 386.83004070};
static const double sf18[] = {-72.32565836, 185.93832038, -144.58862193, 416.44950446};

static void material_rule(cp_rule *r, const double *poly, const char *engine)
{
    r->kind = CP_MATERIAL;
    r->a_poly = poly;
    r->engine = engine;
}

void cp_rule_for(const nnue_arch *arch, const char *net_path, cp_rule *r)
{
    char sha[65] = "";
    /* Only SFNNv9's rule depends on the file: read it for its SHA-256 only then. */
    if (strcmp(arch->name, "SFNNv9") == 0 && net_path && file_sha256_hex(net_path, sha) != 0)
        sha[0] = '\0';
    cp_rule_for_sha(arch, sha, r);
}

void cp_rule_for_sha(const nnue_arch *arch, const char *sha, cp_rule *r)
{
    memset(r, 0, sizeof *r);
    const char *name = arch->name;
    if (!sha)
        sha = "";
    if (strcmp(name, "SFNNv5") == 0) {
        r->kind = CP_DIVIDE;
        r->divisor = 361;
        r->engine = "Stockfish 15.1";
    } else if (arch->format.kind == NNUE_FORMAT_RAW && arch->output.scale_den != 0) {
        r->kind = CP_SCALED;
    } else if (strcmp(name, "SFNNv10") == 0) {
        material_rule(r, sf18, "Stockfish 18"); /* the only engine of SFNNv10 nets */
    } else if (strcmp(name, "SFNNv16") == 0) {
        material_rule(r, sf18, "Stockfish 19");
    } else if (strcmp(name, "SFNNv9") == 0 &&
               (strncmp(sha, "1c0000000000", 12) == 0 || strncmp(sha, "1111cefa1111", 12) == 0)) {
        /* Stockfish 17 and 17.1 both ran SFNNv9 nets with different models: their release nets tell. */
        if (sha[0] == '1' && sha[1] == 'c')
            material_rule(r, sf17_1, "Stockfish 17.1");
        else
            material_rule(r, sf17_0, "Stockfish 17");
    } else if (strcmp(name, "SFNNv9") == 0) {
        snprintf(r->why, sizeof r->why, "SFNNv9 nets ran in Stockfish 17 and 17.1, whose conversions differ, and "
                 "this file is neither release's net (nn-1111cefa1111, nn-1c0000000000)");
    } else if (strcmp(name, "SFNNv8-small") == 0) {
        snprintf(r->why, sizeof r->why, "SFNNv8-small nets (the small net nn-37f18f62d772 among them) served "
                 "Stockfish 16.1, 17, 17.1 and 18, whose conversions differ, and no engine's eval prints this "
                 "net's value in centipawns");
    } else {
        snprintf(r->why, sizeof r->why, "%s has no conversion checked against its engine", name);
    }
}

/* Stockfish's material count from a FEN's first field; -1 when there is none. */
static int material_of(const char *fen)
{
    if (strcmp(fen, "startpos") == 0)
        fen = NNUE_CHESS_START_FEN;
    int m = 0;
    for (const char *p = fen; *p && *p != ' '; p++) {
        static const char pieces[] = "pnbrq", weight[] = {1, 3, 3, 5, 9};
        const char *at = strchr(pieces, *p | 0x20);
        if (at && *at)
            m += weight[at - pieces];
    }
    return m;
}

int cp_convert(const cp_rule *r, const nnue_eval_detail *d, const char *position, int *cp)
{
    switch (r->kind) {
    case CP_DIVIDE:
        *cp = d->total * 100 / r->divisor; /* C++ truncates too */
        return 1;
    case CP_SCALED:
        *cp = d->scaled;
        return 1;
    case CP_MATERIAL: {
        int material = position ? material_of(position) : 58;
        double m = (material < 17 ? 17 : material > 78 ? 78 : material) / 58.0;
        const double *as = r->a_poly;
        double a = ((as[0] * m + as[1]) * m + as[2]) * m + as[3];
        int v = d->psqt / 16 + d->positional / 16; /* each term as the engine's network returns it */
        *cp = (int)round(100 * v / a);
        return 1;
    }
    default:
        return 0;
    }
}

void tool_cp_setup(const nnue_net *net, const char *net_path)
{
    cp_rule_for(nnue_net_arch(net), net_path, &tool_cp);
}
