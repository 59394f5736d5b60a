/* load/arch_centipawns.c: the `centipawns:` section of an architecture YAML
 * (docs/arch-yaml.md): how the net's own engine prints its values in centipawns, as data of the
 * architecture (core/net/net_centipawns.c applies it). Exactly one rule:
 *   divide: N          cp = total * 100 / N, truncated (Stockfish 15.1: 361)
 *   material: [a0..a3] Stockfish 17+'s model (docs/units.md), with `engine` naming whose
 *   release: "why"     only a known release net tells (its SHA-256, core/net/known_nets.c); why
 *                      there is none for any other file
 *   none: "why"        no conversion on purpose, and why
 * plus `engine:` (whose conversion, for divide and material). */
#include <math.h>
#include <stdlib.h>

#include "load/load.h"

Y_INT_FIELD(read_divide, nnue_arch_cp, c->divisor, 1, 1 << 20, "centipawns 'divide'")

static nnue_status read_engine(yreader *r, yaml_node_t *v, void *t)
{
    return y_string(r, v, ((nnue_arch_cp *)t)->engine, sizeof ((nnue_arch_cp *)t)->engine, "centipawns 'engine'");
}

static nnue_status read_material(yreader *r, yaml_node_t *v, void *t)
{
    nnue_arch_cp *cp = t;
    int n;
    nnue_status st = y_seq(r, v, &n, "centipawns 'material'");
    if (st == NNUE_OK && n != 4)
        return y_fail(r, v, NNUE_E_SCHEMA, "centipawns 'material': expected 4 coefficients (a0, a1, a2, a3), found %d",
                      n);
    for (int i = 0; st == NNUE_OK && i < 4; i++) {
        yaml_node_t *item = y_item(r, v, i);
        const char *text = item && item->type == YAML_SCALAR_NODE ? (const char *)item->data.scalar.value : "";
        char *end = NULL;
        double d = strtod(text, &end);
        if (end == text || *end || !isfinite(d))
            return y_fail(r, item ? item : v, NNUE_E_SCHEMA, "centipawns 'material': expected a finite number, found '%s'", text);
        cp->a[i] = d;
    }
    return st;
}

static nnue_status read_release(yreader *r, yaml_node_t *v, void *t)
{
    return y_string(r, v, ((nnue_arch_cp *)t)->why, sizeof ((nnue_arch_cp *)t)->why, "centipawns 'release'");
}

static nnue_status read_none(yreader *r, yaml_node_t *v, void *t)
{
    return y_string(r, v, ((nnue_arch_cp *)t)->why, sizeof ((nnue_arch_cp *)t)->why, "centipawns 'none'");
}

static const yfield cp_fields[] = {
    {"engine", 0, read_engine},
    {"divide", 0, read_divide},
    {"material", 0, read_material},
    {"release", 0, read_release},
    {"none", 0, read_none},
    {NULL, 0, NULL},
};

nnue_status nnue_arch_read_centipawns(yreader *r, yaml_node_t *v, nnue_arch_cp *cp)
{
    nnue_status st = y_map(r, v, cp_fields, cp, "centipawns");
    if (st != NNUE_OK)
        return st;
    static const char *const rules[] = {"divide", "material", "release", "none"};
    static const nnue_cp_source sources[] = {NNUE_CP_FROM_DIVIDE, NNUE_CP_FROM_MATERIAL, NNUE_CP_FROM_RELEASE,
                                             NNUE_CP_FROM_NONE};
    int found = 0;
    for (int i = 0; i < 4; i++)
        if (y_lookup(r, v, rules[i])) {
            found++;
            cp->source = sources[i];
        }
    if (found != 1)
        return y_fail(r, v, NNUE_E_SCHEMA, "centipawns: expected exactly one of 'divide', 'material', 'release', "
                      "'none', found %d", found);
    int with_engine = cp->source == NNUE_CP_FROM_DIVIDE || cp->source == NNUE_CP_FROM_MATERIAL;
    if (with_engine != (cp->engine[0] != 0))
        return y_fail(r, v, NNUE_E_SCHEMA, with_engine ? "centipawns: expected 'engine' (whose conversion it is)"
                                                       : "centipawns: 'engine' goes with 'divide' or 'material' only");
    return NNUE_OK;
}
