/* core/net/net_centipawns.c: include/nnue.h's centipawns. The rules are data: the architecture's
 * `centipawns:` key (load/arch_centipawns.c), the release nets' own where the YAML leaves it
 * to the release (core/net/known_nets.c), and an architecture's output.scale for raw nets.
 * Facts (docs/units.md; Stockfish's uci.cpp and evaluate.cpp of each release): to_cp(v, pos) of
 * Stockfish 17+ is round(100 * v / a) with a the cubic in m = clamp(material, 17, 78) / 58, and the
 * value its `eval` converts is the big net's psqt / 16 + positional / 16, each truncated. The
 * material of a position is its game's (nnue_game.material: games/chess counts it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch/arch.h"
#include "core/net/known_nets.h"
#include "nnue.h"

static void material_rule(nnue_cp_rule *r, const nnue_arch *arch, const double *a, const char *engine)
{
    const nnue_game *game = arch->game_desc;
    if (!game->material) {
        snprintf(r->why, sizeof r->why, "no material rule for game %s: %s's conversion (%s) counts the material "
                 "of the position, and the game's descriptor has no material hook", game->name, arch->name, engine);
        return;
    }
    r->kind = NNUE_CP_MATERIAL;
    r->game = game;
    memcpy(r->a, a, sizeof r->a);
    snprintf(r->engine, sizeof r->engine, "%s", engine);
}

int nnue_cp_rule_needs_sha256(const nnue_arch *arch)
{
    return arch && arch->centipawns.source == NNUE_CP_FROM_RELEASE;
}

void nnue_cp_rule_for(const nnue_arch *arch, const char *sha, nnue_cp_rule *r)
{
    if (!r)
        return;
    memset(r, 0, sizeof *r);
    if (!arch) {
        snprintf(r->why, sizeof r->why, "no architecture");
        return;
    }
    const nnue_arch_cp *c = &arch->centipawns;
    const known_net *known = sha && strlen(sha) >= 12 ? known_net_find(sha) : NULL;
    switch (c->source) {
    case NNUE_CP_FROM_DIVIDE:
        r->kind = NNUE_CP_DIVIDE;
        r->divisor = c->divisor;
        snprintf(r->engine, sizeof r->engine, "%s", c->engine);
        return;
    case NNUE_CP_FROM_MATERIAL:
        material_rule(r, arch, c->a, c->engine);
        return;
    case NNUE_CP_FROM_RELEASE:
        if (known && known->cp_material && strcmp(known->arch, arch->name) == 0)
            material_rule(r, arch, known->cp_material, known->cp_engine);
        else
            snprintf(r->why, sizeof r->why, "%s", c->why);
        return;
    case NNUE_CP_FROM_NONE:
        snprintf(r->why, sizeof r->why, "%s", c->why);
        return;
    case NNUE_CP_FROM_NOTHING:
        break;
    }
    if (arch->format.kind == NNUE_FORMAT_RAW && arch->output.scale_den != 0)
        r->kind = NNUE_CP_SCALED;
    else
        snprintf(r->why, sizeof r->why, "%s has no conversion checked against its engine", arch->name);
}

int nnue_cp_rule_for_file(const nnue_arch *arch, const char *path, nnue_cp_rule *rule)
{
    char sha[65] = "";
    int failed = nnue_cp_rule_needs_sha256(arch) && (!path || file_sha256_hex(path, sha) != 0);
    nnue_cp_rule_for(arch, failed ? NULL : sha, rule);
    return failed ? -1 : 0;
}

/* The material of the position text as its game counts it: 0, or -1 when the game has no
 * material hook or the text does not parse. */
static int material_of(const nnue_game *game, const char *position, int *material)
{
    if (!game || !game->material)
        return -1;
    void *pos = malloc(game->pos_size);
    nnue_error err;
    int failed = !pos || game->parse(pos, position, &err) != 0;
    if (!failed)
        *material = game->material(game->board(pos));
    free(pos);
    return failed ? -1 : 0;
}

int nnue_cp_convert(const nnue_cp_rule *r, const nnue_eval_detail *d, const char *position, int *cp)
{
    if (!r || !d || !cp)
        return 0;
    switch (r->kind) {
    case NNUE_CP_DIVIDE:
        if (r->divisor == 0)
            return 0;
        *cp = (int)((int64_t)d->total * 100 / r->divisor); /* C++ truncates too */
        return 1;
    case NNUE_CP_SCALED:
        *cp = d->scaled;
        return 1;
    case NNUE_CP_MATERIAL: {
        int material = 58;
        if (position && material_of(r->game, position, &material) != 0)
            return 0;
        double m = (material < 17 ? 17 : material > 78 ? 78 : material) / 58.0;
        double a = ((r->a[0] * m + r->a[1]) * m + r->a[2]) * m + r->a[3];
        int v = d->psqt / 16 + d->positional / 16; /* each term as the engine's network returns it */
        *cp = (int)round(100 * v / a);
        return 1;
    }
    default:
        return 0;
    }
}
