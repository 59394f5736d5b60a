/* load/arch_generated.c: an architecture from YaneuraOu's generated name alone
 * (`SFNN_halfkahm2_512_8_32_hand64z_k3k3_progress8`, ...): the name's shape
 * (core/arch/generated_name.h) written out as the YAML a person would write
 * (archs/shogi_sfnn_progress8.yaml and archs/shogi_sfnn_shard.yaml are two of them), then loaded
 * like any YAML. Facts: shared/oracle/shogi/yo26/FACTS.md sections 1-6: HalfKA_hm2 features,
 * pairwise FT (clip 127, >> 7), fc_0 (dense or common+shard) with a shortcut neuron when
 * H1 % 8 == 7, squared and clipped ReLU concatenated, fc_1 to H2, clipped ReLU, fc_2, FV_SCALE 16,
 * the eval clamped to +-31753 (VALUE_MAX_EVAL);
 * stack index (hand * king_count + king) * progress_count + progress bucket. */
#include <stdio.h>
#include <string.h>

#include "core/arch/arch_api.h"
#include "core/arch/generated_name.h"
#include "load/load.h"
#include "base/error.h"
#include "nnue.h"

/* rule->single for one side: '@' becomes side. */
static int put_single(char *buf, size_t size, const char *single, const char *side)
{
    int n = 0;
    for (const char *p = single; *p && (size_t)n + 8 < size; p++)
        n += *p == '@' ? snprintf(buf + n, size - (size_t)n, "%s", side) : (buf[n] = *p, buf[n + 1] = 0, 1);
    return n;
}

/* "(single(stm)) * per_side + (single(nstm))" */
static int put_pair(char *buf, size_t size, const nnue_generated_rule *r)
{
    int n = snprintf(buf, size, "((");
    n += put_single(buf + n, size - (size_t)n, r->single, "stm");
    n += snprintf(buf + n, size - (size_t)n, ") * %u + (", r->per_side);
    n += put_single(buf + n, size - (size_t)n, r->single, "nstm");
    return n + snprintf(buf + n, size - (size_t)n, "))");
}

/* The stack selector of a shape; "" for one stack. */
static void selector(const nnue_generated_shape *s, char *buf, size_t size)
{
    uint32_t kings = s->king >= 0 ? nnue_generated_king_rules[s->king].per_side : 1;
    uint32_t progress = s->progress ? s->progress : 1;
    int n = 0;
    buf[0] = 0;
    if (s->hand >= 0) {
        n += put_pair(buf + n, size - (size_t)n, &nnue_generated_hand_rules[s->hand]);
        if (kings * kings * progress > 1)
            n += snprintf(buf + n, size - (size_t)n, " * %u", kings * kings * progress);
    }
    if (s->king >= 0) {
        n += snprintf(buf + n, size - (size_t)n, "%s", n ? " + " : "");
        n += put_pair(buf + n, size - (size_t)n, &nnue_generated_king_rules[s->king]);
        if (progress > 1)
            n += snprintf(buf + n, size - (size_t)n, " * %u", progress);
    }
    if (s->progress)
        snprintf(buf + n, size - (size_t)n, "%sprogress * %u / 256", n ? " + " : "", s->progress);
}

int nnue_arch_generated_yaml(const char *name, char *buf, size_t size, nnue_error *err)
{
    nnue_generated_shape s;
    char why[200], sel[1200];
    if (nnue_generated_parse(name, strlen(name), &s, why, sizeof why) != 0) {
        nnue_fail(err, NNUE_E_ARG, "'%s' is not a generated architecture name: %s", name, why);
        return -1;
    }
    uint64_t stacks = nnue_generated_stacks(&s);
    uint32_t o0 = nnue_generated_fc0_outputs(&s);
    int shortcut = o0 != s.h1;
    selector(&s, sel, sizeof sel);
    int n = snprintf(buf, size,
                     "# YaneuraOu's generated SFNN architecture %s (load/arch_generated.c).\n"
                     "name: %s\ngame: shogi\n"
                     "format:\n  kind: stockfish\n  version: 0x7AF32F16\n  leb128: true\n"
                     "  hashes: {ft: 0x5F134AB8, network: 0x6333718A}\n  generated: %s\n"
                     "feature_transformer:\n  features: HalfKA_hm2_shogi\n  width: %u\n"
                     "  activation: {type: pairwise, max: 127, shift: 7}\n"
                     "stacks:\n  count: %llu\n%s%s%s"
                     "layers:\n",
                     name, name, name, s.ft, (unsigned long long)stacks, sel[0] ? "  selector: >-\n    " : "", sel,
                     sel[0] ? "\n" : "");
    if (s.groups)
        n += snprintf(buf + n, size - (size_t)n,
                      "  - {name: fc0, type: affine_shard, outputs: %u, common: %u, shard: %u, groups: %u}\n", o0,
                      s.common, s.shard, s.groups);
    else
        n += snprintf(buf + n, size - (size_t)n, "  - {name: fc0, type: affine_sparse, outputs: %u}\n", o0);
    const char *main = shortcut ? "fc0_main" : "fc0";
    if (shortcut)
        n += snprintf(buf + n, size - (size_t)n,
                      "  - {name: fc0_main, type: slice, input: fc0, offset: 0, size: %u}\n"
                      "  - {name: fc0_skip, type: slice, input: fc0, offset: %u, size: 1}\n",
                      s.h1, s.h1);
    n += snprintf(buf + n, size - (size_t)n,
                  "  - {name: ac0_sqr, type: sqr_crelu, input: %s}\n  - {name: ac0, type: crelu, input: %s}\n"
                  "  - {name: ac0_both, type: concat, inputs: [ac0_sqr, ac0]}\n"
                  "  - {name: fc1, type: affine, outputs: %u}\n  - {name: ac1, type: crelu}\n"
                  "  - {name: fc2, type: affine, outputs: 1}\n",
                  main, main, s.h2);
    if (shortcut)
        n += snprintf(buf + n, size - (size_t)n,
                      "  - {name: out, type: skip, inputs: [fc2, fc0_skip], scale: [1, 1]}\n");
    n += snprintf(buf + n, size - (size_t)n, "output:\n  divisor: 16\n  clamp: 31753\n");
    if ((size_t)n >= size) {
        nnue_fail(err, NNUE_E_ARG, "'%s': the architecture text needs %d bytes, more than %zu", name, n, size);
        return -1;
    }
    return n;
}

int nnue_arch_is_generated_name(const char *name)
{
    nnue_generated_shape s;
    char why[8];
    return name && nnue_generated_parse(name, strlen(name), &s, why, sizeof why) == 0;
}

nnue_status nnue_arch_load_generated(const char *name, nnue_arch **out, nnue_error *err)
{
    char text[4096], label[NNUE_NAME_MAX + 32];
    if (out)
        *out = NULL;
    if (!name || !out)
        return nnue_fail(err, NNUE_E_ARG, "nnue_arch_load_generated: expected a name and an output pointer");
    int n = nnue_arch_generated_yaml(name, text, sizeof text, err);
    if (n < 0)
        return err ? err->code : NNUE_E_ARG;
    snprintf(label, sizeof label, "generated %s", name);
    return nnue_arch_load_string(text, (size_t)n, label, out, err);
}
