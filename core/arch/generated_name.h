/* core/arch/generated_name.h: YaneuraOu's generated SFNN architecture names
 * (`SFNN_<feature>_<FT>_<H1>_<H2>[_cC_sSxG][_hand..][_k..][_progressN]`, nnue_arch_gen.py) as a
 * shape: parsing a name, the stack rule of each token, and the check of a net file's
 * description (Network=NAME{LayerStack=N}) against an architecture.
 * Facts: shared/oracle/shogi/yo26/FACTS.md sections 1 (names, descriptions), 3 (the shortcut
 * rule), 4 (the bucket tables) and 5 (common+shard constraints). */
#ifndef NNUE_CORE_ARCH_GENERATED_NAME_H
#define NNUE_CORE_ARCH_GENERATED_NAME_H

#include <stddef.h>
#include <stdint.h>

#include "core/arch/arch.h"

typedef struct nnue_generated_shape {
    uint32_t ft, h1, h2;              /* FT width per side, fc_0's H1, fc_1's outputs */
    uint32_t common, shard, groups;   /* common+shard fc_0 (groups 0: dense) */
    int hand, king;                   /* rule index (nnue_generated_rule), -1: none */
    uint32_t progress;                /* progressN's N, 0: none */
} nnue_generated_shape;

/* A bucket rule of the generator: its token, its buckets per side (the index is
 * single(stm) * per_side + single(other side)) and the single value as a selector expression
 * over one side's shogi variables, '@' standing for "stm" or "nstm". */
typedef struct nnue_generated_rule {
    const char *token;
    uint32_t per_side;
    const char *single;
} nnue_generated_rule;
extern const nnue_generated_rule nnue_generated_hand_rules[]; /* {NULL}-terminated */
extern const nnue_generated_rule nnue_generated_king_rules[]; /* {NULL}-terminated */

/* Parses name[0..len) (any case, '_' or '-' between tokens; "SFNN-1536" is halfkahm2
 * 1536/15/32 k3k3). 0 when it is a valid generated name; -1 with why filled otherwise. */
int nnue_generated_parse(const char *name, size_t len, nnue_generated_shape *shape, char *why, size_t why_size);

/* fc_0 outputs (H1, +1 for the shortcut neuron when H1 % 8 == 7) and layer stacks. */
uint32_t nnue_generated_fc0_outputs(const nnue_generated_shape *shape);
uint64_t nnue_generated_stacks(const nnue_generated_shape *shape);

/* Writes "FT 512, H1 8, H2 32, dense fc_0, hand64z, k3k3, progress8" into buf. */
void nnue_generated_summary(const nnue_generated_shape *shape, char *buf, size_t size);

/* The description of a net file checked against an architecture with format.generated: 0 when
 * the description names no generated architecture (no "Network=SFNN...") or the same shape and
 * stack count; else -1, *at = the offset in the description of the name that differs, why
 * filled. */
int nnue_generated_check_description(const nnue_arch *arch, const char *description, size_t *at, char *why,
                                     size_t why_size);

/* The description YaneuraOu's writer puts in such a file (FACTS.md section 1), into buf;
 * returns its length (like snprintf). */
int nnue_generated_description(const nnue_arch *arch, char *buf, size_t size);

#endif
