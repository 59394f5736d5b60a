/* base/arch_limits.h: the largest architecture the loader accepts, and saturating arithmetic
 * for computing sizes against those limits (docs/arch-yaml.md, "Limits"). It sits at the
 * bottom (base/, including nothing of the library), so that every folder may size its arrays
 * from the graph's fixed bounds without reaching up into core/arch/ (layers/plan.h).
 *
 * Every size derived from the YAML (values per layer, scratch, parameters, bytes) is computed in
 * 64 bits with saturation, then compared with its limit, so no sum or product can wrap on the
 * way: a saturated value is simply over every limit. Real nets stay far below each one. */
#ifndef NNUE_BASE_ARCH_LIMITS_H
#define NNUE_BASE_ARCH_LIMITS_H

#include <stdint.h>

/* Fixed sizes of the graph (core/arch/arch.h) and of the tables sized by it. */
#define NNUE_MAX_LAYERS 32        /* layers of one stack */
#define NNUE_MAX_LAYER_INPUTS 4   /* inputs of one layer */
#define NNUE_MAX_BLOCKS 32        /* blocks of a raw format */
#define NNUE_NAME_MAX 96          /* an architecture's or a layer's name, with its NUL */
#define NNUE_MAX_FT_SETS 4        /* feature sets of one feature transformer */
#define NNUE_MAX_TENSORS 2        /* tensors a layer keeps per stack (core/arch/layer_weights.h) */

/* Values one layer reads (all inputs together) or writes: SFNNv10's widest is 1024 x 2. */
#define NNUE_MAX_LAYER_VALUES (1u << 20)
/* int32 values of one evaluation's scratch: the network input plus every layer's output. */
#define NNUE_MAX_SCRATCH_VALUES (1u << 22)
/* Feature transformer bytes (weights and PSQT of every set): 2 GiB. */
#define NNUE_MAX_FT_BYTES (2ull << 30)
/* Bytes of the layers after the FT, all stacks together: 1 GiB. */
#define NNUE_MAX_LAYER_BYTES (1ull << 30)
/* The description string (shared inputs are written out at each use): 1 MiB, the largest
 * format 'description_bytes' too. */
#define NNUE_MAX_DESCRIPTION_BYTES (1u << 20)
/* A whole net file (FT + stacks + header and description, or raw padding): 4 GiB. */
#define NNUE_MAX_FILE_BYTES (4ull << 30)

static inline uint64_t nnue_sat_add(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static inline uint64_t nnue_sat_mul(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

#endif
